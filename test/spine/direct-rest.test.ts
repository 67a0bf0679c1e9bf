/**
 * Direct REST answers (src/http/direct.ts): a GET of a JSON tool route written straight to node's
 * response must be, byte for byte, what Hono's chain answers for the same request: status, every
 * header (CORS, compression, Vary, security headers, rate-limit headers, Retry-After) and body.
 * Hono's answer is had from the same server by adding `Content-Length: 0` to the request (a request
 * that declares a body is never answered directly; nothing else reads that header on a GET).
 */
import http from 'node:http';
import net from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/http/app.js';
import { httpServerOptions } from '../../src/http/hardening.js';
import type { Deps } from '../../src/deps.js';
import { realDeps } from '../support/deps.js';

const LISTED = 'http://app.example';

/** One exchange on a fresh connection, as raw bytes (latin1), with the Date header's value blanked. */
function exchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1', () => s.write(request)); // not half-closed: node drops a request whose client ended its side before the answer
    const chunks: Buffer[] = [];
    s.on('data', (d: Buffer) => chunks.push(d));
    s.on('close', () => resolve(Buffer.concat(chunks).toString('latin1').replace(/\r\nDate: [^\r]*/, '\r\nDate: -')));
    s.on('error', reject);
  });
}

function request(target: string, headers: Record<string, string>): string {
  return `GET ${target} HTTP/1.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}Connection: close\r\n\r\n`;
}

