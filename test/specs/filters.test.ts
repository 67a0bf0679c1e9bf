/**
 * where / sort on the shipped catalogue, checked against an independent computation in this
 * test (plain regular expressions over data/catalogue/entities.json, not the parser or the spec
 * layer), through the in-memory MCP client and REST.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { realDeps } from '../support/deps.js';
import { call, errorBody, openSurfaces } from '../support/mcp.js';

type E = { id: string; quarantine: boolean; category: string; type: string | null; protocol: string; interface: string; interfaces: string[]; declared: Record<string, string | undefined> };
const entities = (JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../data/catalogue/entities.json'), 'utf8')) as { entities: E[] }).entities;
const clean = entities.filter((e) => !e.quarantine);

// --- the independent computation -------------------------------------------------------------
/** Rated (not peak) torque in N·m: "17 Nm", "9 N·m", "44.7 Nm @ 48V", "3.5 Nm continuous", "0.005 ~ 13 Nm" (range: [lo, hi]). */
function torque(e: E): [number, number] | null {
  const t = e.declared.torque;
  if (!t) return null;
  let m = /^(\d+(?:\.\d+)?)\s*(?:N·m|Nm)(?:\s*@\s*\d+(?:\.\d+)?\s*V)?(?:\s+(?:continuous|rated))?$/.exec(t);
  if (m) return [Number(m[1]), Number(m[1])];
  m = /^(\d+(?:\.\d+)?)\s*[~-]\s*(\d+(?:\.\d+)?)\s*(?:N·m|Nm)$/.exec(t);
  if (m) return [Number(m[1]), Number(m[2])];
  m = /^(\d+(?:\.\d+)?)\s*kgf·cm$/.exec(t);
  return m ? [Number(m[1]) * 0.0980665, Number(m[1]) * 0.0980665] : null;
}
/** Supply voltage range in V: "24V", "48V DC", "12 V", "12-48V", "10.0~14.8V". */
function voltage(e: E): [number, number] | null {
  const v = e.declared.voltage;
  if (!v) return null;
  let m = /^(\d+(?:\.\d+)?)\s*V(?:\s*DC)?$/.exec(v);
  if (m) return [Number(m[1]), Number(m[1])];
  m = /^(\d+(?:\.\d+)?)\s*[~-]\s*(\d+(?:\.\d+)?)\s*V(?:\s*DC)?$/.exec(v);
  return m ? [Number(m[1]), Number(m[2])] : null;
}
/** Buses named in protocol / interface / interfaces (CAN FD kept apart from CAN; CANopen implies CAN only when no bus is named). */
function buses(e: E): Set<string> | null {
  const pieces = [e.protocol, e.interface, ...e.interfaces]
    .filter((v) => v && v !== 'N/A')
    .flatMap((v) => v.split(/[,;/]/))
    .map((p) => p.trim().toLowerCase().replace(/[\s_-]+/g, ''))
    .filter((p) => p !== '');
  if (pieces.length === 0) return null;
  const out = new Set<string>();
  for (const p of pieces) {
    if (p === 'can' || p === 'canbus' || p === 'customcan') out.add('CAN');
    if (p === 'ethercat') out.add('EtherCAT');
    if (p === 'canfd') out.add('CAN FD');
  }
  if (!pieces.some((p) => /^(can|canbus|customcan|canfd|ethercat|rs485|rs232|uart|ttl|usb|ethernet|spi|i2c|pwm|wifi|ble)$/.test(p)) && pieces.includes('canopen')) out.add('CAN');
  return out;
}
const expectedSet = (minNm: number) =>
  clean
    .filter((e) => {
      const t = torque(e);
      const v = voltage(e);
      const b = buses(e);
      return t !== null && t[0] >= minNm && v !== null && v[0] <= 48 && v[1] >= 48 && b !== null && (b.has('EtherCAT') || b.has('CAN'));
    })
    .map((e) => e.id)
    .sort();

