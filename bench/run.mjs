#!/usr/bin/env node
// npm run bench: search latency in process, REST and MCP throughput against their floors,
// and memory against a plain JSON.parse. Prints a table and writes bench/results/latest.json.
// Ratios are the figures that count; absolute numbers depend on the machine. See bench/README.md.
import { execFile, execFileSync, fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  benchConfigOverrides,
  checkToolResult,
  closeMcpSession,
  importDist,
  openMcpSession,
  prepareDataDir,
  QUERIES,
  ROOT,
  rpcMessages,
  runLoad,
  send,
  summarise,
  toolsCallBody,
} from './lib.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CHILD = path.join(HERE, 'child.mjs');
const RESULTS = path.join(HERE, 'results', 'latest.json');

/** Knobs (env overrides for quick local runs; the defaults are the reported configuration). */
const SEARCH_ROUNDS = Number(process.env.BENCH_SEARCH_ROUNDS ?? 300); // rounds over the query set
const SEARCH_BUDGET_MS = 15_000; // per method, whichever ends first
const HTTP_REQUESTS = Number(process.env.BENCH_HTTP_REQUESTS ?? 3000); // per measured run
const HTTP_CONCURRENCY = 16;
const HTTP_ROUNDS = 3; // floor and ours alternate; the median round is reported
const HTTP_WARMUP = 400;
const RUN_DEADLINE_MS = 30_000; // per measured run: the generator stops by itself
const WATCHDOG_MS = 240_000; // the whole bench, last resort

const children = new Set();
const watchdog = setTimeout(() => {
  process.stderr.write(`bench: watchdog after ${WATCHDOG_MS / 1000}s, stopping\n`);
  for (const c of children) c.kill();
  process.exit(1);
}, WATCHDOG_MS);
watchdog.unref();

const log = (msg) => process.stderr.write(`bench: ${msg}\n`);
const fmt = (n, digits = 0) => (Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : 'n/a');
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// ---------------------------------------------------------------------------------------
// 1. Search latency in process

async function benchSearch(dataDir) {
  const { loadConfig } = await importDist('config.js');
  const { buildDeps } = await importDist('deps.js');
  const { silentLogger } = await importDist('log.js');
  const { searchParts } = await importDist('domain/parts.js');
  const { tokenize } = await importDist('domain/search.js');
  const { readCatalogueData } = await importDist('store/sqlite-catalogue.js');

  const data = readCatalogueData(dataDir);
  const deps = buildDeps(loadConfig({}, benchConfigOverrides(dataDir)), { log: silentLogger, catalogueData: data });
  const ctx = { catalogue: deps.catalogue, index: deps.index, baseUrl: 'http://127.0.0.1:8787' };
  const entities = data.entities;

  // The baseline: a plain linear scan over the same records, name only, AND of the terms.
  const scan = (q) => {
    const terms = q.toLowerCase().split(/\s+/).filter(Boolean);
    return entities.filter((e) => terms.every((t) => e.name.toLowerCase().includes(t)));
  };
  const methods = {
    ours: async (q) => (await searchParts(ctx, { q })).total,
    index_only: async (q) => deps.index.search([...new Set(tokenize(q))]).length,
    scan: async (q) => scan(q).length,
  };

  const hits = {};
  for (const q of QUERIES) hits[q] = { ours_total: await methods.ours(q), scan_total: await methods.scan(q) };

  // Warm-up: every method over the whole query set until ~1 s has passed (JIT, SQLite caches).
  const warmUntil = performance.now() + 1_000;
  while (performance.now() < warmUntil) for (const m of Object.values(methods)) for (const q of QUERIES) await m(q);

  const samples = Object.fromEntries(Object.keys(methods).map((k) => [k, []]));
  const spent = Object.fromEntries(Object.keys(methods).map((k) => [k, 0]));
  const order = Object.keys(methods);
  let rounds = 0;
  for (; rounds < SEARCH_ROUNDS; rounds++) {
    // Rotate the order each round so no method always runs right after another.
    const turn = order.map((_, i) => order[(i + rounds) % order.length]);
    for (const name of turn) {
      const fn = methods[name];
      for (const q of QUERIES) {
        const t0 = performance.now();
        await fn(q);
        const dt = performance.now() - t0;
        samples[name].push(dt * 1000);
        spent[name] += dt;
      }
    }
    if (Object.values(spent).some((ms) => ms > SEARCH_BUDGET_MS)) {
      rounds++;
      break;
    }
  }
  deps.close();
  const stats = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, summarise(v)]));
  // Samples run in QUERIES order within each round: sample k belongs to query k % QUERIES.length.
  const perQuery = Object.fromEntries(
    QUERIES.map((q, qi) => [
      q,
      {
        ...hits[q],
        ...Object.fromEntries(Object.entries(samples).map(([k, v]) => [`${k}_p50_us`, summarise(v.filter((_, j) => j % QUERIES.length === qi)).p50])),
      },
    ]),
  );
  return { entities: entities.length, dataset_version: data.meta.dataset_version, rounds, queries: QUERIES.length, stats, perQuery };
}

