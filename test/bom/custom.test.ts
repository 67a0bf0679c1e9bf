/**
 * User-declared parts (issue 42, part 2) and costs per currency (part 3), through the domain:
 * custom items checked by the same engines as catalogue parts, the no-host finding, totals per
 * currency, price ranges never turned into totals. Expected values come from the data files and
 * the test's own cents arithmetic, never from the functions under test.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { bomCheckEngines, checkBom, parseBomCheckRequest, toCheckParts, type BomCheckResult } from '../../src/domain/bom/check.js';
import { customEntity, validateCustomItems } from '../../src/domain/bom/custom.js';
import { isCostedExport, recordLookup } from '../../src/domain/bom/export.js';
import { parseBomExportRequest, type BomExportRequestInput } from '../../src/domain/bom/schema.js';
import { renderBomCsv } from '../../src/domain/bom/csv.js';
import type { StoredEntity } from '../../src/domain/catalogue/entity.js';
import { DomainError } from '../../src/domain/shared/errors.js';
import { readBusTable } from '../../src/store/datasets.js';
import { makeEntity } from '../support/factory.js';
import { DATA_DIR, exportBom, flanges } from './helpers.js';

const buses = readBusTable(DATA_DIR);
const engines = bomCheckEngines({ flanges, buses });
const catalogue = (JSON.parse(readFileSync(path.join(DATA_DIR, 'catalogue/entities.json'), 'utf8')) as { entities: StoredEntity[] }).entities;
const busFile = JSON.parse(readFileSync(path.join(DATA_DIR, 'buses.json'), 'utf8')) as { bridges: { id: string; name: string; sides: string[][]; host_side: number }[] };
const lookup = recordLookup(catalogue);

const LAPTOP = { custom: { name: 'Laptop', role: 'host', buses: ['USB'] }, quantity: 1 };
const check = (items: unknown[]): BomCheckResult => {
  const req = parseBomCheckRequest({ items });
  validateCustomItems(req.items, { buses, flanges });
  return checkBom(toCheckParts(req.items, lookup), engines);
};
const kinds = (r: BomCheckResult) => r.findings.map((f) => f.kind);

/** The DomainError a call throws. */
function failure(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
  throw new Error('expected a DomainError');
}

/** Integer cents of a decimal text with at most 2 decimals (the test's own arithmetic). */
const cents = (t: string) => {
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(t);
  if (!m) throw new Error(`not cents: ${t}`);
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
};

describe('the data the acceptance case rests on', () => {
  it('ACT-002 is a TTL / RS-485 DYNAMIXEL that lists U2D2; buses.json has the U2D2 bridge USB (host) to TTL / RS-485', () => {
    const act = catalogue.find((e) => e.id === 'ACT-002')!;
    expect(act.name_en).toBe('DYNAMIXEL XM430-W350-T');
    expect(act.interfaces).toEqual(['TTL', 'RS485']);
    expect(act.deep.compatibility).toContain('U2D2');
    const u2d2 = busFile.bridges.find((b) => b.id === 'robotis_u2d2')!;
    expect(u2d2.name).toContain('U2D2');
    expect(u2d2.sides).toEqual([['usb'], ['ttl_serial', 'rs485']]);
    expect(u2d2.host_side).toBe(0);
  });
});