// --- the service ---------------------------------------------------------------------------------
let client: Client;
let url: string;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ client, url, close } = await openSurfaces(realDeps()));
});
afterAll(async () => close());

const WHERE = [
  { field: 'torque_rated', op: '>=', value: '30 N·m' },
  { field: 'voltage', op: 'covers', value: '48 V' },
  { field: 'bus', op: 'in', value: ['EtherCAT', 'CAN'] },
];
type Out = { data: { id: string; specs?: Record<string, { value?: number; min?: number }> }[]; meta: { total: number; filters: { field: string; matched: number; unknown_excluded: number; failed: number; not_applicable: number; applied: string[] }[]; sort: { undeclared_last: number } | null } };
const ids = (o: Out) => o.data.map((h) => h.id).sort();

describe('where on the shipped catalogue', () => {
  it('torque_rated >= 30 N·m AND voltage covers 48 V AND bus in [EtherCAT, CAN]: the independently computed set', async () => {
    const expected = expectedSet(30);
    expect(expected.length).toBeGreaterThan(0);
    const r = await call(client, 'search_parts', { where: WHERE, limit: 100 });
    expect(r.isError).toBeFalsy();
    const o = r.structuredContent as Out;
    expect(ids(o)).toEqual(expected);
    expect(o.meta.total).toBe(expected.length);
  });

  it('the same set for >= 305.9 kgf·cm (29.9985 N·m), and in the compact REST form', async () => {
    const expected = expectedSet(305.9 * 0.0980665);
    expect(expected).toEqual(expectedSet(30)); // no declared torque lies in [29.9985, 30) N·m
    const r = await call(client, 'search_parts', { where: [{ ...WHERE[0], value: '305.9 kgf·cm' }, WHERE[1], WHERE[2]], limit: 100 });
    const o = r.structuredContent as Out;
    expect(ids(o)).toEqual(expected);
    expect(o.meta.filters[0].applied).toEqual(['29.99854235 Nm']);
    const res = await fetch(`${url}/api/search?${new URLSearchParams({ where: 'torque_rated>=305.9 kgf·cm; voltage covers 48 V; bus in EtherCAT|CAN', limit: '100' })}`);
    expect(res.status).toBe(200);
    expect(ids((await res.json()) as Out)).toEqual(expected);
  });

  it('meta counts per filter the records left out as unknown (field not read), computed independently', async () => {
    const o = (await call(client, 'search_parts', { where: WHERE, limit: 1 })).structuredContent as Out;
    const [t, v] = o.meta.filters;
    // Records whose torque is declared as a plain rated value: independently readable; the rest are unknown.
    // Unknowns are counted within the categories where some record declares the field (a sensor's torque is its measuring range, not torque_rated).
    const sensor = (e: E) => e.category === 'sensors' || /sensor|传感器/i.test(e.type ?? '');
    const tCats = new Set(entities.filter((e) => e.declared.torque !== undefined && !sensor(e)).map((e) => e.category));
    const vCats = new Set(entities.filter((e) => e.declared.voltage !== undefined).map((e) => e.category));
    const tRead = (e: E) => (sensor(e) ? null : torque(e));
    expect(t.unknown_excluded).toBe(clean.filter((e) => tCats.has(e.category) && tRead(e) === null).length);
    expect(t.not_applicable).toBe(clean.filter((e) => !tCats.has(e.category)).length);
    expect(t.matched).toBe(clean.filter((e) => (tRead(e)?.[0] ?? -1) >= 30).length);
    expect(v.unknown_excluded).toBe(clean.filter((e) => vCats.has(e.category) && voltage(e) === null).length);
    expect(v.matched).toBe(clean.filter((e) => { const x = voltage(e); return x !== null && x[0] <= 48 && x[1] >= 48; }).length);
    expect(t.matched + t.unknown_excluded + t.failed + t.not_applicable).toBe(clean.length);
  });

  it('q narrows with AND; category too; an undeclared value never matches (!= included)', async () => {
    const o = (await call(client, 'search_parts', { q: 'anydrive', where: WHERE })).structuredContent as Out;
    expect(ids(o)).toEqual(expectedSet(30).filter((id) => /anydrive/i.test(JSON.stringify(entities.find((e) => e.id === id)))));
    const ne = (await call(client, 'search_parts', { where: [{ field: 'voltage', op: '!=', value: '24 V' }], limit: 100 })).structuredContent as Out;
    for (const h of ne.data) expect(voltage(entities.find((e) => e.id === h.id)!) ?? 'declared-unread').not.toEqual([24, 24]);
    expect(ne.meta.filters[0].unknown_excluded + ne.meta.filters[0].not_applicable).toBeGreaterThan(600);
  });

  it('sort on a numeric field: descending order of the declared values, undeclared last', async () => {
    const o = (await call(client, 'search_parts', { where: 'torque_rated>=1 N·m', sort: '-torque_rated', limit: 100, fields: ['id', 'specs'] })).structuredContent as Out;
    const values = o.data.map((h) => torque(entities.find((e) => e.id === h.id)!)![1]);
    expect(values.length).toBeGreaterThan(5);
    expect(values).toEqual([...values].sort((a, b) => b - a));
    const asc = (await call(client, 'search_parts', { q: 'actuator', sort: 'mass', limit: 100 })).structuredContent as Out;
    expect(asc.meta.sort!.undeclared_last).toBeGreaterThan(0);
  });

  it('q is optional only with where; fields selects hit fields', async () => {
    expect(errorBody(await call(client, 'search_parts', {}))).toMatchObject({ code: 'invalid_input', field: 'q' });
    const o = (await call(client, 'search_parts', { where: WHERE, fields: ['name'] })).structuredContent as { data: Record<string, unknown>[] };
    for (const h of o.data) expect(Object.keys(h).sort()).toEqual(['id', 'name']);
  });
});

