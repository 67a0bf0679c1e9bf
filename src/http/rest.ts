/**
 * The REST route table, derived from the tool definitions: each tool's `rest` routes call
 * the same handler as its MCP tool. GET reads the query string (typed by the tool's input
 * schema), POST reads a JSON object body; path parameters and route-fixed arguments are merged in.
 */
import type { Context, Handler, Hono } from 'hono';
import { z } from 'zod';
import type { Deps } from '../deps.js';
import { DomainError, invalidInput } from '../domain/shared/errors.js';
import type { AnyTool, RestRoute, ToolContext } from '../tools/define.js';
import { runTool } from '../tools/run.js';
import { stringifyOutput } from '../wire/prepared.js';
import { bodyFraming, clientAddress, errorResponse, requestHeader, requestHeaders, requestText, type AppEnv, type HeaderReader } from './common.js';
import { presentedKeys } from './security.js';

type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | undefined;

/** Top-level property types of a tool's input, for query-string coercion. */
function propertyTypes(tool: AnyTool): Record<string, JsonType> {
  const js = z.toJSONSchema(tool.inputSchema, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, { type?: JsonType }> };
  return Object.fromEntries(Object.entries(js.properties ?? {}).map(([k, v]) => [k, v.type]));
}

function coerce(value: string, type: JsonType): unknown {
  switch (type) {
    case 'number':
    case 'integer': {
      const n = value.trim() === '' ? NaN : Number(value);
      return Number.isNaN(n) ? value : n; // leave the string: validation then names the field
    }
    case 'boolean':
      if (/^(true|1)$/i.test(value)) return true;
      if (/^(false|0)$/i.test(value)) return false;
      return value;
    default:
      return value;
  }
}

/** Query parameters that are transport concerns, not tool arguments. */
const RESERVED_QUERY = new Set(['key']);

async function readInput(
  c: Context<AppEnv>,
  route: RestRoute<Record<string, unknown>>,
  types: Record<string, JsonType>,
  queries: Record<string, string[]>,
  /** Receives an archive upload's bytes (unpacked later, in the pool). */
  onArchive: (bytes: Uint8Array) => void,
): Promise<Record<string, unknown>> {
  let input: Record<string, unknown> = {};
  if (route.method === 'GET') {
    input = queryArguments(types, queries);
  } else if (route.upload && isUpload(c, route.upload.contentTypes)) {
    // Read here (the body limit counts it), unpacked in the worker pool after the rate-limit check.
    input = { ...(route.upload.toInput(queries) as Record<string, unknown>) };
    onArchive(new Uint8Array(await c.req.arrayBuffer()));
  } else {
    assertJsonBody(c, route);
    const text = await requestText(c);
    if (text.trim() !== '') {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw invalidInput('body', 'is not valid JSON');
      }
      if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidInput('body', 'must be a JSON object');
      input = { ...(body as Record<string, unknown>) };
    }
  }
  // Hono has already percent-decoded path parameters: decoding again would break ids containing '%'.
  if (route.path.includes(':')) for (const [k, v] of Object.entries(c.req.param() as Record<string, string>)) input[k] = v;
  return routeArguments(route, input);
}

/** A GET route's arguments: the query parameters, typed by the tool's input schema (transport ones left out). */
function queryArguments(types: Record<string, JsonType>, queries: Record<string, string[]>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const k in queries) {
    const values = queries[k]!;
    if (RESERVED_QUERY.has(k)) continue;
    const t = types[k];
    input[k] = t === 'array' ? values : coerce(values[values.length - 1] ?? '', t);
  }
  return input;
}

/** The route's defaults (where the request left an argument out) and fixed arguments, merged in. */
function routeArguments(route: RestRoute<Record<string, unknown>>, input: Record<string, unknown>): Record<string, unknown> {
  if (route.defaults) for (const [k, v] of Object.entries(route.defaults)) if (input[k] === undefined) input[k] = v;
  if (route.fixed) Object.assign(input, route.fixed);
  return input;
}

/** application/json, or a +json type (application/merge-patch+json ...). */
const JSON_TYPE = /^application\/([a-z0-9.+-]+\+)?json$/;

/**
 * A JSON route's body must say it is JSON: a cross-site page may POST text/plain (or a form)
 * without a preflight, so such a body is refused (415) before it is read. A POST without a body
 * and without a Content-Type carries nothing to read and passes.
 */
