/**
 * A client's share of MCP sessions never locks it out (issue 40): clients that never send DELETE
 * (the SDK's Client.close(), the Inspector CLI) leave sessions behind; when the share is full the
 * client's least recently used idle session is closed for the new one, and the client that comes
 * back to it gets 404. Refusals (429 share busy, 503 global cap) carry Retry-After.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { buildDeps } from '../../src/deps.js';
import { startHttpServer } from '../../src/http/app.js';
import { silentLogger } from '../../src/log.js';
import { testConfig } from '../support/deps.js';
import { catalogueData, sampleEntities } from '../support/factory.js';
import { startTestServer } from '../support/http.js';
import { z } from 'zod';
import { SESSION_BUSY_RETRY_SECONDS } from '../../src/http/mcp-common.js';
import { defineTool, READ_ONLY } from '../../src/tools/define.js';
import { TOOLS } from '../../src/tools/index.js';

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const V = '2025-06-18';
const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: V, capabilities: {}, clientInfo: { name: 't', version: '1' } } };

async function initialize(url: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}/mcp`, { method: 'POST', headers: { ...HEADERS, ...headers }, body: JSON.stringify(INIT) });
}
async function ping(url: string, sid: string): Promise<number> {
  const r = await fetch(`${url}/mcp`, { method: 'POST', headers: { ...HEADERS, 'mcp-session-id': sid, 'mcp-protocol-version': V }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }) });
  await r.text();
  return r.status;
}

describe('per-client session share (default 20)', () => {
  let srv: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    srv = await startTestServer(sampleEntities());
  });
  afterAll(async () => {
    await srv.stop();
  });

  it('25 SDK clients from one address that never close their session all connect and call a tool', async () => {
    expect(srv.deps.config.maxSessionsPerClient).toBe(20);
    const clients: Client[] = [];
    const sids: string[] = [];
    try {
      for (let i = 0; i < 25; i++) {
        const client = new Client({ name: `never-closes-${i}`, version: '1.0.0' });
        const transport = new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`));
        await client.connect(transport);
        sids.push(transport.sessionId!);
        const listed = await client.listTools();
        expect(listed.tools.length).toBeGreaterThan(0);
        clients.push(client); // kept connected: no DELETE, GET stream left open
      }
      expect(clients).toHaveLength(25);
      // The share holds: the 5 least recently used sessions were closed for the last 5, the 20 newest are open.
      const statuses: number[] = [];
      for (const sid of sids) statuses.push(await ping(srv.url, sid));
      expect(statuses).toEqual([...Array(5).fill(404), ...Array(20).fill(200)]);
      // The newest client still works.
      const r = await clients[24]!.callTool({ name: 'search_parts', arguments: { q: 'servo' } });
      expect(r.isError).not.toBe(true);
    } finally {
      for (const c of clients) await c.close().catch(() => {});
    }
  });
});

describe('least recently used idle session', () => {
  it('is the one closed; its client gets 404 and re-initialises; the others stay open', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const deps = buildDeps(testConfig({ maxSessionsPerClient: 3, sessionIdleSeconds: 3600 }), { log: silentLogger, catalogueData: catalogueData(sampleEntities()), clock: () => new Date(now) });
    const srv = await startHttpServer(deps);
    try {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        now += 1000;
        const r = await initialize(srv.url);
        expect(r.status).toBe(200);
        ids.push(r.headers.get('mcp-session-id')!);
        await r.text();
      }
      // Session 0 is used last: session 1 is now the least recently used.
      now += 1000;
      expect(await ping(srv.url, ids[0]!)).toBe(200);
      now += 1000;
      const fourth = await initialize(srv.url);
      expect(fourth.status).toBe(200);
      const id4 = fourth.headers.get('mcp-session-id')!;
      await fourth.text();
      expect(await ping(srv.url, ids[1]!)).toBe(404);
      // Used in this order: 2, 0, 4.
      for (const id of [ids[2]!, ids[0]!, id4]) {
        now += 1000;
        expect(await ping(srv.url, id)).toBe(200);
      }
      // The client of session 1 re-initialises: the least recently used now (session 2) makes room.
      now += 1000;
      const again = await initialize(srv.url);
      expect(again.status).toBe(200);
      await again.text();
      expect(await ping(srv.url, ids[2]!)).toBe(404);
    } finally {
      await srv.close();
      deps.close();
    }
  });

  it('a share whose sessions are all answering is refused with 429 and Retry-After', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const slow = defineTool({
      name: 'slow',
      title: 'Slow',
      description: 'Answers when the test lets it.',
      inputSchema: z.object({}),
      outputSchema: z.object({ ok: z.boolean() }),
      annotations: READ_ONLY,
      rest: [],
      handler: async () => {
        started();
        await held;
        return { ok: true };
      },
    });
    let now = Date.parse('2026-01-01T00:00:00Z');
    const deps = buildDeps(testConfig({ maxSessionsPerClient: 1, maxSessions: 2, sessionIdleSeconds: 60 }), { log: silentLogger, catalogueData: catalogueData(sampleEntities()), clock: () => new Date(now) });
    const srv = await startHttpServer(deps, { tools: [...TOOLS, slow] });
    try {
      const r = await initialize(srv.url);
      const sid = r.headers.get('mcp-session-id')!;
      await r.text();
      const call = fetch(`${srv.url}/mcp`, {
        method: 'POST',
        headers: { ...HEADERS, 'mcp-session-id': sid, 'mcp-protocol-version': V },
        body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'slow', arguments: {} } }),
      });
      await running;
      const refused = await initialize(srv.url);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe(String(SESSION_BUSY_RETRY_SECONDS));
      expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/Too many open sessions from this client \(1\)/);
      release();
      const answer = await call;
      expect(await answer.text()).toContain('"ok":true');
      // Now idle: the same client's next initialize replaces it.
      const replaced = await initialize(srv.url);
      expect(replaced.status).toBe(200);
      await replaced.text();
      expect(await ping(srv.url, sid)).toBe(404);
    } finally {
      release();
      await srv.close();
      deps.close();
    }
  });
});

describe('global session cap', () => {
  it('503 with Retry-After: the seconds until the longest idle session expires', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const deps = buildDeps(testConfig({ maxSessions: 1, sessionIdleSeconds: 60 }), { log: silentLogger, catalogueData: catalogueData(sampleEntities()), clock: () => new Date(now) });
    const srv = await startHttpServer(deps);
    try {
      const first = await initialize(srv.url);
      expect(first.status).toBe(200);
      await first.text();
      now += 20_000;
      const second = await initialize(srv.url);
      expect(second.status).toBe(503);
      expect(second.headers.get('retry-after')).toBe('40');
      await second.text();
    } finally {
      await srv.close();
      deps.close();
    }
  });
});
