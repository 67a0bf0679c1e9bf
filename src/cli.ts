#!/usr/bin/env node
/**
 * robot-parts-mcp            MCP over stdio (nothing but protocol on stdout)
 * robot-parts-mcp serve      MCP Streamable HTTP at /mcp + REST bridge + /openapi.json + /healthz
 * robot-parts-mcp sources    refresh the live open-source layer into the database (src/sources-cli.ts)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { loadConfig, type Config } from './config.js';
import type { Deps } from './deps.js';
import { createLogger } from './log.js';
import { prebuiltToolListSoon } from './mcp/tools-list-cache.js';
import { SERVER_VERSION } from './version.js';

/**
 * Requests a stdio server answers before its stores are open: the handshake and the listings
 * that need no data. Any other message waits (in order) until they are (see main).
 */
const WITHOUT_DEPS = new Set(['initialize', 'notifications/initialized', 'ping', 'tools/list', 'prompts/list', 'resources/templates/list', 'logging/setLevel']);

const COMMON_HELP = `  --db <file>        SQLite file (env ROBOT_PARTS_DB), created with its schema on first start;
                     default ./robot-parts.db for serve, ~/.robot-parts-mcp/robot-parts.db for stdio
  --database-url <url> postgres://user:pass@host:5432/db (env ROBOT_PARTS_DATABASE_URL): accounts,
                     ledger, rate limits and orders in a PostgreSQL database shared by several
                     instances, instead of the SQLite file; migrated on start
  --adopt-dataset    record this instance's dataset version in the shared database even though
                     another one is recorded (env ROBOT_PARTS_ADOPT_DATASET=1; see README)
  --data <dir>       dataset folder (env ROBOT_PARTS_DATA_DIR; default: the package's data/)
  --log-level <lvl>  debug | info | warn | error (env ROBOT_PARTS_LOG_LEVEL; default info)
  --pool-size <n>    worker threads for lint, extract and large BOM runs (env ROBOT_PARTS_POOL_SIZE;
                     default 2; 0 runs them on the main thread, without the job limits)
  --pool-queue <n>   jobs that may wait for a worker, 503 beyond (env ROBOT_PARTS_POOL_QUEUE; default 8)
  --job-time-ms <n>  wall time of one job (env ROBOT_PARTS_JOB_TIME_MS; default 10000)
  --job-memory-mb <n> heap of one worker, MiB (env ROBOT_PARTS_JOB_MEMORY_MB; default 256)
  --job-output-bytes <n> JSON size of one job's answer (env ROBOT_PARTS_JOB_OUTPUT_BYTES; default 8388608)
  -h, --help         this help`;

const MAIN_HELP = `robot-parts-mcp ${SERVER_VERSION}: robot component data for AI agents (MCP) and HTTP clients

Usage:
  robot-parts-mcp [options]         MCP over stdio (for Claude Desktop, VS Code, Cursor, ...)
  robot-parts-mcp serve [options]   HTTP: MCP at /mcp, REST under /api/, /openapi.json, /healthz
  robot-parts-mcp sources refresh --sources <file> [--db <file> | --pg <url>]
                                    read the open-source layer's sources into the database

Options:
${COMMON_HELP}
  -v, --version      print the version

Environment: ROBOT_PARTS_API_KEY (stdio: key presented on every call). See README for all settings.
Run "robot-parts-mcp serve --help" for the HTTP server's options.`;

