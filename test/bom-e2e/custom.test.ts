/**
 * Issue 42 parts 2 and 3 through the public surfaces (shipped data/ catalogue): user-declared
 * parts in check_bom and export_bom over REST and an in-memory MCP client, the no-host finding,
 * a named, costed CSV export whose per-currency totals are recomputed here from the source rows,
 * an all-unpriced export that is not charged, open-source BOM reference prices read back from
 * data/oss, and the custom item in /openapi.json.
 */
import { readFileSync } from 'node:fs';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BomCheckResult } from '../../src/domain/bom/check.js';
import { call, memoryClient } from '../support/mcp.js';
import { bearer, cents, newKey, parseCsv, post, restBalance, startRealServer, textCents, type Server } from './helpers.js';

const LAPTOP = { custom: { name: 'Laptop', role: 'host', buses: ['USB'] }, quantity: 1 };
const SIX_XM430 = { id: 'ACT-002', quantity: 6 };

let srv: Server;
beforeAll(async () => {
  srv = await startRealServer();
});
afterAll(async () => {
  await srv.stop();
});

const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;

describe('check_bom with a user-declared host', () => {
  it('REST: a USB laptop and six ACT-002 -> the U2D2 bridge; the laptop is source user', async () => {
    const r = await post(`${srv.url}/api/bom/check`, { items: [LAPTOP, SIX_XM430] });
    expect(r.status).toBe(200);
    const res = r.json as unknown as BomCheckResult;
    expect(res.parts.map((p) => [p.id, p.source])).toEqual([['user:Laptop', 'user'], ['ACT-002', 'catalogue']]);
    const bridges = res.findings.filter((f) => f.kind === 'bridge_required');
    expect(bridges).toHaveLength(1);
    expect(bridges[0].message).toContain('U2D2');
    expect(res.findings.map((f) => f.kind)).not.toContain('no_host');
  });

  it('MCP (in-memory client): the same answer; a set without a host gets the no-host finding', async () => {
    const { client, close } = await memoryClient(srv.deps);
    try {
      const withHost = await call(client, 'check_bom', { items: [LAPTOP, SIX_XM430] });
      expect(withHost.isError).toBeFalsy();
      const rest = (await post(`${srv.url}/api/bom/check`, { items: [LAPTOP, SIX_XM430] })).json;
      expect(withHost.structuredContent).toEqual(rest);
      const noHost = await call(client, 'check_bom', { items: [SIX_XM430] });
      const res = noHost.structuredContent as unknown as BomCheckResult;
      const f = res.findings.filter((x) => x.kind === 'no_host');
      expect(f).toHaveLength(1);
      expect(f[0].message).toBe('No computer in the set: nothing checks how the devices are reached.');
      expect(res.connections.statement).not.toMatch(/^No problem found/);
      // A bad custom item: invalid_input naming the field, over MCP too.
      const bad = await call(client, 'check_bom', { items: [{ custom: { name: 'PC', role: 'host', buses: ['FireWire'] }, quantity: 1 }] });
      expect(bad.isError).toBe(true);
      expect(text(bad)).toContain('items.0.custom.buses.0');
    } finally {
      await close();
    }
  });

  it('REST: bad custom items are 400 naming the field', async () => {
    const r = await post(`${srv.url}/api/bom/check`, { items: [{ custom: { name: 'PC', role: 'host', voltage_v: { min: 24, max: 12 } }, quantity: 1 }] });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.json)).toContain('items.0.custom.voltage_v.min');
  });
});