// ---------------------------------------------------------------------------------------
// Child processes

function startChild(kind, dataDir, payload = {}) {
  const child = fork(CHILD, ['serve', kind, dataDir], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.add(child);
  child.on('exit', () => children.delete(child));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${kind} server did not start within 30 s`)), 30_000);
    child.on('message', (m) => {
      if (m.type === 'listening') {
        clearTimeout(timer);
        resolve({ kind, port: m.port, child });
      } else if (m.type === 'failed') {
        clearTimeout(timer);
        reject(new Error(`${kind} server failed: ${m.error}`));
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${kind} server exited with ${code}`));
    });
    child.send({ type: 'start', ...payload });
  });
}

function stopChild({ child }) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill(), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.send({ type: 'stop' });
  });
}

async function memory(mode, dataDir, file) {
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', CHILD, 'mem', mode, dataDir, file], { timeout: 60_000, cwd: ROOT });
  return JSON.parse(stdout.trim().split('\n').pop());
}

// ---------------------------------------------------------------------------------------
// 2 + 3. REST and MCP throughput against their floors

async function benchHttp(dataDir) {
  const { LATEST_PROTOCOL_VERSION } = await import('@modelcontextprotocol/server'); // the newest 2025-era (session) revision
  const servers = [];
  try {
    const ours = await startChild('ours', dataDir);
    servers.push(ours);

    // Precompute what the floors answer: exactly what ours answers, byte for byte.
    const restPaths = QUERIES.map((q) => `/api/search?q=${encodeURIComponent(q)}`);
    const bodies = [];
    for (const p of restPaths) {
      const res = await send(undefined, ours.port, { path: p });
      if (res.status !== 200) throw new Error(`GET ${p} answered ${res.status}: ${res.body.slice(0, 300)}`);
      bodies.push([p, res.body]);
    }
    const restLen = new Map(bodies.map(([p, b]) => [p, Buffer.byteLength(b)]));
    const probe = await openMcpSession(ours.port, LATEST_PROTOCOL_VERSION);
    const results = [];
    for (const [i, q] of QUERIES.entries()) {
      const res = await send(undefined, ours.port, { method: 'POST', path: '/mcp', headers: probe, body: toolsCallBody(i + 1, q) });
      const why = checkToolResult(res, i + 1);
      if (why) throw new Error(`tools/call search_parts q=${q} on ours: ${why}: ${res.body.slice(0, 300)}`);
      results.push([q, rpcMessages(res).find((m) => m.id === i + 1).result]);
    }
    await closeMcpSession(ours.port, probe);

    const floorRest = await startChild('floor-rest', dataDir, { bodies });
    servers.push(floorRest);
    const floorMcp = await startChild('floor-mcp', dataDir, { results });
    servers.push(floorMcp);

    const rest = (port) => ({
      port,
      concurrency: HTTP_CONCURRENCY,
      deadlineMs: RUN_DEADLINE_MS,
      build: (i) => ({ method: 'GET', path: restPaths[i % restPaths.length] }),
      check: (res, i) => (res.status !== 200 ? `HTTP ${res.status}` : Buffer.byteLength(res.body) !== restLen.get(restPaths[i % restPaths.length]) ? 'body size differs' : null),
    });
    const sessions = new Map();
    for (const s of [ours, floorMcp]) {
      const list = [];
      for (let w = 0; w < HTTP_CONCURRENCY; w++) list.push(await openMcpSession(s.port, LATEST_PROTOCOL_VERSION));
      sessions.set(s.port, list);
    }
    const mcp = (port) => ({
      port,
      concurrency: HTTP_CONCURRENCY,
      deadlineMs: RUN_DEADLINE_MS,
      build: (i, w) => ({ method: 'POST', path: '/mcp', headers: sessions.get(port)[w], body: toolsCallBody(i + 1, QUERIES[i % QUERIES.length]) }),
      check: (res, i) => checkToolResult(res, i + 1),
    });

    const out = {};
    for (const [surface, opts, pair] of [
      ['rest', rest, { floor: floorRest, ours }],
      ['mcp', mcp, { floor: floorMcp, ours }],
    ]) {
      log(`${surface}: warm-up`);
      for (const s of Object.values(pair)) await runLoad({ ...opts(s.port), total: HTTP_WARMUP });
      const runs = { floor: [], ours: [] };
      for (let r = 0; r < HTTP_ROUNDS; r++) {
        const sides = r % 2 === 0 ? ['floor', 'ours'] : ['ours', 'floor'];
        for (const side of sides) {
          log(`${surface}: round ${r + 1}/${HTTP_ROUNDS} ${side}`);
          runs[side].push(await runLoad({ ...opts(pair[side].port), total: HTTP_REQUESTS }));
        }
      }
      const agg = (list) => ({
        rps: median(list.map((x) => x.rps)),
        p50_ms: median(list.map((x) => x.p50_ms)),
        p99_ms: median(list.map((x) => x.p99_ms)),
        errors: list.reduce((a, x) => a + x.errors, 0),
        requests: list.reduce((a, x) => a + x.completed, 0),
        incomplete_runs: list.filter((x) => x.timed_out).length,
        runs: list,
      });
      out[surface] = { floor: agg(runs.floor), ours: agg(runs.ours) };
    }
    for (const s of [ours, floorMcp]) for (const h of sessions.get(s.port)) await closeMcpSession(s.port, h);
    out.body_bytes = { rest_median: median([...restLen.values()]), mcp_median: median(results.map(([, r]) => Buffer.byteLength(JSON.stringify(r)))) };
    return out;
  } finally {
    await Promise.all(servers.map(stopChild));
  }
}

