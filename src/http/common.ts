import { getConnInfo } from '@hono/node-server/conninfo';
import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';
import type { DomainError } from '../domain/errors.js';

/** clientAddress: set once per request by the app (trusted proxies applied); null when unknown. */
export type AppEnv = { Variables: { requestId: string; clientAddress?: string | null }; Bindings: Partial<HttpBindings> };

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
  if (!incoming || incoming.headers['content-length'] === undefined || incoming.headers['transfer-encoding'] !== undefined || incoming.readableDidRead || incoming.readableEnded) {
    return c.req.text();
  }
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
  if (err.code === 'rate_limited' && typeof err.details.retry_after === 'number') c.header('Retry-After', String(err.details.retry_after));
  return c.json(err.toBody(), err.status as 400);
}
