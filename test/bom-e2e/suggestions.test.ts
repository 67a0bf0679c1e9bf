/**
 * Supplier suggestions (shipped catalogue and registry) and 3D-print adapter plate suggestions
 * (synthetic flanged parts: the shipped catalogue declares no registered flange), over REST.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdapterPlateSuggestion } from '../../src/domain/bom/schema.js';
import { makeEntity } from '../support/factory.js';
import { bearer, newKey, parseCsv, post, startRealServer, startSyntheticServer, type Server } from './helpers.js';

type Suggestion = { name: string; url: string; kind: string; basis: string; matched: string };
type Line = { id: string; suppliers?: { official_stores: Suggestion[]; distributors: Suggestion[]; notes: string[] }; print_suggestions: string[] };

describe('supplier suggestions (shipped catalogue, data/suppliers.json)', () => {
  let srv: Server;
  let key: string;
  beforeAll(async () => {
    srv = await startRealServer();
    key = await newKey(srv.deps, 'suppliers');
  });
  afterAll(async () => {
    await srv.stop();
  });

  const items = [
    { id: 'ACT-001', price: 19.99, quantity: 2 }, // ROBOTIS in the catalogue record
    { id: 'OWN-1', manufacturer: 'Nonexistent Motor Works', price: 5, quantity: 1 },
    { id: 'OWN-2', manufacturer: 'ROBOTIS', name: 'spare horn', price: 1, quantity: 4 },
  ];

  it('JSON (include_suppliers defaults to true): the ROBOTIS official store for a ROBOTIS part; nothing invented for an unknown maker', async () => {
    const r = await post(`${srv.url}/api/bom/export`, { items, format: 'json' }, bearer(key));
    expect(r.status).toBe(200);
    const lines = (r.json as { items: Line[] }).items;
    expect(lines[0].suppliers!.official_stores).toEqual([
      { name: 'ROBOTIS', url: 'https://www.robotis.com/', kind: 'manufacturer', basis: 'manufacturer', matched: 'ROBOTIS' },
    ]);
    // the catalogue category brings general channels, labelled as category matches
    expect(lines[0].suppliers!.distributors.length).toBeGreaterThan(0);
    expect(lines[0].suppliers!.distributors.every((d) => d.basis === 'category' || d.basis === 'keyword')).toBe(true);
    expect(lines[0].suppliers!.distributors.every((d) => d.kind !== 'manufacturer')).toBe(true);
    // an unknown manufacturer gets no official store, and the line says why
    expect(lines[1].suppliers!.official_stores).toEqual([]);
    expect(lines[1].suppliers!.notes.join(' ')).toContain('Nonexistent Motor Works');
    // the caller's own manufacturer name is matched too
    expect(lines[2].suppliers!.official_stores.map((s) => s.url)).toEqual(['https://www.robotis.com/']);
    for (const l of lines) {
      for (const s of [...l.suppliers!.official_stores, ...l.suppliers!.distributors]) expect(s.url).toMatch(/^https?:\/\//);
    }
  });

  it('CSV: supplier columns filled for the ROBOTIS line', async () => {
    const r = await post(`${srv.url}/api/bom/export`, { items }, bearer(key));
    const rows = parseCsv(r.bytes);
    expect(Object.keys(rows[0])).toEqual(expect.arrayContaining(['official_stores', 'distributors', 'supplier_notes']));
    expect(rows[0].official_stores).toBe('ROBOTIS https://www.robotis.com/');
    expect(rows[1].official_stores).toBe('');
    expect(rows[2].official_stores).toBe('ROBOTIS https://www.robotis.com/');
  });

  it('include_suppliers false: no supplier columns in CSV, no suppliers in JSON', async () => {
    const csv = await post(`${srv.url}/api/bom/export`, { items, include_suppliers: false }, bearer(key));
    expect(csv.status).toBe(200);
    const rows = parseCsv(csv.bytes);
    for (const col of ['official_stores', 'distributors', 'supplier_notes']) expect(Object.keys(rows[0])).not.toContain(col);
    expect(csv.bytes.toString('utf8')).not.toContain('robotis.com');
    const json = await post(`${srv.url}/api/bom/export`, { items, include_suppliers: false, format: 'json' }, bearer(key));
    const lines = (json.json as { items: Line[] }).items;
    expect(lines.every((l) => !('suppliers' in l))).toBe(true);
  });
});

describe('3D-print adapter plate for two registered flanges (synthetic parts)', () => {
  const flanged = (id: string, flange: string, torque: string) =>
    makeEntity({ id, type: 'joint_motor', manufacturer: 'Synthetic Joints', torque, mechanical_interface: { status: 'declared', mount_type: 'flange', flange } });
  const entities = [
    flanged('JNT-A50', 'ISO9409-1-A50-4-M6', '60 Nm'),
    flanged('JNT-A63', 'ISO9409-1-A63-6-M6', '20 Nm'),
    flanged('JNT-A63B', 'ISO9409-1-A63-6-M6', '8 Nm'),
  ];
  let srv: Server;
  let key: string;
  beforeAll(async () => {
    srv = await startSyntheticServer(entities);
    key = await newKey(srv.deps, 'print');
  });
  afterAll(async () => {
    await srv.stop();
  });

  const items = [
    { id: 'JNT-A50', price: 300, quantity: 2 },
    { id: 'OWN-cable', price: 2.5, quantity: 10 },
    { id: 'jnt-a63', price: 250, quantity: 2 },
    { id: 'JNT-A63B', price: 120, quantity: 1 },
  ];

  it('JSON: one adapter plate stating both bolt patterns, material, thickness and the torque warning', async () => {
    const r = await post(`${srv.url}/api/bom/export`, { items, format: 'json' }, bearer(key));
    expect(r.status).toBe(200);
    const doc = r.json as { items: Line[]; print_suggestions: Record<string, unknown>[] };
    const plates = doc.print_suggestions.filter((p) => p.kind === 'adapter_plate');
    expect(plates).toHaveLength(1);
    const p = plates[0] as unknown as AdapterPlateSuggestion;
    expect(p.side_a).toEqual({ designation: 'ISO9409-1-A50-4-M6', pcd_mm: 50, bolt_count: 4, thread: 'M6', clearance_hole_mm: 6.6 });
    expect(p.side_b).toEqual({ designation: 'ISO9409-1-A63-6-M6', pcd_mm: 63, bolt_count: 6, thread: 'M6', clearance_hole_mm: 6.6 });
    expect(p.parts_a).toEqual([{ line: 1, id: 'JNT-A50' }]);
    expect(p.parts_b).toEqual([
      { line: 3, id: 'jnt-a63' },
      { line: 4, id: 'JNT-A63B' },
    ]);
    expect(p.material).toMatchObject({ recommended: 'PA-CF (carbon-fibre-filled nylon)', avoid: 'PLA' });
    expect(p.min_thickness_mm).toBe(12);
    expect(p.load).toMatchObject({ status: 'beyond_printed', declared_torque_nm: 60, printed_limit_nm: 36 });
    expect(p.load.evidence).toEqual(['JNT-A50: torque "60 Nm"', 'JNT-A63: torque "20 Nm"', 'JNT-A63B: torque "8 Nm"']);
    expect(p.warnings).toEqual([
      'Declared torque 60 Nm (JNT-A50) is beyond the 36 Nm a printed plate of this size should carry (rule of thumb): machine the adapter from aluminium or steel.',
    ]);
    expect(p.rule_of_thumb).toMatch(/rule of thumb/i);
    // the lines concerned point at the suggestion; the cable does not
    expect(doc.items.map((l) => l.print_suggestions)).toEqual([[p.id], [], [p.id], [p.id]]);
  });

  it('CSV: the print_suggestions cell of each flanged line states both patterns, material, thickness and the warning', async () => {
    const r = await post(`${srv.url}/api/bom/export`, { items }, bearer(key));
    const rows = parseCsv(r.bytes);
    for (const i of [0, 2, 3]) {
      const cell = rows[i].print_suggestions;
      expect(cell).toContain('ISO9409-1-A50-4-M6 (4xM6 on PCD 50 mm) to ISO9409-1-A63-6-M6 (6xM6 on PCD 63 mm)');
      expect(cell).toContain('PA-CF (carbon-fibre-filled nylon), >= 12 mm thick');
      expect(cell).toContain('WARNING: Declared torque 60 Nm (JNT-A50) is beyond the 36 Nm');
    }
    expect(rows[1].print_suggestions).toBe('');
  });

  it('the same flange on every part: no adapter plate', async () => {
    const r = await post(`${srv.url}/api/bom/export`, { items: [items[2], items[3]], format: 'json' }, bearer(key));
    const doc = r.json as { print_suggestions: Record<string, unknown>[] };
    expect(doc.print_suggestions.filter((p) => p.kind === 'adapter_plate')).toEqual([]);
  });
});
