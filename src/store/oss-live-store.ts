/**
 * The live open-source layer in the database (issue 45): what `sources refresh` writes and every
 * instance reads. SQLite (the default, one file) and PostgreSQL (several instances) implement one
 * interface; each source is written in one transaction, so a refresh cut short leaves every
 * source either as it was or as refreshed, never half-written.
 */
import type { LiveRow } from '../domain/oss/live.js';
import type { Db } from './db.js';
import type { PgPool, withTransaction as WithTransaction } from './pg.js';

/** ./pg.js's withTransaction, imported on first use: a server on SQLite never loads the PostgreSQL driver (~50 ms of its start). */
const withTransaction: typeof WithTransaction = async (pool, fn) => (await import('./pg.js')).withTransaction(pool, fn);

/** One source's state: the files it last gave (JSON of the layer's meta.sources entries), the commit and when, its last failure. */
export interface LiveSourceState {
  id: string;
  /** Its place in the sources file (the document lists sources in this order). */
  position: number;
  /** Still named by the sources file. */
  listed: boolean;
  /** meta.sources entries of its last successful read (null until one succeeds). */
  files: unknown[] | null;
  commit: string | null;
  read_at: string | null;
  attempted_at: string;
  /** Why the last attempt failed (null when it succeeded). */
  error: string | null;
}

export interface LiveRun {
  run: number;
  started_at: string;
  finished_at: string;
  sources_ok: number;
  sources_attempted: number;
  failed: { id: string; reason: string }[];
}

export interface LiveLayerSnapshot {
  sources: LiveSourceState[];
  /** Every record, gone ones included, by source position then record position. */
  rows: (LiveRow<unknown> & { source_id: string })[];
  run: LiveRun;
}

export interface OssLiveStore {
  /** A source's rows (gone ones included), in position order. */
  sourceRows(sourceId: string): Promise<LiveRow<unknown>[]>;
  /** All source states. */
  sources(): Promise<LiveSourceState[]>;
  /** One transaction: the source's state and its rows replace what was stored. */
  saveSource(state: LiveSourceState, rows: readonly LiveRow<unknown>[]): Promise<void>;
  /** One transaction: a failed attempt is recorded; the files and rows stay as they were. */
  recordFailure(id: string, position: number, attemptedAt: string, error: string): Promise<void>;
  /** Records a finished refresh run; returns its number. */
  saveRun(run: Omit<LiveRun, 'run'>): Promise<number>;
  /** The latest run's number (0: never refreshed). */
  latestRun(): Promise<number>;
  /** The whole layer as of the latest run; null when never refreshed. */
  snapshot(): Promise<LiveLayerSnapshot | null>;
  /**
   * Runs fn while holding the refresh lock (PostgreSQL: an advisory lock, so instances sharing a
   * database refresh once); null without running fn when another process holds it.
   */
  withRefreshLock<T>(fn: () => Promise<T>): Promise<T | null>;
  close(): Promise<void>;
}

interface SourceRow {
  id: string;
  position: number;
  listed: number;
  files: string | null;
  commit_read: string | null;
  read_at: string | null;
  attempted_at: string;
  error: string | null;
}
interface RecordRow {
  id: string;
  source_id: string;
  position: number;
  doc: string;
  first_seen: string;
  last_seen: string;
  gone: number;
  gone_since: string | null;
}
interface RunRow {
  run: number;
  started_at: string;
  finished_at: string;
  sources_ok: number;
  sources_attempted: number;
  failed: string;
}

const sourceOf = (r: SourceRow): LiveSourceState => ({
  id: r.id,
  position: Number(r.position),
  listed: Number(r.listed) === 1,
  files: r.files === null ? null : (JSON.parse(r.files) as unknown[]),
  commit: r.commit_read,
  read_at: r.read_at,
  attempted_at: r.attempted_at,
  error: r.error,
});
const rowOf = (r: RecordRow): LiveRow<unknown> & { source_id: string } => ({
  id: r.id,
  source_id: r.source_id,
  position: Number(r.position),
  record: JSON.parse(r.doc) as unknown,
  first_seen: r.first_seen,
  last_seen: r.last_seen,
  gone: Number(r.gone) === 1,
  gone_since: r.gone_since,
});
const runOf = (r: RunRow): LiveRun => ({ ...r, run: Number(r.run), sources_ok: Number(r.sources_ok), sources_attempted: Number(r.sources_attempted), failed: JSON.parse(r.failed) as LiveRun['failed'] });