const SERVE_HELP = `Usage: robot-parts-mcp serve [options]

Serves MCP Streamable HTTP at /mcp, the REST bridge under /api/, /openapi.json and /healthz.

Options:
  --host <addr>            listen address (env ROBOT_PARTS_HOST; default 127.0.0.1)
  --port <n>               port 0-65535 (env ROBOT_PARTS_PORT; default 8787; 0 picks a free one)
  --stateless              MCP without sessions, for several instances behind a load balancer
  --allowed-hosts <list>   extra Host values accepted, comma-separated (env ROBOT_PARTS_ALLOWED_HOSTS)
  --allowed-origins <list> extra Origin values accepted (env ROBOT_PARTS_ALLOWED_ORIGINS)
  --public-url <url>       base URL used in links (env ROBOT_PARTS_PUBLIC_URL)
  --rate-limit             apply the default free limit (30/hour) on a loopback address too (env ROBOT_PARTS_RATE_LIMIT=1)
  --rate-limit-free <n>    requests/hour for free access, 0 disables (env ROBOT_PARTS_RATE_LIMIT_FREE; default 30,
                           none on a loopback address such as the default 127.0.0.1 unless --rate-limit)
  --rate-limit-paid <n>    requests/hour for paid plans, 0 disables (env ROBOT_PARTS_RATE_LIMIT_PAID; default 1000)
  --registrations-per-hour <n>  keys one client address may register per hour, 0 disables
                           (env ROBOT_PARTS_REGISTRATIONS_PER_HOUR; default 5, none on a loopback address unless --rate-limit)
  --ipv6-prefix <n>        IPv6 clients counted as one per prefix of this length for rate limits,
                           registrations and session shares (env ROBOT_PARTS_IPV6_PREFIX; default 64)
  --trusted-proxies <list> proxy addresses/CIDRs whose forwarding header is believed (env ROBOT_PARTS_TRUSTED_PROXIES)
  --forwarded-header <h>   the one header a trusted proxy sets: x-forwarded-for (default) or forwarded
                           (env ROBOT_PARTS_FORWARDED_HEADER); the other is ignored
  --cors-origins <list>    browser origins allowed to call /mcp and /api cross-origin, e.g.
                           https://inspector.example (env ROBOT_PARTS_CORS_ORIGINS; default none)
  --allow-sandbox-payments serve the sandbox payment gateway on a non-loopback address (env ROBOT_PARTS_ALLOW_SANDBOX_PAYMENTS=1)
  --sources <file>         the open-source layer's sources file, refreshed in the background with --refresh-every
  --refresh-every <dur>    e.g. 6h, 30m: refresh the sources that often, extracting in the worker pool (instances
                           sharing PostgreSQL refresh once per period, under a lock), and serve the layer written
${COMMON_HELP}`;

function fail(msg: string): never {
  process.stderr.write(`robot-parts-mcp: ${msg}\n`);
  process.exit(2);
}

function nonNegInt(name: string, v: string | undefined, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (v === undefined) return undefined;
  const n = v.trim() === '' ? NaN : Number(v);
  if (!Number.isInteger(n) || n < 0) fail(`${name} must be a non-negative integer, got "${v}"`);
  if (n > max) fail(`${name} must be at most ${max}, got "${v}"`);
  return n;
}

/**
 * Values checked before anything is opened or created (database file, secret, catalogue): a bad
 * one ends the process here, naming its flag or variable.
 */
function checkBeforeOpening(config: Config, command: string | null): void {
  if (!['debug', 'info', 'warn', 'error'].includes(config.logLevel)) fail(`--log-level must be debug, info, warn or error`);
  if (!fs.existsSync(config.dataDir) || !fs.statSync(config.dataDir).isDirectory()) fail(`--data / ROBOT_PARTS_DATA_DIR: "${config.dataDir}" is not a folder`);
  if (command !== 'serve') return;
  if (config.host.trim() === '') fail('--host / ROBOT_PARTS_HOST must not be empty');
  if (config.publicUrlConfigured) {
    let u: URL | null = null;
    try {
      u = new URL(config.publicBaseUrl);
    } catch {
      /* reported below */
    }
    if (!u || !/^https?:$/.test(u.protocol)) fail(`--public-url / ROBOT_PARTS_PUBLIC_URL must be an http:// or https:// URL, got "${config.publicBaseUrl}"`);
  }
}

/** Node's listen errors said with the flag that fixes them. */
function listenError(err: unknown, config: Config): string {
  const code = (err as { code?: string }).code;
  if (code === 'EADDRINUSE') return `--port ${config.port}: the port is in use on ${config.host} (choose another, or 0 for any free one)`;
  if (code === 'EACCES') return `--port ${config.port}: not allowed to listen on this port (ports below 1024 need privileges)`;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `--host ${config.host}: not an address of this machine`;
  return (err as Error).message;
}

