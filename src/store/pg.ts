/**
 * PostgreSQL connection for the shared ledger (several instances on one database):
 * a node-postgres pool, the migration history of migrations.ts applied under an advisory lock
 * (instances starting together cannot race: the second waits, then finds nothing to do), and
 * the dataset-version handshake (every instance on one database serves the same catalogue).
 *
 * Driver failures (server down, connection cut, pool exhausted) become
 * DomainError('store_unavailable') (503) at the store boundary; the pool opens fresh
 * connections on the next call, so the service recovers on its own once the server is back.
 */
import pg from 'pg';
import { DomainError } from '../domain/shared/errors.js';
import { MIGRATIONS, migrationSql } from './migrations.js';

export type PgPool = pg.Pool;
export type PgClient = pg.PoolClient;

/** Session advisory lock held while migrating (an arbitrary constant: "rpmc" in ASCII). */
export const MIGRATION_LOCK_KEY = 0x72706d63;

/** int8 (COUNT, SUM, BIGINT ids and epoch milliseconds) as a JS number; every value we store is far below 2^53. */
const types = {
  getTypeParser(oid: number, format?: string) {
    if (oid === 20 || oid === 1700) return (v: string) => (v === null ? null : Number(v));
    return (pg.types.getTypeParser as (o: number, f?: string) => unknown)(oid, format);
  },
} as unknown as pg.CustomTypesConfig;

export interface PgPoolOptions {
  /** Connections per instance (default 10). */
  max?: number;
  /** How long a call waits for a free pooled connection before store_unavailable (default 30 s; a database that refuses connections fails at once). */
  connectionTimeoutMillis?: number;
  onError?: (err: Error) => void;
}

export function createPgPool(url: string, opts: PgPoolOptions = {}): PgPool {
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 10,
    connectionTimeoutMillis: opts.connectionTimeoutMillis ?? 30_000,
    idleTimeoutMillis: 30_000,
    types,
    application_name: 'robot-parts-mcp',
    // Every connection commits synchronously (a debit is on the server's disk before it is
    // answered), whatever the server's postgresql.conf says: set at connection start, read back
    // at start-up (checkDurability) and by /healthz.
    options: '-c synchronous_commit=on',
  });
  // An idle client whose connection dies emits 'error' on the pool; unhandled, it would
  // crash the process. The pool drops that client and connects anew on the next checkout.
  pool.on('error', (err) => opts.onError?.(err));
  return pool;
}

/** The URL with any password replaced, for logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://(unparseable URL)';
  }
}

/** SQLSTATE classes meaning "the server or the connection is not usable right now". */
function isAvailabilityFailure(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (err instanceof pg.DatabaseError) {
    return typeof code === 'string' && /^(08|53|57|58)/.test(code);
  }
  // Socket-level and pool errors carry no SQLSTATE: a system error code, or node-postgres' own messages.
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return true; // ECONNREFUSED, ECONNRESET, ETIMEDOUT, ENOTFOUND, EPIPE, ...
  return /connection terminated|timeout exceeded when trying to connect|connection error|not queryable|after calling end on the pool|terminating connection/i.test(
    err.message,
  );
}

/**
 * Maps a failure at the store boundary: DomainError and programming errors pass through,
 * database-side errors other than availability pass through (they are bugs: 500), the rest
 * becomes store_unavailable.
 */
export function storeError(err: unknown): unknown {
  if (err instanceof DomainError || err instanceof RangeError || err instanceof TypeError) return err;
  if (isAvailabilityFailure(err)) {
    return new DomainError('store_unavailable', 'The account store is unavailable; try again shortly.', { store: 'postgres' });
  }
  return err;
}

/** Runs `fn` in one transaction on one pooled connection; rolls back on any failure. */
export async function withTransaction<T>(pool: PgPool, fn: (c: PgClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const out = await fn(client);
    await client.query('COMMIT');
    return out;
  } catch (err) {
    try {
      await client.query('ROLLBACK');
    } catch (e) {
      broken = e as Error; // the connection is gone: drop it instead of returning it to the pool
    }
    throw err;
  } finally {
    client.release(broken);
  }
}

export interface PgMigrationResult {
  applied: number;
  version: number;
}

/**
 * Applies pending migrations (each in its own transaction) while holding a session advisory
 * lock. Refuses a database migrated by a newer build (unknown versions).
 */
