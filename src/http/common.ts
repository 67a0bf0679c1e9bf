import { getConnInfo } from '@hono/node-server/conninfo';
import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';
import type { DomainError } from '../domain/shared/errors.js';

/** clientAddress: set once per request by the app (trusted proxies applied); null when unknown. */
export type AppEnv = { Variables: { clientAddress?: string | null }; Bindings: Partial<HttpBindings> };

/**
 * The request body as text. On node (the server's own listener) a body of declared length is read
 * straight from the IncomingMessage: asking the fetch Request for it builds the Request, a web
 * stream over the socket and its reader, which cost more than an MCP call's own work. The body
 * limit has been checked by then (app.ts: the declared length). A chunked body, a body something
 * else has started reading, or a request not from node (tests calling app.fetch) is read through
 * the fetch Request as before.
 */
export function requestText(c: Context<AppEnv>): Promise<string> {
  const incoming = c.env?.incoming;
  if (!incoming) return c.req.text();
  const framing = bodyFraming(c);
  if (framing.length === undefined || framing.chunked || incoming.readableDidRead || incoming.readableEnded) return c.req.text();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const fail = (err: Error) => {
      cleanup();
      reject(err);
    };
    const aborted = () => fail(new Error('request aborted while its body was read'));
    const data = (d: Buffer) => chunks.push(d);
    const end = () => {
      cleanup();
      const text = Buffer.concat(chunks).toString('utf8');
      resolve(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text); // as the fetch Request's text() decodes it
    };
    const cleanup = () => {
      incoming.off('data', data);
      incoming.off('end', end);
      incoming.off('error', fail);
      incoming.off('aborted', aborted);
    };
    incoming.on('data', data);
    incoming.on('end', end);
    incoming.on('error', fail);
    incoming.on('aborted', aborted);
  });
}

/** Reads request headers by name, as the fetch Headers' get() does. */
export interface HeaderReader {
  get(name: string): string | null;
}

/**
 * The request's headers, as `c.req.raw.headers` would give them: a name matched case-insensitively,
 * repeated headers joined with ", ", null when absent. On node they are read from the
 * IncomingMessage's raw header list: the first read of the fetch Request's headers builds a whole
 * fetch Headers object, which cost a REST search call more than its own search.
 */
export function requestHeaders(c: Context<AppEnv>): HeaderReader {
  const incoming = c.env?.incoming;
  return incoming ? new RawHeaders(incoming.rawHeaders) : c.req.raw.headers;
}

/** node's raw header list (name, value, name, value, ...) read as the fetch Headers would be. */
export class RawHeaders implements HeaderReader {
  constructor(private readonly raw: readonly string[]) {}

  get(name: string): string | null {
    const want = name.toLowerCase();
    const raw = this.raw;
    let value: string | null = null;
    for (let i = 0; i < raw.length; i += 2) {
      const k = raw[i]!;
      if (k.length !== want.length || k.toLowerCase() !== want) continue;
      value = value === null ? raw[i + 1]! : `${value}, ${raw[i + 1]!}`;
    }
    return value;
  }
}

/**
 * How the request's body is framed: its declared Content-Length (undefined when absent) and
 * whether it is chunked. Declared and not chunked: node's parser reads exactly that many bytes.
 */
export function bodyFraming(c: Context<AppEnv>): { length: string | undefined; chunked: boolean } {
  const h = requestHeaders(c);
  return { length: h.get('content-length') ?? undefined, chunked: h.get('transfer-encoding') !== null };
}

/** One request header (undefined when absent), as `c.req.header(name)` gives it. */
export function requestHeader(c: Context<AppEnv>, name: string): string | undefined {
  return requestHeaders(c).get(name) ?? undefined;
}

/** The socket peer's address. */
export function peerAddress(c: Context<AppEnv>): string | null {
  try {
    return getConnInfo(c).remote.address ?? null;
  } catch {
    return null;
  }
}

/** The client's address: forwarded through a configured trusted proxy, else the socket peer. */
export function clientAddress(c: Context<AppEnv>): string | null {
  const set = c.get('clientAddress');
  return set !== undefined ? set : peerAddress(c);
}

export function errorResponse(c: Context<AppEnv>, err: DomainError): Response {
  const retry = retryAfter(err);
  if (retry !== null) c.header('Retry-After', retry);
  return c.json(err.toBody(), err.status as 400);
}

/** The Retry-After value an error's response carries (rate_limited, overloaded), or null. */
export function retryAfter(err: DomainError): string | null {
  return (err.code === 'rate_limited' || err.code === 'overloaded') && typeof err.details.retry_after === 'number' ? String(err.details.retry_after) : null;
}

/**
 * `response`, its bytes sent in one write where they are ready together. An SSE answer is a stream
 * the HTTP adapter (@hono/node-server) starts by flushing the headers, a write of their own, and
 * whose last chunk can leave the stream's end for another: a call answered at once cost two or
 * three writes to the socket where one does (2.4 on average over 1,000 stateful tools/call,
 * strace -c; each a system call and, on loopback, the peer's wake-up). /mcp's responses are this
 * server's only stream bodies; every other route answers a string, written once with its headers.
 * The socket is corked until the current tick's work is done (process.nextTick runs after the
 * promise jobs in progress), which is when Node's own writes uncork it too; an answer still being
 * computed then is streamed as before, each event when it is sent. Every response is corked, with
 * a body or without (one without is written at once anyway): asking the response for its body
 * would turn the adapter's lightweight Response into a whole fetch Response and send it down the
 * adapter's slower path (that Response's constructor alone was 3% of the CPU profile of a search
 * call). The sockets' buffer mark (hardening.ts) keeps an answer over 16 kB in one write too.
 */
export function coalesced(c: Context<AppEnv>, response: Response): Response {
  const socket = c.env?.outgoing?.socket;
  if (socket && !socket.destroyed) {
    socket.cork();
    process.nextTick(() => socket.uncork());
  }
  return response;
}
