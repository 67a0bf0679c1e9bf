// Child processes of the benchmark, so that each server (and each memory reading) has a
// process of its own and the load generator does not share a thread with the server.
//
//   node bench/child.mjs serve <ours|floor-rest|floor-mcp> <dataDir>   (IPC: start -> listening, search, stop)
//   node --expose-gc bench/child.mjs mem <parse|deps> <dataDir> <file>  (prints one JSON line)
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { benchConfigOverrides, importDist, LOOPBACK, QUERIES, searchContext, summarise } from './lib.mjs';

const [mode, kind, dataDir, file] = process.argv.slice(2);

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function listen(server) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, LOOPBACK, () => resolve(server.address().port));
  });
}

function closeNodeServer(server) {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/**
 * Our server: the real app (MCP at /mcp, REST under /api/) over the benchmarked catalogue.
 * opts.stateless: MCP without sessions. opts.paidCredits: registers a key and buys lifetime
 * plans through the sandbox gateway until it holds that many credits (for paid routes).
 */
async function startOurs(opts = {}) {
  const { loadConfig } = await importDist('config.js');
  const { buildDeps } = await importDist('deps.js');
  const { silentLogger } = await importDist('log.js');
  const { startHttpServer } = await importDist('http/app.js');
  const overrides = { ...benchConfigOverrides(dataDir), stateless: Boolean(opts.stateless) };
  if (opts.answerCache !== undefined) overrides.answerCacheEntries = opts.answerCache; // else the default
  // The durability row: a SQLite file (WAL) at synchronous FULL (the default) or NORMAL.
  if (opts.dbFile) overrides.dbPath = opts.dbFile;
  if (opts.synchronous) overrides.sqliteSynchronous = opts.synchronous;
  const deps = buildDeps(loadConfig({}, overrides), { log: silentLogger });
  const running = await startHttpServer(deps);
  let apiKey = null;
  if (opts.paidCredits) {
    const reg = await deps.accounts.register(`bench-${process.pid}@example.com`);
    apiKey = reg.api_key;
    const plan = deps.payments.plans.require('lifetime');
    while ((await deps.accounts.balance(apiKey)).credits < opts.paidCredits) {
      const account = await deps.accounts.authenticate(apiKey);
      const order = await deps.payments.gateway.createOrder({ account, plan });
      await deps.payments.gateway.simulatePayment(order.order_id);
    }
  }
  return {
    port: running.port,
    apiKey,
    deps,
    stop: async () => {
      await running.close();
      deps.close();
    },
  };
}

/** searchParts() in this process over the server's own deps: p50/p99 in µs over the query set. */
async function searchStats(deps, rounds) {
  const { searchParts } = await importDist('domain/catalogue/parts.js');
  const ctx = await searchContext(deps);
  const warmUntil = performance.now() + 500;
  while (performance.now() < warmUntil) for (const q of QUERIES) await searchParts(ctx, { q });
  const samples = [];
  for (let r = 0; r < rounds; r++) {
    for (const q of QUERIES) {
      const t0 = performance.now();
      await searchParts(ctx, { q });
      samples.push((performance.now() - t0) * 1000);
    }
  }
  return summarise(samples);
}

/** The REST floor: bare node:http answering each path with the body ours gave for it. */
async function startFloorRest(bodies) {
  const byPath = new Map(bodies);
  const server = http.createServer((req, res) => {
    const body = byPath.get(req.url);
    if (body === undefined) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not_found"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
  });
  const port = await listen(server);
  return { port, stop: () => closeNodeServer(server) };
}

/**
 * The MCP floor: the SDK's McpServer + StreamableHTTPServerTransport on node:http, stateful
 * sessions, one tool whose handler returns the precomputed result ours gave for the query.
 */
async function startFloorMcp(results, stateless) {
  const { McpServer, StreamableHTTPServerTransport } = await import('./sdk.mjs');
  const { z } = await import('zod');
  const byQuery = new Map(results);
  const sessions = new Map();
  const oneTool = () => {
    const mcp = new McpServer({ name: 'bare-floor', version: '0.0.0' });
    mcp.registerTool('search_parts', { description: 'Returns a precomputed result', inputSchema: { q: z.string() } }, async ({ q }) => byQuery.get(q) ?? { content: [{ type: 'text', text: 'no precomputed result' }], isError: true });
    return mcp;
  };
  const server = http.createServer(async (req, res) => {
    try {
      if (req.url !== '/mcp') {
        res.writeHead(404).end();
        return;
      }
      const body = req.method === 'POST' ? JSON.parse(await readBody(req)) : undefined;
      if (stateless) {
        // Like ours in --stateless mode: a server and a transport per request, JSON responses.
        const mcp = oneTool();
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
        await mcp.connect(transport);
        await transport.handleRequest(req, res, body);
        void mcp.close();
        return;
      }
      const sid = req.headers['mcp-session-id'];
      if (sid) {
        const s = sessions.get(String(sid));
        if (!s) {
          res.writeHead(404, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}');
          return;
        }
        await s.transport.handleRequest(req, res, body);
        return;
      }
      const mcp = oneTool();
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => sessions.set(id, { transport, mcp }),
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      await mcp.connect(transport);
      await transport.handleRequest(req, res, body);
    } catch (err) {
      if (!res.headersSent) res.writeHead(500).end(String(err));
    }
  });
  const port = await listen(server);
  return {
    port,
    stop: async () => {
      await Promise.allSettled([...sessions.values()].map((s) => s.mcp.close()));
      sessions.clear();
      await closeNodeServer(server);
    },
  };
}

async function serveMode() {
  let running = null;
  const exit = async (code) => {
    try {
      await running?.stop();
    } finally {
      process.exit(code);
    }
  };
  process.on('disconnect', () => void exit(0)); // parent gone: never outlive it
  process.on('message', async (msg) => {
    try {
      if (msg.type === 'start') {
        if (kind === 'ours') running = await startOurs(msg);
        else if (kind === 'floor-rest') running = await startFloorRest(msg.bodies);
        else if (kind === 'floor-mcp') running = await startFloorMcp(msg.results, msg.stateless);
        else throw new Error(`unknown server kind ${kind}`);
        process.send({ type: 'listening', port: running.port, apiKey: running.apiKey ?? null, rss_bytes: process.memoryUsage().rss });
      } else if (msg.type === 'search') {
        process.send({ type: 'search-result', stats: await searchStats(running.deps, msg.rounds) });
      } else if (msg.type === 'rss') {
        process.send({ type: 'rss-result', rss_bytes: process.memoryUsage().rss });
      } else if (msg.type === 'stop') {
        await running?.stop();
        running = null;
        process.send({ type: 'stopped' }, () => process.exit(0));
      }
    } catch (err) {
      process.send({ type: 'failed', error: err instanceof Error ? err.stack : String(err) }, () => process.exit(1));
    }
  });
}

/** Heap after loading the catalogue one way, in a fresh process (both ways import the same modules first). */
async function memMode() {
  if (typeof global.gc !== 'function') throw new Error('run with --expose-gc');
  const { loadConfig } = await importDist('config.js');
  const { buildDeps } = await importDist('deps.js');
  const { silentLogger } = await importDist('log.js');
  const settle = () => {
    for (let i = 0; i < 4; i++) global.gc();
    return process.memoryUsage();
  };
  const before = settle();
  let held;
  if (kind === 'parse') held = JSON.parse(fs.readFileSync(file, 'utf8'));
  else if (kind === 'deps') held = buildDeps(loadConfig({}, benchConfigOverrides(dataDir)), { log: silentLogger });
  else throw new Error(`unknown memory mode ${kind}`);
  const after = settle();
  globalThis.__held = held; // keep it reachable until read
  process.stdout.write(
    JSON.stringify({
      mode: kind,
      heap_used_bytes: after.heapUsed - before.heapUsed,
      external_bytes: after.external - before.external,
      rss_bytes: after.rss - before.rss,
    }) + '\n',
  );
  if (kind === 'deps') held.close();
}

if (mode === 'serve') await serveMode();
else if (mode === 'mem') await memMode();
else {
  process.stderr.write(`usage: child.mjs serve <ours|floor-rest|floor-mcp> <dataDir> | mem <parse|deps> <dataDir> <file>\n`);
  process.exit(2);
}
