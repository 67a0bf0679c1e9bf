/**
 * Both protocol eras through the SDK's v2 client: 2026-07-28 (modern, pinned) and the 2025 era
 * (legacy, initialize), in memory (the stdio serving path) and over HTTP, plus the modern wire
 * checked by hand (raw JSON-RPC with the _meta envelope).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, ProtocolError, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import type { Deps } from '../../src/deps.js';
import { PROMPTS } from '../../src/prompts/index.js';
import { TOOLS } from '../../src/tools/index.js';
import { makeEntity, sampleEntities } from '../support/factory.js';
import { testDeps } from '../support/deps.js';
import { startTestServer } from '../support/http.js';
import { eraOptions, memoryClient, MODERN_REVISION, type ProtocolEra } from '../support/mcp.js';

// 130 extra ids with one prefix: completions must report all of them, not the first 100.
const EXTRA = Array.from({ length: 130 }, (_, i) => `SRV-${String(i).padStart(4, '0')}`);
const entities = () => [...sampleEntities(), ...EXTRA.map((id) => makeEntity({ id, name: `Filler ${id}` }))];

async function expectProtocolError(p: Promise<unknown>, code: number): Promise<ProtocolError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, 'expected a JSON-RPC error').toBeInstanceOf(ProtocolError);
  expect((err as ProtocolError).code).toBe(code);
  return err as ProtocolError;
}

/** What every era must answer the same way, run against one connected client. */
function sharedChecks(era: ProtocolEra, getClient: () => Client) {
  it(`${era}: server identity carries websiteUrl and icons; capabilities are the ones acted on`, () => {
    const info = getClient().getServerVersion();
    expect(info?.name).toBe('robot-parts-mcp');
    expect(info?.websiteUrl).toMatch(/^https:\/\//);
    expect(info?.icons?.[0]?.src).toMatch(/^data:image\/svg\+xml,/);
    const caps = getClient().getServerCapabilities() ?? {};
    expect(Object.keys(caps).sort()).toEqual(['completions', 'logging', 'prompts', 'resources', 'tools']);
    expect(caps.resources).toEqual({});
  });

  it(`${era}: lists every tool (the icon is the server's, not repeated per tool) and every prompt`, async () => {
    const { tools } = await getClient().listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
    expect(tools.every((t) => t.icons === undefined)).toBe(true);
    const { prompts } = await getClient().listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(PROMPTS.map((p) => p.name));
  });

  it(`${era}: calls a tool, reads a resource, answers a missing resource with -32602 and data.uri`, async () => {
    const r = (await getClient().callTool({ name: 'get_part', arguments: { id: 'act-001' } })) as CallToolResult;
    expect((r.structuredContent as { entity: { id: string } }).entity.id).toBe('ACT-001');
    const res = await getClient().readResource({ uri: 'robotparts://parts/ACT-002' });
    expect(JSON.parse((res.contents[0] as { text: string }).text).entity.id).toBe('ACT-002');
    const uri = 'robotparts://parts/NOPE-404';
    const err = await expectProtocolError(getClient().readResource({ uri }), -32602);
    expect(err.data).toEqual({ uri });
    const other = 'robotparts://nowhere/x';
    expect((await expectProtocolError(getClient().readResource({ uri: other }), -32602)).data).toEqual({ uri: other });
  });

  it(`${era}: gets a prompt naming our tools and arguments; a missing argument is -32602`, async () => {
    const p = await getClient().getPrompt({ name: 'check_mounting', arguments: { a: 'ACT-001', b: 'ACT-002' } });
    const text = (p.messages[0].content as { text: string }).text;
    expect(text).toContain('check_compatibility(a: "ACT-001", b: "ACT-002")');
    expect(text).toContain('rule_flange(a, b)');
    const err = await expectProtocolError(getClient().getPrompt({ name: 'check_mounting', arguments: { a: 'ACT-001' } }), -32602);
    expect(err.message).toContain('"b" is required');
  });

  it(`${era}: completion past 100 matches reports the true total and hasMore`, async () => {
    const expected = EXTRA.filter((id) => id.toLowerCase().startsWith('srv-0'));
    const c = await getClient().complete({ ref: { type: 'ref/resource', uri: 'robotparts://parts/{id}' }, argument: { name: 'id', value: 'srv-0' } });
    expect(c.completion.values).toEqual(expected.slice(0, 100));
    expect(c.completion.total).toBe(expected.length);
    expect(c.completion.hasMore).toBe(true);
    const few = await getClient().complete({ ref: { type: 'ref/prompt', name: 'check_mounting' }, argument: { name: 'b', value: 'act-00' } });
    expect(few.completion).toEqual({ values: ['ACT-001', 'ACT-002', 'ACT-003', 'ACT-004'], total: 4, hasMore: false });
    const cat = await getClient().complete({ ref: { type: 'ref/prompt', name: 'select_actuator' }, argument: { name: 'category', value: 'se' } });
    expect(cat.completion.values).toEqual(['sensors']);
  });
}

describe.each(['legacy', 'modern'] as const)('in memory (stdio serving path), %s era', (era) => {
  let deps: Deps;
  let mcp: Awaited<ReturnType<typeof memoryClient>>;
  beforeAll(async () => {
    deps = testDeps(entities());
    mcp = await memoryClient(deps, { era });
  });
  afterAll(async () => {
    await mcp.close();
    deps.close();
  });
  sharedChecks(era, () => mcp.client);
});

describe('every tool answers the same on both eras', () => {
  let deps: Deps;
  let legacy: Awaited<ReturnType<typeof memoryClient>>;
  let modern: Awaited<ReturnType<typeof memoryClient>>;
  beforeAll(async () => {
    deps = testDeps(entities());
    legacy = await memoryClient(deps, { era: 'legacy' });
    modern = await memoryClient(deps, { era: 'modern' });
  });
  afterAll(async () => {
    await legacy.close();
    await modern.close();
    deps.close();
  });
  // Read-only tools, so the two calls cannot change what the other sees.
  const ARGS: Record<string, Record<string, unknown>> = {
    search_parts: { q: 'servo' },
    get_part: { id: 'ACT-001' },
    list_parts: { category: 'sensors' },
    get_catalogue_stats: {},
    check_compatibility: { a: 'ACT-001', b: 'ACT-002' },
    rule_flange: { a: 'ISO9409-1-A50-4-M6', b: 'ISO9409-1-A50-4-M6' },
    convert_parameter: { value: '15 kgf·cm', to: 'N·m' },
    screen_part: { id: 'ACT-001' },
    check_bom: { items: [{ id: 'ACT-001', quantity: 2 }, { id: 'SENS-001', quantity: 1 }] },
    extract_robot_parts: { content: '<robot name="r"><joint name="j1" type="revolute"><parent link="a"/><child link="b"/></joint></robot>' },
    get_payment_status: { order_id: 'no-such-order' },
  };
  it.each(TOOLS.map((t) => t.name))('%s', async (name) => {
    const args = ARGS[name] ?? {};
    const a = (await legacy.client.callTool({ name, arguments: args })) as CallToolResult;
    const b = (await modern.client.callTool({ name, arguments: args })) as CallToolResult;
    expect(b.isError ?? false).toBe(a.isError ?? false);
    expect(b.content).toEqual(a.content);
    expect(b.structuredContent).toEqual(a.structuredContent);
    if (name in ARGS && name !== 'get_payment_status') expect(a.isError ?? false, JSON.stringify(a.content)).toBe(false);
  });
});

describe.each([
  ['stateful', false],
  ['stateless', true],
] as const)('over HTTP (%s)', (_label, stateless) => {
  let srv: Awaited<ReturnType<typeof startTestServer>>;
  const clients: Record<ProtocolEra, Client> = {} as never;
  beforeAll(async () => {
    srv = await startTestServer(entities(), { stateless });
    for (const era of ['legacy', 'modern'] as const) {
      const c = new Client({ name: `http-${era}`, version: '1.0.0' }, eraOptions(era) as never);
      await c.connect(new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`)));
      clients[era] = c;
    }
  });
  afterAll(async () => {
    for (const c of Object.values(clients)) await c.close();
    await srv.stop();
  });
  sharedChecks('legacy', () => clients.legacy);
  sharedChecks('modern', () => clients.modern);

  const envelope = { 'io.modelcontextprotocol/protocolVersion': MODERN_REVISION, 'io.modelcontextprotocol/clientCapabilities': {} };
  async function modernPost(method: string, params: Record<string, unknown>, headers: Record<string, string> = {}) {
    const r = await fetch(`${srv.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': MODERN_REVISION,
        'mcp-method': method,
        ...(typeof params.name === 'string' ? { 'mcp-name': params.name } : typeof params.uri === 'string' ? { 'mcp-name': params.uri } : {}),
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
    });
    return { status: r.status, body: (await r.json()) as { id: unknown; result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } } };
  }

  it('modern wire: server/discover, cache hints on list and read results, resultType', async () => {
    const d = await modernPost('server/discover', { _meta: envelope });
    expect(d.status).toBe(200);
    expect(d.body.result?.supportedVersions).toContain(MODERN_REVISION);
    expect(Object.keys(d.body.result?.capabilities as object).sort()).toEqual(['completions', 'logging', 'prompts', 'resources', 'tools']);
    for (const [method, params] of [
      ['tools/list', {}],
      ['prompts/list', {}],
      ['resources/list', {}],
      ['resources/templates/list', {}],
      ['resources/read', { uri: 'robotparts://datasets/parameter-semantics' }],
    ] as const) {
      const r = await modernPost(method, { ...params, _meta: envelope });
      expect(r.body.result, method).toMatchObject({ ttlMs: 3_600_000, cacheScope: 'public', resultType: 'complete' });
    }
  });

  it('modern wire: a missing or malformed _meta envelope is 400 / -32602 with the request id', async () => {
    const missing = await modernPost('tools/list', {});
    expect(missing.status).toBe(400);
    expect(missing.body.error?.code).toBe(-32602);
    expect(missing.body.id).toBe(7);
    const bad = await modernPost('tools/list', { _meta: { ...envelope, 'io.modelcontextprotocol/clientCapabilities': 'none' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error?.code).toBe(-32602);
  });

  it('modern wire: removed methods are 404 / -32601; a mismatched Mcp-Method header is 400', async () => {
    const ping = await modernPost('ping', { _meta: envelope });
    expect(ping.status).toBe(404);
    expect(ping.body.error?.code).toBe(-32601);
    const mismatch = await modernPost('tools/list', { _meta: envelope }, { 'mcp-method': 'prompts/list' });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.id).toBe(7);
  });

  it('405 answers carry Allow', async () => {
    const r = await fetch(`${srv.url}/mcp`, { method: 'PUT' });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe(stateless ? 'POST' : 'GET, POST, DELETE');
  });
});

describe('legacy wire: bad protocol parameters are -32602 with a short message', () => {
  let srv: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    srv = await startTestServer(entities(), { stateless: true });
  });
  afterAll(async () => {
    await srv.stop();
  });
  async function legacyPost(method: string, params: unknown) {
    const r = await fetch(`${srv.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method, params }),
    });
    const text = await r.text();
    const data = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '');
    return JSON.parse(data) as { error?: { code: number; message: string } };
  }
  it.each([
    ['logging/setLevel', { level: 'loud' }, 'params.level'],
    ['tools/call', { arguments: {} }, 'params.name'],
    ['tools/call', { name: 'get_part', arguments: [1] }, 'params.arguments'],
  ] as const)('%s %j', async (method, params, field) => {
    const r = await legacyPost(method, params);
    expect(r.error?.code).toBe(-32602);
    expect(r.error?.message).toContain(`Invalid params for ${method}: ${field}:`);
    expect(r.error?.message).not.toContain('\n');
    expect(r.error!.message.length).toBeLessThan(200);
  });
});
