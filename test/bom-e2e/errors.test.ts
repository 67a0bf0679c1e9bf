/**
 * Every error status of POST /api/bom/export (and the 413/400 of /api/bom/check), then the
 * matching export_bom / check_bom error codes over the in-memory MCP client. Nothing is charged
 * for a refused call.
 */
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../src/server.js';
import { call, errorBody, memoryClient } from '../support/mcp.js';
import { bearer, drain, newKey, post, restBalance, startRealServer, UNKNOWN_KEY, type Server } from './helpers.js';

const ITEM = { id: 'ACT-001', price: 19.99, quantity: 2 };
const ok = { items: [ITEM] };
const many = (n: number) => ({ items: Array.from({ length: n }, (_, i) => ({ id: `OWN-${i}`, price: 0.1, quantity: 1 })) });

let srv: Server;
beforeAll(async () => {
  srv = await startRealServer();
});
afterAll(async () => {
  await srv.stop();
});

describe('POST /api/bom/export error statuses', () => {
  const exportBom = (body: unknown, headers: Record<string, string> = {}) => post(`${srv.url}/api/bom/export`, body, headers);

  it('401 missing_credentials with no key anywhere (also a blank one)', async () => {
    for (const [body, headers] of [
      [ok, {}],
      [{ ...ok, api_key: '  ' }, {}],
      [ok, { authorization: 'Bearer ' }],
    ] as [unknown, Record<string, string>][]) {
      const r = await exportBom(body, headers);
      expect(r.status).toBe(401);
      expect(r.json).toMatchObject({ code: 'missing_credentials', error: expect.any(String) });
      expect(r.headers.get('x-credits-remaining')).toBeNull();
    }
  });

  it('403 unknown_key for an unregistered key (header, query, body)', async () => {
    for (const [url, body, headers] of [
      [`${srv.url}/api/bom/export`, ok, bearer(UNKNOWN_KEY)],
      [`${srv.url}/api/bom/export?key=${UNKNOWN_KEY}`, ok, {}],
      [`${srv.url}/api/bom/export`, { ...ok, api_key: UNKNOWN_KEY }, {}],
      [`${srv.url}/api/bom/export`, ok, { 'x-api-key': 'not-a-key' }],
    ] as [string, unknown, Record<string, string>][]) {
      const r = await post(url, body, headers);
      expect(r.status, url).toBe(403);
      expect(r.json).toMatchObject({ code: 'unknown_key' });
    }
  });

  it('402 insufficient_credits {error, code, credits_remaining, recharge_url} at 0 credits; nothing changes', async () => {
    const key = await newKey(srv.deps, 'broke');
    await drain(srv.deps, key);
    const r = await exportBom(ok, bearer(key));
    expect(r.status).toBe(402);
    expect(r.json).toEqual({ error: expect.any(String), code: 'insufficient_credits', credits_remaining: 0, recharge_url: `${srv.url}/api/payment/create` });
    expect(await restBalance(srv.url, key)).toBe(0);
  });

  it('413 payload_too_large beyond 500 items, nothing charged; 500 items are fine', async () => {
    const key = await newKey(srv.deps, 'big');
    const r = await exportBom(many(501), bearer(key));
    expect(r.status).toBe(413);
    expect(r.json).toMatchObject({ code: 'payload_too_large', field: 'items', limit: 500, received: 501 });
    expect(await restBalance(srv.url, key)).toBe(100);
    const full = await exportBom({ ...many(500), format: 'json' }, bearer(key));
    expect(full.status).toBe(200);
    expect(full.json).toMatchObject({ metadata: { total_items: 500, total_cost: 50, total_cost_text: '50' } });
    expect(await restBalance(srv.url, key)).toBe(99);
  });

  it('400 invalid_input naming the field (bad item, unknown format, no items, bad body); nothing charged', async () => {
    const key = await newKey(srv.deps, 'bad');
    const cases: [unknown, string][] = [
      [{ items: [{ id: 'ACT-001', quantity: 0 }] }, 'items.0.quantity'],
      [{ items: [ITEM, { id: 'X', quantity: 1.5 }] }, 'items.1.quantity'],
      [{ items: [ITEM, ITEM, { id: 'X', quantity: 1, price: -1 }] }, 'items.2.price'],
      [{ items: [{ id: '   ', quantity: 1 }] }, 'items.0.id'],
      [{ items: [{ quantity: 1 }] }, 'items.0.id'],
      [{ ...ok, format: 'xlsx' }, 'format'],
      [{ ...ok, currency: 'euro' }, 'currency'],
      [{ items: [] }, 'items'],
      [{}, 'items'],
    ];
    for (const [body, field] of cases) {
      const r = await exportBom(body, bearer(key));
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json, JSON.stringify(body)).toMatchObject({ code: 'invalid_input', field });
    }
    const notJson = await exportBom('{items:', bearer(key));
    expect(notJson.status).toBe(400);
    expect(notJson.json).toMatchObject({ code: 'invalid_input', field: 'body' });
    expect(await restBalance(srv.url, key)).toBe(100);
  });

  it('400 conflicting_credentials when two different keys are presented; neither is charged', async () => {
    const a = await newKey(srv.deps, 'conf-a');
    const b = await newKey(srv.deps, 'conf-b');
    for (const [url, body, headers, sources] of [
      [`${srv.url}/api/bom/export`, { ...ok, api_key: b }, bearer(a), ['authorization', 'argument:api_key']],
      [`${srv.url}/api/bom/export`, ok, { ...bearer(a), 'x-api-key': b }, ['authorization', 'x-api-key']],
      [`${srv.url}/api/bom/export?key=${b}`, ok, { 'x-api-key': a }, ['x-api-key', 'query:key']],
    ] as [string, unknown, Record<string, string>, string[]][]) {
      const r = await post(url, body, headers);
      expect(r.status).toBe(400);
      expect(r.json).toMatchObject({ code: 'conflicting_credentials', sources });
      const text = r.bytes.toString('utf8');
      expect(text).not.toContain(a);
      expect(text).not.toContain(b);
    }
    expect(await restBalance(srv.url, a)).toBe(100);
    expect(await restBalance(srv.url, b)).toBe(100);
  });
});

