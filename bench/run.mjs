#!/usr/bin/env node
// npm run bench: every row of issue 16's table. Search latency in process; REST, MCP (stateful
// and stateless) and the paid 650 kB listing against bare servers sending the same bytes; a
// synthetic catalogue scaled to 100,000 records (start, RSS, latency, cost per query vs size);
// stdio cold start against a bare SDK server; memory against a plain JSON.parse.
// Prints ours, the baseline, the ratio and the goal; writes bench/results/latest.json.
// `npm run bench -- --smoke`: a few requests of each kind, small scale, no goals (CI).
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
  frequentWords,
  importDist,
  openMcpSession,
  prepareDataDir,
  QUERIES,
  ROOT,
  rpcMessages,
  runLoad,
  searchContext,
  send,
  SHIPPED_ENTITIES,
  stdioColdStart,
  summarise,
  toolsCallBody,
  writeScaledCatalogue,
} from './lib.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CHILD = path.join(HERE, 'child.mjs');
const RESULTS = path.join(HERE, 'results', 'latest.json');

/** Knobs (env overrides for quick local runs; the defaults are the reported configuration). */
const SMOKE = process.argv.includes('--smoke');
// `npm run bench -- --pages`: only the HTML page rows against the REST JSON route (issue 41).
const PAGES_ONLY = process.argv.includes('--pages');
const SEARCH_ROUNDS = SMOKE ? 3 : Number(process.env.BENCH_SEARCH_ROUNDS ?? 300); // rounds over the query set
const SEARCH_BUDGET_MS = 15_000; // per method, whichever ends first
const HTTP_REQUESTS = SMOKE ? 40 : Number(process.env.BENCH_HTTP_REQUESTS ?? 3000); // per measured run
const PAID_REQUESTS = SMOKE ? 10 : 600; // per measured run of the 650 kB listing
const SCALE_REQUESTS = SMOKE ? 20 : 1000; // per measured run at the largest scale
const SEQUENTIAL_REQUESTS = SMOKE ? 10 : 400; // one at a time: latency without queueing
const HTTP_CONCURRENCY = 16;
// Floor and ours take turns in every order (the load generator and the machine warm up during a
// run); a req/s ratio is the median over rounds of ours/floor measured in the same round.
const HTTP_ROUNDS = SMOKE ? 1 : 6;
const HTTP_WARMUP = SMOKE ? 10 : 400;
const SCALE_SIZES = SMOKE ? [2_000] : [10_000, 100_000]; // besides the shipped catalogue
const SCALE_SEARCH_ROUNDS = SMOKE ? 2 : 30;
const BROAD_QUERIES = SMOKE ? 20 : 200; // issue 29: the most frequent words of names, makers and types
const FREQUENT_WORDS = SMOKE ? 10 : 40; // one at a time at the largest scale
const STDIO_RUNS = SMOKE ? 1 : 5;
const RUN_DEADLINE_MS = 30_000; // per measured run: the generator stops by itself
const WATCHDOG_MS = SMOKE ? 300_000 : 2_700_000; // the whole bench, last resort (~25 min on the loaded 2-core machine with the issue-47 rows)

const children = new Set();
const watchdog = setTimeout(() => {
  process.stderr.write(`bench: watchdog after ${WATCHDOG_MS / 1000}s, stopping\n`);
  for (const c of children) c.kill();
  process.exit(1);
}, WATCHDOG_MS);
watchdog.unref();

const log = (msg) => process.stderr.write(`bench: ${msg}\n`);
const fmt = (n, digits = 0) => (Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : 'n/a');
/**
 * CPU time a process has spent (user + system, all its threads), in clock ticks, from
 * /proc/<pid>/stat (fields 14 and 15); NaN where /proc is not there (the CPU rows then say n/a).
 */
