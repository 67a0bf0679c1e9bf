/**
 * One HTTP server: MCP Streamable HTTP at /mcp, the REST bridge under /api/, /openapi.json,
 * /healthz and the catalogue pages (src/http/pages/). Host/Origin validation and a body limit apply to every route.
 */
import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer, type RequestListener, type ServerOptions } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { compactHeap, compactHeapSoon } from '../compact-heap.js';
import { compileAnswers, COMPILE_ROUNDS, warmUp, warmUpPaths, WARM_UP_BUDGET_MS } from './warm-up.js';
import { sampledWarnings } from '../log.js';
import type { Deps } from '../deps.js';
import { DomainError } from '../domain/shared/errors.js';
import type { AnyTool } from '../tools/define.js';
import { TOOLS } from '../tools/index.js';
import { bodyFraming, errorResponse, peerAddress, requestHeaders, type AppEnv } from './common.js';
import { resolveClientAddress, trustedProxies } from './client-address.js';
import { httpServerOptions, isClientAbort, sandboxExposure } from './hardening.js';
import { DATASETS } from '../resources/datasets.js';
import { mcpPaths, mountMcp } from './mcp.js';
import type { McpHttpHandle } from './mcp-common.js';
import { buildOpenApi, FREE, json, operation, type OpenApiPaths } from './openapi.js';
import { pagePaths } from './page-docs.js';
import { mountPaymentRoutes } from './payments.js';
import { mountIntelligenceChart } from './intelligence-chart.js';
import { mountRestRoutes, type DirectRoute } from './rest.js';
import { cors, corsPolicy } from './cors.js';
import { directRest, type DirectListener, type RequestGate } from './direct.js';
import { compression } from './compression.js';
import { htmlErrorResponse, mountPages, wantsHtmlPage } from './pages/index.js';
import { isAllowedHost, isAllowedOrigin } from './security.js';
import { responseHeaders } from './response-headers.js';

export interface AppOptions {
  tools?: readonly AnyTool[];
  /** Extra routes mounted before the fallback (accounts, payments, ...); what it returns goes into /openapi.json. */
  extend?: (app: Hono<AppEnv>, deps: Deps) => OpenApiPaths | void;
}

/** /healthz and /openapi.json as /openapi.json describes them. */
const SERVICE_PATHS: OpenApiPaths = {
  '/healthz': {
    get: operation({
      operationId: 'healthz',
      summary: 'Health: the dataset loaded and whether the account store is reachable',
      security: FREE,
      responses: Object.fromEntries(
        [
          ['200', 'Serving (status ok)'],
          ['503', 'Degraded: the account store is unreachable (a balancer should route around this instance)'],
        ].map(([status, description]) => [
          status,
          {
            description,
            content: json({
              type: 'object',
              required: ['status', 'dataset_version', 'indexed', 'database'],
              properties: {
                status: { type: 'string', enum: ['ok', 'degraded'] },
                dataset_version: { type: 'string' },
                indexed: { type: 'integer', description: 'Records in the search index' },
                database: {
                  type: 'object',
                  required: ['backend', 'reachable', 'migration_version'],
                  properties: { backend: { type: 'string', enum: ['sqlite', 'postgres'] }, reachable: { type: 'boolean' }, migration_version: { type: ['integer', 'null'] } },
                },
              },
            }),
          },
        ]),
      ),
    }),
  },
  '/openapi.json': {
    get: operation({
      operationId: 'openapi',
      summary: 'This OpenAPI 3.1 document',
      security: FREE,
      responses: { '200': { description: 'The document', content: json({ type: 'object' }) } },
    }),
  },
};

