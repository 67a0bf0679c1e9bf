/**
 * One tool = one plain definition. The MCP registration loop (src/server.ts) and the REST
 * route table (src/http/rest.ts) are both derived from these, so a tool and its route
 * cannot drift.
 */
import type { z } from 'zod';
import type { Deps } from '../deps.js';
import type { PresentedKey } from '../domain/accounts/credentials.js';
import type { ErrorCode } from '../domain/shared/errors.js';

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** A key presented outside the tool arguments: declared by the domain that reads it. */
export type { PresentedKey };

export type Surface = 'mcp-stdio' | 'mcp-http' | 'mcp-memory' | 'rest';

export interface ToolContext {
  deps: Deps;
  surface: Surface;
  /** Keys presented by the transport (not the tool's own api_key argument). */
  credentials: PresentedKey[];
  /** Client address for anonymous rate limiting; null on stdio / in-memory. */
  clientAddress: string | null;
  /** Idempotency-Key header (REST) or _meta idempotencyKey (MCP), when sent. */
  idempotencyKey: string | null;
  /** Progress notifications; a no-op when the client sent no progress token. */
  progress: (progress: number, total?: number, message?: string) => Promise<void>;
  /** Response headers a REST route should add (ignored by MCP). */
  setHeader: (name: string, value: string) => void;
  signal?: AbortSignal;
  /**
   * A call the server makes itself before it serves (the start's warm-up, src/http/warm-up.ts):
   * never counted against a rate limit. No request can make one: only the warm-up's own
   * connections to its private loopback listener are marked so.
   */
  internal?: boolean;
  /**
   * A call whose answer is neither taken from nor kept in the answer cache, nor counted in its
   * estimate of what is asked often (the warm-up's compile step, src/http/warm-up.ts: it answers
   * cheap words again and again so that V8 compiles the answer path; kept, they would fill the
   * cache and look often asked, keeping real answers out).
   */
  uncached?: boolean;
  /** A REST archive upload (.zip, .tar.gz) as received: unpacked in the worker pool, after the rate-limit check, into the input's files. */
  archive?: Uint8Array;
}

export interface RestResponse {
  status?: number;
  contentType?: string;
  headers?: Record<string, string>;
  /** Text, or bytes for a binary file (e.g. an STL). */
  body: string | Uint8Array;
}

export interface RestRoute<I> {
  method: 'GET' | 'POST';
  /** Hono-style path, e.g. /api/entity/:id */
  path: string;
  /** Arguments fixed by the route (e.g. category for /api/actuators.json). */
  fixed?: Partial<I>;
  /** Defaults that differ from the tool's for this route. */
  defaults?: Partial<I>;
  /** Adjusts the arguments from what the request carries (e.g. deep data when a key is presented). */
  prepare?: (input: Partial<I>, ctx: ToolContext) => Partial<I>;
  /** Custom rendering (e.g. CSV); default is the JSON of the output. */
  render?: (output: unknown, ctx: ToolContext) => RestResponse | Promise<RestResponse>;
  summary?: string;
  /**
   * What `render` serves, one entry per content type (e.g. CSV or a JSON document): the OpenAPI
   * document describes the 200 response with these instead of the tool's output schema.
   */
  produces?: { contentType: string; schema: z.ZodType; description?: string }[];
  /**
   * The query parameter a new instance fills with each of its warm-up words (Deps.warmUpWords)
   * and asks of this GET route before it serves (src/http/warm-up.ts).
   */
  warmUpArgument?: string;
  /** Request body limit of this route when it needs more than the server's general limit (inline file content). */
  bodyLimitBytes?: number;
  /** POST: a binary body of one of these content types (an archive): toInput reads the query parameters; the body goes to the pool, where unpack reads it (offloaded tools only). */
  upload?: {
    contentTypes: string[];
    /** The input read off the query string (cheap, on the main thread); the body is not read here. */
    toInput: (query: Record<string, string[]>) => Partial<I>;
    /** The input read off the archive: run in the worker pool (after the rate-limit check), merged over toInput's. */
    unpack: (bytes: Uint8Array) => Partial<I>;
  };
}

export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  inputSchema: I;
  outputSchema: O;
  annotations: ToolAnnotations;
  rest: RestRoute<z.infer<I>>[];
  /**
   * The API key the call takes (OpenAPI `security` of its REST routes). 'required': refused
   * without one (401); 'optional': free without, more with one. `charged`: the call debits
   * credits (402 when short; an Idempotency-Key header makes a retry free). Absent: a free call.
   */
  access?: { key: 'required' | 'optional'; charged?: boolean };
  /**
   * Error codes the tool answers besides invalid_input and what every HTTP route may answer
   * (forbidden, payload_too_large, rate_limited) and what `access` implies: the OpenAPI
   * document declares their statuses on the tool's REST routes.
   */
  errors?: readonly ErrorCode[];
  handler: (input: z.infer<I>, ctx: ToolContext) => Promise<z.infer<O>>;
  /** One-line summary put before the JSON of the output in the MCP text block (src/tools/text.ts). */
  text?: (output: z.infer<O>) => string;
  /**
   * MCP only: a document in the output that goes out as a resource_link (robotparts://exports/...)
   * instead of inline when it is larger than the server's inline limit. `document` returns null
   * when the output holds none; `link` returns the output with the document replaced by its URI.
   */
  artifact?: {
    document: (output: z.infer<O>) => { name: string; mimeType: string; text: string } | null;
    link: (output: z.infer<O>, uri: string) => z.infer<O>;
  };
  /**
   * MCP only: files of the answer that go out as resource_link content blocks after the text
   * (resources the server reads on resources/read, e.g. robotparts://plates/...), each with its
   * media type and its size in bytes (MCP 2025-06-18 resource_link).
   */
  links?: (output: z.infer<O>, ctx: ToolContext) => Promise<{ uri: string; name: string; mimeType: string; size?: number }[]>;
  /**
   * The answer is a function of the validated arguments, the surface and the catalogue snapshot
   * alone: the handler reads nothing from the context but `partsContext(ctx)` and other
   * immutable deps (no credentials, accounts, clock, idempotency key or headers). runTool then
   * keeps the finished answer (deps.answers, bounded) and hands the same frozen object back for
   * the same arguments on the same surface. Never set it on a tool that charges, reads a key or
   * varies with time.
   */
  cacheable?: true;
  /**
   * CPU-heavy (parses or expands input of up to megabytes): runTool hands the validated
   * arguments, unchanged, to deps.jobs, and a pool worker runs this same handler there, under the
   * per-job time, memory and output limits, off the event loop. The handler may read nothing
   * from the context but deps.config and deps.knowledge (and report progress).
   */
  offload?: true;
  /**
   * Not offloaded as a whole, but hands a REST archive upload (ctx.archive) to its own pool job,
   * which unpacks it there (size_actuators: the torques are a job, the catalogue is read here).
   */
  archiveJob?: true;
}

export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(def: ToolDefinition<I, O>): ToolDefinition<I, O> {
  return def;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = ToolDefinition<any, any>;

export const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