describe('bad where: invalid_input naming it and listing the valid ones', () => {
  const cases: [string, unknown, string, string][] = [
    ['unknown field', [{ field: 'torqe', op: '>=', value: '3 Nm' }], 'where.0.field', 'valid_fields'],
    ['unknown op', [{ field: 'torque_rated', op: '=>', value: '3 Nm' }], 'where.0.op', 'valid_ops'],
    ['op not for a set field', [{ field: 'bus', op: '>=', value: 'CAN' }], 'where.0.op', 'valid_ops'],
    ['unknown unit', [{ field: 'torque_rated', op: '>=', value: '3 furlong' }], 'where.0.value', 'valid_units'],
    ['unit of another quantity', [{ field: 'torque_rated', op: '>=', value: '48 V' }], 'where.0.value', 'valid_units'],
    ['no unit', [{ field: 'voltage', op: 'covers', value: '48' }], 'where.0.value', 'valid_units'],
    ['unknown set value', [{ field: 'bus', op: 'in', value: ['CAN', 'EtherKAT'] }], 'where.0.value.1', 'valid_values'],
    ['a list for a one-value op', [{ field: 'mass', op: '<', value: ['1 kg', '2 kg'] }], 'where.0.value', 'field'],
    ['unreadable compact clause', 'torque_rated about 3 Nm', 'where.0', 'valid_ops'],
  ];
  it.each(cases)('%s', async (_n, where, field, listed) => {
    const body = errorBody(await call(client, 'search_parts', { where }));
    if (field === 'where.0.field') expect(body.nearest).toBe('torque_rated');
    expect(body).toMatchObject({ code: 'invalid_input', field });
    expect(body[listed]).toBeDefined();
    const res = await fetch(`${url}/api/search?${new URLSearchParams({ where: typeof where === 'string' ? where : JSON.stringify(where) })}`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'invalid_input', field });
  });
  it('bad sort field names the numeric fields', async () => {
    const body = errorBody(await call(client, 'search_parts', { q: 'servo', sort: 'bus' }));
    expect(body).toMatchObject({ code: 'invalid_input', field: 'sort' });
    expect(body.valid_fields).toContain('torque_rated');
  });
});
