/**
 * Issue 39 (third attack round): the HTTP and protocol findings N3, N4, N5, N7, N8, N10-N13, each
 * `it` named by its finding and driven through a real server on loopback (or the in-memory MCP
 * client for the xacro finding). The archive findings N1 and N9 are in round3-archives.test.ts.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDeps } from '../../src/deps.js';
import { clientGroup } from '../../src/domain/accounts/client-group.js';
import { ERROR_CODES, errorStatus } from '../../src/domain/shared/errors.js';
import { startHttpServer } from '../../src/http/app.js';
import { createLogger, LogSampler, MAX_LOG_VALUE_CHARS, type Logger } from '../../src/log.js';
import { catalogueData, sampleEntities } from '../support/factory.js';
import { testConfig, testDeps } from '../support/deps.js';
import { rawRequest, startTestServer } from '../support/http.js';
import { call, errorBody, memoryClient } from '../support/mcp.js';
import { bearer, http as httpJson, postJson, registerKey } from '../accounts-e2e/helpers.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PROXIED = { trustedProxies: ['127.0.0.0/8'] };
const from = (address: string) => ({ host: '127.0.0.1', 'x-forwarded-for': address });

/** Status and headers of a request whose body may never end (an SSE stream): the request is dropped once the head arrives. */
function head(url: string, opts: { method?: string; headers?: Record<string, string> }): Promise<{ status: number; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = http.request({ host: u.hostname, port: u.port, path: u.pathname + u.search, method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      resolve({ status: res.statusCode ?? 0, headers: res.headers });
      res.destroy();
      req.destroy();
    });
    req.on('error', (e) => ((e as { code?: string }).code === 'ECONNRESET' ? undefined : reject(e)));
    req.end();
  });
}

