// Child processes of the benchmark, so that each server (and each memory reading) has a
// process of its own and the load generator does not share a thread with the server.
//
//   node bench/child.mjs serve <ours|floor-rest|floor-mcp> <dataDir>   (IPC: start -> listening, stop)
//   node --expose-gc bench/child.mjs mem <parse|deps> <dataDir> <file>  (prints one JSON line)
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { benchConfigOverrides, importDist, LOOPBACK } from './lib.mjs';

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

/** Our server: the real app (MCP at /mcp, REST under /api/) over the benchmarked catalogue. */
async function startOurs() {
  const { loadConfig } = await importDist('config.js');
  const { buildDeps } = await importDist('deps.js');
  const { silentLogger } = await importDist('log.js');
  const { startHttpServer } = await importDist('http/app.js');
  const deps = buildDeps(loadConfig({}, benchConfigOverrides(dataDir)), { log: silentLogger });
  const running = await startHttpServer(deps);
  return {
    port: running.port,
    stop: async () => {
      await running.close();
      deps.close();
    },
  };
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
 * The MCP floor: the v2 SDK's McpServer + WebStandardStreamableHTTPServerTransport (the
 * 2025-era session transport), on node:http through @hono/node-server's request listener (the
 * same adapter ours runs on), stateful sessions, one tool whose handler returns the precomputed
 * result ours gave for the query.
 */
async function startFloorMcp(results) {
  const { McpServer, WebStandardStreamableHTTPServerTransport } = await import('@modelcontextprotocol/server');
  const { getRequestListener } = await import('@hono/node-server');
  const { z } = await import('zod');
  const byQuery = new Map(results);
  const sessions = new Map();
  const handle = async (request) => {
    try {
      if (new URL(request.url).pathname !== '/mcp') return new Response(null, { status: 404 });
      const body = request.method === 'POST' ? await request.json() : undefined;
      const sid = request.headers.get('mcp-session-id');
      if (sid) {
        const s = sessions.get(sid);
        if (!s) return Response.json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }, { status: 404 });
        return await s.transport.handleRequest(request, { parsedBody: body });
      }
      const mcp = new McpServer({ name: 'bare-floor', version: '0.0.0' });
      mcp.registerTool('search_parts', { description: 'Returns a precomputed result', inputSchema: z.object({ q: z.string() }) }, async ({ q }) => byQuery.get(q) ?? { content: [{ type: 'text', text: 'no precomputed result' }], isError: true });
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => sessions.set(id, { transport, mcp }),
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      await mcp.connect(transport);
      return await transport.handleRequest(request, { parsedBody: body });
    } catch (err) {
      return new Response(String(err), { status: 500 });
    }
  };
  const server = http.createServer(getRequestListener(handle));
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
        if (kind === 'ours') running = await startOurs();
        else if (kind === 'floor-rest') running = await startFloorRest(msg.bodies);
        else if (kind === 'floor-mcp') running = await startFloorMcp(msg.results);
        else throw new Error(`unknown server kind ${kind}`);
        process.send({ type: 'listening', port: running.port });
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