const SNAPSHOT_ROWS = 'SELECT r.* FROM oss_live_records r JOIN oss_live_sources s ON s.id = r.source_id ORDER BY s.position, s.id, r.position';

/** The layer as of the latest run (null: never refreshed), read in one transaction: a refresh writing meanwhile is seen whole or not at all. */
export function sqliteLiveSnapshot(db: Db): LiveLayerSnapshot | null {
  return db.transaction(() => {
    const run = db.prepare('SELECT run, started_at, finished_at, sources_ok, sources_attempted, failed FROM oss_live_runs ORDER BY run DESC LIMIT 1').get() as RunRow | undefined;
    if (!run) return null;
    return {
      sources: (db.prepare('SELECT * FROM oss_live_sources ORDER BY position, id').all() as SourceRow[]).map(sourceOf),
      rows: (db.prepare(SNAPSHOT_ROWS).all() as RecordRow[]).map(rowOf),
      run: runOf(run),
    };
  })();
}

/** The SQLite store (the server's database file; migrations applied by openDb). */
export function sqliteOssLiveStore(db: Db): OssLiveStore {
  const saveSource = db.transaction((state: LiveSourceState, rows: readonly LiveRow<unknown>[]) => {
    db.prepare(
      `INSERT INTO oss_live_sources (id, position, listed, files, commit_read, read_at, attempted_at, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET position = excluded.position, listed = excluded.listed, files = excluded.files, commit_read = excluded.commit_read,
         read_at = excluded.read_at, attempted_at = excluded.attempted_at, error = excluded.error`,
    ).run(state.id, state.position, state.listed ? 1 : 0, state.files === null ? null : JSON.stringify(state.files), state.commit, state.read_at, state.attempted_at, state.error);
    db.prepare('DELETE FROM oss_live_records WHERE source_id = ?').run(state.id);
    const ins = db.prepare('INSERT INTO oss_live_records (id, source_id, position, doc, first_seen, last_seen, gone, gone_since) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    for (const r of rows) ins.run(r.id, state.id, r.position, JSON.stringify(r.record), r.first_seen, r.last_seen, r.gone ? 1 : 0, r.gone_since);
  });
  const recordFailure = db.transaction((id: string, position: number, attemptedAt: string, error: string) => {
    db.prepare(
      `INSERT INTO oss_live_sources (id, position, listed, files, commit_read, read_at, attempted_at, error) VALUES (?, ?, 1, NULL, NULL, NULL, ?, ?)
       ON CONFLICT (id) DO UPDATE SET position = excluded.position, listed = 1, attempted_at = excluded.attempted_at, error = excluded.error`,
    ).run(id, position, attemptedAt, error);
  });
  const latest = () => (db.prepare('SELECT run, started_at, finished_at, sources_ok, sources_attempted, failed FROM oss_live_runs ORDER BY run DESC LIMIT 1').get() as RunRow | undefined) ?? null;
  let locked = false;
  return {
    sourceRows: async (id) => (db.prepare('SELECT * FROM oss_live_records WHERE source_id = ? ORDER BY position').all(id) as RecordRow[]).map(rowOf),
    sources: async () => (db.prepare('SELECT * FROM oss_live_sources ORDER BY position, id').all() as SourceRow[]).map(sourceOf),
    saveSource: async (state, rows) => saveSource(state, rows),
    recordFailure: async (id, position, at, error) => recordFailure(id, position, at, error),
    saveRun: async (run) => {
      const r = db
        .prepare('INSERT INTO oss_live_runs (run, started_at, finished_at, sources_ok, sources_attempted, failed) VALUES ((SELECT COALESCE(MAX(run), 0) + 1 FROM oss_live_runs), ?, ?, ?, ?, ?) RETURNING run')
        .get(run.started_at, run.finished_at, run.sources_ok, run.sources_attempted, JSON.stringify(run.failed)) as { run: number };
      return r.run;
    },
    latestRun: async () => latest()?.run ?? 0,
    snapshot: async () => sqliteLiveSnapshot(db),
    // One process at a time per handle; SQLite's own write lock serialises the transactions of several.
    withRefreshLock: async (fn) => {
      if (locked) return null;
      locked = true;
      try {
        return await fn();
      } finally {
        locked = false;
      }
    },
    close: async () => {},
  };
}

/** Advisory lock key of `sources refresh` (instances sharing a database refresh once). */
export const REFRESH_LOCK_KEY = 0x72706f73;

/** The PostgreSQL store (migrations applied by migratePg). */
export function pgOssLiveStore(pool: PgPool): OssLiveStore {
  const latest = async () => (await pool.query<RunRow>('SELECT run, started_at, finished_at, sources_ok, sources_attempted, failed FROM oss_live_runs ORDER BY run DESC LIMIT 1')).rows[0] ?? null;
  return {
    sourceRows: async (id) => (await pool.query<RecordRow>('SELECT * FROM oss_live_records WHERE source_id = $1 ORDER BY position', [id])).rows.map(rowOf),
    sources: async () => (await pool.query<SourceRow>('SELECT * FROM oss_live_sources ORDER BY position, id')).rows.map(sourceOf),
    saveSource: (state, rows) =>
      withTransaction(pool, async (c) => {
        await c.query(
          `INSERT INTO oss_live_sources (id, position, listed, files, commit_read, read_at, attempted_at, error) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
           ON CONFLICT (id) DO UPDATE SET position = excluded.position, listed = excluded.listed, files = excluded.files, commit_read = excluded.commit_read,
             read_at = excluded.read_at, attempted_at = excluded.attempted_at, error = excluded.error`,
          [state.id, state.position, state.listed ? 1 : 0, state.files === null ? null : JSON.stringify(state.files), state.commit, state.read_at, state.attempted_at, state.error],
        );
        await c.query('DELETE FROM oss_live_records WHERE source_id = $1', [state.id]);
        for (let i = 0; i < rows.length; i += 200) {
          const chunk = rows.slice(i, i + 200);
          const values: unknown[] = [];
          const marks = chunk.map((r, j) => {
            values.push(r.id, state.id, r.position, JSON.stringify(r.record), r.first_seen, r.last_seen, r.gone ? 1 : 0, r.gone_since);
            const b = j * 8;
            return `($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}, $${b + 6}, $${b + 7}, $${b + 8})`;
          });
          await c.query(`INSERT INTO oss_live_records (id, source_id, position, doc, first_seen, last_seen, gone, gone_since) VALUES ${marks.join(', ')}`, values);
        }
      }),
    recordFailure: async (id, position, at, error) => {
      await pool.query(
        `INSERT INTO oss_live_sources (id, position, listed, files, commit_read, read_at, attempted_at, error) VALUES ($1, $2, 1, NULL, NULL, NULL, $3, $4)
         ON CONFLICT (id) DO UPDATE SET position = excluded.position, listed = 1, attempted_at = excluded.attempted_at, error = excluded.error`,
        [id, position, at, error],
      );
    },
    saveRun: async (run) =>
      withTransaction(pool, async (c) => {
        // Serialised by the refresh lock; the table lock guards a run saved without it.
        await c.query('LOCK TABLE oss_live_runs IN EXCLUSIVE MODE');
        const r = await c.query<{ run: number }>(
          'INSERT INTO oss_live_runs (run, started_at, finished_at, sources_ok, sources_attempted, failed) VALUES ((SELECT COALESCE(MAX(run), 0) + 1 FROM oss_live_runs), $1, $2, $3, $4, $5) RETURNING run',
          [run.started_at, run.finished_at, run.sources_ok, run.sources_attempted, JSON.stringify(run.failed)],
        );
        return Number(r.rows[0].run);
      }),
    latestRun: async () => Number((await latest())?.run ?? 0),
    snapshot: () =>
      withTransaction(pool, async (c) => {
        await c.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
        const run = (await c.query<RunRow>('SELECT run, started_at, finished_at, sources_ok, sources_attempted, failed FROM oss_live_runs ORDER BY run DESC LIMIT 1')).rows[0];
        if (!run) return null;
        const sources = (await c.query<SourceRow>('SELECT * FROM oss_live_sources ORDER BY position, id')).rows.map(sourceOf);
        const rows = (await c.query<RecordRow>(SNAPSHOT_ROWS)).rows.map(rowOf);
        return { sources, rows, run: runOf(run) };
      }),
    withRefreshLock: async (fn) => {
      const client = await pool.connect();
      try {
        const got = (await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [REFRESH_LOCK_KEY])).rows[0].ok;
        if (!got) return null;
        try {
          return await fn();
        } finally {
          await client.query('SELECT pg_advisory_unlock($1)', [REFRESH_LOCK_KEY]);
        }
      } finally {
        client.release();
      }
    },
    close: async () => {},
  };
}
