/**
 * /openapi.json is true to what is served: each documented route is called on a real server
 * (shipped catalogue, loopback) and the answer's status, content type, required headers and body
 * are checked against the operation's documented response (JSON bodies with Ajv, JSON Schema
 * 2020-12, the dialect of OpenAPI 3.1), success and error answers alike.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRealServer, rawRequest } from '../support/http.js';
import { bearer, completionBody, http, postJson, registerKey, sendWebhook, simulateUrl, WEBHOOK_SECRET } from '../accounts-e2e/helpers.js';

type Response = { description: string; headers?: Record<string, { required?: boolean }>; content?: Record<string, { schema: object }> };
type Op = { parameters?: { name: string; in: string; required?: boolean }[]; responses: Record<string, Response> };
type Doc = { paths: Record<string, Record<string, Op>> };

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

let srv: Awaited<ReturnType<typeof startRealServer>>;
let doc: Doc;
const checked = new Set<string>();

beforeAll(async () => {
  srv = await startRealServer({ webhookSecret: WEBHOOK_SECRET });
  doc = (await SwaggerParser.dereference((await (await fetch(`${srv.url}/openapi.json`)).json()) as never)) as unknown as Doc;
});
afterAll(async () => {
  await srv?.stop();
});

interface Answer {
  status: number;
  headers: Headers | Record<string, string | string[] | undefined>;
  text: string;
}

const header = (a: Answer, name: string): string | null => {
  if (a.headers instanceof Headers) return a.headers.get(name);
  const v = a.headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : (v ?? null);
};

/**
 * Checks an answer against the documented response of `METHOD path` for its status: the status is
 * declared, the content type is one of the declared ones, required headers are sent, and a JSON body
 * validates against the declared schema. Returns the parsed JSON body (or the text).
 */
function conforms(method: string, path: string, a: Answer): unknown {
  const op = doc.paths[path]?.[method.toLowerCase()];
  expect(op, `${method} ${path} is documented`).toBeDefined();
  const res = op!.responses[String(a.status)];
  expect(res, `${method} ${path}: status ${a.status} is documented (body ${a.text.slice(0, 200)})`).toBeDefined();
  checked.add(`${method} ${path} ${a.status}`);
  for (const [name, h] of Object.entries(res!.headers ?? {})) if (h.required) expect(header(a, name), `${method} ${path} ${a.status}: header ${name}`).not.toBeNull();
  if (!res!.content) return a.text;
  const type = (header(a, 'content-type') ?? '').split(';')[0]!.trim();
  expect(Object.keys(res!.content), `${method} ${path} ${a.status}: content type`).toContain(type);
  const schema = res!.content[type]!.schema;
  if (type === 'application/json') {
    const body = JSON.parse(a.text) as unknown;
    const validate = ajv.compile(schema);
    expect(validate(body) ? [] : validate.errors, `${method} ${path} ${a.status}: body matches the documented schema`).toEqual([]);
    return body;
  }
  expect((schema as { type?: string }).type).toBe('string');
  return a.text;
}

/** rawRequest (which can set Host and Content-Length) as an Answer. */
const raw = async (url: string, opts: Parameters<typeof rawRequest>[1]): Promise<Answer> => {
  const r = await rawRequest(url, opts);
  return { status: r.status, headers: r.headers, text: r.body };
};
const get = async (url: string, headers: Record<string, string> = {}) => http(`${srv.url}${url}`, { headers });
const post = async (url: string, json: unknown, headers: Record<string, string> = {}) => postJson(`${srv.url}${url}`, json, headers);

/** Two catalogue ids of one category, read from the served list. */
async function twoIds(category: string): Promise<[string, string]> {
  const r = await get(`/api/${category}.json?limit=2`);
  const ids = (r.body as { data: { id: string }[] }).data.map((d) => d.id);
  expect(ids.length).toBe(2);
  return [ids[0]!, ids[1]!];
}

/** A two-link URDF written here (not from the reference data). */
const URDF = `<?xml version="1.0"?>
<robot name="two_links">
  <link name="base"/>
  <link name="arm"/>
  <joint name="shoulder" type="revolute">
    <parent link="base"/><child link="arm"/>
    <axis xyz="0 0 1"/>
    <limit lower="-1.57" upper="1.57" effort="10" velocity="2"/>
  </joint>
</robot>
`;