describe('finding N3: registrations are limited per client address and hour', () => {
  it('finding N3: the third registration from one address in an hour gets 429 with Retry-After naming the limit; another address still registers', async () => {
    const srv = await startTestServer(sampleEntities(), { ...PROXIED, registrationsPerHour: 2 });
    try {
      const reg = (email: string, address: string) => rawRequest(`${srv.url}/api/register`, { method: 'POST', headers: { ...from(address), 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
      expect((await reg('a1@example.com', '198.51.100.7')).status).toBe(200);
      expect((await reg('a2@example.com', '198.51.100.7')).status).toBe(200);
      const third = await reg('a3@example.com', '198.51.100.7');
      expect(third.status).toBe(429);
      expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(third.headers['retry-after'])).toBeLessThanOrEqual(3600);
      expect(JSON.parse(third.body)).toMatchObject({ code: 'rate_limited', limit: 2, limit_name: 'registrations_per_hour' });
      expect(JSON.parse(third.body).error).toMatch(/at most 2 keys per client address per hour.*--registrations-per-hour/);
      expect((await reg('b1@example.com', '198.51.100.8')).status).toBe(200);
    } finally {
      await srv.stop();
    }
  });

  it('finding N3: the default is 5 per hour on a public bind, off on loopback unless --rate-limit; the flag and env set it', () => {
    expect(testConfig({ host: '0.0.0.0' }).registrationsPerHour).toBe(5);
    expect(testConfig({ host: '127.0.0.1' }).registrationsPerHour).toBe(0);
    expect(testConfig({ host: '127.0.0.1', rateLimit: true }).registrationsPerHour).toBe(5);
    expect(testConfig({ host: '127.0.0.1', registrationsPerHour: 3 }).registrationsPerHour).toBe(3);
  });
});

describe('finding N4: logs are bounded', () => {
  const capture = () => {
    const lines: string[] = [];
    let bytes = 0;
    const log = createLogger('info', (l) => {
      bytes += Buffer.byteLength(l);
      lines.push(l);
    });
    return { log, lines, bytes: () => bytes };
  };

  it('finding N4: 3,000 refused requests with a 15 KB Origin write one line (header cut), not 45 MB', async () => {
    const cap = capture();
    const deps = buildDeps(testConfig(), { log: cap.log, catalogueData: catalogueData(sampleEntities()) });
    const srv = await startHttpServer(deps);
    try {
      const origin = `http://evil.example/${'x'.repeat(15 * 1024)}`;
      const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
      const one = () =>
        new Promise<number>((resolve, reject) => {
          const u = new URL(`${srv.url}/api/stats`);
          http
            .get({ host: u.hostname, port: u.port, path: u.pathname, agent, headers: { origin } }, (res) => {
              res.resume();
              res.on('end', () => resolve(res.statusCode ?? 0));
            })
            .on('error', reject);
        });
      const statuses: number[] = [];
      for (let i = 0; i < 3000; i += 100) statuses.push(...(await Promise.all(Array.from({ length: 100 }, one))));
      agent.destroy();
      expect(statuses.length).toBe(3000);
      expect(statuses.every((s) => s === 403)).toBe(true);
      const refused = cap.lines.filter((l) => l.includes('rejected origin'));
      expect(refused.length).toBe(1);
      const line = JSON.parse(refused[0]!) as { origin: string };
      expect(line.origin.length).toBeLessThanOrEqual(MAX_LOG_VALUE_CHARS + 30);
      expect(line.origin).toMatch(/…\(\+\d+ chars\)$/);
      expect(cap.bytes()).toBeLessThan(4096);
    } finally {
      await srv.close();
      deps.close();
    }
  });

  it('finding N4: repeated warnings are sampled: one line per cause per interval, then one line with the count', () => {
    const lines: { msg: string; count?: number }[] = [];
    const log: Logger = { debug() {}, info() {}, warn: (msg, f) => lines.push({ msg, ...(f as object) }), error() {} };
    let now = 0;
    const s = new LogSampler(log, 60_000, () => now);
    for (let i = 0; i < 500; i++) s.warn('rejected host', { host: `h${i}` });
    s.warn('rejected origin');
    now = 60_000; // the next interval: the count of the last one, then the new first line
    s.warn('rejected host', { host: 'again' });
    s.flush();
    expect(lines).toEqual([
      { msg: 'rejected host', host: 'h0' },
      { msg: 'rejected origin' },
      { msg: 'rejected host (repeated)', count: 499, interval_s: 60 },
      { msg: 'rejected host', host: 'again' },
    ]);
  });
});

describe('finding N5: per-client limits group IPv6 by /64', () => {
  it('finding N5: clientGroup masks an IPv6 address to its prefix (by hand: 2001:db8:1:2:a:b:c:d/64 -> 2001:db8:1:2::/64); IPv4 stays whole', () => {
    expect(clientGroup('2001:db8:1:2:a:b:c:d')).toBe('2001:db8:1:2:0:0:0:0/64');
    expect(clientGroup('2001:db8:1:2::ffff')).toBe('2001:db8:1:2:0:0:0:0/64');
    expect(clientGroup('2001:db8:1:3::1')).toBe('2001:db8:1:3:0:0:0:0/64');
    expect(clientGroup('2001:db8:1:2:a:b:c:d', 48)).toBe('2001:db8:1:0:0:0:0:0/48');
    expect(clientGroup('2001:db8:1:2:a:b:c:d', 128)).toBe('2001:db8:1:2:a:b:c:d/128');
    expect(clientGroup('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(clientGroup('198.51.100.9')).toBe('198.51.100.9');
    expect(clientGroup('unknown')).toBe('unknown');
  });

  it('finding N5: six addresses of one /64 share one rate-limit window; another /64 has its own', async () => {
    const srv = await startTestServer(sampleEntities(), { ...PROXIED, rateLimitFree: 3 });
    try {
      const statuses: number[] = [];
      for (let i = 1; i <= 6; i++) statuses.push((await rawRequest(`${srv.url}/api/stats`, { headers: from(`2001:db8:5:6::${i.toString(16)}`) })).status);
      expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
      expect((await rawRequest(`${srv.url}/api/stats`, { headers: from('2001:db8:5:7::1') })).status).toBe(200);
    } finally {
      await srv.stop();
    }
  });

  it('finding N5: MCP session shares count a /64 as one client', async () => {
    const srv = await startTestServer(sampleEntities(), { ...PROXIED, maxSessionsPerClient: 2 });
    try {
      const init = (address: string) =>
        rawRequest(`${srv.url}/mcp`, {
          method: 'POST',
          headers: { ...from(address), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
        });
      const sid = async (address: string) => {
        const r = await init(address);
        expect(r.status).toBe(200);
        return String(r.headers['mcp-session-id']);
      };
      const alive = async (address: string, id: string) =>
        (
          await rawRequest(`${srv.url}/mcp`, {
            method: 'POST',
            headers: { ...from(address), 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' },
            body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }),
          })
        ).status;
      const a1 = await sid('2001:db8:9:9::1');
      const a2 = await sid('2001:db8:9:9::2');
      // A third address of the same /64 is the same client: its share (2) is full, so its least
      // recently used idle session (issue 40) makes room; a session of another /64 is untouched.
      const b1 = await sid('2001:db8:9:a::1');
      await sid('2001:db8:9:9::3');
      expect(await alive('2001:db8:9:9::1', a1)).toBe(404);
      expect(await alive('2001:db8:9:9::2', a2)).toBe(200);
      expect(await alive('2001:db8:9:a::1', b1)).toBe(200);
    } finally {
      await srv.stop();
    }
  });
});

describe('finding N7: SSE replays are counted by the rate limit', () => {
  it('finding N7: GET /mcp with Last-Event-ID counts like a call: over the window it gets 429 with Retry-After', async () => {
    const srv = await startTestServer(sampleEntities(), { rateLimitFree: 3 });
    try {
      const HEADERS = { host: '127.0.0.1', 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const init = await rawRequest(`${srv.url}/mcp`, {
        method: 'POST',
        headers: HEADERS,
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
      });
      const sid = String(init.headers['mcp-session-id']);
      const session = { ...HEADERS, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' };
      await rawRequest(`${srv.url}/mcp`, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
      const called = await rawRequest(`${srv.url}/mcp`, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_catalogue_stats', arguments: {} } }) });
      expect(called.status).toBe(200); // the call: 1 of 3
      const eventId = /^id: (.+)$/m.exec(called.body)?.[1] ?? '1:1';
      const replay = () => head(`${srv.url}/mcp`, { headers: { host: '127.0.0.1', accept: 'text/event-stream', 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18', 'last-event-id': eventId } });
      const first = [await replay(), await replay()]; // 2 and 3 of 3
      for (const r of first) expect(r.status).not.toBe(429);
      const over = await replay();
      expect(over.status).toBe(429);
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      expect((await replay()).status).toBe(429);
    } finally {
      await srv.stop();
    }
  });
});

describe('finding N8: an Idempotency-Key covers every argument that changes a deep list', () => {
  it('finding N8: the same key with other fields is 409 conflict, not the first body; the same request replays', async () => {
    const srv = await startTestServer(sampleEntities());
    try {
      const key = await registerKey(srv.url, 'n8@example.com');
      const list = (fields: string[]) =>
        httpJson(`${srv.url}/api/entities.json?deep=true&${fields.map((f) => `fields=${f}`).join('&')}`, { headers: { ...bearer(key), 'idempotency-key': 'n8-key' } });
      const first = await list(['id', 'name']);
      expect(first.status).toBe(200);
      const again = await list(['id', 'name']);
      expect(again.status).toBe(200);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      const other = await list(['id', 'price']);
      expect(other.status).toBe(409);
      expect(other.body).toMatchObject({ code: 'conflict' });
    } finally {
      await srv.stop();
    }
  });
});

describe('finding N10: xacro arguments are own properties only', () => {
  it('finding N10: $(arg __proto__), $(arg constructor) and $(arg toString) are "not passed", never JavaScript internals', async () => {
    const { client, close } = await memoryClient(testDeps());
    try {
      for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
        const content = `<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro"><link name="$(arg ${name})"/></robot>`;
        const r = await call(client, 'extract_robot_parts', { content, args: { other: 'x' } });
        expect(r.isError, name).toBe(true);
        expect(String(errorBody(r).error)).toContain(`argument "${name}" is not passed and has no default`);
      }
      // A passed argument of that name is read as passed.
      const ok = await call(client, 'extract_robot_parts', { content: '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro"><link name="$(arg toString)"/><link name="b"/><joint name="j" type="fixed"><parent link="$(arg toString)"/><child link="b"/></joint></robot>', args: { toString: 'base' } });
      expect(ok.isError).toBeFalsy();
      expect(JSON.stringify(ok.structuredContent)).toContain('"base"');
    } finally {
      await close();
    }
  });
});

describe('finding N11: JSON routes take JSON only', () => {
  it('finding N11: a text/plain or form POST is refused with 415 naming the expected type; application/json and an empty bodiless POST pass', async () => {
    const srv = await startTestServer(sampleEntities());
    try {
      const ids = sampleEntities().slice(0, 2).map((e) => e.id);
      const post = (type: string | null, body: string, route = '/api/compare') =>
        rawRequest(`${srv.url}${route}`, { method: 'POST', headers: { host: '127.0.0.1', ...(type ? { 'content-type': type } : {}) }, body });
      const plain = await post('text/plain;charset=UTF-8', JSON.stringify({ ids }));
      expect(plain.status).toBe(415);
      expect(JSON.parse(plain.body)).toMatchObject({ code: 'unsupported_media_type', field: 'Content-Type', expected: ['application/json'] });
      expect(JSON.parse(plain.body).error).toContain('POST /api/compare takes application/json');
      expect((await post('application/x-www-form-urlencoded', 'ids=a')).status).toBe(415);
      expect((await post('application/json', JSON.stringify({ ids }))).status).toBe(200);
      expect((await post('application/json; charset=utf-8', JSON.stringify({ ids }))).status).toBe(200);
      // The archive routes keep their archive types, and name them.
      const upload = await post('text/plain', 'x', '/api/oss/extract?entry=a.urdf');
      expect(upload.status).toBe(415);
      expect(JSON.parse(upload.body).expected).toEqual(expect.arrayContaining(['application/json', 'application/zip', 'application/gzip']));
      // No body and no Content-Type: nothing to read.
      const none = await rawRequest(`${srv.url}/api/credits/balance`, { method: 'POST', headers: { host: '127.0.0.1' } });
      expect(none.status).toBe(401);
    } finally {
      await srv.stop();
    }
  });
});

describe('finding N12: the README error table is complete', () => {
  it('finding N12: every error code is in the table with its HTTP status', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const table = new Map<string, number>();
    for (const m of readme.matchAll(/^\| (`[a-z_]+`(?: \/ `[a-z_]+`)*) \| (\d{3}) \|/gm)) {
      for (const code of m[1]!.matchAll(/`([a-z_]+)`/g)) table.set(code[1]!, Number(m[2]));
    }
    const missing = ERROR_CODES.filter((c) => table.get(c) !== errorStatus(c)).map((c) => `${c} ${errorStatus(c)} (README: ${table.get(c) ?? 'absent'})`);
    expect(missing).toEqual([]);
  });
});

describe('finding N13: every response says nosniff and cannot be framed', () => {
  it("finding N13: JSON answers, JSON errors, refusals, pages and the sandbox pay page carry nosniff and frame-ancestors 'none'", async () => {
    const srv = await startTestServer(sampleEntities());
    try {
      const key = await registerKey(srv.url, 'n13@example.com');
      const order = await postJson<{ pay_url: string }>(`${srv.url}/api/payment/create`, { plan: 'starter' }, bearer(key));
      expect(order.status).toBe(200);
      const payPath = new URL(order.body.pay_url);
      const cases: [string, Promise<{ status: number; headers: http.IncomingHttpHeaders }>][] = [
        ['healthz', rawRequest(`${srv.url}/healthz`, { headers: { host: '127.0.0.1' } })],
        ['json error 404', rawRequest(`${srv.url}/api/entity/nope`, { headers: { host: '127.0.0.1' } })],
        ['refused host 403', rawRequest(`${srv.url}/api/stats`, { headers: { host: 'evil.example' } })],
        ['route not found', rawRequest(`${srv.url}/no/such/route`, { headers: { host: '127.0.0.1' } })],
        ['page', rawRequest(`${srv.url}/`, { headers: { host: '127.0.0.1' } })],
        ['pay page', rawRequest(`${srv.url}${payPath.pathname}${payPath.search}`, { headers: { host: '127.0.0.1' } })],
      ];
      for (const [name, p] of cases) {
        const r = await p;
        expect(r.headers['x-content-type-options'], name).toBe('nosniff');
        expect(String(r.headers['content-security-policy']), name).toContain("frame-ancestors 'none'");
      }
      const pay = await rawRequest(`${srv.url}${payPath.pathname}${payPath.search}`, { headers: { host: '127.0.0.1' } });
      expect(pay.status).toBe(200);
      expect(String(pay.headers['content-security-policy'])).toContain("default-src 'none'");
    } finally {
      await srv.stop();
    }
  });
});
