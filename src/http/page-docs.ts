/**
 * The web catalogue's routes (server-rendered pages and their assets) as /openapi.json describes
 * them. A route is documented only when the app serves it (createApp passes its route table), so
 * the document never lists a page that is not mounted. A page mounted without an entry here is
 * reported by test/spine/openapi.test.ts: add it here (or return its OpenApiPaths from its mount).
 */
import type { ErrorCode } from '../domain/shared/errors.js';
import { FREE, htmlPage, KEY_OPTIONAL, operation, openApiPath, type HttpMethod, type OpenApiPaths, type Operation } from './openapi.js';

const text = (description: string) => ({ type: 'string', description });
const query = (name: string, description: string) => ({ name, in: 'query', required: false, schema: { type: 'string' }, description });
const pathParam = (name: string, description: string) => ({ name, in: 'path', required: true, schema: { type: 'string' }, description });
/** What a page that calls tools may answer as an error page (HTML, the status the API would give). */
const PAGE_ERRORS: ErrorCode[] = ['invalid_input', 'rate_limited'];
const htmlError = { description: 'The refusal as an HTML page, with the status the REST route would answer', content: { 'text/html': { schema: { type: 'string' } } } };

/** Error statuses of a page: HTML bodies, not the JSON error body. */
function htmlErrors(op: Operation, statuses: string[]): Operation {
  const responses = { ...(op.responses as Record<string, unknown>) };
  for (const s of statuses) responses[s] = htmlError;
  return { ...op, responses };
}

function page(operationId: string, summary: string, opts: { parameters?: unknown[]; errors?: ErrorCode[] } = {}): Operation {
  const errors = [...PAGE_ERRORS, ...(opts.errors ?? [])];
  const op = htmlPage({ operationId, summary, parameters: opts.parameters, errors });
  // 403 stays the JSON error body: the Host/Origin check answers before any page.
  return htmlErrors(op, ['400', '404', '429'].filter((s) => (op.responses as Record<string, unknown>)[s]));
}