// ---------------------------------------------------------------------------------------
// Report

function table(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
  const last = rows[0].length - 1;
  const line = (r) => r.map((v, c) => (c === 0 || c === last ? String(v).padEnd(widths[c]) : String(v).padStart(widths[c]))).join('  ').trimEnd();
  return [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

function gitCommit() {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

async function main() {
  const started = performance.now();
  const data = prepareDataDir({ forceSynthetic: process.env.BENCH_SYNTHETIC === '1' });
  try {
    if (data.source === 'synthetic') log(`NOTE: ${process.env.BENCH_SYNTHETIC === '1' ? 'BENCH_SYNTHETIC=1' : 'data/catalogue/entities.json is absent'}; benchmarking 800 synthetic entities instead.`);

    log('search latency in process');
    const search = await benchSearch(data.dataDir);

    log('memory (fresh child process per reading)');
    const mem = { parse: await memory('parse', data.dataDir, data.file), deps: await memory('deps', data.dataDir, data.file) };

    log(`HTTP: ${HTTP_REQUESTS} requests x ${HTTP_ROUNDS} rounds per side, concurrency ${HTTP_CONCURRENCY}`);
    const httpRes = await benchHttp(data.dataDir);

    const s = search.stats;
    const MB = (b) => fmt(b / 1048576, 1);
    const ratio = (x) => (Number.isFinite(x) ? `${fmt(x, 2)}x` : 'n/a');
    const { rest, mcp } = httpRes;
    const rows = [
      ['measure', 'ours', 'baseline', 'ratio', 'baseline is'],
      ['search p50 (us/query)', fmt(s.ours.p50, 1), fmt(s.scan.p50, 1), ratio(s.ours.p50 / s.scan.p50), 'linear scan of name (ours/scan)'],
      ['search p99 (us/query)', fmt(s.ours.p99, 1), fmt(s.scan.p99, 1), ratio(s.ours.p99 / s.scan.p99), 'linear scan of name (ours/scan)'],
      ['  index only p50 (us/query)', fmt(s.index_only.p50, 1), fmt(s.scan.p50, 1), ratio(s.index_only.p50 / s.scan.p50), 'linear scan of name (index/scan)'],
      ['REST /api/search (req/s)', fmt(rest.ours.rps), fmt(rest.floor.rps), ratio(rest.floor.rps / rest.ours.rps), 'bare node:http, same body (floor/ours)'],
      ['  REST p50 / p99 (ms)', `${fmt(rest.ours.p50_ms, 2)} / ${fmt(rest.ours.p99_ms, 2)}`, `${fmt(rest.floor.p50_ms, 2)} / ${fmt(rest.floor.p99_ms, 2)}`, ratio(rest.ours.p50_ms / rest.floor.p50_ms), 'p50 ours/floor'],
      ['MCP tools/call search_parts (req/s)', fmt(mcp.ours.rps), fmt(mcp.floor.rps), ratio(mcp.floor.rps / mcp.ours.rps), 'bare SDK server, 1 tool (floor/ours)'],
      ['  MCP p50 / p99 (ms)', `${fmt(mcp.ours.p50_ms, 2)} / ${fmt(mcp.ours.p99_ms, 2)}`, `${fmt(mcp.floor.p50_ms, 2)} / ${fmt(mcp.floor.p99_ms, 2)}`, ratio(mcp.ours.p50_ms / mcp.floor.p50_ms), 'p50 ours/floor'],
      ['heap after load (MB)', MB(mem.deps.heap_used_bytes), MB(mem.parse.heap_used_bytes), ratio(mem.deps.heap_used_bytes / mem.parse.heap_used_bytes), 'JSON.parse of the file (ours/parse)'],
      ['  rss growth (MB)', MB(mem.deps.rss_bytes), MB(mem.parse.rss_bytes), ratio(mem.deps.rss_bytes / mem.parse.rss_bytes), 'incl. SQLite :memory: (info)'],
      ['HTTP errors (of requests)', `${rest.ours.errors + mcp.ours.errors} / ${rest.ours.requests + mcp.ours.requests}`, `${rest.floor.errors + mcp.floor.errors} / ${rest.floor.requests + mcp.floor.requests}`, '', 'must be 0'],
    ];

    const cpus = os.cpus();
    const header =
      `robot-parts-mcp bench  ${new Date().toISOString()}  commit ${gitCommit() ?? 'n/a'}\n` +
      `node ${process.version}  ${os.platform()} ${os.arch()}  ${cpus.length} cpu (${cpus[0]?.model ?? 'unknown'})\n` +
      `catalogue: ${data.source === 'shipped' ? 'data/catalogue/entities.json' : 'SYNTHETIC (800 generated records, not the shipped catalogue)'}, ${search.entities} entities, dataset ${search.dataset_version}\n` +
      `search: ${search.queries} queries x ${search.rounds} rounds per method after 1 s warm-up\n` +
      `HTTP: ${HTTP_REQUESTS} requests/run, concurrency ${HTTP_CONCURRENCY}, keep-alive, ${HTTP_ROUNDS} runs per side (median shown), servers in child processes on 127.0.0.1\n` +
      `body size (median): REST ${fmt(httpRes.body_bytes.rest_median)} B, MCP result ${fmt(httpRes.body_bytes.mcp_median)} B\n`;
    const elapsed = (performance.now() - started) / 1000;
    process.stdout.write(`${header}\n${table(rows)}\n\nwall time ${fmt(elapsed, 1)} s; details in ${path.relative(ROOT, RESULTS)}\n`);

    const incomplete = rest.ours.incomplete_runs + rest.floor.incomplete_runs + mcp.ours.incomplete_runs + mcp.floor.incomplete_runs;
    if (incomplete > 0) log(`WARNING: ${incomplete} run(s) hit the ${RUN_DEADLINE_MS / 1000} s deadline before all requests completed`);

    fs.mkdirSync(path.dirname(RESULTS), { recursive: true });
    fs.writeFileSync(
      RESULTS,
      JSON.stringify(
        {
          at: new Date().toISOString(),
          commit: gitCommit(),
          node: process.version,
          platform: `${os.platform()} ${os.arch()}`,
          cpus: cpus.length,
          cpu_model: cpus[0]?.model ?? null,
          catalogue: { source: data.source, entities: search.entities, dataset_version: search.dataset_version },
          config: { search_rounds: search.rounds, queries: QUERIES, http_requests: HTTP_REQUESTS, http_concurrency: HTTP_CONCURRENCY, http_rounds: HTTP_ROUNDS, http_warmup: HTTP_WARMUP },
          ratios: {
            search_p50_ours_over_scan: s.ours.p50 / s.scan.p50,
            search_p99_ours_over_scan: s.ours.p99 / s.scan.p99,
            rest_floor_over_ours_rps: rest.floor.rps / rest.ours.rps,
            mcp_floor_over_ours_rps: mcp.floor.rps / mcp.ours.rps,
            heap_deps_over_parse: mem.deps.heap_used_bytes / mem.parse.heap_used_bytes,
          },
          search: { stats_us: s, per_query: search.perQuery },
          http: httpRes,
          memory: mem,
          wall_time_s: elapsed,
        },
        null,
        2,
      ) + '\n',
    );
    if (rest.ours.errors + mcp.ours.errors + rest.floor.errors + mcp.floor.errors > 0) {
      log('WARNING: some HTTP requests failed; see error_reasons in the results file');
      process.exitCode = 1;
    }
  } finally {
    data.cleanup();
  }
}

try {
  await main();
} catch (err) {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  for (const c of children) c.kill();
  process.exitCode = 1;
}