describe('export_bom: costs that add up', () => {
  /** The source rows of a named, costed export: catalogue ids priced in EUR, custom parts in USD and CNY, one unpriced. */
  const ROWS = [
    { id: 'ACT-002', price: 289.9, quantity: 6 },
    { custom: { name: 'Laptop', role: 'host', buses: ['USB'], price: { amount: 1299, currency: 'USD' } }, quantity: 1 },
    { custom: { name: 'U2D2', role: 'other', buses: ['USB', 'TTL', 'RS485'], price: { amount: 32.1, currency: 'USD' } }, quantity: 1 },
    { custom: { name: 'Printed bracket', role: 'structure', price: { amount: 8.5, currency: 'CNY' } }, quantity: 6 },
    { id: 'CHIP-007', quantity: 1 },
  ];

  /** Per-currency cents from the rows (the test's own arithmetic, EUR the request currency). */
  function expectedTotals(): Map<string, number> {
    const m = new Map<string, number>();
    for (const r of ROWS) {
      const cur = 'custom' in r ? r.custom?.price?.currency : 'price' in r ? 'EUR' : undefined;
      const unit = 'custom' in r ? r.custom?.price?.amount : 'price' in r ? r.price : undefined;
      if (cur === undefined || unit === undefined) continue;
      m.set(cur, (m.get(cur) ?? 0) + cents(unit) * r.quantity);
    }
    return m;
  }

  it('REST: a named CSV export, one total per currency equal to the independent sums; charged 1 credit; source and reference prices in the CSV', async () => {
    const key = await newKey(srv.deps, 'custom-csv');
    const before = await restBalance(srv.url, key);
    const r = await post(`${srv.url}/api/bom/export`, { items: ROWS, project_name: 'SO-101 bench', currency: 'EUR' }, bearer(key));
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/csv');
    const rows = parseCsv(r.bytes);
    const items = rows.filter((x) => x.row_type === 'item');
    expect(items.map((x) => [x.id, x.source, x.currency])).toEqual([
      ['ACT-002', 'catalogue', 'EUR'],
      ['user:Laptop', 'user', 'USD'],
      ['user:U2D2', 'user', 'USD'],
      ['user:Printed bracket', 'user', 'CNY'],
      ['CHIP-007', 'catalogue', ''],
    ]);
    const totals = rows.filter((x) => x.row_type === 'total');
    expect(totals.map((t) => [t.currency, textCents(t.line_total)])).toEqual([...expectedTotals().entries()]);
    for (const t of totals) expect(t.price_note).toMatch(/not summed with the other currencies; partial: line\(s\) 5 have no price/);
    // CHIP-007's price range is a range with no currency, never in a total.
    expect(items[4].catalogue_price_range).toMatch(/ \(currency not stated\)$/);
    expect(items[4].line_total).toBe('');
    expect(await restBalance(srv.url, key)).toBe(before - 1);
  });

  it('JSON: reference prices of CHIP-007 (Rockchip RK3588) are the open-source BOM line read from data/oss, not in any total', async () => {
    const key = await newKey(srv.deps, 'custom-json');
    const r = await post(`${srv.url}/api/bom/export`, { items: ROWS, project_name: 'SO-101 bench', currency: 'EUR', format: 'json' }, bearer(key));
    expect(r.status).toBe(200);
    const doc = r.json as { metadata: { totals_by_currency: { currency: string; total_text: string }[]; total_cost: number | null }; reference_prices: { id: string; prices: Record<string, unknown>[]; total: number }[] };
    expect(doc.metadata.total_cost).toBeNull();
    // Independent: the layer file's BOM lines whose item names RK3588, with a stated amount.
    const layer = JSON.parse(readFileSync('data/oss/oss_components.json', 'utf8')) as {
      meta: { sources: { id: string; robot: string; url: string }[] };
      data: { source_id: string; extracted: { record_type: string; item: string; line: number; unit_prices: { amount: string | null; currency: string | null; as_written: string }[] } }[];
    };
    const src = new Map(layer.meta.sources.map((s) => [s.id, s]));
    const expected = layer.data
      .filter((d) => d.extracted.record_type === 'bom_item' && /RK3588/.test(d.extracted.item))
      .flatMap((d) => d.extracted.unit_prices.filter((p) => p.amount !== null).map((p) => ({ amount: p.amount, currency: p.currency, robot: src.get(d.source_id)!.robot, file: src.get(d.source_id)!.url, line: d.extracted.line })));
    expect(expected.length).toBeGreaterThan(0);
    expect(doc.reference_prices).toEqual([{ id: 'CHIP-007', prices: expected, total: expected.length }]);
    expect(doc.metadata.totals_by_currency.map((g) => g.currency)).toEqual(['EUR', 'USD', 'CNY']);
  });

  it('an all-unpriced export says so and is not charged (REST and MCP); the ledger is unchanged', async () => {
    const key = await newKey(srv.deps, 'custom-unpriced');
    const before = await restBalance(srv.url, key);
    const body = { items: [SIX_XM430, { custom: { name: 'Laptop', role: 'host', buses: ['USB'] }, quantity: 1 }], project_name: 'No prices' };
    const r = await post(`${srv.url}/api/bom/export`, body, bearer(key));
    expect(r.status).toBe(200);
    const total = parseCsv(r.bytes).find((x) => x.row_type === 'total')!;
    expect([total.line_total, total.price_note]).toEqual(['', 'no line has a price: no total']);
    expect(r.headers.get('x-credits-remaining')).toBe(String(before));
    expect(await restBalance(srv.url, key)).toBe(before);
    const { client, close } = await memoryClient(srv.deps);
    try {
      const m = await call(client, 'export_bom', { ...body, format: 'json', api_key: key });
      expect(m.isError).toBeFalsy();
      expect(text(m).split('\n')[0]).toContain('no line has a price: no total, not charged as a costed export');
      expect((m.structuredContent as { billing: unknown }).billing).toEqual({ credits_charged: 0, credits_remaining: before });
      // A priced one over MCP is charged 1 and its summary leads with the per-currency totals.
      const priced = await call(client, 'export_bom', { items: [{ custom: { name: 'Laptop', role: 'host', price: { amount: 999, currency: 'USD' } }, quantity: 1 }, { ...SIX_XM430, price: 10 }], currency: 'EUR', format: 'json', api_key: key });
      expect(text(priced).split('\n')[0]).toContain('totals 999 USD; 60 EUR (per currency, never added up)');
      expect((priced.structuredContent as { billing: unknown }).billing).toEqual({ credits_charged: 1, credits_remaining: before - 1 });
    } finally {
      await close();
    }
    expect(await restBalance(srv.url, key)).toBe(before - 1);
  });
});

describe('OpenAPI', () => {
  it('the BOM routes document the custom item (from the zod schemas)', async () => {
    const doc = (await (await fetch(`${srv.url}/openapi.json`)).json()) as Record<string, unknown>;
    const s = JSON.stringify((doc.paths as Record<string, unknown>)['/api/bom/check']);
    for (const k of ['"custom"', '"voltage_v"', '"structure"', '"flange"']) expect(s).toContain(k);
    expect(JSON.stringify((doc.paths as Record<string, unknown>)['/api/bom/export'])).toContain('"custom"');
  });
});
