/**
 * Issue 42: compare_parts takes user-declared parts ({custom: {...}}, the declaration check_bom and
 * export_bom take) beside catalogue ids, over an in-memory MCP client and REST (POST /api/compare)
 * on the shipped catalogue. A declared part is marked source "user" and compared on the same rules
 * (its declaration read by the same spec fields); what it does not declare is "not declared" and
 * its rows are never comparable or ranked. Expected values come from data/catalogue/entities.json
 * and the declarations written here, never from the code under test.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, memoryClient } from '../support/mcp.js';
import { post, startRealServer, type Server } from '../bom-e2e/helpers.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const raw = JSON.parse(fs.readFileSync(path.join(ROOT, 'data/catalogue/entities.json'), 'utf8')) as unknown;
const ENTITIES = (Array.isArray(raw) ? raw : ((raw as { entities?: unknown[] }).entities ?? Object.values(raw as object))) as { id: string; weight: string; voltage: string; torque: string }[];
const XM430 = ENTITIES.find((e) => e.id === 'ACT-002')!;

/** The catalogue weight "82g" as kilograms, read here (grams only: the test stops if the record says otherwise). */
function kgOf(weight: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*g$/.exec(weight.trim());
  if (!m) throw new Error(`ACT-002 weight "${weight}" is not in grams: update this test`);
  return Number(m[1]) / 1000;
}

/** A servo declared with the catalogue record's own mass, and a heavier one; neither declares a torque. */
const SAME_MASS = { custom: { name: 'My servo', role: 'actuator', buses: ['TTL'], voltage_v: { min: 10, max: 14.8 }, mass_kg: kgOf(XM430.weight) } };
const HEAVY = { custom: { name: 'Bracket motor', role: 'actuator', mass_kg: 0.25 } };

interface Row {
  field: string;
  comparable: boolean;
  reason: string;
  cells: { id: string; spec: { value?: number; min?: number; max?: number; values?: string[] } | null; note: string | null }[];
  ranking: { id: string; rank: number }[] | null;
  common_values?: string[];
}
interface Compared {
  parts: { id: string; name: string; category: string; source: string }[];
  rows: Row[];
}

let srv: Server;
let mcp: Awaited<ReturnType<typeof memoryClient>>;
beforeAll(async () => {
  srv = await startRealServer();
  mcp = await memoryClient(srv.deps);
});
afterAll(async () => {
  await mcp.close();
  await srv.stop();
});

const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;

