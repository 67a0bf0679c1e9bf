/**
 * Headers every response carries, whatever route or refusal made it (JSON errors, the sandbox pay
 * page, SSE streams, files): `X-Content-Type-Options: nosniff`, and `frame-ancestors 'none'` in its
 * Content-Security-Policy (added to a route's own policy, or the whole policy when it has none), so
 * no page of this server can be framed (clickjacking of the pay page) and no body is sniffed into
 * another type.
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './common.js';

export const FRAME_ANCESTORS = "frame-ancestors 'none'";

/** The CSP with frame-ancestors 'none' (unchanged when it names frame-ancestors already). */
export function withFrameAncestors(csp: string | null): string {
  if (!csp) return FRAME_ANCESTORS;
  return /(^|;)\s*frame-ancestors\b/i.test(csp) ? csp : `${csp.replace(/;\s*$/, '')}; ${FRAME_ANCESTORS}`;
}

export const NOSNIFF = 'nosniff';

function stamp(headers: Headers): void {
  headers.set('X-Content-Type-Options', NOSNIFF);
  const csp = headers.get('Content-Security-Policy');
  const next = withFrameAncestors(csp);
  if (next !== csp) headers.set('Content-Security-Policy', next);
}

export function responseHeaders(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    try {
      stamp(c.res.headers);
    } catch {
      // A Response with immutable headers: copy it.
      const res = new Response(c.res.body, c.res);
      stamp(res.headers);
      c.res = res;
    }
  };
}
