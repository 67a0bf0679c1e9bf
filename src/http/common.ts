import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { DomainError } from '../domain/errors.js';

/** clientAddress: set once per request by the app (trusted proxies applied); null when unknown. */
export type AppEnv = { Variables: { requestId: string; clientAddress?: string | null } };

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
