/**
 * Request headers on node are read from the IncomingMessage's raw header list (src/http/common.ts,
 * requestHeaders) instead of the fetch Request's Headers. The same request must get the same
 * answer either way: each case is sent as raw bytes to the real server, and as a fetch Request
 * (undici's Headers: names case-insensitive, repeats joined with ", ") to the same app's fetch().
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/http/app.js';
import { sampleEntities } from '../support/factory.js';
import { startTestServer } from '../support/http.js';

let srv: Awaited<ReturnType<typeof startTestServer>>;
let app: ReturnType<typeof createApp>['app'];

beforeAll(async () => {
  srv = await startTestServer(sampleEntities(), { trustedProxies: ['127.0.0.1'], allowedOrigins: ['https://app.example'] });
  app = createApp(srv.deps).app;
});
afterAll(async () => srv?.stop());

/** One raw HTTP/1.1 exchange: the status and the body of the answer. */
function rawExchange(port: number, head: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const got: Buffer[] = [];
    socket.on('data', (d) => got.push(d));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(got).toString('utf8');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      const headEnd = text.indexOf('\r\n\r\n');
      const rawHead = text.slice(0, headEnd);
      let body = text.slice(headEnd + 4);
      if (/\r\ntransfer-encoding: chunked/i.test(rawHead)) {
        let out = '';
        for (let rest = body; ; ) {
          const nl = rest.indexOf('\r\n');
          const size = parseInt(rest.slice(0, nl), 16);
          if (!size) break;
          out += rest.slice(nl + 2, nl + 2 + size);
          rest = rest.slice(nl + 2 + size + 2);
        }
        body = out;
      }
      resolve({ status, body });
    });
    socket.on('connect', () => socket.write(head));
  });
}

/** The same request through fetch(): the header list as given, in order. */
async function viaFetch(path: string, headers: [string, string][]): Promise<{ status: number; body: string }> {
  const res = await app.fetch(new Request(`http://127.0.0.1${path}`, { headers: new Headers(headers) }), {});
  return { status: res.status, body: await res.text() };
}

const host = () => `127.0.0.1:${srv.port}`;

const CASES: { name: string; path: string; headers: () => [string, string][]; status: number }[] = [
  { name: 'plain request', path: '/api/search?q=servo', headers: () => [['Host', host()]], status: 200 },
  { name: 'header names in any case', path: '/api/search?q=servo', headers: () => [['hOsT', host()], ['ORIGIN', 'https://app.example']], status: 200 },
  { name: 'two Host headers, one foreign (joined: not an allowed host)', path: '/api/search?q=servo', headers: () => [['Host', host()], ['Host', 'evil.example']], status: 403 },
  { name: 'a foreign Origin', path: '/api/search?q=servo', headers: () => [['Host', host()], ['Origin', 'https://evil.example']], status: 403 },
  { name: 'two Origin headers (joined: not an allowed origin)', path: '/api/search?q=servo', headers: () => [['Host', host()], ['Origin', 'https://app.example'], ['origin', 'https://app.example']], status: 403 },
  {
    name: 'two different X-API-Key headers in different case: conflicting credentials',
    path: '/api/search?q=servo',
    headers: () => [['Host', host()], ['X-API-Key', 'gtk_aaaaaaaaaaaaaaaaaaaaaaaa'], ['x-api-key', 'gtk_bbbbbbbbbbbbbbbbbbbbbbbb']],
    status: 400,
  },
  {
    name: 'Authorization and X-API-Key naming different keys',
    path: '/api/search?q=servo',
    headers: () => [['Host', host()], ['authorization', 'Bearer gtk_aaaaaaaaaaaaaaaaaaaaaaaa'], ['X-Api-Key', 'gtk_bbbbbbbbbbbbbbbbbbbbbbbb']],
    status: 400,
  },
];

describe('request headers read from node match the fetch Headers', () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const headers = c.headers();
      const head = `GET ${c.path} HTTP/1.1\r\n${headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}Connection: close\r\n\r\n`;
      const node = await rawExchange(srv.port, head);
      const fetched = await viaFetch(c.path, headers);
      expect(node.status).toBe(c.status);
      expect(fetched.status).toBe(c.status);
      expect(JSON.parse(node.body)).toEqual(JSON.parse(fetched.body));
    });
  }

  it('X-Forwarded-For from a trusted proxy: repeated headers are one chain, its last hop the client', async () => {
    // One call per hour per client: a second call from the same client is 429, another client's is not.
    const limited = await startTestServer(sampleEntities(), { trustedProxies: ['127.0.0.1'], rateLimitFree: 1 });
    try {
      const send = (xff: string[]) =>
        rawExchange(limited.port, `GET /api/search?q=servo HTTP/1.1\r\nHost: 127.0.0.1:${limited.port}\r\n${xff.map((v) => `X-Forwarded-For: ${v}\r\n`).join('')}Connection: close\r\n\r\n`);
      expect((await send(['203.0.113.7'])).status).toBe(200);
      // Joined "198.51.100.1, 203.0.113.7": the client is 203.0.113.7 again (the first header alone would name 198.51.100.1).
      expect((await send(['198.51.100.1', '203.0.113.7'])).status).toBe(429);
      expect((await send(['203.0.113.7', '198.51.100.1'])).status).toBe(200);
    } finally {
      await limited.stop();
    }
  });
});