describe('direct REST answers', () => {
  let deps: Deps;
  let server: http.Server;
  let port = 0;
  let direct = 0;
  let hono = 0;
  let client = 0;

  beforeAll(async () => {
    deps = realDeps({ corsOrigins: [LISTED], rateLimitFree: 3, trustedProxies: ['127.0.0.1'] });
    await deps.ready;
    const app = createApp(deps);
    // startHttpServer's wiring, counting who answered.
    const honoListener = getRequestListener(app.app.fetch);
    server = http.createServer(httpServerOptions(deps.config), (req, res) => {
      if (app.direct(req, res)) direct++;
      else {
        hono++;
        void honoListener(req, res);
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
    deps.config.publicBaseUrl = `http://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    deps.close();
  });

  /** The same request answered directly and by Hono, each for a client of its own (its own rate-limit count), `times` times in a row. */
  async function both(target: string, headers: Record<string, string> = {}, times = 1): Promise<{ direct: string; hono: string }> {
    const a = `203.0.113.${++client}`;
    const b = `203.0.113.${++client}`;
    let d = '';
    let h = '';
    for (let i = 0; i < times; i++) {
      const before = { direct, hono };
      d = await exchange(port, request(target, { Host: `127.0.0.1:${port}`, 'X-Forwarded-For': a, ...headers }));
      expect({ direct: direct - before.direct, hono: hono - before.hono }).toEqual({ direct: 1, hono: 0 });
      h = await exchange(port, request(target, { Host: `127.0.0.1:${port}`, 'X-Forwarded-For': b, 'Content-Length': '0', ...headers }));
      expect({ direct: direct - before.direct, hono: hono - before.hono }).toEqual({ direct: 1, hono: 1 });
    }
    return { direct: d, hono: h };
  }

  const cases: [string, string, Record<string, string>][] = [
    ['a search', '/api/search?q=servo', {}],
    ['a search asked gzip', '/api/search?q=servo', { 'Accept-Encoding': 'gzip' }],
    ['a search asked br', '/api/search?q=harmonic', { 'Accept-Encoding': 'br;q=1, gzip;q=0.5' }],
    ['a short answer (under the compression threshold)', '/api/search?q=servo&limit=1&fields=id', { 'Accept-Encoding': 'gzip' }],
    ['a listed origin (CORS)', '/api/search?q=servo', { Origin: LISTED, 'Accept-Encoding': 'gzip' }],
    ['an allowed origin not listed for CORS', '/api/search?q=servo', { Origin: 'http://localhost:5173' }],
    ['a CJK query, percent-encoded', `/api/search?q=${encodeURIComponent('谐波减速器')}`, {}],
    ['repeated and plus-encoded parameters', '/api/search?q=servo+motor&fields=id&fields=name&limit=3', {}],
    ['a malformed escape', '/api/search?q=%E9%ZZ', {}],
    ['an invalid argument', '/api/search?q=servo&limit=abc', { 'Accept-Encoding': 'gzip' }],
    ['an unknown argument', '/api/search?q=servo&bogus=1', { Origin: LISTED }],
    ['no q', '/api/search', {}],
    ['a spec filter', `/api/search?q=servo&where=${encodeURIComponent('torque_rated>=1 N·m')}`, {}],
    ['a query found nowhere', '/api/search?q=zzqqxx', {}],
    ['a key that is not one', '/api/search?q=servo&key=rp_nope', {}],
    ['a bearer that is not one', '/api/search?q=servo', { Authorization: 'Bearer rp_nope' }],
    ['another JSON route', '/api/entities.json?limit=2', { 'Accept-Encoding': 'gzip' }],
  ];

  for (const [what, target, headers] of cases) {
    it(`answers ${what} with Hono's bytes`, async () => {
      const r = await both(target, headers);
      expect(r.direct).toMatch(/^HTTP\/1\.1 \d{3} /);
      expect(r.direct).toContain('\r\nx-content-type-options: nosniff\r\n');
      expect(r.direct).toBe(r.hono);
    });
  }

  it('answers a client over its rate limit (429, Retry-After) with Hono\'s bytes', async () => {
    const r = await both('/api/search?q=servo', {}, 4);
    expect(r.direct).toMatch(/^HTTP\/1\.1 429 /);
    expect(r.direct).toMatch(/\r\nretry-after: \d+\r\n/);
    // The reset is counted in whole seconds: the two clients' windows may start a second apart.
    const masked = (s: string) => s.replace(/(ratelimit-reset: |retry-after: |"retry_after":|reset=)\d+/g, '$1#');
    expect(masked(r.direct)).toBe(masked(r.hono));
  });

  it('leaves to Hono what it does not answer: HEAD, a refused Host or Origin, a body, an encoded path', async () => {
    const before = { direct, hono };
    const host = `127.0.0.1:${port}`;
    const from = () => ({ 'X-Forwarded-For': `203.0.113.${++client}` }); // each its own rate-limit count
    const sent = [
      `HEAD /api/search?q=servo HTTP/1.1\r\nHost: ${host}\r\nX-Forwarded-For: 203.0.113.${++client}\r\nConnection: close\r\n\r\n`,
      request('/api/search?q=servo', { Host: 'evil.example', ...from() }),
      request('/api/search?q=servo', { Host: host, Origin: 'http://evil.example', ...from() }),
      request('/api/search?q=servo', { Host: host, 'Transfer-Encoding': 'chunked', ...from() }).replace('\r\n\r\n', '\r\n\r\n0\r\n\r\n'),
      request('/api/%73earch?q=servo', { Host: host, ...from() }),
      request('/api/search?q="servo"', { Host: host, ...from() }),
    ];
    const answers = [];
    for (const r of sent) answers.push(await exchange(port, r));
    expect({ direct: direct - before.direct, hono: hono - before.hono }).toEqual({ direct: 0, hono: sent.length });
    expect(answers.map((a) => a.slice(0, 12))).toEqual(['HTTP/1.1 200', 'HTTP/1.1 403', 'HTTP/1.1 403', 'HTTP/1.1 200', 'HTTP/1.1 200', 'HTTP/1.1 200']);
  });
});

describe('direct REST answers and a changed chain', () => {
  it('stay with Hono for a path whose chain has a middleware they do not know', async () => {
    const deps = realDeps();
    await deps.ready;
    let seen = 0;
    const app = createApp(deps, {
      extend: (a) => {
        a.use('/api/search', async (c, next) => {
          seen++;
          c.header('X-Extra', 'yes');
          await next();
        });
      },
    });
    const honoListener = getRequestListener(app.app.fetch);
    let direct = 0;
    const server = http.createServer(httpServerOptions(deps.config), (req, res) => {
      if (app.direct(req, res)) direct++;
      else void honoListener(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    try {
      // Hono runs the route's handler first: the added middleware never gets its turn, and no direct answer stands in for that chain.
      const answer = await exchange(port, request('/api/search?q=servo', { Host: `127.0.0.1:${port}` }));
      expect(answer).toMatch(/^HTTP\/1\.1 200 /);
      expect({ direct, seen }).toEqual({ direct: 0, seen: 0 });
      // A path Hono still gives the known chain (another JSON route) is answered directly.
      const other = await exchange(port, request('/api/entities.json?limit=1', { Host: `127.0.0.1:${port}` }));
      expect(other).toMatch(/^HTTP\/1\.1 200 /);
      expect({ direct, seen }).toEqual({ direct: 1, seen: 0 });
    } finally {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      deps.close();
    }
  });
});
