/**
 * OpenAPI 3.1 document generated from the same zod schemas as the MCP tools. Tool routes are
 * described from their definitions (arguments, output, `access`, `errors`, `produces`); the
 * routes that are not tools (health, MCP, payments, the chart, pages) are described by the
 * module that mounts them, which returns its `OpenApiPaths` (src/http/app.ts collects them).
 * test/spine/openapi-routes.test.ts compares the app's routes with the document's paths.
 */
import { z } from 'zod';
import { ERROR_CODES, errorStatus, type ErrorCode } from '../domain/shared/errors.js';
import type { DatasetDefinition } from '../resources/define.js';
import type { AnyTool, RestRoute } from '../tools/define.js';
import { SERVER_VERSION } from '../version.js';

export type Operation = Record<string, unknown>;
export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';
/** OpenAPI path items by path (`{param}` form). */
export type OpenApiPaths = Record<string, Partial<Record<HttpMethod, Operation>>>;
type Schema = Record<string, unknown>;

/** `security` of a call that needs a key: any one of the three ways to present it. */
export const KEY_REQUIRED = [{ bearer: [] }, { apiKeyHeader: [] }, { apiKeyQuery: [] }];
/** `security` of a call that is free without a key and gives more with one. */
export const KEY_OPTIONAL = [{}, ...KEY_REQUIRED];
/** `security` of a free call. */
export const FREE: never[] = [];

/** A zod schema as an OpenAPI 3.1 (JSON Schema 2020-12) schema object. */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output' = 'output'): Schema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Schema;
  return rest;
}

export const json = (schema: Schema) => ({ 'application/json': { schema } });

const REASON: Record<number, string> = {
  400: 'Bad request',
  401: 'No API key presented',
  402: 'Not enough credits',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  413: 'Request too large',
  422: 'Not applicable',
  429: 'Rate limit exceeded',
  500: 'Internal error',
  503: 'Service unavailable',
};

const CODE_MEANING: Partial<Record<ErrorCode, string>> = {
  forbidden: 'a Host or Origin header that is not allowed',
  unknown_key: 'an API key that is not registered',
  conflicting_credentials: 'two different API keys in one request',
  conflict: 'an Idempotency-Key already used for a different request',
};

const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': { description: 'Requests allowed per hour (sent when rate limits are on)', schema: { type: 'string' } },
  'RateLimit-Remaining': { description: 'Requests left in the current hour', schema: { type: 'string' } },
  'RateLimit-Reset': { description: 'Seconds until the window resets', schema: { type: 'string' } },
  'RateLimit-Policy': { description: 'The policy, e.g. "30;w=3600"', schema: { type: 'string' } },
};

/** Components the document declares; each operation refers to them. */
const COMPONENT_SCHEMAS: Record<string, Schema> = {
  Error: {
    type: 'object',
    description: 'Every error body: a human message, a stable machine code, and details (the field at fault, suggestions, limits).',
    required: ['error', 'code'],
    properties: {
      error: { type: 'string', description: 'What went wrong and how to fix it' },
      code: { type: 'string', enum: ERROR_CODES },
      field: { type: 'string', description: 'The argument, header or body field at fault' },
    },
    additionalProperties: true,
  },
  NotFoundError: {
    allOf: [
      { $ref: '#/components/schemas/Error' },
      { type: 'object', properties: { did_you_mean: { type: 'array', items: { type: 'string' }, description: 'Ids with the same prefix, nearest first (entity lookups)' } } },
    ],
  },
  PaymentRequiredError: {
    allOf: [
      { $ref: '#/components/schemas/Error' },
      {
        type: 'object',
        required: ['credits_remaining', 'recharge_url'],
        properties: { credits_remaining: { type: 'integer' }, recharge_url: { type: 'string', description: 'Where to buy credits' } },
      },
    ],
  },
  RateLimitedError: {
    allOf: [
      { $ref: '#/components/schemas/Error' },
      {
        type: 'object',
        required: ['limit', 'retry_after'],
        properties: { limit: { type: 'integer', description: 'Requests per hour' }, retry_after: { type: 'integer', description: 'Seconds until a request is accepted again' } },
      },
    ],
  },
};

