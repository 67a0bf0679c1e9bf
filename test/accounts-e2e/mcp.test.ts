/**
 * The account tools over MCP: the matching error code of every REST status (in-memory client),
 * list_parts deep with api_key, the stdio credential (ROBOT_PARTS_API_KEY), credentials and
 * 429 over MCP Streamable HTTP, and no rate limits on in-memory/stdio.
 */
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../src/deps.js';
import { createServer } from '../../src/server.js';
import { testDeps } from '../support/deps.js';
import { sampleEntities } from '../support/factory.js';
import { startTestServer } from '../support/http.js';
import { call, errorBody, memoryClient } from '../support/mcp.js';
import { tempDb } from './helpers.js';

const UNKNOWN_KEY = 'gtk_' + 'B'.repeat(32);

const ok = (r: CallToolResult): Record<string, unknown> => {
  if (r.isError) throw new Error(`tool error: ${JSON.stringify(r.content)}`);
  return r.structuredContent as Record<string, unknown>;
};

type DeepList = { data: Record<string, unknown>[]; meta: { fields: string; credits_charged: number; credits_remaining: number | null } };

describe('account tools over the in-memory MCP client', () => {
  let deps: Deps;
  let client: Client;
  let close: () => Promise<void>;
  beforeAll(async () => {
    // A limit of 1 shows that in-memory calls are never rate limited.
    deps = testDeps(sampleEntities(), { rateLimitFree: 1, rateLimitPaid: 1 });
    ({ client, close } = await memoryClient(deps));
  });
  afterAll(async () => {
    await close();
    deps.close();
  });

  const register = async (email: string) => ok(await call(client, 'register_key', { email })).api_key as string;

  it('register_key: key, 100 credits, plan free; invalid_input (email); already_registered (any case/whitespace)', async () => {
    const r = ok(await call(client, 'register_key', { email: 'mcp@example.com' }));
    expect(r).toEqual({ api_key: expect.stringMatching(/^gtk_[A-Za-z0-9_-]{22,}$/), credits: 100, plan: 'free', message: expect.any(String) });
    for (const email of ['nope', '', 'a@b']) {
      expect(errorBody(await call(client, 'register_key', { email }))).toMatchObject({ code: 'invalid_input', field: 'email' });
    }
    expect(errorBody(await call(client, 'register_key', {}))).toMatchObject({ code: 'invalid_input', field: 'email' });
    for (const email of ['mcp@example.com', ' MCP@EXAMPLE.com ']) {
      expect(errorBody(await call(client, 'register_key', { email }))).toMatchObject({ code: 'already_registered' });
    }
  });

  it('get_balance: 200 / missing_credentials / unknown_key', async () => {
    const key = await register('mcp-balance@example.com');
    expect(ok(await call(client, 'get_balance', { api_key: key }))).toEqual({ credits: 100, plan: 'free', api_calls: 0 });
    expect(errorBody(await call(client, 'get_balance', {}))).toMatchObject({ code: 'missing_credentials' });
    expect(errorBody(await call(client, 'get_balance', { api_key: '  ' }))).toMatchObject({ code: 'missing_credentials' });
    expect(errorBody(await call(client, 'get_balance', { api_key: UNKNOWN_KEY }))).toMatchObject({ code: 'unknown_key' });
  });

  it('list_parts deep with api_key: paid fields at 1 credit; summary without deep is free', async () => {
    const key = await register('mcp-deep@example.com');
    const summary = ok(await call(client, 'list_parts', { api_key: key })) as unknown as DeepList;
    expect(summary.meta).toMatchObject({ fields: 'summary', credits_charged: 0 });
    const deep = ok(await call(client, 'list_parts', { deep: true, api_key: key, category: 'chips' })) as unknown as DeepList;
    expect(deep.meta).toMatchObject({ fields: 'deep', credits_charged: 1, credits_remaining: 99 });
    expect(deep.data).toEqual([expect.objectContaining({ id: 'CHIP-001', compatibility: ['secretcompat'], confidence: 0.9, price: null, localization_ratio: null })]);
    expect(ok(await call(client, 'get_balance', { api_key: key }))).toEqual({ credits: 99, plan: 'free', api_calls: 1 });
  });

  it('list_parts deep: missing_credentials / unknown_key / insufficient_credits with credits_remaining and recharge_url', async () => {
    expect(errorBody(await call(client, 'list_parts', { deep: true }))).toMatchObject({ code: 'missing_credentials' });
    expect(errorBody(await call(client, 'list_parts', { deep: true, api_key: UNKNOWN_KEY }))).toMatchObject({ code: 'unknown_key' });
    const key = await register('mcp-broke@example.com');
    await deps.accounts.charge({ key, cost: 100, reason: 'test.drain', reference: 'drain', run: async () => null });
    const broke = await call(client, 'list_parts', { deep: true, api_key: key });
    expect(errorBody(broke)).toEqual({ error: expect.any(String), code: 'insufficient_credits', credits_remaining: 0, recharge_url: `${deps.config.publicBaseUrl}/api/payment/create` });
    expect(ok(await call(client, 'get_balance', { api_key: key }))).toEqual({ credits: 0, plan: 'free', api_calls: 1 });
  });

  it('create_payment and get_payment_status: order / invalid_input (plan, email) / missing_credentials / unknown_key / not_found', async () => {
    const key = await register('mcp-buyer@example.com');
    const order = ok(await call(client, 'create_payment', { plan: 'pro', api_key: key }));
    expect(Object.keys(order).sort()).toEqual(['order_id', 'pay_url', 'qr_code']);
    expect(order.qr_code).toMatch(/^data:image\/png;base64,/);
    expect(ok(await call(client, 'create_payment', { plan: 'starter', email: 'mcp-buyer@example.com', api_key: key })).order_id).toMatch(/^ord_/);
    expect(ok(await call(client, 'get_payment_status', { order_id: order.order_id }))).toMatchObject({ status: 'pending', plan: 'pro', amount: '29.00', currency: 'CNY', credits: 2000 });

    expect(errorBody(await call(client, 'create_payment', { plan: 'gold', api_key: key }))).toMatchObject({ code: 'invalid_input', field: 'plan' });
    expect(errorBody(await call(client, 'create_payment', { api_key: key }))).toMatchObject({ code: 'invalid_input', field: 'plan' });
    expect(errorBody(await call(client, 'create_payment', { plan: 'starter' }))).toMatchObject({ code: 'missing_credentials' });
    expect(errorBody(await call(client, 'create_payment', { plan: 'starter', api_key: UNKNOWN_KEY }))).toMatchObject({ code: 'unknown_key' });
    // An e-mail alone is refused alike for registered and unregistered addresses (no existence oracle).
    expect(errorBody(await call(client, 'create_payment', { plan: 'starter', email: 'nobody@example.com' }))).toMatchObject({ code: 'missing_credentials' });
    expect(errorBody(await call(client, 'create_payment', { plan: 'starter', email: 'mcp-buyer@example.com' }))).toMatchObject({ code: 'missing_credentials' });
    expect(errorBody(await call(client, 'create_payment', { plan: 'starter', email: 'mcp@example.com', api_key: key }))).toMatchObject({ code: 'invalid_input', field: 'email' });
    expect(errorBody(await call(client, 'get_payment_status', { order_id: 'ord_nope' }))).toMatchObject({ code: 'not_found', order_id: 'ord_nope' });
  });

  it('Idempotency-Key (_meta.idempotencyKey): the same key twice -> one charge, the same data', async () => {
    const key = await register('mcp-idem@example.com');
    const once = async (idem: string) =>
      (await client.callTool({ name: 'list_parts', arguments: { deep: true, api_key: key }, _meta: { idempotencyKey: idem } })) as CallToolResult;
    const first = ok(await once('mcp-idem-1')) as unknown as DeepList;
    const second = ok(await once('mcp-idem-1')) as unknown as DeepList;
    expect(second.data).toEqual(first.data);
    expect(ok(await call(client, 'get_balance', { api_key: key }))).toMatchObject({ credits: 99, api_calls: 1 });
    ok(await once('mcp-idem-2'));
    expect(ok(await call(client, 'get_balance', { api_key: key }))).toMatchObject({ credits: 98, api_calls: 2 });
  });
});

