import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { DomainError } from '../domain/errors.js';

export type AppEnv = { Variables: { requestId: string } };

export function clientAddress(c: Context<AppEnv>): string | null {
  try {
    return getConnInfo(c).remote.address ?? null;
  } catch {
    return null;
  }
}

export function errorResponse(c: Context<AppEnv>, err: DomainError): Response {
  if (err.code === 'rate_limited' && typeof err.details.retry_after === 'number') c.header('Retry-After', String(err.details.retry_after));
  return c.json(err.toBody(), err.status as 400);
}