function assertJsonBody(c: Context<AppEnv>, route: RestRoute<Record<string, unknown>>): void {
  const raw = requestHeader(c, 'content-type');
  const type = (raw ?? '').split(';')[0]!.trim().toLowerCase();
  if (JSON_TYPE.test(type)) return;
  const { length, chunked } = bodyFraming(c);
  if (raw === undefined && !chunked && (length === undefined || length.trim() === '0')) return;
  const expected = route.upload ? `application/json, or an archive as ${route.upload.contentTypes.join(', ')}` : 'application/json';
  throw new DomainError('unsupported_media_type', `Content-Type: ${raw === undefined ? 'missing' : JSON.stringify(raw.slice(0, 100))}; ${route.method} ${route.path} takes ${expected}`, {
    field: 'Content-Type',
    expected: route.upload ? ['application/json', ...route.upload.contentTypes] : ['application/json'],
  });
}

function isUpload(c: Context<AppEnv>, types: readonly string[]): boolean {
  const ct = (requestHeader(c, 'content-type') ?? '').split(';')[0].trim().toLowerCase();
  return types.includes(ct);
}

/** queries: the request's query parameters (c.req.queries()), when the caller has them already. */
export function restContext(c: Context<AppEnv>, deps: Deps, queries?: Record<string, string[]>, archive: Uint8Array | null = null): ToolContext {
  const ctx = new RestToolContext(new HonoExchange(c), deps, queries === undefined ? c.req.queries('key') : queries.key);
  if (archive) ctx.archive = archive;
  return ctx;
}

/**
 * What a REST call's tool context reads of its HTTP exchange: the request's headers, the client's
 * address (trusted proxies applied), response headers a tool adds (the rate limiter's), and the
 * signal that the client went away. Through Hono (HonoExchange) or written straight to node's
 * response (src/http/direct.ts).
 */
export interface RestExchange {
  readonly headers: HeaderReader;
  readonly clientAddress: string | null;
  header(name: string, value: string): void;
  /** Built when asked (a tool that offloads asks): building it costs more than a search. */
  readonly signal: AbortSignal;
  /** The server's own warm-up request (ToolContext.internal): only src/http/warm-up.ts marks one. */
  readonly internal?: boolean;
  /** Not answered from, kept in or counted by the answer cache (ToolContext.uncached): the warm-up's compile step. */
  readonly uncached?: boolean;
}

class HonoExchange implements RestExchange {
  readonly headers: HeaderReader;
  readonly clientAddress: string | null;
  constructor(private readonly c: Context<AppEnv>) {
    this.headers = requestHeaders(c);
    this.clientAddress = clientAddress(c);
  }

  header(name: string, value: string): void {
    this.c.header(name, value);
  }

  get signal(): AbortSignal {
    return this.c.req.raw.signal;
  }
}

/**
 * A REST call's tool context. A class, so that `signal` is a getter on the prototype: an object
 * literal with a getter closing over the request gets a hidden class of its own on every call,
 * made in the old generation and holding the whole request there until a full collection
 * (bench/README.md, "Garbage per call").
 */
export class RestToolContext implements ToolContext {
  readonly surface = 'rest' as const;
  readonly credentials: ToolContext['credentials'];
  readonly clientAddress: string | null;
  readonly idempotencyKey: string | null;
  readonly internal: boolean;
  readonly uncached: boolean;
  archive?: Uint8Array;

  constructor(
    private readonly exchange: RestExchange,
    readonly deps: Deps,
    queryKey: readonly string[] | undefined,
  ) {
    this.credentials = presentedKeys(exchange.headers, queryKey);
    this.clientAddress = exchange.clientAddress;
    this.idempotencyKey = exchange.headers.get('idempotency-key') ?? null;
    this.internal = exchange.internal === true;
    this.uncached = exchange.uncached === true;
  }

  // Own properties, as callers may pass them on unbound (access.ts hands setHeader to the rate limiter).
  readonly progress = async (): Promise<void> => {};
  readonly setHeader = (name: string, value: string): void => {
    this.exchange.header(name, value);
  };

  // Read when a tool asks: building the request's AbortSignal costs more than a search.
  get signal(): AbortSignal {
    return this.exchange.signal;
  }
}

/**
 * A JSON route's answer: the tool run on the arguments (route.prepare first), its output as the
 * bytes of JSON.stringify, reusing the prepared JSON of catalogue records (650 kB deep listings).
 */