export function createApp(deps: Deps, opts: AppOptions = {}): { app: Hono<AppEnv>; mcp: McpHttpHandle; direct: DirectListener; directRoutes: readonly DirectRoute[] } {
  const { config, log } = deps;
  const tools = opts.tools ?? TOOLS;
  const app = new Hono<AppEnv>();
  const publicHost = hostOf(config.publicBaseUrl);
  const allowedHosts = [...config.allowedHosts, ...(publicHost ? [publicHost] : [])];
  const proxies = trustedProxies(config.trustedProxies);
  // An origin allowed cross-origin (CORS) is an allowed origin.
  const allowedOrigins = [...config.allowedOrigins, ...config.corsOrigins];

  // nosniff and frame-ancestors 'none' on every response, refusals included (src/http/response-headers.ts).
  const securityHeaders = responseHeaders();
  app.use('*', securityHeaders);
  // The request gate, as the middleware below and the direct REST answers (src/http/direct.ts) apply it.
  const requestSeen = deps.requestSeen;
  let lastHost: string | undefined;
  let lastHostAllowed = false;
  const gate: RequestGate = {
    enter: (headers, peer) => {
      requestSeen?.(); // a large catalogue's background reading gives way while requests come
      return resolveClientAddress(peer, headers, proxies, config.forwardedHeader);
    },
    refused: (headers) => {
      const host = headers.get('host') ?? undefined;
      // The verdict on the last Host seen, kept (a server is mostly asked under one name).
      if (host !== lastHost || host === undefined) {
        lastHostAllowed = isAllowedHost(host, allowedHosts);
        lastHost = host;
      }
      if (!lastHostAllowed) return 'Host';
      if (!isAllowedOrigin(headers.get('origin') ?? undefined, allowedOrigins)) return 'Origin';
      return null;
    },
    timed: () => log.debugEnabled !== false, // the request's debug line, when it is written
    done: (method, path, status, started) => log.debug('request', { method, path, status, ms: Math.round(performance.now() - started) }),
  };
  const requestGate: MiddlewareHandler<AppEnv> = async (c, next) => {
    const headers = requestHeaders(c);
    c.set('clientAddress', gate.enter(headers, peerAddress(c)));
    const timed = gate.timed();
    const started = timed ? performance.now() : 0;
    const refused = gate.refused(headers);
    if (refused === 'Host') {
      const host = headers.get('host') ?? undefined;
      sampledWarnings(log).warn('rejected host', { host, path: c.req.path }); // cut and sampled (src/log.ts)
      return errorResponse(c, new DomainError('forbidden', 'Host not allowed', { field: 'Host' }));
    }
    if (refused === 'Origin') {
      const origin = headers.get('origin') ?? undefined;
      sampledWarnings(log).warn('rejected origin', { origin, path: c.req.path });
      return errorResponse(c, new DomainError('forbidden', 'Origin not allowed', { field: 'Origin' }));
    }
    await next();
    if (timed) gate.done(c.req.method, c.req.path, c.res.status, started);
  };
  app.use('*', requestGate);

  // br/gzip for HTML, JSON and assets of 1 kB and more (src/http/compression.ts; never /mcp).
  const compressing = compression();
  app.use('*', compressing);

  // CORS for browser clients on the allow-list (/mcp and /api only; src/http/cors.ts).
  const corsAllowed = corsPolicy(config.corsOrigins);
  const corsHandler = cors(corsAllowed);
  app.use('/mcp', corsHandler);
  app.use('/api/*', corsHandler);

  // Per-route body limits: routes that carry file content declare a larger one; /mcp takes the
  // largest and lets only those tools' calls use it (src/http/mcp-serve.ts).
  const limits = routeBodyLimits(tools, config.bodyLimitBytes);
  const limiters = new Map<number, ReturnType<typeof bodyLimit>>();
  const limiter = (max: number) => {
    let m = limiters.get(max);
    if (!m) {
      m = bodyLimit({
        maxSize: max,
        onError: (c) => {
          // The rest of the body is never read: this connection cannot carry another request.
          c.header('Connection', 'close');
          return errorResponse(c as never, new DomainError('payload_too_large', `Request body exceeds ${max} bytes, the limit of ${c.req.method} ${c.req.path}`, { limit_bytes: max }));
        },
      });
      limiters.set(max, m);
    }
    return m;
  };
  const bodyLimits: MiddlewareHandler<AppEnv> = (c, next) => {
    const { length, chunked } = bodyFraming(c);
    // A GET or HEAD without Content-Length or Transfer-Encoding carries no body: nothing to limit.
    // (Asking hono's bodyLimit would build the whole fetch Request and its AbortSignal per call.)
    if ((c.req.method === 'GET' || c.req.method === 'HEAD') && length === undefined && !chunked) return next();
    const max = c.req.path === '/mcp' ? limits.mcp : (limits.routes.get(`${c.req.method} ${c.req.path}`) ?? config.bodyLimitBytes);
    // A body of declared length (node's parser reads exactly that many bytes): the limit is the
    // declared length, as hono's bodyLimit decides it, without building the fetch Request to ask.
    if (length !== undefined && !chunked) return parseInt(length, 10) > max ? limiter(max)(c, next) : next();
    return limiter(max)(c, next);
  };
  app.use('*', bodyLimits);

  app.get('/healthz', async (c) => {
    try {
      const meta = await deps.catalogue.meta();
      // The account store (shared PostgreSQL behind a balancer): unreachable -> 503, so the balancer routes around it.
      const { error, ...database } = await deps.store.health();
      // Details stay in the log, once per change of state (not once per probe).
      if (error) deps.outages.unavailable(database.backend, { error, via: 'healthz' });
      else deps.outages.available(database.backend);
      const body = { status: database.reachable ? 'ok' : 'degraded', dataset_version: meta.dataset_version, indexed: deps.index.size, database, pool: deps.jobs.stats() };
      return c.json(body, database.reachable ? 200 : 503);
    } catch (err) {
      if (err instanceof DomainError) return errorResponse(c, err);
      throw err;
    }
  });
  // Built on the first request (the base URL is final once the server listens), then served as is.
  let openapi: string | undefined;
  app.get('/openapi.json', (c) => {
    openapi ??= JSON.stringify(buildOpenApi({ tools, datasets: DATASETS, baseUrl: config.publicBaseUrl, routes: documented }));
    return c.body(openapi, 200, { 'Content-Type': 'application/json' });
  });
  for (const d of DATASETS) {
    if (d.restPath === null) continue; // served by its tool's REST route
    app.get(d.restPath, async (c) => {
      try {
        return c.json(await d.build(deps));
      } catch (err) {
        if (err instanceof DomainError) return errorResponse(c, err);
        throw err;
      }
    });
  }

  const mcp = mountMcp(app, deps, { stateless: config.stateless, maxBody: limits.mcp, generalBody: config.bodyLimitBytes, largeBodyTools: limits.mcpTools, tools: opts.tools });
  // The routes that are not tools or datasets, as the modules mounting them describe them.
  const documented: OpenApiPaths[] = [SERVICE_PATHS, mcpPaths(config.stateless)];
  documented.push(mountPaymentRoutes(app, deps));
  documented.push(mountIntelligenceChart(app, deps));
  const restHandlers = mountRestRoutes(app, deps, tools);
  mountPages(app, deps, tools);
  const extended = opts.extend?.(app, deps);
  if (extended) documented.push(extended);
  documented.push(pagePaths(app.routes)); // the web catalogue's pages, those the app serves

  app.notFound((c) => {
    const err = new DomainError('not_found', `No route for ${c.req.method} ${c.req.path}`);
    // A browser asking for a page gets an HTML page; API clients get the JSON error.
    return wantsHtmlPage(c) ? htmlErrorResponse(c, err) : errorResponse(c, err);
  });
  const unexpected = (err: Error, path: string): DomainError => {
    const ref = randomUUID();
    log.error('unhandled http error', { ref, path, error: err.message, stack: err.stack });
    return new DomainError('internal', `Unexpected internal error (ref ${ref}).`, { ref });
  };
  app.onError((err, c) => {
    if (isClientAbort(err, c.req.raw.signal)) {
      // The client went away mid-request: nothing to answer, nothing wrong with the server.
      log.debug('client aborted request', { path: c.req.path, error: err.message });
      c.header('Connection', 'close');
      return c.body(null, 400);
    }
    return errorResponse(c, unexpected(err, c.req.path));
  });
  // GET routes answering their tool's JSON, served without Hono's Request and Response objects
  // while Hono would run exactly this chain for them (src/http/direct.ts).
  const direct = directRest({
    app,
    routes: restHandlers.direct,
    middleware: [securityHeaders, requestGate, compressing, corsHandler, bodyLimits],
    gate,
    cors: corsAllowed,
    unexpected,
    log,
  });
  return { app, mcp, direct, directRoutes: restHandlers.direct };
}

