/**
 * robot-parts-mcp sources refresh --sources FILE [--db FILE | --pg URL] [--mirror DIR] [--git-time-ms N]
 * robot-parts-mcp sources status [--db FILE | --pg URL]
 *
 * The operator's side of the live open-source layer (issue 45): refresh reads every source of
 * the file into the database (one transaction per source; instances sharing PostgreSQL refresh
 * once, under an advisory lock); status prints what the database holds. The extractors run in
 * the worker pool (src/jobs/pool.ts, job 'extract_source', the pool the composition root makes):
 * in this command's own pool, and under `serve --refresh-every` in the server's pool, so a
 * background refresh never blocks the event loop that answers requests (fetching is git, a
 * child process; only the sources file's operator-written sources are ever fetched).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Config } from './config.js';
import type { Deps } from './deps.js';
import { DEFAULT_FETCH_LIMITS, gitFetcher, mirrorFetcher, type SourceFetcher } from './ingest/oss/fetch.js';
import type { ExtractedSource } from './ingest/oss/layer.js';
import { liveDocument, refreshSources, type RefreshOptions, type RefreshSummary } from './ingest/oss/refresh.js';
import { readSourcesFile, SourcesFileError, type SourcesFile } from './ingest/oss/sources-file.js';
import type { JobRunner } from './jobs/types.js';
import type { Logger } from './log.js';
import type { OssLiveStore } from './store/oss-live-store.js';

/** The extract step of a refresh as a worker-pool job (by name: 'extract_source'). */
export function poolExtract(jobs: JobRunner): NonNullable<RefreshOptions['extract']> {
  return async (source, fetched, seenAt) =>
    (await jobs.run('extract_source', { source, fetched, seenAt }, { label: `sources refresh ${source.id}`, client: 'sources-refresh' })) as ExtractedSource;
}

/** What one locked refresh did: ran (its summary), skipped (the latest run is younger), or another process held the lock. */
export type LockedRefresh = RefreshSummary | 'fresh' | null;

/** Under the store's refresh lock (one instance at a time on PostgreSQL): skipped when the latest run is younger than `olderThanMs`. */
export function lockedRefresh(file: SourcesFile, store: OssLiveStore, fetcher: SourceFetcher, olderThanMs: number | null, opts: RefreshOptions): Promise<LockedRefresh> {
  return store.withRefreshLock(async () => {
    if (olderThanMs !== null) {
      const snap = await store.snapshot();
      if (snap && Date.now() - Date.parse(snap.run.finished_at) < olderThanMs) return 'fresh' as const;
    }
    return refreshSources(file, store, fetcher, opts);
  });
}

/**
 * One background refresh of a serving instance (serve --sources --refresh-every): the sources
 * file read again (an operator may have edited it), fetched with git, extracted in the server's
 * worker pool, written into the server's database, and the layer reloaded (where-used, pages and
 * get_part by id follow at once). Skipped when the database's latest run is younger than the
 * period (another instance sharing PostgreSQL refreshed).
 */
export async function serverRefresh(config: Config, deps: Deps, sourcesPath: string, everyMs: number, log: Logger): Promise<LockedRefresh> {
  const file = readSourcesFile(sourcesPath);
  const { store, close } = await openLiveStore(config.databaseUrl ? undefined : config.dbPath, config.databaseUrl ?? undefined);
  let result: LockedRefresh;
  try {
    result = await lockedRefresh(file, store, gitFetcher(), everyMs, { extract: poolExtract(deps.jobs), report: (line) => log.info('sources refresh', { source: line }) });
  } finally {
    await close();
  }
  await deps.reloadOssLayer();
  return result;
}

/** The worker pool of this command: one worker, with limits for whole repositories (at least the server's). */
async function commandJobs(): Promise<JobRunner> {
  const { loadConfig } = await import('./config.js');
  const { createLogger } = await import('./log.js');
  const { jobRunnerFactory } = await import('./compose.js');
  const { knowledgeOf, loadDatasets } = await import('./store/datasets.js');
  const base = loadConfig(process.env);
  const config: Config = {
    ...base,
    poolSize: 1,
    jobTimeMs: Math.max(base.jobTimeMs, 600_000),
    jobMemoryMb: Math.max(base.jobMemoryMb, 1024),
    jobOutputBytes: Math.max(base.jobOutputBytes, 256 * 1024 * 1024),
  };
  let knowledge: ReturnType<typeof knowledgeOf> | null = null;
  return jobRunnerFactory()(config, createLogger(base.logLevel), () => (knowledge ??= knowledgeOf(loadDatasets(config.dataDir))));
}

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
    const jobs = await commandJobs();
    let summary: LockedRefresh;
    try {
      summary = await lockedRefresh(file!, store, fetcher, olderThan ? Number(olderThan[1]) : null, { extract: poolExtract(jobs), report: (l) => process.stdout.write(`  ${l}\n`) });
    } finally {
      await jobs.close();
    }
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
