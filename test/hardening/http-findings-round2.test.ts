/**
 * Regression tests for the HTTP findings of the second attack run (issue 23): each `it` names
 * the finding it covers and drives a real server on loopback (or the real binary).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { ExportStore, exportCaller } from '../../src/resources/exports.js';
import { sampleEntities } from '../support/factory.js';
import { rawRequest, startTestServer } from '../support/http.js';
import { registerKey } from '../accounts-e2e/helpers.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

/** Runs the built binary and resolves with how it ended (it is expected to refuse to start). */
async function refusedStart(args: string[], env: Record<string, string> = {}) {
  return run(process.execPath, [path.join(ROOT, 'dist/cli.js'), ...args], { env: { ...process.env, ...env }, timeout: 20_000 }).then(
    (r) => ({ code: 0, stderr: r.stderr }),
    (e: { code?: number; stderr?: string }) => ({ code: e.code, stderr: e.stderr ?? '' }),
  );
}

describe('finding N3: forwarded addresses', () => {
  const search = (url: string, headers: Record<string, string>) => rawRequest(`${url}/api/search?q=servo`, { headers: { host: '127.0.0.1', ...headers } });
  const statuses = async (url: string, headersOf: (i: number) => Record<string, string>, n: number) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push((await search(url, headersOf(i))).status);
    return out;
  };

  it('finding N3: behind a trusted proxy (X-Forwarded-For, the default), a client-sent Forwarded: for= never opens a new rate-limit window', async () => {
    const srv = await startTestServer(sampleEntities(), { rateLimitFree: 3, trustedProxies: ['127.0.0.0/8'] });
    try {
      // The proxy appends the client's real address to X-Forwarded-For; the client adds its own Forwarded header, new every time.
      expect(await statuses(srv.url, (i) => ({ 'x-forwarded-for': '198.51.100.1', forwarded: `for=203.0.113.${i + 1}` }), 6)).toEqual([200, 200, 200, 429, 429, 429]);
      // A spoofed left-most X-Forwarded-For entry is not believed: the hop the trusted proxy appended (right-most) counts.
      expect(await statuses(srv.url, (i) => ({ 'x-forwarded-for': `203.0.113.${i + 50}, 198.51.100.2` }), 4)).toEqual([200, 200, 200, 429]);
      // Several trusted hops are walked right to left, skipping the trusted ones.
      expect(await statuses(srv.url, (i) => ({ 'x-forwarded-for': `203.0.113.${i + 90}, 198.51.100.3, 127.0.0.5` }), 4)).toEqual([200, 200, 200, 429]);
    } finally {
      await srv.stop();
    }
  });

  it('finding N3: with --forwarded-header forwarded, only Forwarded counts and X-Forwarded-For is ignored', async () => {
    const srv = await startTestServer(sampleEntities(), { rateLimitFree: 3, trustedProxies: ['127.0.0.0/8'], forwardedHeader: 'forwarded' });
    try {
      expect(await statuses(srv.url, (i) => ({ forwarded: `for=203.0.113.${i + 1}, for="198.51.100.4:1234";proto=https`, 'x-forwarded-for': `192.0.2.${i + 1}` }), 5)).toEqual([
        200, 200, 200, 429, 429,
      ]);
      // Another client behind the same proxy has its own window.
      expect((await search(srv.url, { forwarded: 'for="[2001:db8::5]:4711"' })).status).toBe(200);
    } finally {
      await srv.stop();
    }
  });

  it('finding N3: a bad --forwarded-header (or ROBOT_PARTS_FORWARDED_HEADER) is refused, naming it', async () => {
    const flag = await refusedStart(['serve', '--port', '0', '--db', ':memory:', '--forwarded-header', 'x-real-ip']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/--forwarded-header.*x-forwarded-for or forwarded, got "x-real-ip"/);
    const env = await refusedStart(['serve', '--port', '0', '--db', ':memory:'], { ROBOT_PARTS_FORWARDED_HEADER: 'both' });
    expect(env.code).toBe(2);
    expect(env.stderr).toMatch(/ROBOT_PARTS_FORWARDED_HEADER must be x-forwarded-for or forwarded, got "both"/);
    expect(loadConfig({}).forwardedHeader).toBe('x-forwarded-for');
  });
});

