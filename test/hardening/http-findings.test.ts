/**
 * Regression tests for the HTTP findings of the attack run (issue 11): each `it` names the
 * numbered finding it covers and drives a real server on loopback.
 */
import { execFile } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Config } from '../../src/config.js';
import { buildDeps } from '../../src/deps.js';
import { startHttpServer } from '../../src/http/app.js';
import { createLogger } from '../../src/log.js';
import { catalogueData, sampleEntities } from '../support/factory.js';
import { testConfig } from '../support/deps.js';
import { rawRequest, startTestServer } from '../support/http.js';
import { bearer, http as httpJson, postJson, registerKey, simulateUrl } from '../accounts-e2e/helpers.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
type Server = Awaited<ReturnType<typeof startTestServer>>;

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'flood', version: '1' } },
};
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function initialize(url: string, headers: Record<string, string> = {}) {
  return fetch(`${url}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, ...headers }, body: JSON.stringify(INIT) });
}

async function connect(url: string, headers: Record<string, string> = {}) {
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } });
  const client = new Client({ name: 'hardening-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

/** Opens a raw TCP connection, writes `head` (+ `body`), and resolves with everything read until the server closes it. */
function rawExchange(port: number, chunks: (string | Buffer)[], opts: { endAfterWrite?: boolean } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const got: Buffer[] = [];
    socket.on('data', (d) => got.push(d));
    socket.on('error', (e) => ((e as NodeJS.ErrnoException).code === 'ECONNRESET' ? resolve(Buffer.concat(got).toString('latin1')) : reject(e)));
    socket.on('close', () => resolve(Buffer.concat(got).toString('latin1')));
    socket.on('connect', () => {
      for (const c of chunks) socket.write(c);
      if (opts.endAfterWrite) socket.end();
    });
  });
}

describe('finding 2: MCP sessions per client', () => {
  let srv: Server;
  beforeAll(async () => {
    srv = await startTestServer(sampleEntities(), { maxSessionsPerClient: 3, maxSessions: 1000, trustedProxies: ['127.0.0.1'] });
  });
  afterAll(async () => {
    await srv.stop();
  });

  it('finding 2: one address cannot open every MCP session; other clients still initialize, and closing one frees a slot', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await initialize(srv.url, { 'x-forwarded-for': '198.51.100.7' });
      expect(r.status).toBe(200);
      ids.push(r.headers.get('mcp-session-id')!);
      await r.body?.cancel();
    }
    // The share is full: the fourth replaces the address's least recently used idle session (issue 40),
    // so the address never holds more than its share.
    const fourth = await initialize(srv.url, { 'x-forwarded-for': '198.51.100.7' });
    expect(fourth.status).toBe(200);
    await fourth.body?.cancel();
    const gone = await fetch(`${srv.url}/mcp`, { method: 'DELETE', headers: { 'mcp-session-id': ids[0]!, 'mcp-protocol-version': '2025-06-18' } });
    expect(gone.status).toBe(404);
    await gone.text();
    // Another client is not locked out.
    const other = await initialize(srv.url, { 'x-forwarded-for': '203.0.113.9' });
    expect(other.status).toBe(200);
    await other.body?.cancel();
    // Ending a session gives its slot back.
    const del = await fetch(`${srv.url}/mcp`, { method: 'DELETE', headers: { 'mcp-session-id': ids[1]!, 'mcp-protocol-version': '2025-06-18' } });
    expect(del.status).toBe(200);
    const again = await initialize(srv.url, { 'x-forwarded-for': '198.51.100.7' });
    expect(again.status).toBe(200);
    await again.body?.cancel();
  });
});

describe('finding 3: the sandbox gateway', () => {
  it('finding 3: serve refuses to start the sandbox on a non-loopback address unless --allow-sandbox-payments', async () => {
    const run = promisify(execFile);
    const err = await run(process.execPath, [path.join(ROOT, 'dist/cli.js'), 'serve', '--host', '0.0.0.0', '--port', '0', '--db', ':memory:'], {
      env: { ...process.env, ROBOT_PARTS_PAYMENT_GATEWAY: 'sandbox', ROBOT_PARTS_ALLOW_SANDBOX_PAYMENTS: '' },
      timeout: 20_000,
    }).then(
      () => null,
      (e: { code?: number; stderr?: string }) => e,
    );
    expect(err).not.toBeNull();
    expect(err!.code).toBe(2);
    expect(err!.stderr).toMatch(/refusing to serve the sandbox payment gateway on 0\.0\.0\.0/);
    expect(err!.stderr).toMatch(/--allow-sandbox-payments/);
    // In process: the same guard, and the explicit opt-in passes it (checked without binding a public address).
    const deps = buildDeps(testConfig({ host: '0.0.0.0' }), { log: createLogger('error', () => {}), catalogueData: catalogueData(sampleEntities()) });
    await expect(startHttpServer(deps)).rejects.toThrow(/refusing to serve the sandbox/);
    deps.close();
    const { sandboxExposure } = await import('../../src/http/hardening.js');
    expect(sandboxExposure({ host: '0.0.0.0', allowSandboxPayments: true }, 'sandbox')).toBeNull();
    expect(sandboxExposure({ host: '::1', allowSandboxPayments: false }, 'sandbox')).toBeNull();
  });

  it("finding 3: the pay page and its button need the order's own token; an order id alone credits nothing", async () => {
    const srv = await startTestServer(sampleEntities());
    try {
      const key = await registerKey(srv.url, 'victim@example.com');
      const mine = (await postJson<{ order_id: string; pay_url: string }>(`${srv.url}/api/payment/create`, { plan: 'lifetime' }, bearer(key))).body;
      const other = (await postJson<{ order_id: string; pay_url: string }>(`${srv.url}/api/payment/create`, { plan: 'starter' }, bearer(key))).body;
      const otherToken = new URL(other.pay_url).searchParams.get('token');
      for (const url of [
        `${srv.url}/pay/${mine.order_id}`,
        `${srv.url}/pay/${mine.order_id}?token=`,
        `${srv.url}/pay/${mine.order_id}?token=${otherToken}`,
      ]) {
        expect((await httpJson(url)).status, url).toBe(404);
        const sim = await httpJson(url.replace(`/pay/${mine.order_id}`, `/pay/${mine.order_id}/simulate`), { method: 'POST' });
        expect(sim.status, url).toBe(404);
      }
      expect((await postJson(`${srv.url}/api/credits/balance`, {}, bearer(key))).body).toMatchObject({ credits: 100, plan: 'free' });
      expect((await httpJson(mine.pay_url)).status).toBe(200);
      expect((await httpJson(simulateUrl(mine.pay_url), { method: 'POST' })).status).toBe(303);
      expect((await postJson(`${srv.url}/api/credits/balance`, {}, bearer(key))).body).toMatchObject({ credits: 100 + 9999, plan: 'lifetime' });
    } finally {
      await srv.stop();
    }
  });
});

describe('finding 6: MCP reads are rate limited', () => {
  it('finding 6: resources/read and completion/complete count against the free limit; published datasets do not', async () => {
    const srv = await startTestServer(sampleEntities(), { rateLimitFree: 3 });
    try {
      const { client, transport } = await connect(srv.url);
      const reads: string[] = [];
      for (let i = 0; i < 5; i++) {
        reads.push(
          await client.readResource({ uri: 'robotparts://parts/ACT-001' }).then(
            () => 'ok',
            (e: Error) => e.message,
          ),
        );
      }
      expect(reads.slice(0, 3)).toEqual(['ok', 'ok', 'ok']);
      for (const r of reads.slice(3)) expect(r).toMatch(/rate_limited/);
      await expect(client.complete({ ref: { type: 'ref/resource', uri: 'robotparts://parts/{id}' }, argument: { name: 'id', value: 'ACT' } })).rejects.toThrow(
        /rate_limited/,
      );
      // A published dataset is free, as on REST.
      const ds = await client.readResource({ uri: 'robotparts://datasets/flange-rulings' });
      expect(ds.contents.length).toBe(1);
      // Over raw HTTP the refusal carries Retry-After.
      const raw = await fetch(`${srv.url}/mcp`, {
        method: 'POST',
        headers: { ...MCP_HEADERS, 'mcp-session-id': transport.sessionId!, 'mcp-protocol-version': '2025-06-18' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'resources/read', params: { uri: 'robotparts://parts/ACT-002' } }),
      });
      const body = (await raw.json()) as { id: number; error: { message: string; data: { code: string; retry_after: number } } };
      expect(body.id).toBe(99);
      expect(body.error.data.code).toBe('rate_limited');
      expect(Number(raw.headers.get('retry-after'))).toBe(body.error.data.retry_after);
      await transport.terminateSession();
      await client.close();
    } finally {
      await srv.stop();
    }
  });
});

describe('findings 9, 10, 11: request bodies', () => {
  let srv: Server;
  const lines: { level: string; msg: string }[] = [];
  beforeAll(async () => {
    const log = createLogger('debug', (l) => lines.push(JSON.parse(l) as { level: string; msg: string }));
    const deps = buildDeps(testConfig({ requestTimeoutSeconds: 1, bodyLimitBytes: 4096 }), { log, catalogueData: catalogueData(sampleEntities()) });
    const s = await startHttpServer(deps);
    srv = { ...s, deps, stop: async () => { await s.close(); deps.close(); } };
  });
  afterAll(async () => {
    await srv.stop();
  });

  it('finding 9: a body that goes quiet after its first chunk is cut (408, connection closed)', { timeout: 20_000 }, async () => {
    const head =
      'POST /api/bom/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n';
    const answer = await rawExchange(srv.port, [head, '{"items":']);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('finding 10: after an early 413 the server says Connection: close, and the next request (new connection) succeeds, 10 of 10', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const big = JSON.stringify({ items: [{ id: 'x'.repeat(20_000), quantity: 1 }] });
      for (let i = 0; i < 10; i++) {
        const first = await new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
          const req = http.request(`${srv.url}/api/bom/check`, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(big) } }, (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
          });
          req.on('error', reject);
          req.end(big);
        });
        expect(first).toEqual({ status: 413, connection: 'close' });
        const next = await new Promise<number>((resolve, reject) => {
          const req = http.request(`${srv.url}/api/stats`, { agent }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          });
          req.on('error', reject);
          req.end();
        });
        expect(next).toBe(200);
      }
    } finally {
      agent.destroy();
    }
  });

  it('finding 11: clients aborting uploads are not logged as server errors', async () => {
    lines.length = 0;
    for (let i = 0; i < 20; i++) {
      await new Promise<void>((resolve) => {
        const socket = net.connect(srv.port, '127.0.0.1', () => {
          socket.write('POST /api/bom/export HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 3000\r\n\r\n{"items":[{"id":"ACT-001"');
          setTimeout(() => socket.destroy(), 20);
        });
        socket.on('close', () => resolve());
        socket.on('error', () => {});
      });
    }
    // A normal request afterwards: the server is fine and has logged it (the log sink works).
    expect((await httpJson(`${srv.url}/api/stats`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    expect(lines.some((l) => l.msg === 'request')).toBe(true);
    expect(lines.filter((l) => l.level === 'error')).toEqual([]);
  });
});

describe('finding 12: one credential per request', () => {
  let srv: Server;
  beforeAll(async () => {
    srv = await startTestServer(sampleEntities());
  });
  afterAll(async () => {
    await srv.stop();
  });

  it('finding 12: ?key=A&key=B and two different Authorization headers are conflicting_credentials; nothing is charged', async () => {
    const a = await registerKey(srv.url, 'key-a@example.com');
    const b = await registerKey(srv.url, 'key-b@example.com');
    const q = await httpJson(`${srv.url}/api/entities.json?key=${a}&key=${b}`);
    expect(q.status).toBe(400);
    expect(q.body).toMatchObject({ code: 'conflicting_credentials', sources: ['query:key'] });
    const same = await httpJson(`${srv.url}/api/entities.json?key=${a}&key=${a}`);
    expect(same.status).toBe(200);
    const two = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${srv.url}/api/entities.json`, { headers: { authorization: [`Bearer ${a}`, `Bearer ${b}`] as unknown as string } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(two.status).toBe(400);
    expect(JSON.parse(two.body)).toMatchObject({ code: 'conflicting_credentials', sources: ['authorization'] });
    // Only the one unambiguous call was charged, to A; B untouched.
    expect((await postJson(`${srv.url}/api/credits/balance`, {}, bearer(a))).body).toMatchObject({ credits: 99 });
    expect((await postJson(`${srv.url}/api/credits/balance`, {}, bearer(b))).body).toMatchObject({ credits: 100 });
  });
});