describe('stdio credential (ROBOT_PARTS_API_KEY)', () => {
  const tmp = tempDb();
  let key: string;
  let deps: Deps;
  let client: Client;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const setup = testDeps(sampleEntities(), { dbPath: tmp.file });
    key = (await setup.accounts.register('stdio@example.com')).api_key;
    setup.close();
    // What `serve --stdio` builds when ROBOT_PARTS_API_KEY is set, over an in-memory pipe.
    deps = testDeps(sampleEntities(), { dbPath: tmp.file, stdioApiKey: key, rateLimitFree: 1, rateLimitPaid: 1 });
    const server = createServer(deps, { surface: 'mcp-stdio' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    client = new Client({ name: 'stdio-test', version: '1.0.0' });
    await client.connect(b);
    close = async () => {
      await client.close();
      await server.close();
    };
  });
  afterAll(async () => {
    await close();
    deps.close();
    tmp.cleanup();
  });

  it('list_parts deep and get_balance use the environment key without api_key; never rate limited', async () => {
    for (let i = 1; i <= 3; i++) {
      const deep = ok(await call(client, 'list_parts', { deep: true })) as unknown as DeepList;
      expect(deep.meta).toMatchObject({ fields: 'deep', credits_charged: 1, credits_remaining: 100 - i });
    }
    expect(ok(await call(client, 'get_balance', {}))).toEqual({ credits: 97, plan: 'free', api_calls: 3 });
  });

  it('the same key as api_key is fine; a different one is conflicting_credentials', async () => {
    expect(ok(await call(client, 'get_balance', { api_key: key }))).toMatchObject({ credits: 97 });
    const other = (await deps.accounts.register('stdio-other@example.com')).api_key;
    const r = await call(client, 'list_parts', { deep: true, api_key: other });
    expect(errorBody(r)).toMatchObject({ code: 'conflicting_credentials', sources: ['env:ROBOT_PARTS_API_KEY', 'argument:api_key'] });
    expect(JSON.stringify(r)).not.toContain(other);
    expect(ok(await call(client, 'get_balance', {}))).toMatchObject({ credits: 97 });
    expect(await deps.accounts.balance(other)).toEqual({ credits: 100, plan: 'free', api_calls: 0 });
  });
});