export async function main(argv: string[]): Promise<void> {
  const command = argv[0] && !argv[0].startsWith('-') ? argv[0] : null;
  const rest = command ? argv.slice(1) : argv;
  if (command === 'sources') {
    const { sourcesCommand } = await import('./sources-cli.js');
    process.exitCode = await sourcesCommand(rest);
    return;
  }
  if (command !== null && command !== 'serve') fail(`unknown command "${command}" (try --help)`);

  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: rest,
      strict: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
        db: { type: 'string' },
        'database-url': { type: 'string' },
        'adopt-dataset': { type: 'boolean' },
        data: { type: 'string' },
        'log-level': { type: 'string' },
        'pool-size': { type: 'string' },
        'pool-queue': { type: 'string' },
        'job-time-ms': { type: 'string' },
        'job-memory-mb': { type: 'string' },
        'job-output-bytes': { type: 'string' },
        ...(command === 'serve'
          ? {
              host: { type: 'string' },
              port: { type: 'string' },
              stateless: { type: 'boolean' },
              'allowed-hosts': { type: 'string' },
              'allowed-origins': { type: 'string' },
              'public-url': { type: 'string' },
              'rate-limit': { type: 'boolean' },
              'rate-limit-free': { type: 'string' },
              'rate-limit-paid': { type: 'string' },
              'trusted-proxies': { type: 'string' },
              'registrations-per-hour': { type: 'string' },
              'ipv6-prefix': { type: 'string' },
              'forwarded-header': { type: 'string' },
              'cors-origins': { type: 'string' },
              'allow-sandbox-payments': { type: 'boolean' },
              sources: { type: 'string' },
              'refresh-every': { type: 'string' },
            }
          : {}),
      },
    }).values;
  } catch (err) {
    // node's messages can span lines; the first names the flag
    fail(`${(err as Error).message.split('\n').join(' ')} (try --help)`);
  }
  if (values.help) {
    process.stdout.write((command === 'serve' ? SERVE_HELP : MAIN_HELP) + '\n');
    return;
  }
  if (values.version) {
    process.stdout.write(`${SERVER_VERSION}\n`);
    return;
  }
  const list = (v: unknown) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : undefined);
  const overrides: Partial<Config> = {};
  const set = <K extends keyof Config>(k: K, v: Config[K] | undefined) => {
    if (v !== undefined) overrides[k] = v;
  };
  // stdio servers are launched by desktop agents from an arbitrary (often read-only) working
  // directory: their default database lives in the user's home instead.
  const stdioDefaultDb = command === 'serve' || process.env.ROBOT_PARTS_DB ? undefined : path.join(os.homedir(), '.robot-parts-mcp', 'robot-parts.db');
  set('dbPath', (values.db as string | undefined) ?? stdioDefaultDb);
  set('databaseUrl', values['database-url'] as string | undefined);
  set('adoptDataset', values['adopt-dataset'] ? true : undefined);
  set('dataDir', values.data as string | undefined);
  set('logLevel', values['log-level'] as Config['logLevel'] | undefined);
  set('poolSize', nonNegInt('--pool-size', values['pool-size'] as string | undefined));
  set('poolQueue', nonNegInt('--pool-queue', values['pool-queue'] as string | undefined));
  set('jobTimeMs', nonNegInt('--job-time-ms', values['job-time-ms'] as string | undefined));
  set('jobMemoryMb', nonNegInt('--job-memory-mb', values['job-memory-mb'] as string | undefined));
  set('jobOutputBytes', nonNegInt('--job-output-bytes', values['job-output-bytes'] as string | undefined));
  set('host', values.host as string | undefined);
  set('port', nonNegInt('--port', values.port as string | undefined, 65535));
  set('stateless', values.stateless ? true : undefined);
  set('allowedHosts', list(values['allowed-hosts']));
  set('allowedOrigins', list(values['allowed-origins']));
  set('publicBaseUrl', values['public-url'] as string | undefined);
  set('rateLimit', values['rate-limit'] ? true : undefined);
  set('rateLimitFree', nonNegInt('--rate-limit-free', values['rate-limit-free'] as string | undefined));
  set('rateLimitPaid', nonNegInt('--rate-limit-paid', values['rate-limit-paid'] as string | undefined));
  set('trustedProxies', list(values['trusted-proxies']));
  set('registrationsPerHour', nonNegInt('--registrations-per-hour', values['registrations-per-hour'] as string | undefined));
  set('ipv6Prefix', nonNegInt('--ipv6-prefix', values['ipv6-prefix'] as string | undefined, 128));
  set('forwardedHeader', (values['forwarded-header'] as string | undefined)?.trim().toLowerCase() as Config['forwardedHeader'] | undefined);
  set('corsOrigins', list(values['cors-origins']));
  set('allowSandboxPayments', values['allow-sandbox-payments'] ? true : undefined);

  let config: Config;
  try {
    config = loadConfig(process.env, overrides);
  } catch (err) {
    fail((err as Error).message);
  }
  checkBeforeOpening(config, command);
  const log = createLogger(config.logLevel);
  let refresh: { sources: string; everyMs: number } | null = null;
  if (values['refresh-every'] !== undefined || values.sources !== undefined) {
    if (typeof values.sources !== 'string' || typeof values['refresh-every'] !== 'string') fail('--sources and --refresh-every go together');
    const everyMs = durationMs(values['refresh-every']);
    if (everyMs === null || everyMs < 10_000) fail(`--refresh-every must be a duration of at least 10s such as 6h, 30m or 90s, got "${values['refresh-every']}"`);
    if (!fs.existsSync(values.sources)) fail(`--sources: "${values.sources}" does not exist`);
    refresh = { sources: path.resolve(values.sources), everyMs };
  }

  if (command === 'serve') {
    let deps: Deps;
    let http: Promise<HttpModule>;
    try {
      const { openDeps } = await import('./deps.js');
      const { jobRunnerFactory } = await import('./compose.js');
      deps = await openDeps(config, { log, jobs: jobRunnerFactory() });
      // The HTTP layer's modules (~0.17 s on the 2-core host) are read and run, and its app made,
      // while the deps get ready (a large catalogue's search index is still being built on its
      // worker), not after: startHttpServer waits for them itself (a refusal closes them there).
      http = import('./http/app.js');
      http.catch(() => {}); // a failed import is reported where it is awaited (serveHttp)
    } catch (err) {
      fail((err as Error).message);
    }
    await serveHttp(config, log, deps, http);
    if (refresh) scheduleRefresh(config, log, deps, refresh);
    return;
  }
  await serveStdioCommand(config, log);
}