describe('finding 14: trusted proxies', () => {
  const search = (url: string, headers: Record<string, string>) => rawRequest(`${url}/api/search?q=servo`, { headers: { host: '127.0.0.1', ...headers } });

  it('finding 14: behind a configured proxy, clients get their own anonymous windows (X-Forwarded-For and Forwarded)', async () => {
    const srv = await startTestServer(sampleEntities(), { rateLimitFree: 2, trustedProxies: ['127.0.0.0/8'] } as Partial<Config>);
    try {
      expect((await search(srv.url, { 'x-forwarded-for': '198.51.100.1' })).status).toBe(200);
      expect((await search(srv.url, { 'x-forwarded-for': '198.51.100.1' })).status).toBe(200);
      expect((await search(srv.url, { 'x-forwarded-for': '198.51.100.1' })).status).toBe(429);
      // Another client behind the same proxy has its own window.
      expect((await search(srv.url, { 'x-forwarded-for': '198.51.100.2' })).status).toBe(200);
      expect((await search(srv.url, { forwarded: 'for="[2001:db8::5]:4711";proto=https' })).status).toBe(200);
      // A client cannot escape its window by prepending a forged hop: the nearest untrusted hop counts.
      expect((await search(srv.url, { 'x-forwarded-for': '203.0.113.50, 198.51.100.1' })).status).toBe(429);
    } finally {
      await srv.stop();
    }
  });

  it('finding 14: forwarding headers from a peer that is not a trusted proxy are ignored', async () => {
    const srv = await startTestServer(sampleEntities(), { rateLimitFree: 2, trustedProxies: ['10.0.0.1'] });
    try {
      expect((await search(srv.url, { 'x-forwarded-for': '198.51.100.1' })).status).toBe(200);
      expect((await search(srv.url, { 'x-forwarded-for': '198.51.100.2' })).status).toBe(200);
      expect((await search(srv.url, { 'x-forwarded-for': '198.51.100.3' })).status).toBe(429);
    } finally {
      await srv.stop();
    }
  });
});