describe('finding N11: CORS for /mcp and /api', () => {
  const ORIGIN = 'http://inspector.example:6274';
  const REQUIRED_ALLOW = ['Mcp-Session-Id', 'MCP-Protocol-Version', 'Mcp-Method', 'Mcp-Name', 'Authorization', 'Content-Type', 'X-API-Key', 'Last-Event-ID'];
  const REQUIRED_EXPOSE = ['Mcp-Session-Id', 'MCP-Protocol-Version', 'X-Credits-Remaining', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After'];
  const listOf = (v: string | string[] | undefined) => String(v ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  const preflight = (url: string, p: string, origin: string) =>
    rawRequest(`${url}${p}`, {
      method: 'OPTIONS',
      headers: { host: '127.0.0.1', origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, mcp-session-id, mcp-protocol-version, authorization' },
    });
  const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'browser', version: '1' } } });

  it('finding N11: a listed origin passes preflight (204, methods, MCP headers) and real answers expose the headers a client reads', async () => {
    const srv = await startTestServer(sampleEntities(), { corsOrigins: [ORIGIN], rateLimitFree: 30 });
    try {
      for (const p of ['/mcp', '/api/search', '/api/bom/export']) {
        const r = await preflight(srv.url, p, ORIGIN);
        expect(r.status, p).toBe(204);
        expect(r.headers['access-control-allow-origin']).toBe(ORIGIN);
        expect(listOf(r.headers['access-control-allow-methods'])).toEqual(expect.arrayContaining(['get', 'post', 'delete']));
        expect(listOf(r.headers['access-control-allow-headers'])).toEqual(expect.arrayContaining(REQUIRED_ALLOW.map((h) => h.toLowerCase())));
        expect(r.headers['access-control-allow-credentials']).toBeUndefined();
      }
      const init = await rawRequest(`${srv.url}/mcp`, {
        method: 'POST',
        headers: { host: '127.0.0.1', origin: ORIGIN, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: INIT,
      });
      expect(init.status).toBe(200);
      expect(init.headers['mcp-session-id']).toBeTruthy();
      expect(init.headers['access-control-allow-origin']).toBe(ORIGIN);
      expect(listOf(init.headers['access-control-expose-headers'])).toEqual(expect.arrayContaining(REQUIRED_EXPOSE.map((h) => h.toLowerCase())));
      const rest = await rawRequest(`${srv.url}/api/search?q=servo`, { headers: { host: '127.0.0.1', origin: ORIGIN } });
      expect(rest.status).toBe(200);
      expect(rest.headers['access-control-allow-origin']).toBe(ORIGIN);
      expect(rest.headers['ratelimit-remaining']).toBeDefined();
      expect(listOf(rest.headers['access-control-expose-headers'])).toContain('ratelimit-remaining');
      expect(String(rest.headers.vary)).toMatch(/origin/i);
    } finally {
      await srv.stop();
    }
  });

  it('finding N11: other origins keep getting 403 (preflight and real requests); the default list is empty', async () => {
    const srv = await startTestServer(sampleEntities(), { corsOrigins: [ORIGIN] });
    const plain = await startTestServer(sampleEntities());
    try {
      const evil = await preflight(srv.url, '/mcp', 'http://evil.example');
      expect(evil.status).toBe(403);
      expect(evil.headers['access-control-allow-origin']).toBeUndefined();
      const post = await rawRequest(`${srv.url}/api/search?q=servo`, { headers: { host: '127.0.0.1', origin: 'http://evil.example' } });
      expect(post.status).toBe(403);
      // A loopback page passes the Origin check but is not on the CORS list: its preflight is refused, naming the setting.
      const loopback = await preflight(srv.url, '/mcp', 'http://localhost:9999');
      expect(loopback.status).toBe(403);
      expect(JSON.parse(loopback.body).error).toMatch(/--cors-origins/);
      // Nothing is listed by default.
      const none = await preflight(plain.url, '/mcp', ORIGIN);
      expect(none.status).toBe(403);
      expect(none.headers['access-control-allow-origin']).toBeUndefined();
      expect(loadConfig({}).corsOrigins).toEqual([]);
      expect(loadConfig({ ROBOT_PARTS_CORS_ORIGINS: `${ORIGIN}, https://b.example` }).corsOrigins).toEqual([ORIGIN, 'https://b.example']);
      expect(() => loadConfig({ ROBOT_PARTS_CORS_ORIGINS: 'https://b.example/app' })).toThrow(/ROBOT_PARTS_CORS_ORIGINS.*https:\/\/b\.example/);
      expect(() => loadConfig({ ROBOT_PARTS_CORS_ORIGINS: '*' })).toThrow(/--cors-origins/);
    } finally {
      await srv.stop();
      await plain.stop();
    }
  });
});