const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()) || 100;
  } catch {
    return 100;
  }
})();
function cpuTicks(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // f[0] is field 3 (state)
    return Number(f[11]) + Number(f[12]);
  } catch {
    return NaN;
  }
}
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
  const { searchParts } = await importDist('domain/catalogue/parts.js');
  const { tokenize } = await importDist('domain/catalogue/search.js');
  const { readCatalogueData } = await importDist('store/catalogue-data.js');

  const data = readCatalogueData(dataDir);
  const deps = buildDeps(loadConfig({}, benchConfigOverrides(dataDir)), { log: silentLogger, catalogueData: data });
  const ctx = await searchContext(deps);
  const entities = data.entities;

  // The baseline: a plain linear scan over the same records, name only, AND of the terms.
  const scan = (q) => {
    const terms = q.toLowerCase().split(/\s+/).filter(Boolean);
    return entities.filter((e) => terms.every((t) => e.name.toLowerCase().includes(t)));
  };
  const methods = {
    ours: async (q) => (await searchParts(ctx, { q })).total,
    index_only: async (q) => deps.index.query([...new Set(tokenize(q))], { limit: 20 }).total,
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
    const timer = setTimeout(() => reject(new Error(`${kind} server did not start within 120 s`)), 120_000);
    child.on('message', (m) => {
      if (m.type === 'listening') {
        clearTimeout(timer);
        resolve({ kind, port: m.port, apiKey: m.apiKey, rss_bytes: m.rss_bytes, child });
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

/** One IPC request to a server child; resolves with its reply of type `replyType`. */
function ask(server, msg, replyType) {
  return new Promise((resolve, reject) => {
    const onMsg = (m) => {
      if (m.type === replyType) {
        server.child.off('message', onMsg);
        resolve(m);
      } else if (m.type === 'failed') {
        server.child.off('message', onMsg);
        reject(new Error(m.error));
      }
    };
    server.child.on('message', onMsg);
    server.child.send(msg);
  });
}

async function memory(mode, dataDir, file) {
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', CHILD, 'mem', mode, dataDir, file], { timeout: 60_000, cwd: ROOT });
  return JSON.parse(stdout.trim().split('\n').pop());
}

// ---------------------------------------------------------------------------------------
// Load runs: warm-up, then floor and ours alternate; the median run of each side is reported

const agg = (list) => ({
  rps: median(list.map((x) => x.rps)),
  // The server's own CPU per answered request (µs): all its runs' ticks over all their requests
  // (a tick is 10 ms, so one 3,000-request run alone would be too coarse), and the median run.
  cpu_us: (list.reduce((a, x) => a + x.cpu_ticks, 0) / CLK_TCK) * 1e6 / list.reduce((a, x) => a + x.completed, 0),
  cpu_us_median_run: median(list.map((x) => x.cpu_us)),
  p50_ms: median(list.map((x) => x.p50_ms)),
  p99_ms: median(list.map((x) => x.p99_ms)),
  errors: list.reduce((a, x) => a + x.errors, 0),
  requests: list.reduce((a, x) => a + x.completed, 0),
  incomplete_runs: list.filter((x) => x.timed_out).length,
  runs: list,
});

/** Every order of the items (2 sides: 2 orders, 3 sides: 6). */
function permutations(items) {
  if (items.length <= 1) return [items];
  return items.flatMap((x, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [x, ...rest]));
}

/**
 * sides: { floor: {port}, ours: {port}, ...}; opts(port, side) -> runLoad options without total.
 * Each round runs every side once, the order rotating through every permutation. `paired[side]`
 * is the median over rounds of side/floor req/s within the round: a drift of the machine's speed
 * during the comparison (seen as the first rounds running slower for every server) then cancels
 * out, where the ratio of the two sides' median runs can pair a slow round of one with a fast
 * round of the other.
 */
async function compare(label, sides, opts, total, warmup = HTTP_WARMUP, rounds = HTTP_ROUNDS) {
  log(`${label}: warm-up`);
  for (const [k, s] of Object.entries(sides)) await runLoad({ ...opts(s.port, k), total: warmup });
  const runs = Object.fromEntries(Object.keys(sides).map((k) => [k, []]));
  const orders = permutations(Object.keys(sides));
  for (let r = 0; r < rounds; r++) {
    for (const side of orders[r % orders.length]) {
      log(`${label}: round ${r + 1}/${rounds} ${side}`);
      // The server's CPU time over the run, read from /proc: unlike its rate, it is not capped by
      // the load generator (one thread, on the same cores) nor hidden by it.
      const pid = sides[side].child?.pid;
      const before = cpuTicks(pid);
      const run = await runLoad({ ...opts(sides[side].port, side), total });
      run.cpu_ticks = cpuTicks(pid) - before;
      run.cpu_us = (run.cpu_ticks / CLK_TCK) * 1e6 / run.completed;
      runs[side].push(run);
    }
  }
  const out = Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, agg(v)]));
  if (runs.floor) out.paired = Object.fromEntries(Object.keys(sides).filter((k) => k !== 'floor').map((k) => [k, median(runs[k].map((run, r) => run.rps / runs.floor[r].rps))]));
  return out;
}

const loadOpts = (build, check) => (port) => ({ port, concurrency: HTTP_CONCURRENCY, deadlineMs: RUN_DEADLINE_MS, build, check });

/** REST search latency one request at a time (no queueing behind other requests): the query set in turn. */
function sequential(port, queries = QUERIES, total = SEQUENTIAL_REQUESTS) {
  const paths = queries.map((q) => `/api/search?q=${encodeURIComponent(q)}`);
  return runLoad({
    port,
    concurrency: 1,
    deadlineMs: RUN_DEADLINE_MS,
    total,
    build: (i) => ({ method: 'GET', path: paths[i % paths.length] }),
    check: (res) => (res.status !== 200 ? `HTTP ${res.status}` : null),
  });
}

/**
 * The rate-limit write a free HTTP call makes (one hour window per subject, in the SQLite file in
 * WAL mode, as `serve` runs it) against the in-process search it guards. Subjects rotate over 50
 * addresses; the limit is high enough that nothing is refused.
 */
async function benchRateLimit(dataDir) {
  const { loadConfig } = await importDist('config.js');
  const { buildDeps } = await importDist('deps.js');
  const { silentLogger } = await importDist('log.js');
  const { searchParts } = await importDist('domain/catalogue/parts.js');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-bench-rl-'));
  const deps = buildDeps(loadConfig({}, { ...benchConfigOverrides(dataDir), dbPath: path.join(tmp, 'bench.db') }), { log: silentLogger });
  try {
    await deps.ready;
    const n = SMOKE ? 200 : 20_000;
    const ctx = await searchContext(deps);
    const time = async (fn) => {
      for (let i = 0; i < Math.min(n, 2000); i++) await fn(i);
      const t0 = performance.now();
      for (let i = 0; i < n; i++) await fn(i);
      return ((performance.now() - t0) * 1000) / n;
    };
    const hit = await time((i) => deps.rateLimiter.hit(`bench:${i % 50}`, 1_000_000_000, new Date()));
    const search = await time(() => searchParts(ctx, { q: 'servo' }));
    return { hit_us: hit, search_us: search, calls: n };
  } finally {
    deps.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * What ledger durability costs: paid calls (POST /api/bom/export, one line, JSON; 1 credit each:
 * a debit, a usage record and a ledger entry in one transaction) against a SQLite file in WAL
 * mode at synchronous=FULL (what `serve` runs) and at NORMAL (ROBOT_PARTS_SQLITE_SYNCHRONOUS,
 * for this comparison only), the two servers taking turns as the other rows do.
 */
async function benchDurability(dataDir) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-bench-sync-'));
  const requests = SMOKE ? 10 : 1000;
  const rounds = SMOKE ? 1 : 4;
  const warmup = SMOKE ? 5 : 100;
  const credits = warmup + requests * rounds + 10;
  const servers = [];
  try {
    const full = await startChild('ours', dataDir, { paidCredits: credits, dbFile: path.join(tmp, 'full.db'), synchronous: 'full' });
    servers.push(full);
    const normal = await startChild('ours', dataDir, { paidCredits: credits, dbFile: path.join(tmp, 'normal.db'), synchronous: 'normal' });
    servers.push(normal);
    const body = JSON.stringify({ items: [{ id: 'BENCH-1', name: 'bench part', price: 1, quantity: 1 }], format: 'json' });
    const keys = new Map([[full.port, full.apiKey], [normal.port, normal.apiKey]]);
    const load = (port) => ({
      port,
      concurrency: HTTP_CONCURRENCY,
      deadlineMs: RUN_DEADLINE_MS,
      build: () => ({ method: 'POST', path: '/api/bom/export', headers: { authorization: `Bearer ${keys.get(port)}`, 'content-type': 'application/json' }, body }),
      check: (res) => (res.status !== 200 ? `HTTP ${res.status}` : null),
    });
    const out = await compare('paid calls, SQLite FULL vs NORMAL', { floor: normal, ours: full }, load, requests, warmup, rounds);
    return { ...out, requests, rounds };
  } finally {
    for (const s of servers) await stopChild(s);
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------
// 2. REST search, MCP stateful and stateless, paid listing: ours against bare servers

/**
 * The page rows: the HTML of /search and /parts/{id} against the REST JSON of the same query on
 * the same server in the same run. `bodies`: [path, body] of /api/search for QUERIES (the part ids come from their hits).
 */
async function pageRows(ours, bodies) {
  const partIds = [...new Set(bodies.flatMap(([, b]) => JSON.parse(b).data.slice(0, 2).map((h) => h.id)))].slice(0, 12);
  const pageLoad = (html, json) =>
    (port, side) =>
      loadOpts(
        (i) => ({ method: 'GET', path: (side === 'floor' ? json : html)(i) }),
        (res) => (res.status !== 200 ? `HTTP ${res.status}` : null),
      )(port);
  const q = (i) => encodeURIComponent(QUERIES[i % QUERIES.length]);
  const id = (i) => encodeURIComponent(partIds[i % partIds.length]);
  return {
    page_search: await compare('HTML /search vs REST', { floor: ours, ours }, pageLoad((i) => `/search?q=${q(i)}`, (i) => `/api/search?q=${q(i)}`), HTTP_REQUESTS),
    page_part: await compare('HTML /parts/{id} vs REST', { floor: ours, ours }, pageLoad((i) => `/parts/${id(i)}`, (i) => `/api/entity/${id(i)}`), HTTP_REQUESTS),
  };
}

/** `--pages`: only the page rows (one server, the same loads and rounds as the full run's). */
async function benchPages(dataDir) {
  const ours = await startChild('ours', dataDir, {});
  try {
    const bodies = [];
    for (const q of QUERIES) {
      const p = `/api/search?q=${encodeURIComponent(q)}`;
      const res = await send(undefined, ours.port, { path: p });
      if (res.status !== 200) throw new Error(`GET ${p} answered ${res.status}: ${res.body.slice(0, 300)}`);
      bodies.push([p, res.body]);
    }
    return await pageRows(ours, bodies);
  } finally {
    await stopChild(ours);
  }
}

async function benchHttp(dataDir, broad) {
  const { LATEST_PROTOCOL_VERSION } = await import('./sdk.mjs');
  const servers = [];
  const start = async (kind, payload) => {
    const s = await startChild(kind, dataDir, payload);
    servers.push(s);
    return s;
  };
  try {
    const ours = await start('ours', { paidCredits: HTTP_WARMUP + PAID_REQUESTS * HTTP_ROUNDS + 10 });

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
    // The broad-query set (issue 29): what ours answers for each of its words, for the floors.
    const broadPaths = broad.map((q) => `/api/search?q=${encodeURIComponent(q)}`);
    const seenPaths = new Set(restPaths);
    for (const p of broadPaths) {
      if (seenPaths.has(p)) continue;
      seenPaths.add(p);
      const res = await send(undefined, ours.port, { path: p });
      if (res.status !== 200) throw new Error(`GET ${p} answered ${res.status}: ${res.body.slice(0, 300)}`);
      bodies.push([p, res.body]);
      restLen.set(p, Buffer.byteLength(res.body));
    }
    const seenQueries = new Set(QUERIES);
    for (const [i, q] of broad.entries()) {
      if (seenQueries.has(q)) continue;
      seenQueries.add(q);
      const id = 100_000 + i;
      const res = await send(undefined, ours.port, { method: 'POST', path: '/mcp', headers: probe, body: toolsCallBody(id, q) });
      const why = checkToolResult(res, id);
      if (why) throw new Error(`tools/call search_parts q=${q} on ours: ${why}: ${res.body.slice(0, 300)}`);
      results.push([q, rpcMessages(res).find((m) => m.id === id).result]);
    }
    await closeMcpSession(ours.port, probe);
    // The paid listing: one deep page with the key (its body changes only in the balance digits).
    const paidHeaders = { authorization: `Bearer ${ours.apiKey}` };
    const paid = await send(undefined, ours.port, { path: '/api/entities.json', headers: paidHeaders });
    if (paid.status !== 200 || JSON.parse(paid.body).meta.fields !== 'deep') throw new Error(`paid /api/entities.json answered ${paid.status}: ${paid.body.slice(0, 300)}`);
    const paidLen = Buffer.byteLength(paid.body);

    const floorRest = await start('floor-rest', { bodies: [...bodies, ['/api/entities.json', paid.body]] });
    const floorMcp = await start('floor-mcp', { results });
    const oursStateless = await start('ours', { stateless: true });
    // The same server with the answer cache off: every call searches and serialises its answer.
    const uncached = await start('ours', { answerCache: 0 });
    const floorStateless = await start('floor-mcp', { results, stateless: true });

    const rest = loadOpts(
      (i) => ({ method: 'GET', path: restPaths[i % restPaths.length] }),
      (res, i) => (res.status !== 200 ? `HTTP ${res.status}` : Buffer.byteLength(res.body) !== restLen.get(restPaths[i % restPaths.length]) ? 'body size differs' : null),
    );
    const restBroad = loadOpts(
      (i) => ({ method: 'GET', path: broadPaths[i % broadPaths.length] }),
      (res, i) => (res.status !== 200 ? `HTTP ${res.status}` : Buffer.byteLength(res.body) !== restLen.get(broadPaths[i % broadPaths.length]) ? 'body size differs' : null),
    );
    const sessions = new Map();
    for (const s of [ours, floorMcp, uncached]) {
      const list = [];
      for (let w = 0; w < HTTP_CONCURRENCY; w++) list.push(await openMcpSession(s.port, LATEST_PROTOCOL_VERSION));
      sessions.set(s.port, list);
    }
    const mcp = (port) =>
      loadOpts(
        (i, w) => ({ method: 'POST', path: '/mcp', headers: sessions.get(port)[w], body: toolsCallBody(i + 1, QUERIES[i % QUERIES.length]) }),
        (res, i) => checkToolResult(res, i + 1),
      )(port);
    const mcpBroad = (port) =>
      loadOpts(
        (i, w) => ({ method: 'POST', path: '/mcp', headers: sessions.get(port)[w], body: toolsCallBody(i + 1, broad[i % broad.length]) }),
        (res, i) => checkToolResult(res, i + 1),
      )(port);
    const statelessHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': LATEST_PROTOCOL_VERSION };
    const mcpStateless = loadOpts(
      (i) => ({ method: 'POST', path: '/mcp', headers: statelessHeaders, body: toolsCallBody(i + 1, QUERIES[i % QUERIES.length]) }),
      (res, i) => checkToolResult(res, i + 1),
    );
    const paidLoad = loadOpts(
      () => ({ method: 'GET', path: '/api/entities.json', headers: paidHeaders }),
      (res) => (res.status !== 200 ? `HTTP ${res.status}` : Math.abs(Buffer.byteLength(res.body) - paidLen) > 16 ? 'body size differs' : null),
    );

    const out = {};
    out.rest = await compare('REST search', { floor: floorRest, ours, uncached }, rest, HTTP_REQUESTS);
    // Issue 47: one query asked again and again (a hot answer), for the server's CPU per request.
    const onePath = restPaths[0];
    out.rest_one = await compare(
      'REST search, one repeated query',
      { floor: floorRest, ours, uncached },
      loadOpts(
        () => ({ method: 'GET', path: onePath }),
        (res) => (res.status !== 200 ? `HTTP ${res.status}` : Buffer.byteLength(res.body) !== restLen.get(onePath) ? 'body size differs' : null),
      ),
      HTTP_REQUESTS,
    );
    log('REST search: one request at a time');
    out.rest_sequential = await sequential(uncached.port); // the baseline of the scaled rows, which run with the cache off
    out.mcp = await compare('MCP stateful', { floor: floorMcp, ours, uncached }, mcp, HTTP_REQUESTS);
    // Issue 29: broad queries in rotation (the catalogue's most frequent words), cache on and off.
    out.rest_broad = await compare(`REST search, ${broad.length} broad queries`, { floor: floorRest, ours, uncached }, restBroad, HTTP_REQUESTS);
    out.mcp_broad = await compare(`MCP stateful, ${broad.length} broad queries`, { floor: floorMcp, ours, uncached }, mcpBroad, HTTP_REQUESTS);
    out.mcp_stateless = await compare('MCP stateless', { floor: floorStateless, ours: oursStateless }, mcpStateless, HTTP_REQUESTS);
    out.paid = await compare('paid entities.json', { floor: floorRest, ours }, paidLoad, PAID_REQUESTS, Math.min(HTTP_WARMUP, 100));
    // Pages: the HTML of /search and /parts/{id} against the REST JSON of the same query on the
    // same server in the same run (a page renders the same tool answers, plus its facets).
    Object.assign(out, await pageRows(ours, bodies));
    out.search_in_server = (await ask(ours, { type: 'search', rounds: SCALE_SEARCH_ROUNDS }, 'search-result')).stats;
    for (const s of [ours, floorMcp, uncached]) for (const h of sessions.get(s.port)) await closeMcpSession(s.port, h);
    out.body_bytes = { broad_rest_median: median(broadPaths.map((p) => restLen.get(p))), rest_median: median([...restLen.values()]), mcp_median: median(results.map(([, r]) => Buffer.byteLength(JSON.stringify(r)))), paid: paidLen };
    return out;
  } finally {
    await Promise.all(servers.map(stopChild));
  }
}

// ---------------------------------------------------------------------------------------
// 3. Scale: synthetic catalogues of SCALE_SIZES records made from the shipped ones

/** Forks our server (answer cache off) on a data dir; resolves once /healthz answers 200, with the ms from fork. */
async function startUntilHealthy(dataDir) {
  const t0 = performance.now();
  const server = await startChild('ours', dataDir, { answerCache: 0 });
  for (;;) {
    const r = await send(undefined, server.port, { path: '/healthz' }).catch(() => null);
    if (r?.status === 200) break;
    await new Promise((res) => setTimeout(res, 5));
  }
  return { server, startMs: performance.now() - t0 };
}

/**
 * A cold instance: fork, /healthz, then at once the most frequent words one request at a time
 * (each once, in order: what a new instance behind a balancer gets), then the first spec-filtered
 * search, then the RSS. Nothing else has touched the server before.
 */
async function coldInstance(dataDir, size, words) {
  log(`scale ${size}: cold instance, the first ${words.length} broad searches right after the start`);
  const { server, startMs } = await startUntilHealthy(dataDir);
  const bodies = [];
  try {
    const ms = [];
    for (const w of words) {
      const p = `/api/search?q=${encodeURIComponent(w)}`;
      const t = performance.now();
      const r = await send(undefined, server.port, { path: p });
      ms.push(performance.now() - t);
      if (r.status !== 200) throw new Error(`cold search ${w} at ${size} answered ${r.status}: ${r.body.slice(0, 300)}`);
      bodies.push([p, r.body]);
    }
    const where = encodeURIComponent('torque_rated>=1 N·m;trl>=1');
    const t1 = performance.now();
    const r = await send(undefined, server.port, { path: `/api/search?q=servo&where=${where}` }, 120_000);
    const whereMs = performance.now() - t1;
    if (r.status !== 200) throw new Error(`cold spec-filtered search at ${size} answered ${r.status}: ${r.body.slice(0, 300)}`);
    const rss = (await ask(server, { type: 'rss' }, 'rss-result')).rss_bytes;
    await stopChild(server);
    // The measurement's own floor: a new bare node:http server sending the same bytes, asked the
    // same requests the same way (what the client, the kernel and a cold process cost by themselves).
    const floor = await startChild('floor-rest', dataDir, { bodies });
    const floorMs = [];
    try {
      for (const [p] of bodies) {
        const t = performance.now();
        const r = await send(undefined, floor.port, { path: p });
        floorMs.push(performance.now() - t);
        if (r.status !== 200) throw new Error(`cold floor ${p} answered ${r.status}`);
      }
    } finally {
      await stopChild(floor);
    }
    return { start_ms: startMs, broad_ms: ms, broad_p50_ms: median(ms), broad_first_ms: ms[0], first_where_ms: whereMs, rss_bytes: rss, floor_broad_ms: floorMs, floor_broad_p50_ms: median(floorMs) };
  } finally {
    await stopChild(server);
  }
}

async function benchScale(sourceFile, frequent) {
  const out = [];
  // Catalogue files of at least this size are read lazily and get a prepared start.
  const { INDEX_WORKER_MIN_BYTES } = await importDist('store/search-index-build.js');
  for (const [n, size] of SCALE_SIZES.entries()) {
    log(`scale ${size}: generating the catalogue`);
    const cat = writeScaledCatalogue(sourceFile, size);
    let server = null;
    try {
      const t0 = performance.now();
      // Answer cache off: these rows measure how the search's cost grows with the catalogue.
      server = await startChild('ours', cat.dataDir, { answerCache: 0 });
      // Start = fork until /healthz answers 200 (node start, imports, data load, index, listen).
      for (;;) {
        const r = await send(undefined, server.port, { path: '/healthz' }).catch(() => null);
        if (r?.status === 200) break;
        await new Promise((res) => setTimeout(res, 5));
      }
      const startMs = performance.now() - t0;
      const rssStart = server.rss_bytes;
      // The first start on the catalogue derives it and writes its prepared start beside it
      // (src/store/catalogue-prepared.ts) once the index is built; later starts read that instead.
      const prepared = path.join(cat.dataDir, 'catalogue', 'entities.prepared');
      const large = fs.statSync(path.join(cat.dataDir, 'catalogue', 'entities.json')).size >= INDEX_WORKER_MIN_BYTES;
      for (const t = performance.now(); large && !fs.existsSync(prepared) && performance.now() - t < 120_000; ) await new Promise((res) => setTimeout(res, 50));
      log(`scale ${size}: started in ${fmt(startMs)} ms (prepared start written: ${fs.existsSync(prepared)}); in-process search`);
      const search = (await ask(server, { type: 'search', rounds: SCALE_SEARCH_ROUNDS }, 'search-result')).stats;
      let rest = null;
      if (n === SCALE_SIZES.length - 1) {
        const paths = QUERIES.map((q) => `/api/search?q=${encodeURIComponent(q)}`);
        rest = (
          await compare(
            `REST search at ${size}`,
            { ours: server },
            loadOpts((i) => ({ method: 'GET', path: paths[i % paths.length] }), (res) => (res.status !== 200 ? `HTTP ${res.status}` : null)),
            SCALE_REQUESTS,
            Math.min(HTTP_WARMUP, 100),
          )
        ).ours;
      }
      let restSequential = null;
      let restFrequent = null;
      if (n === SCALE_SIZES.length - 1) {
        log(`REST search at ${size}: one request at a time`);
        restSequential = await sequential(server.port);
        log(`REST search at ${size}: the ${frequent.length} most frequent words, one at a time`);
        restFrequent = await sequential(server.port, frequent, frequent.length * (SMOKE ? 1 : 10));
      }
      const rss = (await ask(server, { type: 'rss' }, 'rss-result')).rss_bytes;
      // The spec layer and the analytics document are built on first use (a plain search never
      // needs them): the first spec-filtered search pays for them, once. Measured after the
      // search rows above, with the RSS once they are built.
      let firstWhere = null;
      if (n === SCALE_SIZES.length - 1) {
        log(`scale ${size}: first spec-filtered search (builds the spec layer)`);
        const where = encodeURIComponent('torque_rated>=1 N·m;trl>=1');
        const t1 = performance.now();
        const r = await send(undefined, server.port, { path: `/api/search?q=servo&where=${where}` }, 120_000);
        const ms = performance.now() - t1;
        if (r.status !== 200) throw new Error(`spec-filtered search at ${size} answered ${r.status}: ${r.body.slice(0, 300)}`);
        const t2 = performance.now();
        await send(undefined, server.port, { path: `/api/search?q=motor&where=${where}` });
        firstWhere = { first_ms: ms, next_ms: performance.now() - t2, rss_bytes: (await ask(server, { type: 'rss' }, 'rss-result')).rss_bytes };
      }
      await stopChild(server);
      server = null;
      // Issue 47: a new instance (behind a load balancer) of the catalogue an earlier start prepared, asked broad questions at once.
      const cold = n === SCALE_SIZES.length - 1 ? { ...(await coldInstance(cat.dataDir, size, frequent)), prepared: fs.existsSync(prepared) } : null;
      out.push({ size, start_ms: startMs, rss_start_bytes: rssStart, rss_bytes: rss, search, rest, rest_sequential: restSequential, rest_frequent: restFrequent, first_where: firstWhere, cold });
    } finally {
      if (server) await stopChild(server);
      cat.cleanup();
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// 4. stdio cold start to the first tools/list

async function benchStdio(dataDir) {
  const { LATEST_PROTOCOL_VERSION } = await import('./sdk.mjs');
  const ours = [];
  const bare = [];
  const copied = [];
  const env = { ROBOT_PARTS_DB: ':memory:', ROBOT_PARTS_DATA_DIR: dataDir, ROBOT_PARTS_LOG_LEVEL: 'error' };
  // Issue 47: as installed from the tarball, every file of dist/ has a new time (a copy here, with
  // node_modules linked): the prebuilt tools/list must still be used (it is keyed by content).
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-bench-installed-'));
  try {
    fs.cpSync(path.join(ROOT, 'dist'), path.join(tmp, 'dist'), { recursive: true, preserveTimestamps: false });
    fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(tmp, 'package.json'));
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(tmp, 'node_modules'));
    for (let r = 0; r < STDIO_RUNS; r++) {
      log(`stdio cold start ${r + 1}/${STDIO_RUNS}`);
      bare.push(await stdioColdStart([path.join(HERE, 'bare-stdio.mjs')], {}, LATEST_PROTOCOL_VERSION));
      ours.push(await stdioColdStart([path.join(ROOT, 'dist', 'cli.js')], env, LATEST_PROTOCOL_VERSION));
      copied.push(await stdioColdStart([path.join(tmp, 'dist', 'cli.js')], env, LATEST_PROTOCOL_VERSION));
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const ms = (runs) => runs.map((r) => r.ms);
  const listMs = (runs) => runs.map((r) => r.list_ms);
  return {
    ours_ms: median(ms(ours)),
    bare_ms: median(ms(bare)),
    installed_ms: median(ms(copied)),
    ours_list_ms: median(listMs(ours)),
    bare_list_ms: median(listMs(bare)),
    installed_list_ms: median(listMs(copied)),
    ours_runs: ours,
    bare_runs: bare,
    installed_runs: copied,
  };
}

// ---------------------------------------------------------------------------------------
// Report

function table(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
  const last = rows[0].length - 1;
  const line = (r) => r.map((v, c) => (c === 0 || c >= last - 1 ? String(v).padEnd(widths[c]) : String(v).padStart(widths[c]))).join('  ').trimEnd();
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
    if (SMOKE) log('SMOKE profile: a few requests of each kind; the numbers mean nothing');
    if (PAGES_ONLY) {
      log(`pages only: ${HTTP_REQUESTS} requests x ${HTTP_ROUNDS} rounds per side, concurrency ${HTTP_CONCURRENCY}`);
      const p = await benchPages(data.dataDir);
      const x = (v) => (Number.isFinite(v) ? `${fmt(v, 2)}x` : 'n/a');
      const row = (name, r) => [name, fmt(r.ours.rps), fmt(r.floor.rps), x(r.paired.ours), SMOKE ? '(smoke)' : '>= 0.7x', `errors ${r.ours.errors + r.floor.errors} / ${r.ours.requests + r.floor.requests}`];
      console.log(`robot-parts-mcp bench --pages${SMOKE ? ' (SMOKE)' : ''}  ${new Date().toISOString()}  commit ${gitCommit() ?? 'n/a'}  load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
      console.log(table([['measure', 'ours', 'REST JSON', 'html/json', 'goal', ''], row('HTML GET /search (req/s)', p.page_search), row('HTML GET /parts/{id} (req/s)', p.page_part)]));
      return;
    }

    log('search latency in process');
    const search = await benchSearch(data.dataDir);

    log('rate-limit write per free call');
    const rateLimit = await benchRateLimit(data.dataDir);

    log('paid calls: SQLite ledger at synchronous FULL against NORMAL');
    const durability = await benchDurability(data.dataDir);

    log('memory (fresh child process per reading)');
    const mem = { parse: await memory('parse', data.dataDir, data.file), deps: await memory('deps', data.dataDir, data.file) };

    log(`HTTP: ${HTTP_REQUESTS} requests x ${HTTP_ROUNDS} rounds per side, concurrency ${HTTP_CONCURRENCY}`);
    const words = frequentWords(JSON.parse(fs.readFileSync(data.file, 'utf8')).entities, BROAD_QUERIES);
    const httpRes = await benchHttp(data.dataDir, words);

    const scale = await benchScale(data.file, words.slice(0, FREQUENT_WORDS));
    const stdio = await benchStdio(data.dataDir);

    const s = search.stats;
    const MB = (b) => fmt(b / 1048576, 1);
    const x = (v) => (Number.isFinite(v) ? `${fmt(v, 2)}x` : 'n/a');
    const goal = (text) => (SMOKE ? '(smoke)' : text);
    const { rest, mcp, mcp_stateless: mcpSl, paid } = httpRes;
    const big = scale[scale.length - 1];
    const shippedCost = httpRes.search_in_server.p50;
    const growth = (row) => (row.search.p50 / shippedCost) / (row.size / search.entities);
    // Issue 47: each server's CPU per request from /proc (utime+stime), the floor in its own process.
    const cpuRows = [
      ['CPU/request REST, one query, cache on (us)', httpRes.rest_one, 'ours', '>= 0.8x'],
      ['  one query, cache off (us)', httpRes.rest_one, 'uncached', ''],
      [`CPU/request REST, ${words.length} broad, cache off (us)`, httpRes.rest_broad, 'uncached', '>= 0.5x'],
      [`  ${words.length} broad, cache on (us)`, httpRes.rest_broad, 'ours', ''],
      [`CPU/request REST, ${QUERIES.length} queries, cache on (us)`, rest, 'ours', ''],
      ['  cache off (us)', rest, 'uncached', ''],
      [`CPU/request MCP tools/call, ${QUERIES.length} queries, cache on (us)`, mcp, 'ours', ''],
      ['  cache off (us)', mcp, 'uncached', ''],
      [`CPU/request MCP tools/call, ${words.length} broad, cache on (us)`, httpRes.mcp_broad, 'ours', ''],
      ['  cache off (us)', httpRes.mcp_broad, 'uncached', ''],
    ];
    const rows = [
      ['measure', 'ours', 'baseline', 'ratio', 'goal', 'baseline is'],
      ['REST GET /api/search (req/s)', fmt(rest.ours.rps), fmt(rest.floor.rps), x(rest.paired.ours), goal('>= 0.7x'), 'bare node:http, same bytes (ours/floor)'],
      ['  REST p50 / p99 (ms)', `${fmt(rest.ours.p50_ms, 2)} / ${fmt(rest.ours.p99_ms, 2)}`, `${fmt(rest.floor.p50_ms, 2)} / ${fmt(rest.floor.p99_ms, 2)}`, x(rest.ours.p50_ms / rest.floor.p50_ms), '', 'p50 ours/floor'],
      ['  answer cache off (req/s)', fmt(rest.uncached.rps), fmt(rest.floor.rps), x(rest.paired.uncached), '', 'same floor; every call searches and serialises'],
      ['MCP tools/call stateful (req/s)', fmt(mcp.ours.rps), fmt(mcp.floor.rps), x(mcp.paired.ours), goal('>= 0.8x'), 'bare SDK server, 1 tool (ours/floor)'],
      ['  MCP p50 / p99 (ms)', `${fmt(mcp.ours.p50_ms, 2)} / ${fmt(mcp.ours.p99_ms, 2)}`, `${fmt(mcp.floor.p50_ms, 2)} / ${fmt(mcp.floor.p99_ms, 2)}`, x(mcp.ours.p50_ms / mcp.floor.p50_ms), '', 'p50 ours/floor'],
      ['  answer cache off (req/s)', fmt(mcp.uncached.rps), fmt(mcp.floor.rps), x(mcp.paired.uncached), '', 'same floor; every call searches and serialises'],
      [`REST /api/search, ${words.length} broad queries, cache off (req/s)`, fmt(httpRes.rest_broad.uncached.rps), fmt(httpRes.rest_broad.floor.rps), x(httpRes.rest_broad.paired.uncached), goal('>= 0.8x'), 'bare node:http, same bytes; the most frequent words of names, makers, types'],
      ['  answer cache on (req/s)', fmt(httpRes.rest_broad.ours.rps), fmt(httpRes.rest_broad.floor.rps), x(httpRes.rest_broad.paired.ours), '', 'same floor'],
      [`MCP tools/call stateful, ${words.length} broad queries, cache off (req/s)`, fmt(httpRes.mcp_broad.uncached.rps), fmt(httpRes.mcp_broad.floor.rps), x(httpRes.mcp_broad.paired.uncached), goal('>= 0.8x'), 'bare SDK server returning the same results'],
      ['  answer cache on (req/s)', fmt(httpRes.mcp_broad.ours.rps), fmt(httpRes.mcp_broad.floor.rps), x(httpRes.mcp_broad.paired.ours), '', 'same floor'],
      ['MCP tools/call --stateless (req/s)', fmt(mcpSl.ours.rps), fmt(mcpSl.floor.rps), x(mcpSl.paired.ours), goal('>= 0.8x'), 'bare stateless SDK server (ours/floor)'],
      ['search p50 in process (us/query)', fmt(s.ours.p50, 1), fmt(s.scan.p50, 1), x(s.ours.p50 / s.scan.p50), goal('<= 20 us'), 'linear scan of name (ours/scan)'],
      ['search p99 in process (us/query)', fmt(s.ours.p99, 1), fmt(s.scan.p99, 1), x(s.ours.p99 / s.scan.p99), goal('<= 100 us'), 'linear scan of name (ours/scan)'],
      ['  index only p50 (us/query)', fmt(s.index_only.p50, 1), fmt(s.scan.p50, 1), x(s.index_only.p50 / s.scan.p50), '', 'linear scan of name (index/scan)'],
      ...(big.cold
        ? [
            [`${fmt(big.size)} cold instance: median of the first ${big.cold.broad_ms.length} broad searches (ms)`, fmt(big.cold.broad_p50_ms, 2), fmt(big.cold.floor_broad_p50_ms, 2), '', goal('<= 1 ms'), `baseline: a new bare node:http server sending the same bytes, asked the same way (the measurement's floor); first of ours ${fmt(big.cold.broad_first_ms, 1)} ms; REST, one at a time, right after /healthz; ${big.cold.prepared ? 'on the prepared start an earlier start wrote' : 'NO prepared start (derived)'}`],
            [`  cold: start to /healthz / first filtered search (s)`, `${fmt(big.cold.start_ms / 1000, 2)} / ${fmt(big.cold.first_where_ms / 1000, 2)}`, '', '', goal('<= 2 s / <= 1 s'), 'fork to first 200; then the broad searches; then the filter'],
            [`  cold: RSS (MB)`, MB(big.cold.rss_bytes), '', '', goal('<= 300 MB'), 'after those searches'],
          ]
        : []),
      [`${fmt(big.size)} entities: first start to /healthz (s)`, fmt(big.start_ms / 1000, 2), '', '', goal('<= 2 s'), 'fork to first 200; derives the catalogue (no prepared start yet) and prepares it'],
      [`${fmt(big.size)} entities: RSS (MB)`, MB(big.rss_bytes), '', '', goal('<= 400 MB'), 'server process after the load'],
      ...(big.first_where
        ? [
            [`  first spec-filtered search (ms)`, fmt(big.first_where.first_ms), fmt(big.first_where.next_ms, 1), '', goal('<= 1000 ms'), 'the next spec-filtered search'],
            [`  RSS after a filtered search (MB)`, MB(big.first_where.rss_bytes), '', '', goal('<= 300 MB'), 'server process'],
          ]
        : []),
      [`${fmt(big.size)} entities: REST p50 / p99 (ms)`, `${fmt(big.rest_sequential.p50_ms, 2)} / ${fmt(big.rest_sequential.p99_ms, 2)}`, `${fmt(httpRes.rest_sequential.p50_ms, 2)} / ${fmt(httpRes.rest_sequential.p99_ms, 2)}`, x(big.rest_sequential.p50_ms / httpRes.rest_sequential.p50_ms), goal('p50 <= 2 ms'), `shipped catalogue, cache off, one request at a time (p50 ${fmt(big.size)}/shipped)`],
      ...(big.rest_frequent
        ? [[`  median over the ${FREQUENT_WORDS} most frequent words (ms)`, fmt(big.rest_frequent.p50_ms, 2), '', '', goal('<= 1 ms'), 'REST, cache off, one at a time']]
        : []),
      [`  under load, ${HTTP_CONCURRENCY} at a time (ms)`, `${fmt(big.rest.p50_ms, 2)} / ${fmt(big.rest.p99_ms, 2)}`, `${fmt(rest.uncached.p50_ms, 2)} / ${fmt(rest.uncached.p99_ms, 2)}`, x(big.rest.p50_ms / rest.uncached.p50_ms), '', `shipped catalogue, cache off, under the same load (includes queueing)`],
      [`${fmt(big.size)} entities: bulk REST (req/s)`, fmt(big.rest.rps), fmt(rest.uncached.rps), x(big.rest.rps / rest.uncached.rps), '', 'shipped catalogue, cache off'],
      ...scale.map((row) => [
        `cost per query at ${fmt(row.size)} (us p50)`,
        fmt(row.search.p50, 1),
        fmt(shippedCost, 1),
        x(growth(row)),
        goal('< 1x'),
        `(cost growth)/(size growth x${fmt(row.size / search.entities, 0)}) vs shipped`,
      ]),
      ['rate-limit write per free call (us)', fmt(rateLimit.hit_us, 1), fmt(rateLimit.search_us, 1), x(rateLimit.hit_us / rateLimit.search_us), '', 'in-process search it guards (SQLite file, WAL)'],
      ['paid calls, SQLite FULL (req/s)', fmt(durability.ours.rps), fmt(durability.floor.rps), x(durability.paired.ours), '', 'same server at synchronous=NORMAL (FULL/NORMAL); POST /api/bom/export, 1 credit each'],
      ['  paid p50 / p99 FULL (ms)', `${fmt(durability.ours.p50_ms, 2)} / ${fmt(durability.ours.p99_ms, 2)}`, `${fmt(durability.floor.p50_ms, 2)} / ${fmt(durability.floor.p99_ms, 2)}`, x(durability.ours.p50_ms / durability.floor.p50_ms), '', 'p50 FULL/NORMAL'],
      ...cpuRows.map(([label, l, k, g]) => [label, fmt(l[k].cpu_us, 1), fmt(l.floor.cpu_us, 1), x(l.floor.cpu_us / l[k].cpu_us), goal(g), `${l === httpRes.rest_one || l === rest || l === httpRes.rest_broad ? 'bare node:http' : 'bare SDK server'}, same bytes (floor/ours; 1 = no cost over the floor)`]),
      ['HTML GET /search (req/s)', fmt(httpRes.page_search.ours.rps), fmt(httpRes.page_search.floor.rps), x(httpRes.page_search.paired.ours), goal('>= 0.7x'), 'REST GET /api/search, same queries, same server and run (html/json)'],
      ['HTML GET /parts/{id} (req/s)', fmt(httpRes.page_part.ours.rps), fmt(httpRes.page_part.floor.rps), x(httpRes.page_part.paired.ours), '', 'REST GET /api/entity/{id}, same ids, same server and run (html/json)'],
      ['paid GET /api/entities.json (req/s)', fmt(paid.ours.rps), fmt(paid.floor.rps), x(paid.paired.ours), goal('>= 0.5x'), `bare node:http, same ${fmt(httpRes.body_bytes.paid / 1024)} kB (ours/floor)`],
      ['stdio cold start to tools/list (ms)', fmt(stdio.ours_ms), fmt(stdio.bare_ms), x(stdio.ours_ms / stdio.bare_ms), goal('<= 1.5x'), 'bare SDK stdio server, 1 tool (ours/bare)'],
      ['  installed copy (new file times) (ms)', fmt(stdio.installed_ms), fmt(stdio.bare_ms), x(stdio.installed_ms / stdio.bare_ms), goal('<= 1.5x'), 'dist/ copied with new times, as a tarball install leaves it (ours/bare), spawn to answer'],
      ['  tools/list itself: clone / installed copy (ms)', `${fmt(stdio.ours_list_ms, 1)} / ${fmt(stdio.installed_list_ms, 1)}`, fmt(stdio.bare_list_ms, 1), '', goal('<= 60 ms'), 'from sending tools/list (after the handshake) to its answer; a rebuilt list shows here'],
      ['heap after load (MB)', MB(mem.deps.heap_used_bytes), MB(mem.parse.heap_used_bytes), x(mem.deps.heap_used_bytes / mem.parse.heap_used_bytes), '', 'JSON.parse of the file (ours/parse)'],
      ['  rss growth (MB)', MB(mem.deps.rss_bytes), MB(mem.parse.rss_bytes), x(mem.deps.rss_bytes / mem.parse.rss_bytes), '', 'info'],
    ];
    const loads = [rest, httpRes.rest_one, mcp, httpRes.rest_broad, httpRes.mcp_broad, mcpSl, paid, durability, httpRes.page_search, httpRes.page_part];
    const seqRuns = [httpRes.rest_sequential, big.rest_sequential, big.rest_frequent].filter(Boolean);
    const side = (l, k) => l.ours[k] + (l.uncached?.[k] ?? 0); // ours with the answer cache on, and off
    const errOurs = loads.reduce((a, l) => a + side(l, 'errors'), 0) + (big.rest?.errors ?? 0) + seqRuns.reduce((a, r) => a + r.errors, 0);
    const errFloor = loads.reduce((a, l) => a + l.floor.errors, 0);
    const reqOurs = loads.reduce((a, l) => a + side(l, 'requests'), 0) + (big.rest?.requests ?? 0) + seqRuns.reduce((a, r) => a + r.requested, 0);
    const reqFloor = loads.reduce((a, l) => a + l.floor.requests, 0);
    rows.push(['HTTP errors (of requests)', `${errOurs} / ${reqOurs}`, `${errFloor} / ${reqFloor}`, '', 'must be 0', '']);

    const cpus = os.cpus();
    const header =
      `robot-parts-mcp bench${SMOKE ? ' (SMOKE: numbers are not comparable)' : ''}  ${new Date().toISOString()}  commit ${gitCommit() ?? 'n/a'}\n` +
      `node ${process.version}  ${os.platform()} ${os.arch()}  ${cpus.length} cpu (${cpus[0]?.model ?? 'unknown'})  load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}\n` +
      `catalogue: ${data.source === 'shipped' ? 'data/catalogue/entities.json' : 'SYNTHETIC (800 generated records, not the shipped catalogue)'}, ${search.entities} entities, dataset ${search.dataset_version}; scaled copies: ${SCALE_SIZES.map((n) => fmt(n)).join(', ')}\n` +
      `search: ${search.queries} queries x ${search.rounds} rounds per method after 1 s warm-up\n` +
      `HTTP: ${HTTP_REQUESTS} requests/run (paid ${PAID_REQUESTS}, scaled ${SCALE_REQUESTS}), concurrency ${HTTP_CONCURRENCY}, keep-alive, ${HTTP_ROUNDS} runs per side in rotating order (median run shown; a req/s ratio is the median over rounds of ours/floor in the same round), servers in child processes on 127.0.0.1\n` +
      `body size (median): REST ${fmt(httpRes.body_bytes.rest_median)} B (broad queries ${fmt(httpRes.body_bytes.broad_rest_median)} B), MCP result ${fmt(httpRes.body_bytes.mcp_median)} B, paid listing ${fmt(httpRes.body_bytes.paid)} B\n`;
    const elapsed = (performance.now() - started) / 1000;
    process.stdout.write(`${header}\n${table(rows)}\n\nwall time ${fmt(elapsed, 1)} s; details in ${path.relative(ROOT, RESULTS)}\n`);

    const incomplete = loads.reduce((a, l) => a + l.ours.incomplete_runs + l.floor.incomplete_runs, 0) + (big.rest?.incomplete_runs ?? 0);
    if (incomplete > 0) log(`WARNING: ${incomplete} run(s) hit the ${RUN_DEADLINE_MS / 1000} s deadline before all requests completed`);

    fs.mkdirSync(path.dirname(RESULTS), { recursive: true });
    fs.writeFileSync(
      RESULTS,
      JSON.stringify(
        {
          at: new Date().toISOString(),
          smoke: SMOKE,
          commit: gitCommit(),
          node: process.version,
          platform: `${os.platform()} ${os.arch()}`,
          cpus: cpus.length,
          cpu_model: cpus[0]?.model ?? null,
          loadavg: os.loadavg(),
          catalogue: { source: data.source, entities: search.entities, dataset_version: search.dataset_version },
          config: { search_rounds: search.rounds, queries: QUERIES, broad_queries: words, frequent_words: words.slice(0, FREQUENT_WORDS), http_requests: HTTP_REQUESTS, paid_requests: PAID_REQUESTS, scale_requests: SCALE_REQUESTS, http_concurrency: HTTP_CONCURRENCY, http_rounds: HTTP_ROUNDS, http_warmup: HTTP_WARMUP, scale_sizes: SCALE_SIZES },
          ratios: {
            rest_ours_over_floor_rps: rest.paired.ours,
            // Issue 47: floor CPU per request / ours (1 = ours costs no more than the floor).
            cpu_floor_over_ours: Object.fromEntries(cpuRows.map(([label, l, k]) => [label.trim(), l.floor.cpu_us / l[k].cpu_us])),
            mcp_ours_over_floor_rps: mcp.paired.ours,
            rest_uncached_over_floor_rps: rest.paired.uncached,
            mcp_uncached_over_floor_rps: mcp.paired.uncached,
            mcp_stateless_ours_over_floor_rps: mcpSl.paired.ours,
            rest_broad_uncached_over_floor_rps: httpRes.rest_broad.paired.uncached,
            rest_broad_ours_over_floor_rps: httpRes.rest_broad.paired.ours,
            mcp_broad_uncached_over_floor_rps: httpRes.mcp_broad.paired.uncached,
            mcp_broad_ours_over_floor_rps: httpRes.mcp_broad.paired.ours,
            search_p50_ours_over_scan: s.ours.p50 / s.scan.p50,
            search_p99_ours_over_scan: s.ours.p99 / s.scan.p99,
            paid_ours_over_floor_rps: paid.paired.ours,
            paid_sqlite_full_over_normal_rps: durability.paired.ours,
            html_search_over_rest_rps: httpRes.page_search.paired.ours,
            html_part_over_rest_rps: httpRes.page_part.paired.ours,
            // The same ratios as the ratio of each side's median run (the estimator before the paired one).
            median_runs: {
              rest: rest.ours.rps / rest.floor.rps,
              rest_uncached: rest.uncached.rps / rest.floor.rps,
              mcp: mcp.ours.rps / mcp.floor.rps,
              mcp_uncached: mcp.uncached.rps / mcp.floor.rps,
              mcp_stateless: mcpSl.ours.rps / mcpSl.floor.rps,
              paid: paid.ours.rps / paid.floor.rps,
            },
            stdio_ours_over_bare_ms: stdio.ours_ms / stdio.bare_ms,
            cost_growth_over_size_growth: Object.fromEntries(scale.map((row) => [row.size, growth(row)])),
            heap_deps_over_parse: mem.deps.heap_used_bytes / mem.parse.heap_used_bytes,
            rate_limit_hit_over_search: rateLimit.hit_us / rateLimit.search_us,
          },
          rate_limit: rateLimit,
          durability,
          search: { stats_us: s, per_query: search.perQuery, in_server_us: httpRes.search_in_server },
          http: httpRes,
          scale,
          stdio,
          memory: mem,
          wall_time_s: elapsed,
        },
        null,
        2,
      ) + '\n',
    );
    if (errOurs + errFloor > 0) {
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