/** Body limits by "METHOD path" for routes that declare one; /mcp: the largest, for the tools that declare one. */
export function routeBodyLimits(tools: readonly AnyTool[], general: number): { routes: Map<string, number>; mcp: number; mcpTools: Set<string> } {
  const routes = new Map<string, number>();
  const mcpTools = new Set<string>();
  let mcp = general;
  for (const t of tools) {
    for (const r of t.rest) {
      if (r.bodyLimitBytes === undefined || r.bodyLimitBytes <= general) continue;
      routes.set(`${r.method} ${r.path}`, r.bodyLimitBytes);
      mcpTools.add(t.name);
      mcp = Math.max(mcp, r.bodyLimitBytes);
    }
  }
  return { routes, mcp, mcpTools };
}

export interface RunningServer {
  url: string;
  port: number;
  close: () => Promise<void>;
}

/** The host of a base URL (what clients of the public one send as Host), or null when it is no URL. */
function hostOf(baseUrl: string): string | null {
  try {
    return new URL(baseUrl).host;
  } catch {
    return null;
  }
}

/** A lazy build over fewer records leaves too little garbage to be worth two full collections. */
const LAZY_COMPACT_MIN_RECORDS = 10_000;

export async function startHttpServer(deps: Deps, opts: AppOptions = {}): Promise<RunningServer> {
  // The app first, then the heap compacted, and only then the wait for deps.ready: a large
  // catalogue's index is still being finished on its worker when the catalogue is built, and
  // neither step reads it (its requests do), so the main thread does them while the worker runs
  // instead of after it. The catalogue and everything built from it exist by now: the compaction
  // releases what building them left behind, once, before the warm-up (the first full collection
  // leaves the next tens of milliseconds of work several times slower while its sweeping runs: the
  // start absorbs that instead of the first requests).
  const { app, mcp, direct, directRoutes } = createApp(deps, opts);
  compactHeap();
  await deps.ready;
  const exposed = sandboxExposure(deps.config, deps.payments.gateway.name);
  if (exposed) throw new Error(exposed);
  const paths = warmUpPaths(directRoutes, deps.warmUpWords());
  // Requests that arrive while the server warms up wait for it (then are answered in order).
  let held: (() => void)[] | null = [];
  let stopCompacting = (): void => {};
  /** Warms the answers, then answers what waited and whatever comes next. */
  const serveAfterWarmUp = async (): Promise<void> => {
    try {
      // A large catalogue's most frequent searches, asked over the server's own answer path (best
      // effort: one that cannot even open its private listener leaves the server serving without it).
      if (paths.length > 0) {
        const started = performance.now();
        await warmUp(direct, paths, hostOf(deps.config.publicBaseUrl) ?? '127.0.0.1', deps.log).catch((err: unknown) => {
          deps.log.warn('answer warm-up not run; serving without it', { error: err instanceof Error ? err.message : String(err) });
        });
        // Then cheap answers, again and again, in the process (what is left of the same budget).
        const route = directRoutes.find((r) => r.warmUpArgument !== undefined);
        const left = WARM_UP_BUDGET_MS - (performance.now() - started);
        if (route && left > 0) await compileAnswers(route, deps.warmUpNarrowWords(), COMPILE_ROUNDS, deps.log, left);
      }
      // So with what a large catalogue's first spec-filtered search or analytics call builds later.
      stopCompacting = deps.onLazyBuild((built) => {
        if (built.records >= LAZY_COMPACT_MIN_RECORDS) compactHeapSoon();
      });
    } finally {
      const waiting = held ?? [];
      held = null;
      for (const answer of waiting) answer();
    }
  };
  return new Promise((resolve, reject) => {
    let server: ServerType;
    try {
      // Hono's listener, after the direct REST answers (a request they do not take goes to Hono untouched).
      const createServer = (options: ServerOptions, honoListener: RequestListener) => {
        const answer: RequestListener = (req, res) => direct(req, res) || void honoListener(req, res);
        return createHttpServer(options, (req, res) => {
          if (held !== null) held.push(() => answer(req, res));
          else answer(req, res);
        });
      };
      // The port is bound first and the warm-up follows: with port 0 the real port is known only once
      // bound, and the links the warm-up's answers prepare (each hit's detail and page URL, their
      // bytes) must be the ones the real answers carry, or the first real answers make them again.
      server = serve({ fetch: app.fetch, hostname: deps.config.host, port: deps.config.port, serverOptions: httpServerOptions(deps.config), createServer: createServer as never }, (info: AddressInfo) => {
        const host = deps.config.host.includes(':') ? `[${deps.config.host}]` : deps.config.host;
        const url = `http://${host}:${info.port}`;
        // With port 0 the real port is known only now: links must point at it.
        if (deps.config.port === 0 && deps.config.publicBaseUrl.endsWith(':0')) deps.config.publicBaseUrl = url;
        serveAfterWarmUp().then(() =>
          resolve({
            url,
            port: info.port,
            close: async () => {
              stopCompacting();
              await mcp.closeAll();
              await new Promise<void>((res) => {
                server.close(() => res());
                // End idle keep-alive and SSE sockets so close() finishes.
                (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
              });
            },
          }),
          (err: unknown) => {
            // Nothing half-started: the bound port is let go.
            stopCompacting();
            server.close();
            reject(err);
          },
        );
      });
      server.on('error', (err) => {
        stopCompacting();
        reject(err);
      });
    } catch (err) {
      stopCompacting();
      reject(err);
    }
  });
}