describe('check_bom with user-declared parts (domain)', () => {
  it('a USB laptop as host and six ACT-002: the U2D2 bridge is named; the laptop is marked source user', () => {
    const r = check([LAPTOP, { id: 'ACT-002', quantity: 6 }]);
    expect(r.parts.map((p) => [p.id, p.source, p.quantity, p.role?.role])).toEqual([
      ['user:Laptop', 'user', 1, 'host'],
      ['ACT-002', 'catalogue', 6, 'actuator'],
    ]);
    expect(r.parts[0].catalogue_id).toBeNull();
    const bridge = r.findings.filter((f) => f.kind === 'bridge_required');
    expect(bridge).toHaveLength(1);
    expect(bridge[0].message).toContain('U2D2');
    expect(bridge[0].parts.map((p) => p.id).sort()).toEqual(['ACT-002', 'user:Laptop']);
    expect(bridge[0].detail.adapters).toEqual([expect.stringContaining('U2D2')]);
    expect(kinds(r)).not.toContain('no_host');
    expect(r.connections.hosts).toEqual([{ host: 'user:Laptop', devices: [{ id: 'ACT-002', buses: [], via: expect.stringContaining('U2D2') }] }]);
  });

  it('the same laptop without USB (Ethernet only) reaches no DYNAMIXEL: not a U2D2 case', () => {
    const r = check([{ custom: { name: 'Laptop', role: 'host', buses: ['Ethernet'] }, quantity: 1 }, { id: 'ACT-002', quantity: 6 }]);
    expect(r.findings.filter((f) => f.kind === 'bridge_required' && f.message.includes('U2D2'))).toEqual([]);
  });

  it('a set without a host gets the no-host finding instead of "No problem found"', () => {
    const r = check([{ id: 'ACT-002', quantity: 6 }]);
    const f = r.findings.filter((x) => x.kind === 'no_host');
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ severity: 'warning', dimension: 'communication', message: 'No computer in the set: nothing checks how the devices are reached.' });
    expect(f[0].parts.map((p) => p.id)).toEqual(['ACT-002']);
    expect(r.connections.statement).not.toMatch(/^No problem found/);
    expect(r.summary.warnings).toBeGreaterThanOrEqual(1);
  });

  it('custom actuators and sensors without a host also get it; a custom host removes it; passive parts alone need none', () => {
    expect(kinds(check([{ custom: { name: 'Bracket servo', role: 'actuator', buses: ['CAN'] }, quantity: 2 }, { custom: { name: 'IMU', role: 'sensor', buses: ['CAN'] }, quantity: 1 }]))).toContain('no_host');
    expect(kinds(check([{ custom: { name: 'PC', role: 'host', buses: ['CAN'] }, quantity: 1 }, { custom: { name: 'Bracket servo', role: 'actuator', buses: ['CAN'] }, quantity: 2 }]))).not.toContain('no_host');
    expect(kinds(check([{ custom: { name: 'Bracket', role: 'structure' }, quantity: 4 }]))).not.toContain('no_host');
  });

  it('supply rails: a 19 V custom host and the 10.0-14.8 V ACT-002 need two rails (read from the declarations)', () => {
    const r = check([{ custom: { name: 'NUC', role: 'host', buses: ['USB'], voltage_v: { min: 19, max: 19 } }, quantity: 1 }, { id: 'ACT-002', quantity: 6 }]);
    const rails = r.findings.find((f) => f.kind === 'voltage_rails')!;
    expect(rails.parts.map((p) => p.id)).toEqual(['user:NUC', 'ACT-002']);
    expect(rails.detail.ranges).toEqual({ 'user:NUC': { min: 19, max: 19 }, 'ACT-002': { min: 10, max: 14.8 } });
    // A 12 V custom host shares the servos' rail: no rails finding.
    expect(kinds(check([{ custom: { name: 'SBC', role: 'host', buses: ['USB'], voltage_v: { min: 12, max: 12 } }, quantity: 1 }, { id: 'ACT-002', quantity: 6 }]))).not.toContain('voltage_rails');
  });

  it('flanges: two custom parts with different registered patterns need an adapter plate; the same pattern needs none', () => {
    const arm = (name: string, flange: string) => ({ custom: { name, role: 'other', flange }, quantity: 1 });
    const r = check([arm('Wrist', 'ISO9409-1-A50-4-M6'), arm('Gripper', 'ISO9409-1-A63-6-M6')]);
    const f = r.findings.filter((x) => x.kind === 'flange_adapter');
    expect(f).toHaveLength(1);
    expect(f[0].parts.map((p) => p.id)).toEqual(['user:Wrist', 'user:Gripper']);
    expect(kinds(check([arm('Wrist', 'ISO9409-1-A50-4-M6'), arm('Gripper', 'ISO9409-1-A50-4-M6')]))).not.toContain('flange_adapter');
  });

  it('absent declarations stay absent: a custom part without buses or voltage is listed as unknown, never as fine', () => {
    const r = check([LAPTOP, { custom: { name: 'Mystery motor', role: 'actuator' }, quantity: 1 }]);
    const unknown = r.findings.filter((f) => f.kind === 'unknown_dimension' && f.dimension === 'communication');
    expect(unknown.flatMap((f) => f.parts.map((p) => p.id))).toContain('user:Mystery motor');
    const e = customEntity({ name: 'X', role: 'actuator' });
    expect([e.voltage, e.weight, e.interfaces, e.mechanical_interface.flange]).toEqual(['N/A', 'N/A', [], null]);
    expect(customEntity({ name: 'X', role: 'actuator', mass_kg: 0.082 }).weight).toBe('82g');
  });
});

