/**
 * Direct REST answers: a GET of a REST route answering its tool's JSON (GET /api/search, ...)
 * written straight to node's response, without the fetch Request, Response and Headers objects
 * Hono and @hono/node-server build around each exchange (issue 47: with the answer cache on, they
 * were most of what a search call cost over a bare node:http server sending the same bytes).
 *
 * The same work as Hono's chain for those routes, through the same functions:
 * - only while Hono would run exactly the known chain for the path (security headers, request
 *   gate, compression, CORS, body limits, the route's handler: checked against Hono's router on
 *   the first request of each path), so a middleware or route added later sends the path back to Hono;
 * - the request gate (RequestGate: the request counted, its client's address, Host and Origin
 *   checked, its debug line); a refused request goes to Hono, which logs and answers the refusal;
 * - the route's arguments, tool context, tool run and bytes (src/http/rest.ts DirectRoute);
 * - CORS (corsPolicy), compression (compressibleResponse, pickEncoding, compressBody) and the
 *   security headers (NOSNIFF, withFrameAncestors), applied in the middleware order;
 * - the response's headers as Hono's Headers and @hono/node-server write them (lower-case names in
 *   sorted order; an error's Content-Length added last).
 * Anything else goes to Hono untouched: another method (HEAD, OPTIONS), a request with a body
 * (Content-Length or Transfer-Encoding: the body limit's case), an absolute-form or unusual target
 * (characters the URL parser would re-encode, a fragment, a backslash), a Host @hono/node-server
 * would refuse.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Hono, MiddlewareHandler } from 'hono';
import { getQueryParams } from 'hono/utils/url';
import type { Logger } from '../log.js';
import type { DomainError } from '../domain/shared/errors.js';
import { RawHeaders, retryAfter, type AppEnv, type HeaderReader } from './common.js';
import { compressBody, compressibleResponse, COMPRESS_MIN_BYTES, pickEncoding, variesOnEncoding } from './compression.js';
import { CORS_EXPOSE_VALUE, type CorsPolicy } from './cors.js';
import { isClientAbort } from './hardening.js';
import { NOSNIFF, withFrameAncestors } from './response-headers.js';
import type { DirectRoute, RestExchange } from './rest.js';

/** The request gate of src/http/app.ts, shared by its middleware and the direct answers. */
export interface RequestGate {
  /** The request counted; its client's address (trusted proxies applied). */
  enter(headers: HeaderReader, peer: string | null): string | null;
  /** The header that refuses the request (Host, Origin), or null. */
  refused(headers: HeaderReader): 'Host' | 'Origin' | null;
  /** Whether the request's debug line is written. */
  timed(): boolean;
  done(method: string, path: string, status: number, started: number): void;
}

/**
 * Answers the request and returns true, or returns false without touching it (Hono's then).
 * `internal`: the start's warm-up request (src/http/warm-up.ts marks its own connections only).
 */
export type DirectListener = (incoming: IncomingMessage, outgoing: ServerResponse, internal?: boolean) => boolean;

/**
 * A request target whose query the URL parser keeps as it is (no character it percent-encodes,
 * no fragment, no backslash): Hono reads the same query parameters from it as from its Request's URL.
 */
const PLAIN_TARGET = /^\/[A-Za-z0-9\-._~!$&()*+,;=:@/?%]*$/;

