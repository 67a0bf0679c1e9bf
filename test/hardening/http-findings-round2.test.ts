/**
 * Regression tests for the HTTP findings of the second attack run (issue 23): each `it` names
 * the finding it covers and drives a real server on loopback (or the real binary).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { sampleEntities } from '../support/factory.js';
import { rawRequest, startTestServer } from '../support/http.js';

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