describe('custom items: bad input names the field and the fix', () => {
  const cases: [string, unknown, string, RegExp][] = [
    ['unknown bus', { items: [{ custom: { name: 'PC', role: 'host', buses: ['USB', 'FireWire'] }, quantity: 1 }] }, 'items.0.custom.buses.1', /data\/buses\.json.*USB/],
    ['unregistered flange', { items: [{ custom: { name: 'Wrist', role: 'other', flange: 'M6 x4' }, quantity: 1 }] }, 'items.0.custom.flange', /ISO9409-1-A50-4-M6/],
    ['id and custom', { items: [{ id: 'ACT-002', custom: { name: 'PC', role: 'host' }, quantity: 1 }] }, 'items.0.id', /not both/],
    ['neither', { items: [{ quantity: 1 }] }, 'items.0.id', /custom/],
    ['unknown role', { items: [{ custom: { name: 'PC', role: 'computer' }, quantity: 1 }] }, 'items.0.custom.role', /./],
    ['min above max', { items: [{ custom: { name: 'PC', role: 'host', voltage_v: { min: 24, max: 12 } }, quantity: 1 }] }, 'items.0.custom.voltage_v.min', /min must not exceed max/],
    ['currency', { items: [{ custom: { name: 'PC', role: 'host', price: { amount: 1, currency: 'usd' } }, quantity: 1 }] }, 'items.0.custom.price.currency', /ISO 4217/],
    ['negative mass', { items: [{ custom: { name: 'PC', role: 'host', mass_kg: -1 }, quantity: 1 }] }, 'items.0.custom.mass_kg', /kilograms/],
    ['unknown key', { items: [{ custom: { name: 'PC', role: 'host', colour: 'red' }, quantity: 1 }] }, 'items.0.custom', /./],
    ['role beside custom', { items: [{ custom: { name: 'PC', role: 'host' }, role: 'host', quantity: 1 }] }, 'items.0.role', /custom\.role/],
    ['one name, two parts', { items: [{ custom: { name: 'PC', role: 'host', buses: ['USB'] }, quantity: 1 }, { custom: { name: 'pc', role: 'host', buses: ['CAN'] }, quantity: 1 }] }, 'items.1.custom.name', /different names/],
  ];
  it.each(cases)('check_bom: %s', (_n, body, field, message) => {
    const e = failure(() => validateCustomItems(parseBomCheckRequest(body).items, { buses, flanges }));
    expect(e.code).toBe('invalid_input');
    expect(e.details.field).toBe(field);
    expect(e.message).toMatch(message);
  });

  it('export_bom: price and name go inside custom', () => {
    for (const [k, v] of [['price', 3], ['name', 'PC']] as const) {
      const e = failure(() => parseBomExportRequest({ items: [{ custom: { name: 'PC', role: 'host' }, [k]: v, quantity: 1 }] }));
      expect(e.details.field).toBe(`items.0.${k}`);
      expect(e.message).toContain(`custom`);
    }
  });

  it('the same name twice with the same declaration is one part (checked once, both lines listed)', () => {
    const r = check([LAPTOP, { id: 'ACT-002', quantity: 3 }, LAPTOP]);
    expect(r.parts.map((p) => p.id)).toEqual(['user:Laptop', 'ACT-002', 'user:Laptop']);
    expect(r.findings.filter((f) => f.kind === 'bridge_required')).toHaveLength(1);
  });
});