export function directRest(opts: {
  app: Hono<AppEnv>;
  routes: readonly DirectRoute[];
  /** The middleware Hono runs for every direct route, in order (then the route's handler). */
  middleware: readonly MiddlewareHandler<AppEnv>[];
  gate: RequestGate;
  cors: CorsPolicy;
  /** An unexpected error: logged, as the app's onError does, and the internal error to answer. */
  unexpected: (err: Error, path: string) => DomainError;
  log: Logger;
}): DirectListener {
  const { gate, cors, log } = opts;
  const byPath = new Map(opts.routes.map((r) => [r.path, r]));
  /** Per path: whether Hono's router gives it exactly the known chain (asked on its first request: the routes are all mounted by then). */
  const chainOk = new Map<string, boolean>();
  const knownChain = (route: DirectRoute): boolean => {
    let ok = chainOk.get(route.path);
    if (ok === undefined) {
      const matched = opts.app.router.match('GET', route.path)[0] as unknown as [[unknown, unknown], unknown][];
      const handlers = matched.map((m) => m[0][0]);
      const expected = [...opts.middleware, route.handler];
      ok = handlers.length === expected.length && handlers.every((h, i) => h === expected[i]);
      chainOk.set(route.path, ok);
    }
    return ok;
  };
  // The last Host header @hono/node-server accepted (it builds a URL from it and refuses a Host the
  // URL parser rewrites): checked once per distinct value in a row, not parsed on every request.
  let acceptedHost: string | undefined;
  const hostAccepted = (host: string | undefined): boolean => {
    if (host === undefined || host === '') return false;
    if (host === acceptedHost) return true;
    let url: URL;
    try {
      url = new URL(`http://${host}/`);
    } catch {
      return false;
    }
    if (url.hostname.length !== host.length && url.hostname !== host.replace(/:\d+$/, '')) return false;
    acceptedHost = host;
    return true;
  };

  return (incoming, outgoing, internal = false) => {
    if (incoming.method !== 'GET') return false;
    const target = incoming.url ?? '';
    const q = target.indexOf('?');
    const route = byPath.get(q === -1 ? target : target.slice(0, q));
    if (route === undefined || !PLAIN_TARGET.test(target)) return false;
    const headers = new RawHeaders(incoming.rawHeaders);
    if (headers.get('content-length') !== null || headers.get('transfer-encoding') !== null) return false;
    // The Host header read from the raw list (node's headers object is built on first read): one
    // Host, as @hono/node-server reads it; repeated ones are joined and refused by the gate (Hono's then).
    if (!hostAccepted(headers.get('host') ?? undefined) || gate.refused(headers) !== null || !knownChain(route)) return false;
    void answer(route, target, headers, incoming, outgoing, internal);
    return true;
  };

  async function answer(route: DirectRoute, target: string, headers: RawHeaders, incoming: IncomingMessage, outgoing: ServerResponse, internal: boolean): Promise<void> {
    const exchange = new NodeExchange(headers, gate.enter(headers, incoming.socket?.remoteAddress ?? null), outgoing, internal);
    const timed = gate.timed();
    const started = timed ? performance.now() : 0;
    let status = 200;
    try {
      // Hono's own parse of the query (c.req.queries()); the target has no scheme or host, and its path is longer than the 8 characters the parse skips.
      const queries = route.path.length >= 8 ? getQueryParams(target) : getQueryParams(`http://h${target}`);
      let result;
      try {
        result = await route.answer(queries as Record<string, string[]>, exchange);
      } catch (err) {
        if (isClientAbort(err, exchange.aborted)) {
          // The client went away mid-request: nothing to answer (the app's onError says the same).
          log.debug('client aborted request', { path: route.path, error: (err as Error).message });
          outgoing.destroy();
          return;
        }
        result = { ok: false as const, error: opts.unexpected(err instanceof Error ? err : new Error(String(err)), route.path) };
      }
      if (result.ok) {
        exchange.set('content-length', String(result.bytes.length));
        exchange.set('content-type', 'application/json');
        await send(exchange, headers, 200, result.bytes, true);
      } else {
        // errorResponse's answer: c.json of the error's body, with Retry-After when it says when.
        const err = result.error;
        const retry = retryAfter(err);
        if (retry !== null) exchange.set('retry-after', retry);
        exchange.set('content-type', 'application/json');
        status = err.status;
        await send(exchange, headers, status, Buffer.from(JSON.stringify(err.toBody()), 'utf8'), false);
      }
    } catch (err) {
      // Writing failed (the socket went away): nothing more to send.
      log.debug('direct REST answer not sent', { path: route.path, error: err instanceof Error ? err.message : String(err) });
      if (!outgoing.destroyed) outgoing.destroy();
      return;
    }
    if (timed) gate.done('GET', route.path, status, started);
  }

  /** The response as the middleware (innermost first) and @hono/node-server would make and write it. */
  async function send(x: NodeExchange, headers: HeaderReader, status: number, body: Buffer, declared: boolean): Promise<void> {
    // CORS (src/http/cors.ts): a listed origin's response says so.
    if (cors.any) {
      const origin = headers.get('origin');
      if (cors.listed(origin)) {
        x.set('access-control-allow-origin', origin);
        x.set('access-control-expose-headers', CORS_EXPOSE_VALUE);
        x.append('vary', 'Origin');
      }
    }
    // Compression (src/http/compression.ts).
    if (!x.has('content-encoding') && compressibleResponse(x.get('content-type') ?? '', declared ? body.length : null) && (declared || body.length > 0)) {
      if (!variesOnEncoding(x.get('vary') ?? null)) x.append('vary', 'Accept-Encoding');
      const coding = pickEncoding(headers.get('accept-encoding') ?? undefined);
      if (coding && body.length >= COMPRESS_MIN_BYTES) {
        body = await compressBody(body, coding);
        x.set('content-encoding', coding);
        x.set('content-length', String(body.length));
        declared = true;
      }
    }
    // The security headers (src/http/response-headers.ts).
    x.set('x-content-type-options', NOSNIFF);
    const csp = x.get('content-security-policy') ?? null;
    const framed = withFrameAncestors(csp);
    if (framed !== csp) x.set('content-security-policy', framed);
    if (x.outgoing.destroyed) return;
    x.outgoing.writeHead(status, x.outgoingHeaders(declared ? null : body.length));
    x.outgoing.end(body);
  }
}