/** "6h", "30m", "90s", "500ms", "1d" -> milliseconds; null when not a duration. */
export function durationMs(v: string): number | null {
  const m = /^(\d+)(ms|s|m|h|d)$/.exec(v.trim());
  if (!m) return null;
  return Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as 'ms' | 's' | 'm' | 'h' | 'd'];
}

/**
 * serve --sources --refresh-every: every period, the sources are refreshed in this process with
 * the extractors in the server's worker pool (fetching is git, a child process; the database
 * writes are one short transaction per source), so requests keep being answered; skipped when
 * the database's latest run is younger than the period (another instance sharing it refreshed).
 * After each, the layer is read again when the database holds a newer run.
 */
function scheduleRefresh(config: Config, log: ReturnType<typeof createLogger>, deps: Deps, refresh: { sources: string; everyMs: number }): void {
  let running = false;
  const tick = () => {
    if (running) return;
    running = true;
    void import('./sources-cli.js')
      .then(({ serverRefresh }) => serverRefresh(config, deps, refresh.sources, refresh.everyMs, log))
      .then((r) => {
        if (r === null) log.info('sources refresh: another instance holds the lock; its result is read on the next tick');
        else if (r !== 'fresh' && r.failed.length > 0) log.warn('sources refresh: some sources failed (their earlier records kept)', { run: r.run, failed: r.failed });
      })
      .catch((e: unknown) => {
        log.warn('sources refresh failed', { error: e instanceof Error ? e.message : String(e) });
        return deps.reloadOssLayer().catch(() => 0);
      })
      .finally(() => {
        running = false;
      });
  };
  const timer = setInterval(tick, refresh.everyMs);
  timer.unref();
  setTimeout(tick, 1000).unref();
  log.info('open-source layer refresh scheduled', { sources: refresh.sources, every_ms: refresh.everyMs });
}

/**
 * Waits until the store has accepted the server secret; when it refuses (a database keyed with
 * another secret), closes the stores first, so a refused start leaves nothing behind (SQLite
 * removes its -wal and -shm files on a clean close).
 */
async function readyOrClose(deps: Deps): Promise<void> {
  try {
    await deps.ready;
  } catch (err) {
    await closeQuietly(deps);
    throw err;
  }
}

/** Closes the stores, waiting for them (a failure to close is not the error being reported). */
async function closeQuietly(deps: Deps): Promise<void> {
  await Promise.resolve(deps.close()).catch(() => {});
}