/** Hono route (method and path) -> its operation. */
const PAGES: Record<string, Operation> = {
  'GET /': page('page_home', 'Home page: what the catalogue holds and where to start'),
  'GET /search': page('page_search', 'Search page (the REST query language: q, where, category, sort)', {
    parameters: [query('q', 'Keywords'), query('where', 'Spec filters, e.g. torque_rated>=30 N·m'), query('category', 'Category slug or name; alone, lists the category'), query('sort', 'Sort order'), query('cursor', 'Next page cursor')],
    errors: ['unknown_category'],
  }),
  'GET /parts/:id': page('page_part', 'One part: free fields, normalised specs with their evidence, where it is used', {
    parameters: [pathParam('id', 'Entity id'), query('with', 'Another part id: check compatibility with it')],
    errors: ['not_found'],
  }),
  'GET /compare': page('page_compare', 'Compare parts side by side (?ids=a,b,c)', { parameters: [query('ids', 'Part ids separated by commas (2 to 10)')], errors: ['not_found'] }),
  'GET /robots': page('page_robots', 'Open-source robots and the parts they use'),
  'GET /robots/:id': page('page_robot', 'One open-source robot: its parts and a 3D view of its kinematics', { parameters: [pathParam('id', 'Robot id')], errors: ['not_found'] }),
  'GET /robots/:id/kinematics.urdf': operation({
    operationId: 'robot_kinematics_urdf',
    summary: "A robot's kinematic structure as URDF (joints, axes, limits, link primitives), for the 3D view",
    security: FREE,
    parameters: [pathParam('id', 'Robot id')],
    responses: { '200': { description: 'URDF', content: { 'application/xml': { schema: text('URDF XML') } } }, '404': htmlError },
    errors: ['rate_limited'],
  }),
  'GET /bom': page('page_bom', 'BOM built while browsing: the parts added, a check and an export form'),
  'GET /plates': page('page_plates', 'Adapter plate between two registered flanges: 3D view, dimensioned drawing, fasteners, STL/3MF/SCAD downloads', {
    parameters: [query('a', 'Side a flange designation'), query('b', 'Side b flange designation'), query('b_holes', 'tapped or nut')],
  }),
  'POST /bom': operation({
    operationId: 'page_bom_post',
    summary: 'BOM form: check (an HTML page), export (a CSV or JSON download, 1 credit, needs an API key), or add/clear (the list kept without JavaScript, 303 to /bom)',
    security: KEY_OPTIONAL,
    requestBody: {
      required: true,
      content: {
        'application/x-www-form-urlencoded': {
          schema: {
            type: 'object',
            properties: { lines: text('One line per part: "ID quantity" (check, export)'), add: text('A part id (add)'), action: { type: 'string', enum: ['check', 'export', 'add', 'clear'] }, format: { type: 'string', enum: ['csv', 'json'] }, api_key: text('API key (export)') },
          },
        },
      },
    },
    responses: {
      '200': {
        description: 'check: the result page; export: the BOM as a download',
        content: { 'text/html': { schema: { type: 'string' } }, 'text/csv': { schema: { type: 'string' } }, 'application/json': { schema: { type: 'object' } } },
      },
      '303': { description: 'add, clear: the list is kept in a cookie of /bom; see /bom' },
      '400': htmlError,
      '401': htmlError,
      '402': htmlError,
      '429': htmlError,
    },
    errors: ['invalid_input', 'missing_credentials', 'insufficient_credits', 'rate_limited'],
  }),
  'GET /size': page('page_size', 'Actuator sizing form: upload a URDF / xacro file or a package archive'),
  'POST /size': operation({
    operationId: 'page_size_post',
    summary: 'Sizing form: size_actuators on the uploaded description, as an HTML page (per-joint table, bar chart, parts, a form to /bom)',
    security: FREE,
    requestBody: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            properties: {
              file: { type: 'string', format: 'binary', description: 'URDF / xacro file, or a .zip / .tar.gz package (1 MiB here)' },
              content: text('Or the URDF pasted'),
              entry: text('The top file inside a package'),
              safety_factor: text('1 to 10, default 1.5'),
              samples: text('0 to 4096, default 256'),
              pick: { type: 'string', enum: ['lightest', 'cheapest', 'strongest'] },
            },
          },
        },
      },
    },
    responses: { '200': { description: 'The result page', content: { 'text/html': { schema: { type: 'string' } } } }, '400': htmlError, '404': htmlError, '413': htmlError, '422': htmlError, '429': htmlError, '503': htmlError },
    errors: ['invalid_input', 'not_found', 'not_applicable', 'payload_too_large', 'limit_exceeded', 'overloaded', 'rate_limited'],
  }),
  'GET /intelligence': page('page_intelligence', 'Intelligence page: TRL, momentum and insights, with the charts', { parameters: [query('category', 'One category')], errors: ['unknown_category'] }),
  'GET /docs': page('page_docs', 'API reference: this document in Swagger UI'),
  'GET /assets/*': operation({
    operationId: 'page_asset',
    summary: 'Static assets of the pages (stylesheet, scripts, Swagger UI)',
    security: FREE,
    parameters: [pathParam('path', 'Asset path under /assets/')],
    responses: {
      '200': { description: 'The asset', content: { 'text/css': { schema: { type: 'string' } }, 'text/javascript': { schema: { type: 'string' } }, 'text/plain': { schema: { type: 'string' } } } },
      '404': { description: 'No such asset', content: { 'text/plain': { schema: { type: 'string' } } } },
    },
  }),
};

/** The page routes this module describes ("METHOD /hono/path"). */
export const PAGE_ROUTES = Object.keys(PAGES);

/** A Hono path as its OpenAPI path: `:param` -> `{param}`, a trailing `*` -> `{path}`. */
export const documentedPath = (honoPath: string) => openApiPath(honoPath).replace(/\/\*$/, '/{path}');

/** The operations of the pages among these app routes (none when the app serves no pages). */
export function pagePaths(routes: readonly { method: string; path: string }[]): OpenApiPaths {
  const out: OpenApiPaths = {};
  for (const r of routes) {
    const op = PAGES[`${r.method.toUpperCase()} ${r.path}`];
    if (!op) continue;
    const p = documentedPath(r.path);
    out[p] = { ...(out[p] ?? {}), [r.method.toLowerCase() as HttpMethod]: op };
  }
  return out;
}