const BODY_SCHEMA: Partial<Record<number, string>> = { 402: 'PaymentRequiredError', 404: 'NotFoundError', 429: 'RateLimitedError' };

/** The error responses for these codes, one per status, each with the error body schema and the codes it carries. */
export function errorResponses(codes: Iterable<ErrorCode>): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const s = errorStatus(code);
    byStatus.set(s, [...(byStatus.get(s) ?? []), code]);
  }
  const out: Record<string, unknown> = {};
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    const cs = byStatus.get(status)!;
    const meanings = cs.map((c) => (CODE_MEANING[c] ? `${c} (${CODE_MEANING[c]})` : c));
    out[String(status)] = {
      description: `${REASON[status] ?? 'Error'}: code ${meanings.join(' or ')}`,
      ...(status === 429
        ? { headers: { 'Retry-After': { description: 'Seconds until a request is accepted again', required: true, schema: { type: 'string' } }, ...RATE_LIMIT_HEADERS } }
        : {}),
      content: json({ allOf: [{ $ref: `#/components/schemas/${BODY_SCHEMA[status] ?? 'Error'}` }, { type: 'object', properties: { code: { type: 'string', enum: cs } } }] }),
    };
  }
  return out;
}

/** Any other failure (500 internal, 503 store unavailable): the same error body. */
const DEFAULT_ERROR = { description: 'Other errors (500 internal, 503 store unavailable): the error body', content: json({ $ref: '#/components/schemas/Error' }) };

export interface OperationSpec {
  operationId: string;
  summary: string;
  description?: string;
  security: unknown[];
  parameters?: unknown[];
  requestBody?: unknown;
  /** The route's own responses by status (success, and any error whose body is not the error body). */
  responses: Record<string, unknown>;
  /** Error codes besides `forbidden` (every route: Host/Origin) and, with a request body, `payload_too_large`. */
  errors?: readonly ErrorCode[];
  extra?: Record<string, unknown>;
}

/** One operation: its success responses, the error responses of its codes and of every route, and the catch-all. */
export function operation(spec: OperationSpec): Operation {
  const codes: ErrorCode[] = [...(spec.errors ?? []), 'forbidden', ...(spec.requestBody ? (['payload_too_large'] as const) : [])];
  return {
    operationId: spec.operationId,
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    ...(spec.extra ?? {}),
    security: spec.security,
    ...(spec.parameters?.length ? { parameters: spec.parameters } : {}),
    ...(spec.requestBody ? { requestBody: spec.requestBody } : {}),
    responses: Object.fromEntries(
      [...Object.entries({ ...errorResponses(codes), ...spec.responses }).sort(([a], [b]) => Number(a) - Number(b)), ['default', DEFAULT_ERROR]],
    ),
  };
}

/** An HTML page (server-rendered, readable without JavaScript). */
export function htmlPage(spec: Omit<OperationSpec, 'responses' | 'security'> & { security?: unknown[] }): Operation {
  return operation({ ...spec, security: spec.security ?? FREE, responses: { '200': { description: 'The page', content: { 'text/html': { schema: { type: 'string' } } } } } });
}

const slug = (s: string) => s.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '');

/** Hono `:param` paths as OpenAPI `{param}` paths. */
export const openApiPath = (honoPath: string) => honoPath.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');

