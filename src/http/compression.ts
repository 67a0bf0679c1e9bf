/**
 * Response compression: HTML, JSON, CSS, JavaScript, SVG and XML bodies of at least
 * COMPRESS_MIN_BYTES go brotli- or gzip-encoded to a client whose Accept-Encoding takes it
 * (brotli preferred), with `Vary: Accept-Encoding`. The work runs on libuv's thread pool (node's
 * asynchronous zlib), not the event loop. MCP (/mcp: SSE streams and JSON-RPC) and bodies that are
 * already encoded (the large assets stored gzip-compressed) are sent as they are.
 */
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { MiddlewareHandler } from 'hono';
import { requestHeader, type AppEnv } from './common.js';

export const COMPRESS_MIN_BYTES = 1024;
const COMPRESSIBLE = /^(text\/(html|css|javascript|plain|csv|xml)|application\/(json|xml|javascript)|image\/svg\+xml|model\/stl)\b/i;
const br = promisify(brotliCompress);
const gz = promisify(gzip);

/** The coding to answer with: br or gzip when Accept-Encoding takes it (q above 0), else null. */
export function pickEncoding(header: string | undefined): 'br' | 'gzip' | null {
  if (!header) return null;
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [raw = '', ...params] = part.toLowerCase().split(';');
    const p = params.map((x) => x.trim()).find((x) => x.startsWith('q='));
    q.set(raw.trim(), p === undefined ? 1 : Number(p.slice(2)) || 0);
  }
  const of = (c: string) => q.get(c) ?? q.get('*') ?? 0;
  if (of('br') > 0 && of('br') >= of('gzip')) return 'br';
  if (of('gzip') > 0 || (q.get('x-gzip') ?? 0) > 0) return 'gzip';
  return null;
}

/**
 * Whether a response of this Content-Type and declared length (null: not declared) is one to
 * compress for a client that takes it; such a response varies on Accept-Encoding.
 */
export function compressibleResponse(type: string, declared: number | null): boolean {
  if (!COMPRESSIBLE.test(type) || /event-stream/i.test(type)) return false;
  return declared === null || declared >= COMPRESS_MIN_BYTES;
}

/** Whether a Vary value names Accept-Encoding already (else a compressible response appends it). */
export function variesOnEncoding(vary: string | null): boolean {
  return /accept-encoding/i.test(vary ?? '');
}

/** The body encoded: brotli at quality 5 (most of quality 11's gain at a small part of its time, for answers made per request) or gzip. */
export function compressBody(body: Buffer, coding: 'br' | 'gzip'): Promise<Buffer> {
  return coding === 'br' ? br(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }) : gz(body, { level: 6 });
}

export function compression(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (c.req.method === 'HEAD' || c.req.path === '/mcp') return;
    const res = c.res;
    if (res.status === 204 || res.status === 304 || res.headers.has('content-encoding')) return;
    const declared = res.headers.get('content-length');
    if (!compressibleResponse(res.headers.get('content-type') ?? '', declared === null ? null : Number(declared))) return;
    // res.body is asked only when declared length cannot tell: on @hono/node-server's lightweight
    // Response, reading .body builds the whole fetch Response and a ReadableStream around the bytes
    // (the top JS entries of the REST miss path's profile, issue 47); a declared length of 1 kB or
    // more says there is a body.
    if (declared === null && !res.body) return;
    if (!variesOnEncoding(res.headers.get('vary'))) res.headers.append('Vary', 'Accept-Encoding');
    const coding = pickEncoding(requestHeader(c, 'accept-encoding'));
    if (!coding) return;
    if (!res.body) return;
    const body = Buffer.from(await res.arrayBuffer());
    const headers = new Headers(res.headers);
    if (body.length < COMPRESS_MIN_BYTES) {
      c.res = new Response(body, { status: res.status, headers });
      return;
    }
    const out = await compressBody(body, coding);
    headers.set('Content-Encoding', coding);
    headers.set('Content-Length', String(out.length));
    c.res = undefined as never; // cleared first: hono would copy the old response's headers (its Content-Length) onto the new one
    c.res = new Response(new Uint8Array(out), { status: res.status, statusText: res.statusText, headers });
  };
}