async function jsonAnswer(tool: AnyTool, route: RestRoute<Record<string, unknown>>, input: Record<string, unknown>, ctx: ToolContext): Promise<{ ok: true; bytes: Buffer } | { ok: false; error: DomainError }> {
  if (route.prepare) input = route.prepare(input, ctx) as Record<string, unknown>;
  const outcome = await runTool(tool, input, ctx);
  return outcome.ok ? { ok: true, bytes: stringifyOutput(outcome.output) } : outcome;
}

/**
 * A GET route answered with the JSON of its tool's output, whose path has no parameters: what
 * src/http/direct.ts may answer without Hono's Request and Response objects, through the same
 * functions as the route's Hono handler (queryArguments, routeArguments, RestToolContext, jsonAnswer).
 */
export interface DirectRoute {
  path: string;
  /** The route's Hono handler: direct.ts answers only while Hono would run it (and the known middleware) for the path. */
  handler: Handler<AppEnv>;
  /** The query parameter the start's warm-up fills with its words (RestRoute.warmUpArgument). */
  warmUpArgument?: string;
  /** The request's query parameters (Hono's parse of them) -> the route's answer. */
  answer(queries: Record<string, string[]>, exchange: RestExchange): Promise<{ ok: true; bytes: Buffer } | { ok: false; error: DomainError }>;
}

/** Mounts each tool's REST routes; returns those direct.ts may answer (GET, JSON, no path parameters). */
export function mountRestRoutes(app: Hono<AppEnv>, deps: Deps, tools: readonly AnyTool[]): { direct: DirectRoute[] } {
  const direct: DirectRoute[] = [];
  for (const tool of tools) {
    // Made on the route's first request, not at start: each is a JSON Schema of the tool's input
    // (zod's conversion, ~13 ms for all the tools together at every start, most never asked over REST).
    let types: Record<string, JsonType> | null = null;
    const typesOf = () => (types ??= propertyTypes(tool));
    for (const route of tool.rest) {
      const handler: Handler<AppEnv> = async (c) => {
        let input: Record<string, unknown>;
        // The query string parsed once, for the arguments and for a key given as ?key=.
        const queries = c.req.queries();
        let archive: Uint8Array | null = null;
        try {
          input = await readInput(c, route, typesOf(), queries, (bytes) => (archive = bytes));
        } catch (err) {
          if (err instanceof DomainError) return errorResponse(c, err);
          throw err;
        }
        const ctx = restContext(c, deps, queries, archive);
        if (!route.render) {
          const answer = await jsonAnswer(tool, route, input, ctx);
          if (!answer.ok) return errorResponse(c, answer.error);
          // Its length declared: the compression middleware then never asks for the body (which
          // would build the whole fetch Response around it) to decide there is one.
          return c.body(answer.bytes as Uint8Array<ArrayBuffer>, 200, { 'Content-Type': 'application/json', 'Content-Length': String(answer.bytes.length) });
        }
        if (route.prepare) input = route.prepare(input, ctx) as Record<string, unknown>;
        const outcome = await runTool(tool, input, ctx);
        if (!outcome.ok) return errorResponse(c, outcome.error);
        let r;
        try {
          r = await route.render(outcome.output, ctx);
        } catch (err) {
          // A file built in the worker pool (a plate's mesh) may be refused there: overloaded, limit_exceeded.
          if (err instanceof DomainError) return errorResponse(c, err);
          throw err;
        }
        return c.body(r.body as string | Uint8Array<ArrayBuffer>, (r.status ?? 200) as 200, { ...(r.headers ?? {}), 'Content-Type': r.contentType ?? 'application/json; charset=utf-8' });
      };
      app.on(route.method, route.path, handler);
      if (route.method === 'GET' && !route.render && !route.upload && !/[:*]/.test(route.path)) {
        direct.push({
          path: route.path,
          handler,
          ...(route.warmUpArgument !== undefined ? { warmUpArgument: route.warmUpArgument } : {}),
          answer: (queries, exchange) => {
            // As readInput reads a GET route's arguments (no path parameters here).
            const input = routeArguments(route, queryArguments(typesOf(), queries));
            return jsonAnswer(tool, route, input, new RestToolContext(exchange, deps, queries.key));
          },
        });
      }
    }
  }
  return { direct };
}
