/**
 * Throwaway PostgreSQL clusters for tests and the scale benchmark: `initdb` into a temporary
 * folder, `pg_ctl start` on a free loopback port (its Unix socket stays in the same folder),
 * one database, and everything removed afterwards.
 *
 * initdb refuses to run as root. When the test process is root (CI, containers) the cluster
 * folder is handed to the `postgres` OS user (created by Debian's postgresql package) and
 * every server binary runs through `runuser -u postgres --`; otherwise they run as the caller.
 *
 * Binaries: $PG_BIN when set, else the newest /usr/lib/postgresql/<ver>/bin, else `initdb` on
 * PATH. When none is found, tests that need PostgreSQL are skipped with a message, except under
 * CI=true, where they fail: CI installs the server (.ci/run) and must not pass by skipping.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface PgCluster {
  /** postgres://postgres@127.0.0.1:<port>/<db> (trust authentication on loopback only). */
  url: string;
  port: number;
  dir: string;
  /** A new, empty database on the same server; returns its URL. */
  createDatabase(name: string): string;
  /** Fast shutdown then start on the same port and folder (connections are cut). */
  restart(): void;
  stop(): void;
  start(): void;
  /** Stops the server and deletes the folder. Safe to call twice. */
  destroy(): void;
}

export interface PgClusterOptions {
  /** Durable settings (fsync on) for measurements; tests run with fsync off. */
  durable?: boolean;
  maxConnections?: number;
}

function findBinDir(): string | null {
  const candidates: string[] = [];
  if (process.env.PG_BIN) candidates.push(process.env.PG_BIN);
  const root = '/usr/lib/postgresql';
  if (fs.existsSync(root)) {
    const versions = fs
      .readdirSync(root)
      .filter((v) => /^\d+(\.\d+)?$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    for (const v of versions) candidates.push(path.join(root, v, 'bin'));
  }
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) if (dir) candidates.push(dir);
  for (const dir of candidates) {
    if (['initdb', 'pg_ctl', 'postgres'].every((b) => fs.existsSync(path.join(dir, b)))) return dir;
  }
  return null;
}

export const PG_BIN_DIR = findBinDir();
const IS_ROOT = typeof process.getuid === 'function' && process.getuid() === 0;
export const IN_CI = Boolean(process.env.CI) && process.env.CI !== 'false';

/** Why PostgreSQL tests cannot run here, or null when they can. */
export function pgUnavailableReason(): string | null {
  if (!PG_BIN_DIR) {
    return 'PostgreSQL server binaries (initdb, pg_ctl, postgres) not found: install Debian\'s "postgresql" package or set PG_BIN';
  }
  if (IS_ROOT) {
    const r = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    if (r.status !== 0) return 'running as root but there is no "postgres" OS user to run initdb as';
  }
  return null;
}

/**
 * True when PostgreSQL tests should run. Outside CI, an unavailable server logs why and
 * returns false (callers use describe.skipIf); under CI it throws.
 */
export function pgTestsEnabled(): boolean {
  const reason = pgUnavailableReason();
  if (reason === null) return true;
  if (IN_CI) throw new Error(`PostgreSQL tests cannot be skipped in CI: ${reason}`);
  console.warn(`[skipped] PostgreSQL tests: ${reason}`);
  return false;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

function run(bin: string, args: string[], opts: { allowFail?: boolean } = {}): string {
  const exe = path.join(PG_BIN_DIR!, bin);
  const [cmd, argv] = IS_ROOT ? ['runuser', ['-u', 'postgres', '--', exe, ...args]] : [exe, args];
  const r = spawnSync(cmd, argv, { encoding: 'utf8', cwd: os.tmpdir(), timeout: 60_000 });
  if (r.status !== 0 && !opts.allowFail) {
    throw new Error(`${bin} ${args.join(' ')} failed (${r.status ?? r.signal}): ${r.stderr || r.stdout}`);
  }
  return r.stdout;
}

const live = new Set<PgCluster>();
let exitHook = false;

/** Starts a new cluster; call destroy() when done (a process exit hook stops leftovers). */
export async function startPgCluster(opts: PgClusterOptions = {}): Promise<PgCluster> {
  const reason = pgUnavailableReason();
  if (reason) throw new Error(reason);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-pg-'));
  const data = path.join(dir, 'data');
  fs.mkdirSync(data, { mode: 0o700 });
  if (IS_ROOT) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-locale', '--no-sync']);
  const settings = [
    `listen_addresses = '127.0.0.1'`,
    `unix_socket_directories = '${dir}'`,
    `max_connections = ${opts.maxConnections ?? 60}`,
    `shared_buffers = '16MB'`,
    `fsync = ${opts.durable ? 'on' : 'off'}`,
    `synchronous_commit = ${opts.durable ? 'on' : 'off'}`,
    `full_page_writes = ${opts.durable ? 'on' : 'off'}`,
    `logging_collector = off`,
  ];
  fs.appendFileSync(path.join(data, 'postgresql.conf'), '\n' + settings.join('\n') + '\n');
  const logFile = path.join(dir, 'server.log');
  let port = 0;
  let running = false;
  const start = () => {
    run('pg_ctl', ['-D', data, '-l', logFile, '-o', `-p ${port}`, '-w', '-t', '30', 'start']);
    running = true;
  };
  const stop = () => {
    if (!running) return;
    run('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '30', 'stop'], { allowFail: true });
    running = false;
  };
  // A free port can be taken between the probe and the server's bind: retry a few times.
  for (let attempt = 0; ; attempt++) {
    port = await freePort();
    try {
      start();
      break;
    } catch (err) {
      if (attempt >= 4) {
        fs.rmSync(dir, { recursive: true, force: true });
        throw err;
      }
    }
  }
  const urlFor = (db: string) => `postgres://postgres@127.0.0.1:${port}/${db}`;
  const cluster: PgCluster = {
    url: urlFor('robot_parts'),
    port,
    dir,
    createDatabase(name: string) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad database name ${name}`);
      run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', name]);
      return urlFor(name);
    },
    restart() {
      stop();
      start();
    },
    stop,
    start,
    destroy() {
      if (!live.has(cluster)) return;
      live.delete(cluster);
      stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  live.add(cluster);
  if (!exitHook) {
    exitHook = true;
    process.on('exit', () => {
      for (const c of [...live]) c.destroy();
    });
  }
  cluster.createDatabase('robot_parts');
  return cluster;
}