describe('finding N5: export links have an owner', () => {
  async function connect(url: string, headers: Record<string, string> = {}) {
    const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } });
    const client = new Client({ name: 'n5', version: '1.0.0' });
    await client.connect(transport);
    return client;
  }
  /** A BOM whose CSV is larger than the 64 kB inline limit: it goes out as a link. */
  const ITEMS = Array.from({ length: 300 }, (_, i) => ({ id: `N5-${i}`, name: `Part ${i} ${'x'.repeat(240)}`, price: 1, quantity: 1 }));
  const exportLink = async (client: Client, args: Record<string, unknown> = {}) => {
    const r = (await client.callTool({ name: 'export_bom', arguments: { items: ITEMS, ...args } })) as CallToolResult;
    expect(r.isError, JSON.stringify(r.content).slice(0, 300)).toBeFalsy();
    const uri = (r.structuredContent as { document_uri: string | null }).document_uri;
    expect(uri).toMatch(/^robotparts:\/\/exports\//);
    return uri!;
  };
  /** How a read ends: the document's first line, or the error with the URI taken out (so two can be compared). */
  const read = (client: Client, uri: string) =>
    client.readResource({ uri }).then(
      (r) => `ok ${(r.contents[0] as { text: string }).text.slice(0, 40)}`,
      (e: { code?: number; message: string }) => `error ${e.code} ${e.message.split(uri).join('<uri>')}`,
    );

  it('finding N5: another session, another key or no key gets exactly the not-found of an unknown id; the key that made it reads it from any session', async () => {
    const srv = await startTestServer(sampleEntities());
    const clients: Client[] = [];
    const open = async (headers: Record<string, string> = {}) => {
      const c = await connect(srv.url, headers);
      clients.push(c);
      return c;
    };
    try {
      const keyA = await registerKey(srv.url, 'owner-a@example.com');
      const keyB = await registerKey(srv.url, 'owner-b@example.com');
      const a = await open({ authorization: `Bearer ${keyA}` });
      const uri = await exportLink(a);
      expect(await read(a, uri)).toMatch(/^ok /);
      // The same key on a new session (or another instance of the client) reads it.
      expect(await read(await open({ 'x-api-key': keyA }), uri)).toMatch(/^ok /);
      const unknown = await read(await open(), 'robotparts://exports/00000000-0000-4000-8000-000000000000');
      expect(unknown).toMatch(/^error -32\d{3} Resource not found/);
      expect(await read(await open(), uri)).toBe(unknown.split('robotparts://exports/00000000-0000-4000-8000-000000000000').join('<uri>'));
      expect(await read(await open({ authorization: `Bearer ${keyB}` }), uri)).toBe(unknown.split('robotparts://exports/00000000-0000-4000-8000-000000000000').join('<uri>'));
      // A key passed as the tool's argument: the link is read back on the same session without a key header, and by nobody else.
      const viaArg = await open();
      const uri2 = await exportLink(viaArg, { api_key: keyB });
      expect(await read(viaArg, uri2)).toMatch(/^ok /);
      expect(await read(await open(), uri2)).toMatch(/^error -32\d{3} Resource not found/);
      expect(await read(a, uri2)).toMatch(/^error -32\d{3} Resource not found/);
      expect(await read(await open({ authorization: `Bearer ${keyB}` }), uri2)).toMatch(/^ok /);
      // A request outside any session (stateless, no key) cannot read either.
      const stateless = await rawRequest(`${srv.url}/mcp`, {
        method: 'POST',
        headers: { host: '127.0.0.1', 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'resources/read', params: { uri } }),
      });
      expect(stateless.body).not.toContain('Part 0');
    } finally {
      for (const c of clients) await c.close().catch(() => {});
      await srv.stop();
    }
  });

  it('finding N5: per-owner quota: one caller exporting many documents evicts only its own oldest, never another caller\'s', async () => {
    const srv = await startTestServer(sampleEntities());
    const clients: Client[] = [];
    try {
      const keyA = await registerKey(srv.url, 'quota-a@example.com');
      const keyB = await registerKey(srv.url, 'quota-b@example.com');
      const b = await connect(srv.url, { authorization: `Bearer ${keyB}` });
      const a = await connect(srv.url, { authorization: `Bearer ${keyA}` });
      clients.push(a, b);
      const victim = await exportLink(b);
      const mine: string[] = [];
      for (let i = 0; i < 12; i++) mine.push(await exportLink(a));
      expect(await read(b, victim)).toMatch(/^ok /);
      const readable = [];
      for (const u of mine) readable.push((await read(a, u)).startsWith('ok'));
      // 10 documents per owner (EXPORT_MAX_PER_OWNER): A's two oldest went, nobody else's.
      expect(readable).toEqual([false, false, ...Array(10).fill(true)]);
    } finally {
      for (const c of clients) await c.close().catch(() => {});
      await srv.stop();
    }
  });

  it('finding N5: a full store refuses a new owner (rate_limited, retry_after) rather than evicting anyone; owners holding documents replace their own', () => {
    let now = 0;
    const store = new ExportStore(() => now, { documents: 4, bytes: 1 << 20, perOwner: 2, bytesPerOwner: 1 << 20 });
    const doc = { name: 'bom.csv', mimeType: 'text/csv', text: 'x'.repeat(100) };
    const owners = ['k1', 'k2'].map((k) => exportCaller(k, null));
    const uris = owners.flatMap((o) => [store.put(doc, o)!, store.put(doc, o)!]);
    const late = exportCaller('k3', null);
    const refusal = (() => {
      try {
        store.admit(late);
        return null;
      } catch (e) {
        return e as { code?: string; details?: Record<string, unknown> };
      }
    })();
    expect(refusal?.code).toBe('rate_limited');
    expect(refusal?.details?.retry_after).toBe(3600);
    expect(() => store.admit(owners[0]!)).not.toThrow();
    store.put(doc, owners[0]!);
    expect(uris.map((u, i) => store.get(u, owners[i < 2 ? 0 : 1]!) !== null)).toEqual([false, true, true, true]);
    // A session-owned document is read on that session only; a key-owned one also by its key.
    const s = exportCaller(null, 'session-1');
    now += 3_600_001; // everything expired: room again
    const sdoc = store.put(doc, s)!;
    expect(store.get(sdoc, s)).not.toBeNull();
    expect(store.get(sdoc, exportCaller(null, 'session-2'))).toBeNull();
    expect(store.get(sdoc, exportCaller('k1', null))).toBeNull();
    expect(store.put(doc, exportCaller(null, null))).toBeNull();
  });
});
