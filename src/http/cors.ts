/**
 * CORS for /mcp and /api: browser clients (a web MCP inspector, a page of the operator's own) on
 * origins in the allow-list (`--cors-origins`, ROBOT_PARTS_CORS_ORIGINS; empty by default).
 *
 * - Preflight (OPTIONS with Origin and Access-Control-Request-Method): 204 with the allowed
 *   methods and request headers (the MCP ones included), for an origin on the list; an origin
 *   the Host/Origin check lets through but the list does not name (loopback pages) gets 403
 *   forbidden naming the setting. Origins outside both are refused earlier (app.ts, 403).
 * - Real responses to a listed origin carry Access-Control-Allow-Origin (that origin, never `*`)
 *   and expose the headers a client reads (session id, protocol version, credits, rate limits).
 *
 * No Access-Control-Allow-Credentials: the API takes keys in headers (Authorization, X-API-Key),
 * never cookies, so a browser never sends ambient credentials cross-origin.
 */
import type { MiddlewareHandler } from 'hono';
import { DomainError } from '../domain/shared/errors.js';
import { errorResponse, requestHeaders, type AppEnv } from './common.js';

export const CORS_ALLOW_METHODS = ['GET', 'POST', 'DELETE', 'OPTIONS'];
export const CORS_ALLOW_HEADERS = [
  'Content-Type',
  'Accept',
  'Authorization',
  'X-API-Key',
  'Idempotency-Key',
  'Mcp-Session-Id',
  'MCP-Protocol-Version',
  'Mcp-Method',
  'Mcp-Name',
  'Last-Event-ID',
];
export const CORS_EXPOSE_HEADERS = [
  'Mcp-Session-Id',
  'MCP-Protocol-Version',
  'X-Credits-Remaining',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'RateLimit-Policy',
  'Retry-After',
];
/** How long a browser may cache a preflight answer (seconds). */
export const CORS_MAX_AGE_SECONDS = 600;

/** The allow-list read once: whether it names any origin, and whether it names this one. */
export interface CorsPolicy {
  readonly any: boolean;
  listed(origin: string | null | undefined): origin is string;
}

export function corsPolicy(allowList: readonly string[]): CorsPolicy {
  const allowed = new Set(allowList.map((o) => o.trim().replace(/\/$/, '').toLowerCase()));
  return { any: allowed.size > 0, listed: (origin): origin is string => origin !== null && origin !== undefined && allowed.has(origin.trim().toLowerCase()) };
}

/** The Access-Control-Expose-Headers value of a real (not preflight) response to a listed origin. */
export const CORS_EXPOSE_VALUE = CORS_EXPOSE_HEADERS.join(', ');

export function cors(allowList: readonly string[] | CorsPolicy): MiddlewareHandler<AppEnv> {
  const policy = 'listed' in allowList ? allowList : corsPolicy(allowList);
  return async (c, next) => {
    // Nothing to add for anyone: only a preflight needs an answer (403, naming the setting).
    if (!policy.any && c.req.method !== 'OPTIONS') return next();
    const headers = requestHeaders(c);
    const origin = headers.get('origin');
    const listed = policy.listed(origin);
    const preflight = c.req.method === 'OPTIONS' && origin && headers.get('access-control-request-method');
    if (preflight) {
      if (!listed) {
        return errorResponse(
          c,
          new DomainError('forbidden', `Origin ${origin} may not call this server from a browser: add it to --cors-origins (ROBOT_PARTS_CORS_ORIGINS)`, { field: 'Origin' }),
        );
      }
      return c.body(null, 204, {
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Allow-Methods': CORS_ALLOW_METHODS.join(', '),
        'Access-Control-Allow-Headers': CORS_ALLOW_HEADERS.join(', '),
        'Access-Control-Max-Age': String(CORS_MAX_AGE_SECONDS),
        Vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
      });
    }
    await next();
    if (listed) {
      // Set on a copy: a handler may answer with a Response whose headers are immutable, and on
      // @hono/node-server's lightweight Response a header set while it is lightweight was lost
      // when a later step read its body (the compression step does for an undeclared length: a
      // JSON error), which rebuilt it from the headers it was made with. A copy is a whole Response
      // (read back from c.res: hono's setter stores a copy of what it is given).
      c.res = new Response(c.res.body, c.res);
      const res = c.res;
      res.headers.set('Access-Control-Allow-Origin', origin);
      res.headers.set('Access-Control-Expose-Headers', CORS_EXPOSE_VALUE);
      res.headers.append('Vary', 'Origin');
    }
  };
}
