/**
 * Paid calls per second: one `serve` instance on SQLite vs two and three instances on one
 * PostgreSQL database (and one on PostgreSQL, for reference), in one run, with the same load
 * generator. Run: `npm run bench:scale` (builds first). Needs the PostgreSQL server binaries
 * (see test/support/pg.ts); the cluster is throwaway and durable (fsync on, as SQLite's WAL
 * commits are).
 *
 * The paid call is `GET /api/entities.json?limit=1` with a key (1 credit, debited in the
 * settlement transaction). Keys are registered first (100 credits each) and used round-robin;
 * requests go round-robin to the instances, as a balancer would send them. Rate limits are off.
 * Every answer must be 200; anything else is counted as an error and reported.
 * Env: SCALE_REQUESTS (default 3000), SCALE_CONCURRENCY (default 24).
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startInstance, type Instance } from '../test/support/instances.js';
import { startPgCluster, type PgCluster } from '../test/support/pg.js';

const REQUESTS = Number(process.env.SCALE_REQUESTS ?? 3000);
const CONCURRENCY = Number(process.env.SCALE_CONCURRENCY ?? 24);
const WARMUP = 300;
const PAID = '/api/entities.json?limit=1';
const COMMON = ['--stateless', '--rate-limit-free', '0', '--rate-limit-paid', '0'];

interface Result {
  label: string;
  instances: number;
  ok: number;
  errors: number;
  reasons: Record<string, number>;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
}

function request(agent: http.Agent, url: URL, key: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: PAID, agent, headers: { authorization: `Bearer ${key}` }, timeout: 15_000 },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

async function register(base: string, email: string): Promise<string> {
  const r = await fetch(`${base}/api/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
  if (r.status !== 200) throw new Error(`register: ${r.status} ${await r.text()}`);
  return ((await r.json()) as { api_key: string }).api_key;
}

/** The load generator: CONCURRENCY workers, `total` paid calls, round-robin over instances and keys. */
async function load(nodes: Instance[], keys: string[], total: number, offset: number) {
  const agents = nodes.map(() => new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY }));
  const urls = nodes.map((n) => new URL(n.url));
  const latencies: number[] = [];
  const reasons: Record<string, number> = {};
  let next = 0;
  let ok = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < total) {
        const i = next++;
        const t0 = performance.now();
        try {
          const status = await request(agents[i % nodes.length]!, urls[i % nodes.length]!, keys[(offset + i) % keys.length]!);
          if (status === 200) {
            ok++;
            latencies.push(performance.now() - t0);
          } else reasons[`HTTP ${status}`] = (reasons[`HTTP ${status}`] ?? 0) + 1;
        } catch (err) {
          const why = (err as Error).message;
          reasons[why] = (reasons[why] ?? 0) + 1;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  for (const a of agents) a.destroy();
  latencies.sort((x, y) => x - y);
  const pick = (q: number) => latencies[Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1)] ?? NaN;
  return { ok, errors: total - ok, reasons, seconds, rps: ok / seconds, p50: pick(0.5), p99: pick(0.99) };
}

async function measure(label: string, nodes: Instance[]): Promise<Result> {
  // Enough keys for warm-up and the run (100 credits each), with a margin.
  const needed = Math.ceil(((WARMUP + REQUESTS) * 1.2) / 100);
  const keys: string[] = [];
  for (let i = 0; i < needed; i++) keys.push(await register(nodes[i % nodes.length]!.url, `bench-${label.replace(/\W+/g, '-')}-${i}@example.com`));
  // Each key spends at most ~100 calls: warm-up takes the first keys, the run the rest.
  const warmKeys = keys.slice(0, Math.ceil(WARMUP / 90));
  await load(nodes, warmKeys, WARMUP, 0);
  const runKeys = keys.slice(warmKeys.length);
  const r = await load(nodes, runKeys, REQUESTS, 0);
  return { label, instances: nodes.length, ...r };
}

async function main() {
  const results: Result[] = [];
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-bench-scale-'));
  let cluster: PgCluster | null = null;
  let nodes: Instance[] = [];
  const stopAll = async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    nodes = [];
  };
  try {
    process.stderr.write('SQLite, 1 instance ...\n');
    nodes = [await startInstance({ args: [...COMMON, '--db', path.join(tmp, 'bench.db')] })];
    results.push(await measure('sqlite x1', nodes));
    await stopAll();

    cluster = await startPgCluster({ durable: true, maxConnections: 100 });
    for (const n of [1, 2, 3]) {
      process.stderr.write(`PostgreSQL, ${n} instance(s) ...\n`);
      const url = cluster.createDatabase(`bench_${n}`);
      nodes = await Promise.all(Array.from({ length: n }, () => startInstance({ args: [...COMMON, '--database-url', url], env: { ROBOT_PARTS_SECRET: 'be7c'.repeat(16) } })));
      results.push(await measure(`postgres x${n}`, nodes));
      await stopAll();
    }
  } finally {
    await stopAll();
    cluster?.destroy();
    fs.rmSync(tmp, { recursive: true, force: true });
  }

  const base = results[0]!;
  const lines = [
    `paid calls/s (GET ${PAID}, 1 credit each), ${REQUESTS} requests, ${CONCURRENCY} concurrent, ${os.cpus().length} CPUs, load avg ${os.loadavg()[0]!.toFixed(1)}`,
    '| setup | ok | errors | calls/s | p50 ms | p99 ms | ratio to SQLite x1 |',
    '|---|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.label} | ${r.ok} | ${r.errors}${r.errors ? ` ${JSON.stringify(r.reasons)}` : ''} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${(r.rps / base.rps).toFixed(2)} |`,
    ),
  ];
  process.stdout.write(lines.join('\n') + '\n');
  fs.mkdirSync(path.join(import.meta.dirname, 'results'), { recursive: true });
  fs.writeFileSync(path.join(import.meta.dirname, 'results', 'scale-latest.json'), JSON.stringify({ at: new Date().toISOString(), results }, null, 2));
  if (results.some((r) => r.errors > 0)) process.exitCode = 1;
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? err}\n`);
  process.exit(2);
});