function toolOperations(tool: AnyTool): OpenApiPaths {
  const input = jsonSchema(tool.inputSchema, 'input') as { properties?: Record<string, Schema>; required?: string[] };
  const output = jsonSchema(tool.outputSchema, 'output');
  const access = tool.access;
  const codes: ErrorCode[] = ['invalid_input', 'conflicting_credentials', 'rate_limited', ...(tool.errors ?? [])];
  if (access) codes.push('missing_credentials', 'unknown_key');
  if (access?.charged) codes.push('insufficient_credits', 'conflict');
  const okHeaders: Record<string, unknown> = { ...RATE_LIMIT_HEADERS };
  if (access?.charged) {
    okHeaders['X-Credits-Remaining'] = { description: 'Credits left after a charged call', schema: { type: 'string' } };
    okHeaders['X-API-Tier'] = { description: '"credits" on a charged call', schema: { type: 'string' } };
    okHeaders['Idempotent-Replayed'] = { description: '"true" when the answer replays an earlier call with the same Idempotency-Key (not charged again)', schema: { type: 'string' } };
  }
  const paths: OpenApiPaths = {};
  for (const route of tool.rest as RestRoute<Record<string, unknown>>[]) {
    const oaPath = openApiPath(route.path);
    const pathParams = [...route.path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!);
    const fixed = new Set(Object.keys(route.fixed ?? {}));
    const props = Object.entries(input.properties ?? {}).filter(([k]) => !fixed.has(k) && !pathParams.includes(k));
    const required = (input.required ?? []).filter((k) => !fixed.has(k) && !pathParams.includes(k));
    // Several routes of one tool: the path names the operation; GET and POST on one path: the method too.
    const sameTool = tool.rest.length > 1;
    const samePath = tool.rest.filter((r) => r.path === route.path).length > 1;
    const operationId = [tool.name, sameTool ? slug(oaPath) : null, samePath ? route.method.toLowerCase() : null].filter(Boolean).join('_');
    const content = route.produces
      ? Object.fromEntries(route.produces.map((p) => [p.contentType, { schema: { ...jsonSchema(p.schema), ...(p.description ? { description: p.description } : {}) } }]))
      : json(output);
    const parameters: unknown[] = [
      ...pathParams.map((p) => ({ name: p, in: 'path', required: true, schema: input.properties?.[p] ?? { type: 'string' }, ...(input.properties?.[p]?.description ? { description: input.properties[p]!.description } : {}) })),
      ...(route.method === 'GET'
        ? props.map(([k, s]) => ({ name: k, in: 'query', required: required.includes(k), schema: queryParamSchema(s), ...(s.description ? { description: s.description } : {}) }))
        : []),
      ...(access?.charged ? [{ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,255}$' }, description: 'A retry with the same key and request is answered again without a second charge (1 to 255 visible ASCII characters)' }] : []),
    ];
    const op = operation({
      operationId,
      summary: route.summary ?? tool.title,
      description: tool.description,
      extra: { 'x-mcp-tool': tool.name },
      security: access?.key === 'required' ? KEY_REQUIRED : access?.key === 'optional' ? KEY_OPTIONAL : FREE,
      parameters,
      requestBody:
        route.method === 'POST'
          ? // An empty body reads as no arguments: the body is required only when an argument is.
            { required: required.length > 0, content: json({ type: 'object', properties: Object.fromEntries(props), required, additionalProperties: false }) }
          : undefined,
      responses: { '200': { description: 'OK', headers: okHeaders, content } },
      errors: codes,
    });
    paths[oaPath] = { ...(paths[oaPath] ?? {}), [route.method.toLowerCase()]: op };
  }
  return paths;
}

function datasetOperations(d: DatasetDefinition): OpenApiPaths {
  if (d.restPath === null) return {}; // its tool's route documents the path
  return {
    [d.restPath]: {
      get: operation({
        operationId: `dataset_${slug(d.name)}`,
        summary: d.title,
        description: `${d.description} Also the MCP resource robotparts://datasets/${d.name}.`,
        security: FREE,
        responses: { '200': { description: 'The dataset document', content: json({ type: 'object' }) } },
      }),
    },
  };
}

/** Merges path items; the same method on the same path twice is a mistake in the caller. */
export function mergePaths(...all: OpenApiPaths[]): OpenApiPaths {
  const out: OpenApiPaths = {};
  for (const paths of all) {
    for (const [p, item] of Object.entries(paths)) {
      for (const m of Object.keys(item)) if (out[p]?.[m as HttpMethod]) throw new Error(`openapi: ${m.toUpperCase()} ${p} is documented twice`);
      out[p] = { ...(out[p] ?? {}), ...item };
    }
  }
  return out;
}

export interface OpenApiInput {
  tools: readonly AnyTool[];
  datasets?: readonly DatasetDefinition[];
  baseUrl: string;
  /** Routes that are not tools, as the modules mounting them describe them. */
  routes?: readonly OpenApiPaths[];
}

/** The areas of the API (Swagger UI's groups), in the order shown, with the path prefixes of each; the first match wins. */
const TAGS: readonly [string, string, readonly RegExp[]][] = [
  ['Catalogue', 'Search, list and read parts; spec fields; datasets', [/^\/api\/(search|entity|entities|actuators|sensors|chips|protocols|stats|spec_fields|parameter_semantics|parameters)\b/]],
  ['Engineering', 'Compare, alternatives, compatibility, flanges, adapter plates, screening', [/^\/api\/(compare|parts|compatibility|flange|adapter-plate|negative_compat)\b/]],
  ['BOM', 'Check and export bills of materials', [/^\/api\/bom\b/]],
  ['Open-source robots', 'URDF and BOM extraction, lint, where-used, the open-source layer', [/^\/api\/(oss|where-used|oss_components)\b/]],
  ['Intelligence', 'TRL, momentum and insights', [/^\/api\/intelligence\b/]],
  ['Accounts and payments', 'Keys, credits and payment orders', [/^\/api\/(register|credits|payment)\b/, /^\/pay\//]],
  ['Pages', 'The server-rendered web catalogue (HTML)', [/^\/(|search|parts\/.*|compare|robots.*|bom|plates|size|intelligence|docs|assets\/.*)$/]],
  ['Service', 'MCP endpoint, health, this document', [/./]],
];

export function tagOf(path: string): string {
  for (const [name, , patterns] of TAGS) if (patterns.some((r) => r.test(path))) return name;
  return 'Service';
}

/**
 * A GET route's query parameter: a union with a text form (where) is documented as that text, the
 * only form a query string carries (Swagger UI would otherwise pre-fill a dummy object list).
 */
function queryParamSchema(s: Schema): Schema {
  const any = (s as { anyOf?: Schema[] }).anyOf;
  const text = any?.find((b) => (b as { type?: unknown }).type === 'string');
  if (!any || !text || !any.some((b) => (b as { type?: unknown }).type === 'array')) return s;
  return { ...text, ...(s.description ? { description: s.description } : {}) } as Schema;
}

export function buildOpenApi(input: OpenApiInput): Record<string, unknown> {
  const paths = mergePaths(...(input.datasets ?? []).map(datasetOperations), ...input.tools.map(toolOperations), ...(input.routes ?? []));
  const ids = new Set<string>();
  for (const [p, item] of Object.entries(paths)) {
    for (const [m, op] of Object.entries(item)) {
      const id = (op as { operationId: string }).operationId;
      if (ids.has(id)) throw new Error(`openapi: operationId ${id} (${m.toUpperCase()} ${p}) is not unique`);
      ids.add(id);
      // Swagger UI groups operations by their first tag: one area per path.
      (op as { tags?: string[] }).tags = [tagOf(p)];
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Robot Parts Data Service (robot-parts-mcp REST bridge)',
      version: SERVER_VERSION,
      description:
        'Structured data on humanoid and bionic robot components. Every REST route under /api/ calls the same handler as the MCP tool named in its x-mcp-tool; ' +
        'the MCP endpoint is /mcp. Errors are {error, code, ...details}. The code is MIT-licensed; the catalogue data is CC BY 4.0 (RoboParts, https://roboparts.cc).',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: input.baseUrl }],
    tags: TAGS.map(([name, description]) => ({ name, description })),
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer gtk_...' },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        apiKeyQuery: { type: 'apiKey', in: 'query', name: 'key' },
      },
      schemas: COMPONENT_SCHEMAS,
    },
    paths,
  };
}