export async function migratePg(pool: PgPool): Promise<PgMigrationResult> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
      const rows = (await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows;
      const applied = new Set(rows.map((r) => r.version));
      const known = new Set(MIGRATIONS.map((m) => m.version));
      const unknown = [...applied].filter((v) => !known.has(v)).sort((a, b) => a - b);
      if (unknown.length > 0) {
        throw new Error(
          `the database has schema migrations this build does not know (${unknown.join(', ')}): it was migrated by a newer robot-parts-mcp; upgrade this instance`,
        );
      }
      let count = 0;
      for (const m of MIGRATIONS) {
        if (applied.has(m.version)) continue;
        await client.query('BEGIN');
        try {
          await client.query(migrationSql(m, 'pg'));
          await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
            m.version,
            m.name,
            new Date().toISOString(),
          ]);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK').catch(() => {});
          throw new Error(`migration ${m.version} (${m.name}) failed on PostgreSQL: ${(err as Error).message}`);
        }
        count++;
      }
      return { applied: count, version: Math.max(0, ...MIGRATIONS.map((m) => m.version)) };
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch((e: Error) => {
        broken = e;
      });
    }
  } finally {
    client.release(broken);
  }
}

/**
 * The dataset handshake: the first instance records its catalogue's dataset version in the
 * database; an instance with another version refuses to start (answers would differ by the
 * instance the balancer picks). `adopt` replaces the recorded version (an operator moving
 * the whole fleet to a new dataset, with every old instance stopped).
 */
export async function checkDatasetVersion(pool: PgPool, version: string, adopt = false): Promise<{ recorded: string; adopted: boolean }> {
  return withTransaction(pool, async (c) => {
    await c.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    const row = (await c.query<{ value: string }>("SELECT value FROM catalogue_meta WHERE key = 'dataset_version'")).rows[0];
    if (!row) {
      await c.query("INSERT INTO catalogue_meta (key, value) VALUES ('dataset_version', $1)", [version]);
      return { recorded: version, adopted: false };
    }
    if (row.value === version) return { recorded: version, adopted: false };
    if (adopt) {
      await c.query("UPDATE catalogue_meta SET value = $1 WHERE key = 'dataset_version'", [version]);
      return { recorded: version, adopted: true };
    }
    throw new Error(
      `dataset version mismatch: this instance serves dataset ${version} but the shared database records ${row.value}; ` +
        'every instance on one database must serve the same data/. Deploy the same dataset, or, to move every instance to ' +
        'this one, stop the instances serving the old dataset and start this one with --adopt-dataset (env ROBOT_PARTS_ADOPT_DATASET=1)',
    );
  });
}

export interface StoreHealth {
  backend: 'sqlite' | 'postgres';
  reachable: boolean;
  /** Highest applied migration, null when unreachable. */
  migration_version: number | null;
  /** SQLite: the journal mode in force (wal; memory for ':memory:'). */
  journal_mode?: string;
  /** SQLite: the synchronous level in force (full unless configured otherwise). */
  synchronous?: string;
  /** PostgreSQL: synchronous_commit in force on the connection that answered (on), null when unreachable. */
  synchronous_commit?: string | null;
  /** Why the store is unreachable (never credentials). */
  error?: string;
}

export async function pgHealth(pool: PgPool): Promise<StoreHealth> {
  try {
    const r = await pool.query<{ v: number | null; sc: string }>("SELECT MAX(version) AS v, current_setting('synchronous_commit') AS sc FROM schema_migrations");
    return { backend: 'postgres', reachable: true, migration_version: r.rows[0]?.v ?? null, synchronous_commit: r.rows[0]?.sc ?? null };
  } catch (err) {
    return { backend: 'postgres', reachable: false, migration_version: null, synchronous_commit: null, error: (err as Error).message };
  }
}

/** Refuses a pool whose connections do not commit synchronously (synchronous_commit read back). */
export async function checkDurability(pool: PgPool): Promise<void> {
  const sc = (await pool.query<{ sc: string }>("SELECT current_setting('synchronous_commit') AS sc")).rows[0]?.sc;
  if (sc !== 'on') throw new Error(`synchronous_commit is ${sc ?? 'unknown'} on this connection after setting it to on`);
}