describe('export: costs per currency', () => {
  const rows = (csv: string) => parse(csv, { columns: true, bom: true }) as Record<string, string>[];

  it('mixed currencies: one total per currency from the source rows, never summed; total_cost null', () => {
    const items: BomExportRequestInput['items'] = [
      { id: 'ACT-002', price: 49.9, quantity: 6 },
      { custom: { name: 'Laptop', role: 'host', buses: ['USB'], price: { amount: 899.99, currency: 'USD' } }, quantity: 1 },
      { custom: { name: 'Bracket', role: 'structure', price: { amount: 12.5, currency: 'CNY' } }, quantity: 4 },
      { custom: { name: 'Cable', role: 'other', price: { amount: 3.3, currency: 'USD' } }, quantity: 3 },
      { custom: { name: 'Mystery', role: 'other' }, quantity: 1 },
    ];
    const doc = exportBom({ items, currency: 'EUR', format: 'json', project_name: 'Arm' }, catalogue);
    // Independent: cents per currency from the request rows.
    const expected = new Map<string, number>();
    const add = (cur: string, price: number, q: number) => expected.set(cur, (expected.get(cur) ?? 0) + cents(String(price)) * q);
    add('EUR', 49.9, 6);
    add('USD', 899.99, 1);
    add('CNY', 12.5, 4);
    add('USD', 3.3, 3);
    expect(doc.metadata.totals_by_currency.map((g) => [g.currency, cents(g.total_text), g.lines])).toEqual([
      ['EUR', expected.get('EUR'), [1]],
      ['USD', expected.get('USD'), [2, 4]],
      ['CNY', expected.get('CNY'), [3]],
    ]);
    expect(doc.metadata.total_cost).toBeNull();
    expect(doc.metadata.total_cost_text).toBeNull();
    expect(doc.metadata.currency).toBeNull();
    expect(doc.metadata.unpriced_lines).toEqual([5]);
    expect(doc.items.map((l) => [l.id, l.source, l.currency])).toEqual([
      ['ACT-002', 'catalogue', 'EUR'],
      ['user:Laptop', 'user', 'USD'],
      ['user:Bracket', 'user', 'CNY'],
      ['user:Cable', 'user', 'USD'],
      ['user:Mystery', 'user', null],
    ]);
    const csv = rows(renderBomCsv(doc, false));
    const totals = csv.filter((r) => r.row_type === 'total');
    expect(totals.map((r) => [r.currency, cents(r.line_total)])).toEqual([...expected.entries()]);
    for (const t of totals) expect(t.price_note).toContain('not summed with the other currencies');
    // Each currency's total row is the sum of that currency's item rows (read back from the CSV).
    for (const t of totals) {
      const mine = csv.filter((r) => r.row_type === 'item' && r.currency === t.currency);
      expect(mine.reduce((a, r) => a + cents(r.line_total), 0)).toBe(cents(t.line_total));
    }
    expect(csv.filter((r) => r.row_type === 'item').map((r) => r.source)).toEqual(['catalogue', 'user', 'user', 'user', 'user']);
  });

  it('a catalogue price_range is shown as a range with "currency not stated" and never becomes a total', () => {
    const act = catalogue.find((e) => e.id === 'ACT-002')!;
    expect(act.price_range).toBe('0-100');
    const doc = exportBom({ items: [{ id: 'ACT-002', quantity: 6 }], format: 'csv' }, catalogue);
    expect(doc.items[0].catalogue.price_range).toBe('0-100');
    expect(doc.items[0].unit_price).toBeNull();
    expect(doc.metadata.totals_by_currency).toEqual([]);
    expect(doc.metadata.total_cost).toBeNull();
    const csv = rows(renderBomCsv(doc, false));
    expect(csv[0].catalogue_price_range).toBe('0-100 (currency not stated)');
    const total = csv.find((r) => r.row_type === 'total')!;
    expect([total.line_total, total.currency, total.price_note]).toEqual(['', '', 'no line has a price: no total']);
  });

  it('one currency keeps the single total (and its currency)', () => {
    const doc = exportBom({ items: [{ custom: { name: 'A', role: 'other', price: { amount: 0.1, currency: 'USD' } }, quantity: 1 }, { custom: { name: 'B', role: 'other', price: { amount: 0.2, currency: 'USD' } }, quantity: 1 }], format: 'json' });
    expect([doc.metadata.total_cost_text, doc.metadata.currency]).toEqual(['0.3', 'USD']);
  });

  it('a costed export is one with a priced line (own price or custom price); reference prices and ranges do not count', () => {
    const req = (items: unknown[]) => parseBomExportRequest({ items });
    expect(isCostedExport(req([{ id: 'ACT-002', quantity: 6 }, { custom: { name: 'PC', role: 'host' }, quantity: 1 }]))).toBe(false);
    expect(isCostedExport(req([{ id: 'ACT-002', price: null, quantity: 6 }]))).toBe(false);
    expect(isCostedExport(req([{ id: 'ACT-002', price: 0, quantity: 6 }]))).toBe(true);
    expect(isCostedExport(req([{ custom: { name: 'PC', role: 'host', price: { amount: 500, currency: 'EUR' } }, quantity: 1 }]))).toBe(true);
  });

  it('a custom part with a flange takes part in the adapter plate suggestions like a catalogue part', () => {
    const doc = exportBom({
      items: [
        { custom: { name: 'Wrist', role: 'actuator', flange: 'ISO9409-1-A50-4-M6' }, quantity: 1 },
        { custom: { name: 'Gripper', role: 'actuator', flange: 'ISO9409-1-A63-6-M6' }, quantity: 1 },
      ],
      format: 'json',
    });
    const plates = doc.print_suggestions.filter((p) => p.kind === 'adapter_plate');
    expect(plates).toHaveLength(1);
    expect(plates[0].kind === 'adapter_plate' && [plates[0].side_a.designation, plates[0].side_b.designation]).toEqual(['ISO9409-1-A50-4-M6', 'ISO9409-1-A63-6-M6']);
  });

  it('an unread id with a synthetic record stays not_found', () => {
    const doc = exportBom({ items: [{ id: 'NOPE-1', price: 1, quantity: 1 }], format: 'json' }, [makeEntity({ id: 'OTHER' })]);
    expect(doc.items[0].source).toBe('not_found');
  });
});
