/** check_compatibility, rule_flange and the flange ruling dataset through MCP and REST, on the shipped data. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { realDeps } from '../support/deps.js';
import { call, errorBody, openSurfaces } from '../support/mcp.js';

let client: Client;
let close: () => Promise<void>;
let srv: { url: string };
beforeAll(async () => {
  let url: string;
  ({ client, url, close } = await openSurfaces(realDeps()));
  srv = { url };
});
afterAll(async () => {
  await close();
});

type Compat = { applicable: boolean; verdict: string | null; reason: string; dimensions: Record<string, { verdict: string; evidence: { side: string; field: string; value: unknown }[] }> | null };

describe('check_compatibility on real catalogue pairs', () => {
  it('same vendor and protocol, overlapping voltage: electrical and communication compatible', async () => {
    const r = (await call(client, 'check_compatibility', { a: 'ACT-001', b: 'ACT-002' })).structuredContent as Compat;
    expect(r.applicable).toBe(true);
    expect(r.dimensions!.electrical.verdict).toBe('compatible');
    expect(r.dimensions!.communication.verdict).toBe('compatible');
    // No flange is declared by either: mechanical unknown, and unknown is never counted compatible.
    expect(r.dimensions!.mechanical.verdict).toBe('unknown');
    expect(r.verdict).toBe('unknown');
    expect(r.dimensions!.electrical.evidence.map((e) => e.value)).toEqual(expect.arrayContaining(['10.0~14.8V']));
  });

  it('disjoint voltage ranges: a separate supply rail or converter (adapter_required), never a definite incompatible', async () => {
    const r = (await call(client, 'check_compatibility', { a: 'ACT-001', b: 'ACT-006' })).structuredContent as Compat & {
      dimensions: Record<string, { adapters: string[]; detail: { relation: string } }>;
    };
    expect(r.dimensions!.electrical.verdict).toBe('adapter_required');
    expect(r.dimensions!.electrical.detail.relation).toBe('disjoint');
    expect(r.dimensions!.electrical.adapters[0]).toMatch(/^separate supply rail or converter: a .* V, b .* V$/);
    expect(r.verdict).not.toBe('incompatible');
  });

  it('a protocol entity is not applicable, with the reason', async () => {
    const r = (await call(client, 'check_compatibility', { a: 'ACT-001', b: 'PROTO-001' })).structuredContent as Compat;
    expect(r.applicable).toBe(false);
    expect(r.verdict).toBeNull();
    expect(r.reason).toContain('PROTO-001');
  });

  it('a missing id is a clear error naming it, and the server keeps serving', async () => {
    const body = errorBody(await call(client, 'check_compatibility', { a: 'ACT-001', b: 'ACT-99999' }));
    expect(body).toMatchObject({ code: 'not_found', field: 'b', id: 'ACT-99999' });
    expect(String(body.error)).toContain('ACT-99999');
    const ok = await call(client, 'check_compatibility', { a: 'act-001', b: ' act-002 ' });
    expect(ok.isError).toBeFalsy(); // ids are matched case-insensitively and trimmed, as by get_part
  });

  it('REST POST /api/compatibility takes {a, b}', async () => {
    const r = await fetch(`${srv.url}/api/compatibility`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ a: 'ACT-001', b: 'ACT-006' }) });
    expect(r.status).toBe(200);
    expect(((await r.json()) as Compat).dimensions!.electrical.verdict).toBe('adapter_required');
    const miss = await fetch(`${srv.url}/api/compatibility`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ a: 'NOPE-1', b: 'ACT-006' }) });
    expect(miss.status).toBe(404);
    const bad = await fetch(`${srv.url}/api/compatibility`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ a: 'ACT-001' }) });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { field: string }).field).toBe('b');
  });
});

describe('rule_flange', () => {
  it('identity, adapter_required with blocking dims, unknown for an unregistered label', async () => {
    const same = (await call(client, 'rule_flange', { a: 'ISO9409-1-A50-4-M6', b: 'ISO9409-1-A50-4-M6' })).structuredContent as { ruling: Record<string, unknown> };
    expect(same.ruling).toMatchObject({ verdict: 'identity', adapter_required: false, adapter_available: false, blocking_dims: [], fastener_note: null });
    const diff = (await call(client, 'rule_flange', { a: 'ISO9409-1-A50-4-M6', b: 'ISO9409-1-A63-6-M6' })).structuredContent as { ruling: Record<string, unknown> };
    expect(diff.ruling).toMatchObject({ verdict: 'adapter_required', adapter_required: true, adapter_available: true, blocking_dims: ['pcd_mm', 'bolt_count'] });
    const unknown = (await call(client, 'rule_flange', { a: 'ISO9409-1-A50-4-M8', b: 'ISO9409-1-A50-4-M6' })).structuredContent as { ruling: Record<string, unknown> };
    expect(unknown.ruling.verdict).toBe('unknown');
  });
});

describe('flange ruling dataset', () => {
  it('GET /api/negative_compat.json: 81 rulings with the spec counts', async () => {
    const d = (await (await fetch(`${srv.url}/api/negative_compat.json`)).json()) as { meta: Record<string, any>; rulings: unknown[] };
    expect(d.meta.schema).toBe('negative_compat/v1');
    expect(d.rulings).toHaveLength(81);
    expect(d.meta.counts).toEqual({ designations: 9, rulings: 81, identity: 9, direct: 0, adapter_required: 72 });
    expect(d.meta.source_tier_summary).toEqual({ B: 9 });
    expect(d.meta.license).toBe('CC BY 4.0');
  });
  it('is the MCP resource robotparts://datasets/flange-rulings', async () => {
    const res = await client.readResource({ uri: 'robotparts://datasets/flange-rulings' });
    expect(JSON.parse((res.contents[0] as { text: string }).text).rulings).toHaveLength(81);
    const list = await client.listResources();
    expect(list.resources.map((r) => r.uri)).toContain('robotparts://datasets/flange-rulings');
  });
});
