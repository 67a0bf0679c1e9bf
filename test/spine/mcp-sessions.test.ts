/** MCP session housekeeping: idle sessions are closed, and the number of open sessions is capped. */
import { describe, expect, it } from 'vitest';
import { buildDeps } from '../../src/deps.js';
import { startHttpServer } from '../../src/http/app.js';
import { silentLogger } from '../../src/log.js';
import { testConfig } from '../support/deps.js';
import { catalogueData, sampleEntities } from '../support/factory.js';

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };

async function initialize(url: string): Promise<Response> {
  return fetch(`${url}/mcp`, { method: 'POST', headers: HEADERS, body: JSON.stringify(INIT) });
}

async function ping(url: string, sid: string): Promise<number> {
  const r = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { ...HEADERS, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
  });
  await r.text();
  return r.status;
}

describe('MCP sessions', () => {
  it('closes a session idle longer than sessionIdleSeconds; activity keeps it open', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const deps = buildDeps(testConfig({ sessionIdleSeconds: 60 }), { log: silentLogger, catalogueData: catalogueData(sampleEntities()), clock: () => new Date(now) });
    const srv = await startHttpServer(deps);
    try {
      const a = await initialize(srv.url);
      const sid = a.headers.get('mcp-session-id')!;
      await a.text();
      now += 50_000;
      expect(await ping(srv.url, sid)).toBe(200); // used: the idle clock restarts
      now += 50_000;
      expect(await ping(srv.url, sid)).toBe(200);
      now += 61_000;
      expect(await ping(srv.url, sid)).toBe(404); // idle 61 s > 60 s: closed
    } finally {
      await srv.close();
      deps.close();
    }
  });

  it('refuses a new session beyond maxSessions with 503', async () => {
    const deps = buildDeps(testConfig({ maxSessions: 1 }), { log: silentLogger, catalogueData: catalogueData(sampleEntities()) });
    const srv = await startHttpServer(deps);
    try {
      const first = await initialize(srv.url);
      expect(first.status).toBe(200);
      await first.text();
      const second = await initialize(srv.url);
      expect(second.status).toBe(503);
      await second.text();
    } finally {
      await srv.close();
      deps.close();
    }
  });
});