describe('documented answers are what is served', () => {
  it('every documented GET without required parameters answers 200 as documented', async () => {
    const plain = Object.entries(doc.paths).filter(([, item]) => item.get && !(item.get.parameters ?? []).some((p) => p.required));
    expect(plain.length).toBeGreaterThan(10);
    for (const [path] of plain) conforms('GET', path, await get(path === '/api/entities.json' ? `${path}?limit=20` : path));
  });

  it('search, lookup (and its 404 with did_you_mean), a 400, comparison, compatibility, alternatives, screening, where-used', async () => {
    const [a, b] = await twoIds('actuators');
    const search = conforms('GET', '/api/search', await get('/api/search?q=motor&limit=5')) as { meta: { total: number } };
    expect(search.meta.total).toBeGreaterThan(0);
    expect((conforms('GET', '/api/entity/{id}', await get(`/api/entity/${encodeURIComponent(a)}`)) as { entity: { id: string } }).entity.id).toBe(a);
    const miss = conforms('GET', '/api/entity/{id}', await get(`/api/entity/${encodeURIComponent(`${a}-NOPE`)}`)) as { code: string; did_you_mean: string[] };
    expect(miss.code).toBe('not_found');
    expect((conforms('GET', '/api/search', await get('/api/search?q=motor&limit=0')) as { code: string; field: string }).field).toBe('limit');
    conforms('GET', '/api/compare', await get(`/api/compare?ids=${encodeURIComponent(a)}&ids=${encodeURIComponent(b)}`));
    conforms('POST', '/api/compare', await post('/api/compare', { ids: [a, b] }));
    conforms('GET', '/api/compatibility', await get(`/api/compatibility?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`));
    conforms('POST', '/api/compatibility', await post('/api/compatibility', { a, b }));
    conforms('GET', '/api/parts/{id}/alternatives', await get(`/api/parts/${encodeURIComponent(a)}/alternatives`));
    conforms('GET', '/api/parts/{id}/screen', await get(`/api/parts/${encodeURIComponent(a)}/screen`));
    conforms('GET', '/api/where-used', await get(`/api/where-used?id=${encodeURIComponent(a)}`));
    conforms('GET', '/api/flange/rule', await get(`/api/flange/rule?a=${encodeURIComponent('ISO9409-1-A50-4-M6')}&b=${encodeURIComponent('ISO9409-1-A63-4-M6')}`));
    conforms('GET', '/api/parameters/convert', await get(`/api/parameters/convert?value=${encodeURIComponent('15 kgf·cm')}`));
    conforms('POST', '/api/bom/check', await post('/api/bom/check', { items: [{ id: a, quantity: 1 }, { id: b, quantity: 2 }] }));
    conforms('GET', '/api/intelligence.svg', await get('/api/intelligence.svg?category=actuators'));
    const svg = conforms('GET', '/api/intelligence.svg', await get('/api/intelligence.svg')) as string;
    expect(svg).toMatch(/<svg[\s>]/);
  });

  it('keys, balance and the BOM export as CSV or {metadata, items, print_suggestions}, 401 without a key', async () => {
    const [a] = await twoIds('actuators');
    conforms('POST', '/api/register', await post('/api/register', { email: 'not-an-address' }));
    const key = await registerKey(srv.url, 'openapi-served@example.com');
    conforms('POST', '/api/register', await post('/api/register', { email: 'openapi-served@example.com' })); // 409
    conforms('POST', '/api/credits/balance', await post('/api/credits/balance', { api_key: key }));
    conforms('POST', '/api/credits/balance', await post('/api/credits/balance', {})); // 401
    const items = [{ id: a, quantity: 2 }, { id: 'MY-OWN-PART', name: 'Bracket', quantity: 1, unit_price: 3.5 }];
    const csvAnswer = await post('/api/bom/export', { items }, bearer(key));
    const csv = conforms('POST', '/api/bom/export', csvAnswer) as string;
    expect(csvAnswer.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csvAnswer.headers.get('x-credits-remaining')).not.toBeNull();
    const rows = parseCsv(csv, { columns: true }) as Record<string, string>[];
    expect(rows.length).toBeGreaterThanOrEqual(2);
    const jsonAnswer = await post('/api/bom/export', { items, format: 'json' }, bearer(key));
    const body = conforms('POST', '/api/bom/export', jsonAnswer) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['items', 'metadata', 'print_suggestions', 'reference_prices', 'suggested_lines']);
    conforms('POST', '/api/bom/export', await post('/api/bom/export', { items })); // 401
    conforms('POST', '/api/bom/export', await post('/api/bom/export', { items }, bearer('gtk_not_registered_0000000000'))); // 403
    // Deep listing with a key (charged): the same documented schema.
    conforms('GET', '/api/entities.json', await get('/api/entities.json?limit=3', bearer(key)));
  });

  it('payments: order, status, pay page (HTML), simulate (303), webhook (signed, and 401 without a valid signature)', async () => {
    const key = await registerKey(srv.url, 'openapi-payer@example.com');
    const order = conforms('POST', '/api/payment/create', await post('/api/payment/create', { plan: 'starter' }, bearer(key))) as { order_id: string; pay_url: string };
    conforms('POST', '/api/payment/create', await post('/api/payment/create', { plan: 'starter' })); // 401
    conforms('GET', '/api/payment/{order_id}', await get(`/api/payment/${order.order_id}`));
    conforms('GET', '/api/payment/{order_id}', await get('/api/payment/ord_unknown'));
    const page = conforms('GET', '/pay/{order_id}', await http(order.pay_url)) as string;
    expect(page).toMatch(/<html/i);
    conforms('GET', '/pay/{order_id}', await get(`/pay/${order.order_id}?token=wrong`)); // 404
    conforms('POST', '/pay/{order_id}/simulate', await http(simulateUrl(order.pay_url), { method: 'POST' })); // 303
    const second = (await post('/api/payment/create', { plan: 'starter' }, bearer(key))).body as { order_id: string };
    const body = completionBody(second);
    conforms('POST', '/api/payment/webhook', await sendWebhook(srv.url, body, { secret: 'not-the-secret' })); // 401
    const paid = conforms('POST', '/api/payment/webhook', await sendWebhook(srv.url, body)) as { credited: boolean };
    expect(paid.credited).toBe(true);
  });

  it('URDF lint and extraction on inline text', async () => {
    conforms('POST', '/api/oss/lint', await post('/api/oss/lint', { content: URDF }));
    conforms('POST', '/api/oss/extract', await post('/api/oss/extract', { content: URDF }));
  });

  it('/mcp: initialize answers as documented', async () => {
    const init = await http(`${srv.url}/mcp`, {
      method: 'POST',
      headers: { accept: 'application/json, text/event-stream' },
      json: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'openapi-test', version: '1' } } },
    });
    conforms('POST', '/mcp', init);
    conforms('POST', '/mcp', await http(`${srv.url}/mcp`, { method: 'POST', headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' }, body: '{not json' }));
  });

  it('403 (Host), 413 (body limit) and 429 (rate limit, with Retry-After) answer with the documented error bodies', async () => {
    conforms('GET', '/api/stats', await raw(`${srv.url}/api/stats`, { headers: { Host: 'evil.example' } }));
    const big = JSON.stringify({ email: `${'x'.repeat(2_000_000)}@example.com` });
    conforms('POST', '/api/register', await raw(`${srv.url}/api/register`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(big)) }, body: big }));
    const limited = await startRealServer({ rateLimitFree: 1 });
    try {
      expect((await http(`${limited.url}/api/stats`)).status).toBe(200);
      const r = await http(`${limited.url}/api/stats`);
      expect(r.status).toBe(429);
      conforms('GET', '/api/stats', r);
    } finally {
      await limited.stop();
    }
  });

  it('the check fails on what the document does not say: another content type, a body off its schema, an undeclared status', async () => {
    const ok = await get('/api/search?q=motor&limit=1');
    const body = JSON.parse(ok.text) as { meta: Record<string, unknown> };
    const json = { 'content-type': 'application/json' };
    expect(() => conforms('GET', '/api/search', { status: 200, headers: json, text: JSON.stringify({ ...body, meta: { ...body.meta, total: 'many' } }) })).toThrow(/documented schema/);
    expect(() => conforms('POST', '/api/bom/export', { status: 200, headers: { 'content-type': 'application/octet-stream' }, text: 'x' })).toThrow(/content type/);
    expect(() => conforms('GET', '/api/stats', { status: 418, headers: json, text: '{}' })).toThrow(/418 is documented/);
  });

  it('the answers checked cover success and error statuses of the main routes', () => {
    for (const k of ['GET /api/search 200', 'GET /api/search 400', 'GET /api/entity/{id} 404', 'POST /api/bom/export 200', 'POST /api/bom/export 401', 'POST /api/bom/export 403', 'POST /api/payment/webhook 401', 'POST /pay/{order_id}/simulate 303', 'GET /api/stats 429', 'GET /api/stats 403', 'POST /api/register 413', 'POST /api/register 409', 'GET /healthz 200']) {
      expect(checked, k).toContain(k);
    }
  });
});