/**
 * A direct answer's exchange: the request's headers and client, and the response's headers as a
 * fetch Headers would hold them (names lower-cased, set replaces, append joins with ", ").
 */
class NodeExchange implements RestExchange {
  private readonly names: string[] = [];
  private readonly values: string[] = [];
  private controller: AbortController | null = null;

  constructor(
    readonly headers: HeaderReader,
    readonly clientAddress: string | null,
    readonly outgoing: ServerResponse,
    readonly internal: boolean,
  ) {}

  header(name: string, value: string): void {
    this.set(name.toLowerCase(), value);
  }

  /** Aborted when the client goes away before its answer is written (as @hono/node-server's request signal is). */
  get signal(): AbortSignal {
    if (this.controller === null) {
      const controller = (this.controller = new AbortController());
      const incoming = this.outgoing.req;
      this.outgoing.once('close', () => {
        if (incoming?.errored) controller.abort(incoming.errored.toString());
        else if (!this.outgoing.writableFinished) controller.abort('Client connection prematurely closed.');
      });
    }
    return this.controller.signal;
  }

  /** The signal when a tool asked for it (else undefined: no tool can have seen an abort). */
  get aborted(): AbortSignal | undefined {
    return this.controller?.signal;
  }

  has(name: string): boolean {
    return this.names.includes(name);
  }

  get(name: string): string | undefined {
    const i = this.names.indexOf(name);
    return i === -1 ? undefined : this.values[i];
  }

  set(name: string, value: string): void {
    const i = this.names.indexOf(name);
    if (i === -1) {
      this.names.push(name);
      this.values.push(value);
    } else this.values[i] = value;
  }

  append(name: string, value: string): void {
    const i = this.names.indexOf(name);
    if (i === -1) this.set(name, value);
    else this.values[i] = `${this.values[i]}, ${value}`;
  }

  /** The headers in the order a fetch Headers lists them (sorted by name); an undeclared body's length last, as @hono/node-server adds it after reading the body's stream. */
  outgoingHeaders(undeclaredLength: number | null): Record<string, string | number> {
    const order = this.names.map((_, i) => i).sort((a, b) => (this.names[a]! < this.names[b]! ? -1 : 1));
    const out: Record<string, string | number> = {};
    for (const i of order) out[this.names[i]!] = this.values[i]!;
    if (undeclaredLength !== null) out['content-length'] = undeclaredLength;
    return out;
  }
}