describe('compare_parts with user-declared parts', () => {
  it('MCP: a catalogue servo beside two declared parts: source user, the same rules, undeclared never matching', async () => {
    const r = await call(mcp.client, 'compare_parts', { ids: ['ACT-002', SAME_MASS, HEAVY] });
    expect(r.isError, text(r).slice(0, 300)).toBeFalsy();
    expect(text(r).split('\n')[0]).toMatch(/^3 parts \(2 user-declared\) on \d+ fields/);
    const o = r.structuredContent as unknown as Compared;
    expect(o.parts.map((p) => [p.id, p.name, p.source])).toEqual([
      ['ACT-002', 'DYNAMIXEL XM430-W350-T', 'catalogue'],
      ['user:My servo', 'My servo', 'user'],
      ['user:Bracket motor', 'Bracket motor', 'user'],
    ]);
    const row = (f: string) => o.rows.find((x) => x.field === f)!;

    // Mass: every part declares one and each is read (the values declared), and the row is judged by the
    // rule two catalogue masses get: ACT-002 beside ACT-031 (both in grams, neither saying what the mass
    // includes) is not ranked, and neither is this row, for the same reason.
    const mass = row('mass');
    expect(mass.cells.map((c) => c.spec?.value)).toEqual([kgOf(XM430.weight), SAME_MASS.custom.mass_kg, HEAVY.custom.mass_kg]);
    const cat = (await call(mcp.client, 'compare_parts', { ids: ['ACT-002', 'ACT-031'] })).structuredContent as unknown as Compared;
    const catMass = cat.rows.find((x) => x.field === 'mass')!;
    expect(catMass.cells.every((c) => c.spec !== null)).toBe(true);
    expect([mass.comparable, mass.ranking, mass.reason]).toEqual([catMass.comparable, catMass.ranking, catMass.reason]);

    // Torque: the catalogue part declares "4.1 Nm", neither declared part does: not declared, not ranked.
    expect(XM430.torque).toMatch(/\d/);
    const torque = row('torque_rated');
    expect(torque.comparable).toBe(false);
    expect(torque.ranking).toBeNull();
    expect(torque.cells.map((c) => c.note)).toEqual([null, 'not declared', 'not declared']);

    // Voltage: the heavy part declares none, so the row is not comparable (never counted as the same range).
    const volts = row('voltage');
    expect(volts.comparable).toBe(false);
    expect(volts.cells[1]!.spec).toMatchObject({ min: 10, max: 14.8 });
    expect(volts.cells[2]!.note).toBe('not declared');

    // Buses: a set compared by membership only when every part declares one; the heavy part declares none.
    const bus = row('bus');
    expect(bus.comparable).toBe(false);
    expect(bus.common_values).toEqual([]);
    expect(bus.cells[2]!.note).toBe('not declared');
  });

  it('MCP: two parts that both declare: the voltage range and the common bus compare as for catalogue parts', async () => {
    const r = await call(mcp.client, 'compare_parts', { ids: ['ACT-002', SAME_MASS] });
    expect(r.isError, text(r).slice(0, 300)).toBeFalsy();
    const o = r.structuredContent as unknown as Compared;
    const row = (f: string) => o.rows.find((x) => x.field === f)!;
    // ACT-002 declares "10.0~14.8V" in the catalogue; the declared servo 10 to 14.8 V.
    const [lo, hi] = XM430.voltage.replace(/V$/, '').split('~').map(Number);
    expect(row('voltage').comparable).toBe(true);
    expect(row('voltage').cells.map((c) => [c.spec?.min, c.spec?.max])).toEqual([[lo, hi], [10, 14.8]]);
    const bus = row('bus');
    expect(bus.comparable).toBe(true);
    expect(bus.common_values).toHaveLength(1);
    expect(bus.common_values![0]).toMatch(/TTL/);
  });

  it('REST: POST /api/compare gives the MCP answer', async () => {
    const body = { ids: ['ACT-002', SAME_MASS, HEAVY] };
    const rest = await post(`${srv.url}/api/compare`, body);
    expect(rest.status).toBe(200);
    const m = await call(mcp.client, 'compare_parts', body);
    expect(rest.json).toEqual(m.structuredContent);
  });

  it('declarations are checked as check_bom checks them: the field named, with the fix', async () => {
    const bus = await post(`${srv.url}/api/compare`, { ids: ['ACT-002', { custom: { name: 'PC', role: 'host', buses: ['FireWire'] } }] });
    expect(bus.status).toBe(400);
    expect(JSON.stringify(bus.json)).toContain('ids.1.custom.buses.0');
    expect(JSON.stringify(bus.json)).toContain('USB');
    const twice = await call(mcp.client, 'compare_parts', { ids: [HEAVY, 'ACT-002', { custom: { ...HEAVY.custom, mass_kg: 1 } }] });
    expect(twice.isError).toBe(true);
    expect(text(twice)).toContain('ids.2.custom.name');
    const flange = await call(mcp.client, 'compare_parts', { ids: ['ACT-002', { custom: { name: 'Arm', role: 'actuator', flange: 'ISO 9409-1-999' } }] });
    expect(flange.isError).toBe(true);
    expect(text(flange)).toContain('ids.1.custom.flange');
    const mass = await post(`${srv.url}/api/compare`, { ids: ['ACT-002', { custom: { name: 'X', role: 'actuator', mass_kg: -1 } }] });
    expect(mass.status).toBe(400);
    expect(JSON.stringify(mass.json)).toContain('mass_kg');
  });
});