function onShutdown(log: ReturnType<typeof createLogger>, stop: () => Promise<void>, closeDeps: () => void | Promise<void>, endWithStdin: boolean): void {
  let shuttingDown = false;
  const shutdown = (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    log.info('shutting down', { signal });
    const force = setTimeout(() => process.exit(1), 5000);
    force.unref();
    stop()
      .catch((err) => log.error('shutdown failed', { error: String(err) }))
      .then(() => closeDeps())
      .catch((err) => log.error('shutdown failed', { error: String(err) }))
      .finally(() => process.exit(0));
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  if (endWithStdin) process.stdin.on('end', () => shutdown('stdin closed'));
}

type HttpModule = typeof import('./http/app.js');

async function serveHttp(config: Config, log: ReturnType<typeof createLogger>, deps: Deps, http: Promise<HttpModule>): Promise<void> {
  let running: Awaited<ReturnType<HttpModule['startHttpServer']>>;
  try {
    const { startHttpServer } = await http;
    running = await startHttpServer(deps);
  } catch (err) {
    // Closed first (awaited), so a refused start leaves nothing behind (as readyOrClose does).
    await closeQuietly(deps);
    fail(listenError(err, config));
  }
  // Handlers first: a supervisor that sends SIGTERM as soon as it reads "listening" gets a clean stop.
  onShutdown(log, running.close, () => deps.close(), false);
  log.info('listening', { url: running.url, mcp: `${running.url}/mcp`, stateless: config.stateless });
  const { startBanner } = await import('./banner.js');
  const database = config.databaseUrl ? (await import('./store/pg.js')).redactUrl(config.databaseUrl) + ' (PostgreSQL)' : null;
  process.stderr.write(startBanner(config, running.url, database));
}

/**
 * stdio: the handshake is answered before the stores are opened and the domain is imported
 * (initialize, then tools/list from the build's prebuilt entries), so an agent that starts this
 * process sees its tools as soon as the protocol layer is up. Right after the handshake (or when a
 * message that needs them arrives first) the deps are opened; messages that need them wait, in
 * order, until they are. The catalogue itself is built after that (deferCatalogue). A failure to
 * open them (bad database path, bad data) ends the process with the error on stderr, as before.
 */
async function serveStdioCommand(config: Config, log: ReturnType<typeof createLogger>): Promise<void> {
  // The prebuilt tools/list is checked against its stamp now, its reads overlapping the imports
  // below, not when the handshake asks for it.
  void prebuiltToolListSoon();
  // The MCP SDK is imported here, not with this file: `serve` answers /mcp with it only once asked (src/http/mcp.ts).
  const [{ createServer }, { serveStdio }, { LineStdioTransport }] = await Promise.all([import('./server.js'), import('@modelcontextprotocol/server/stdio'), import('./mcp/stdio-transport.js')]);
  let real: Deps | null = null;
  let opening: Promise<Deps> | null = null;
  const open = (): Promise<Deps> =>
    (opening ??= (async () => {
      const { openDeps } = await import('./deps.js');
      const { jobRunnerFactory } = await import('./compose.js');
      const d = await openDeps(config, { log, deferCatalogue: true, jobs: jobRunnerFactory() });
      await readyOrClose(d);
      real = d;
      return d;
    })().catch((err: unknown) => fail(err instanceof Error ? err.message : String(err))));
  // Handlers only reach the deps for messages that waited for them (WITHOUT_DEPS lists the others).
  const deps = new Proxy({} as Deps, {
    get(_target, key) {
      if (!real) throw new Error(`the server's stores are not open yet (reading ${String(key)})`);
      return Reflect.get(real, key, real) as unknown;
    },
  });
  const warm = () =>
    setImmediate(() => {
      void open().then((d) => {
        try {
          void d.catalogue; // builds the deferred catalogue once
        } catch (err) {
          log.error('catalogue could not be loaded; calls that need it will fail', { error: (err as Error).message });
        }
      });
    });
  const needsDeps = (m: JSONRPCMessage) => 'method' in m && !WITHOUT_DEPS.has(m.method);

  // One connection; its opening message picks the era (initialize: 2025-era, pinned for the
  // connection; a request with the 2026-07-28 _meta envelope: modern).
  const handle = serveStdio(
    ({ era }) => {
      const server = createServer(deps, { surface: 'mcp-stdio', era, preparedMessages: true });
      // 2025-era clients: after the handshake (tools/list in the same batch is answered first).
      server.oninitialized = warm;
      if (era === 'modern') warm(); // no handshake: after the first request is taken
      return server;
    },
    {
      transport: new LineStdioTransport(process.stdin, process.stdout, { hold: (m) => (real === null && needsDeps(m) ? open() : undefined) }),
      onerror: (err) => log.debug('stdio message rejected', { error: err.message }),
    },
  );
  log.info('stdio server ready');
  onShutdown(log, () => handle.close(), () => real?.close(), true);
}

main(process.argv.slice(2)).catch((err) => {
  process.stderr.write(`robot-parts-mcp: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
