/**
 * robot-parts-mcp sources refresh --sources FILE [--db FILE | --pg URL] [--mirror DIR] [--git-time-ms N]
 * robot-parts-mcp sources status [--db FILE | --pg URL]
 *
 * The operator's side of the live open-source layer (issue 45): refresh reads every source of
 * the file into the database (one transaction per source; instances sharing PostgreSQL refresh
 * once, under an advisory lock); status prints what the database holds. This process does the
 * fetching and extracting: a serving instance never fetches a URL (its --refresh-every runs this
 * command as a child process and reloads the layer it wrote).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_FETCH_LIMITS, gitFetcher, mirrorFetcher } from './ingest/oss/fetch.js';
import { liveDocument, refreshSources } from './ingest/oss/refresh.js';
import { readSourcesFile, SourcesFileError } from './ingest/oss/sources-file.js';
import type { OssLiveStore } from './store/oss-live-store.js';

export const SOURCES_HELP = `Usage:
  robot-parts-mcp sources refresh --sources <file> [--db <file> | --pg <url>] [--mirror <dir>] [--git-time-ms <n>]
  robot-parts-mcp sources status [--db <file> | --pg <url>]

refresh: fetches every source of the sources file (git, shallow; file:// and local paths work),
  runs the extractors and writes the open-source layer into the database, one transaction per
  source. Records keep first_seen, move last_seen; records no longer produced are marked gone; a
  source that fails keeps its earlier records. With PostgreSQL, one instance refreshes at a time.
  --sources <file>   the sources file (see data/oss/sources.json for its form)
  --db <file>        SQLite file (env ROBOT_PARTS_DB; default ./robot-parts.db)
  --pg <url>         PostgreSQL URL (env ROBOT_PARTS_DATABASE_URL) instead of SQLite
  --mirror <dir>     read local copies listed in <dir>/README.md instead of fetching (offline)
  --git-time-ms <n>  wall time of one git command (default ${DEFAULT_FETCH_LIMITS.timeMs})
  --if-older-than <n>ms  do nothing when the latest run finished less than n ms ago (serve --refresh-every)
status: prints the sources, their commits and the latest run.
Exit status: 0 when every source refreshed, 1 when any failed, 2 on bad usage, 3 when another
instance holds the refresh lock (nothing done).`;

function usage(msg: string): never {
  process.stderr.write(`robot-parts-mcp sources: ${msg}\n${SOURCES_HELP}\n`);
  process.exit(2);
}

export async function openLiveStore(dbFile: string | undefined, pgUrl: string | undefined): Promise<{ store: OssLiveStore; where: string; close: () => Promise<void> }> {
  if (pgUrl) {
    const { createPgPool, migratePg, redactUrl } = await import('./store/pg.js');
    const { pgOssLiveStore } = await import('./store/oss-live-store.js');
    const pool = createPgPool(pgUrl, { max: 2 });
    try {
      await migratePg(pool);
    } catch (e) {
      await pool.end().catch(() => {});
      throw e;
    }
    return { store: pgOssLiveStore(pool), where: redactUrl(pgUrl), close: () => pool.end() };
  }
  const { openDb } = await import('./store/db.js');
  const { sqliteOssLiveStore } = await import('./store/oss-live-store.js');
  const file = path.resolve(dbFile ?? process.env.ROBOT_PARTS_DB ?? 'robot-parts.db');
  const db = openDb(file);
  return { store: sqliteOssLiveStore(db), where: file, close: async () => void db.close() };
}

export async function sourcesCommand(argv: string[]): Promise<number> {
  const sub = argv[0];
  if (sub === '--help' || sub === '-h' || sub === undefined) {
    process.stdout.write(`${SOURCES_HELP}\n`);
    return sub === undefined ? 2 : 0;
  }
  if (sub !== 'refresh' && sub !== 'status') usage(`unknown subcommand "${sub}"`);
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: argv.slice(1),
      strict: true,
      options: {
        sources: { type: 'string' },
        db: { type: 'string' },
        pg: { type: 'string' },
        mirror: { type: 'string' },
        'git-time-ms': { type: 'string' },
        'if-older-than': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (e) {
    usage((e as Error).message.split('\n')[0]);
  }
  if (values.help) {
    process.stdout.write(`${SOURCES_HELP}\n`);
    return 0;
  }
  if (values.db && values.pg) usage('--db and --pg: give one database');
  const pgUrl = (values.pg as string | undefined) ?? (values.db ? undefined : process.env.ROBOT_PARTS_DATABASE_URL || undefined);
  if (pgUrl !== undefined && !/^postgres(ql)?:\/\//.test(pgUrl)) usage('--pg must be a postgres:// URL');
  const timeMs = values['git-time-ms'] === undefined ? DEFAULT_FETCH_LIMITS.timeMs : Number(values['git-time-ms']);
  if (!Number.isInteger(timeMs) || timeMs < 1) usage('--git-time-ms must be a positive integer');
  const olderThan = values['if-older-than'] === undefined ? null : /^(\d+)ms$/.exec(String(values['if-older-than']));
  if (values['if-older-than'] !== undefined && !olderThan) usage('--if-older-than takes milliseconds, e.g. 21600000ms');

  let file;
  if (sub === 'refresh') {
    if (typeof values.sources !== 'string') usage('--sources <file> is required');
    try {
      file = readSourcesFile(values.sources);
    } catch (e) {
      if (e instanceof SourcesFileError) usage(e.message);
      throw e;
    }
  }
  const { store, where, close } = await openLiveStore(values.db as string | undefined, pgUrl);
  try {
    if (sub === 'status') {
      const snap = await store.snapshot();
      if (!snap) {
        process.stdout.write(`${where}: no refresh yet (the server reads the shipped layer)\n`);
        return 0;
      }
      const doc = liveDocument(snap);
      process.stdout.write(`${where}: run ${snap.run.run} finished ${snap.run.finished_at}: ${snap.run.sources_ok}/${snap.run.sources_attempted} sources ok, ${doc.meta.total_entities} records, ${doc.meta.gone_entities ?? 0} gone\n`);
      for (const s of snap.sources) {
        process.stdout.write(`  ${s.id.padEnd(24)} ${s.listed ? '' : '(not listed) '}${s.commit ? s.commit.slice(0, 12) : 'never read'} read ${s.read_at ?? '-'}${s.error ? `; last attempt failed: ${s.error}` : ''}\n`);
      }
      return 0;
    }
    const fetcher = typeof values.mirror === 'string' ? mirrorFetcher(path.resolve(values.mirror)) : gitFetcher({ ...DEFAULT_FETCH_LIMITS, timeMs });
    const summary = await store.withRefreshLock(async () => {
      if (olderThan) {
        const snap = await store.snapshot();
        if (snap && Date.now() - Date.parse(snap.run.finished_at) < Number(olderThan[1])) return 'fresh' as const;
      }
      return refreshSources(file!, store, fetcher, { report: (l) => process.stdout.write(`  ${l}\n`) });
    });
    if (summary === 'fresh') {
      process.stdout.write(`${where}: the latest run is younger than ${olderThan![1]} ms; nothing done\n`);
      return 0;
    }
    if (summary === null) {
      process.stdout.write(`${where}: another process is refreshing the layer; nothing done\n`);
      return 3;
    }
    process.stdout.write(`${where}: run ${summary.run}: ${summary.sources_ok}/${summary.sources_attempted} sources refreshed${summary.failed.length ? `, ${summary.failed.length} failed` : ''}\n`);
    return summary.failed.length > 0 ? 1 : 0;
  } finally {
    await close();
  }
}