describe('MCP over Streamable HTTP: header credentials and 429', () => {
  let srv: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    srv = await startTestServer(sampleEntities(), { rateLimitFree: 3 });
  });
  afterAll(async () => {
    await srv.stop();
  });

  async function connect(headers: Record<string, string> = {}) {
    const transport = new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`), { requestInit: { headers } });
    const client = new Client({ name: 'http-accounts', version: '1.0.0' });
    await client.connect(transport);
    return {
      client,
      close: async () => {
        await transport.terminateSession();
        await client.close();
      },
    };
  }

  it('reads the key from Authorization / X-API-Key; conflicting with api_key; rate_limited per key after the free limit', async () => {
    const anon = await connect();
    const key = ok(await call(anon.client, 'register_key', { email: 'mcp-http@example.com' })).api_key as string;
    const other = ok(await call(anon.client, 'register_key', { email: 'mcp-http-2@example.com' })).api_key as string;

    const keyed = await connect({ authorization: `Bearer ${key}` });
    const deep = ok(await call(keyed.client, 'list_parts', { deep: true, category: 'chips' })) as unknown as DeepList;
    expect(deep.meta).toMatchObject({ fields: 'deep', credits_remaining: 99 });
    expect(errorBody(await call(keyed.client, 'get_balance', { api_key: other }))).toMatchObject({ code: 'conflicting_credentials', sources: ['authorization', 'argument:api_key'] });
    expect(ok(await call(keyed.client, 'get_balance', { api_key: key }))).toEqual({ credits: 99, plan: 'free', api_calls: 1 });
    expect(ok(await call(keyed.client, 'get_balance', {}))).toEqual({ credits: 99, plan: 'free', api_calls: 1 });
    // Three counted calls (the conflicting one was refused before counting): the fourth is limited.
    const limited = await call(keyed.client, 'get_balance', {});
    expect(errorBody(limited)).toMatchObject({ code: 'rate_limited', limit: 3, retry_after: expect.any(Number) });
    await keyed.close();

    // Anonymous MCP calls share the address window: two registrations + one more, then limited.
    ok(await call(anon.client, 'search_parts', { q: 'servo' }));
    expect(errorBody(await call(anon.client, 'search_parts', { q: 'servo' }))).toMatchObject({ code: 'rate_limited', limit: 3 });
    await anon.close();

    const viaX = await connect({ 'x-api-key': other, authorization: `Bearer ${other}` });
    expect(ok(await call(viaX.client, 'get_balance', {}))).toEqual({ credits: 100, plan: 'free', api_calls: 0 });
    await viaX.close();
    const conflicting = await connect({ 'x-api-key': other, authorization: `Bearer ${key}` });
    expect(errorBody(await call(conflicting.client, 'get_balance', {}))).toMatchObject({ code: 'conflicting_credentials', sources: ['authorization', 'x-api-key'] });
    await conflicting.close();
  });
});