describe('POST /api/bom/check error statuses', () => {
  it('413 beyond 500 items; 400 for an empty list or a bad item', async () => {
    const big = await post(`${srv.url}/api/bom/check`, { items: Array.from({ length: 501 }, () => ({ id: 'ACT-001' })) });
    expect(big.status).toBe(413);
    expect(big.json).toMatchObject({ code: 'payload_too_large', field: 'items', limit: 500, received: 501 });
    for (const [body, field] of [
      [{ items: [] }, 'items'],
      [{}, 'items'],
      [{ items: [{ id: 'ACT-001', quantity: 0 }] }, 'items.0.quantity'],
      [{ items: [{ id: '' }] }, 'items.0.id'],
    ] as [unknown, string][]) {
      const r = await post(`${srv.url}/api/bom/check`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json).toMatchObject({ code: 'invalid_input', field });
    }
  });
});

describe('export_bom / check_bom error codes over the in-memory MCP client', () => {
  it('missing_credentials, unknown_key, insufficient_credits, payload_too_large, invalid_input; nothing charged', async () => {
    const { client, close } = await memoryClient(srv.deps);
    try {
      expect(errorBody(await call(client, 'export_bom', ok))).toMatchObject({ code: 'missing_credentials' });
      expect(errorBody(await call(client, 'export_bom', { ...ok, api_key: '   ' }))).toMatchObject({ code: 'missing_credentials' });
      expect(errorBody(await call(client, 'export_bom', { ...ok, api_key: UNKNOWN_KEY }))).toMatchObject({ code: 'unknown_key' });

      const broke = await newKey(srv.deps, 'mcp-broke');
      await drain(srv.deps, broke);
      expect(errorBody(await call(client, 'export_bom', { ...ok, api_key: broke }))).toEqual({
        error: expect.any(String),
        code: 'insufficient_credits',
        credits_remaining: 0,
        recharge_url: `${srv.url}/api/payment/create`,
      });

      const key = await newKey(srv.deps, 'mcp-errors');
      expect(errorBody(await call(client, 'export_bom', { ...many(501), api_key: key }))).toMatchObject({ code: 'payload_too_large', limit: 500, received: 501 });
      expect(errorBody(await call(client, 'export_bom', { items: [{ id: 'A', quantity: 0 }], api_key: key }))).toMatchObject({ code: 'invalid_input', field: 'items.0.quantity' });
      expect(errorBody(await call(client, 'export_bom', { ...ok, format: 'pdf', api_key: key }))).toMatchObject({ code: 'invalid_input', field: 'format' });
      expect(errorBody(await call(client, 'export_bom', { items: [], api_key: key }))).toMatchObject({ code: 'invalid_input', field: 'items' });
      expect(await srv.deps.accounts.balance(key)).toMatchObject({ credits: 100 });

      expect(errorBody(await call(client, 'check_bom', { items: Array.from({ length: 501 }, () => ({ id: 'ACT-001' })) }))).toMatchObject({ code: 'payload_too_large' });
      expect(errorBody(await call(client, 'check_bom', { items: [] }))).toMatchObject({ code: 'invalid_input', field: 'items' });
    } finally {
      await close();
    }
  });

  it('conflicting_credentials: the stdio key (ROBOT_PARTS_API_KEY) and a different api_key', async () => {
    const envKey = await newKey(srv.deps, 'stdio-env');
    const other = await newKey(srv.deps, 'stdio-other');
    // What `serve --stdio` builds with ROBOT_PARTS_API_KEY set, over an in-memory pipe.
    const deps = { ...srv.deps, config: { ...srv.deps.config, stdioApiKey: envKey } };
    const server = createServer(deps, { surface: 'mcp-stdio' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const client = new Client({ name: 'bom-stdio', version: '1.0.0' });
    await client.connect(b);
    try {
      const r = await call(client, 'export_bom', { ...ok, api_key: other });
      expect(errorBody(r)).toMatchObject({ code: 'conflicting_credentials', sources: ['env:ROBOT_PARTS_API_KEY', 'argument:api_key'] });
      expect(JSON.stringify(r)).not.toContain(other);
      // the environment key alone works and pays
      const fine = await call(client, 'export_bom', ok);
      expect(fine.isError).toBeFalsy();
      expect(await srv.deps.accounts.balance(envKey)).toMatchObject({ credits: 99 });
      expect(await srv.deps.accounts.balance(other)).toMatchObject({ credits: 100 });
    } finally {
      await client.close();
      await server.close();
    }
  });
});
