import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { renderBomCsv } from '../../src/domain/bom/csv.js';
import { adapterPlate, partTorque, structuralVerdict } from '../../src/domain/bom/print.js';
import { BomDocument, type AdapterPlateSuggestion } from '../../src/domain/bom/schema.js';
import type { StoredEntity } from '../../src/domain/catalogue/entity.js';
import { makeEntity } from '../support/factory.js';
import { exportBom, printRules } from './helpers.js';

const flanged = (id: string, flange: string, extra: Partial<StoredEntity> = {}) =>
  makeEntity({ id, type: 'joint_motor', mechanical_interface: { status: 'declared', mount_type: 'flange', flange }, ...extra });

const adapters = (doc: ReturnType<typeof exportBom>) => doc.print_suggestions.filter((p): p is AdapterPlateSuggestion => p.kind === 'adapter_plate');

describe('adapter plate for an adapter_required pair', () => {
  const a = flanged('ACT-A', 'ISO9409-1-A50-4-M6', { torque: '40 Nm' });
  const b = flanged('ACT-B', 'ISO9409-1-A63-6-M6', { torque: '12 Nm' });

  it('states both bolt patterns, material, thickness, clocking and a torque warning beyond the printed limit', () => {
    const doc = exportBom({ items: [{ id: 'ACT-A', quantity: 1 }, { id: 'ACT-B', quantity: 2 }], format: 'json' }, [a, b]);
    const [p] = adapters(doc);
    expect(adapters(doc)).toHaveLength(1);
    expect(p.side_a).toEqual({ designation: 'ISO9409-1-A50-4-M6', pcd_mm: 50, bolt_count: 4, thread: 'M6', clearance_hole_mm: 6.6 });
    expect(p.side_b).toEqual({ designation: 'ISO9409-1-A63-6-M6', pcd_mm: 63, bolt_count: 6, thread: 'M6', clearance_hole_mm: 6.6 });
    expect(p.blocking_dims).toEqual(['pcd_mm', 'bolt_count']);
    expect(p.parts_a).toEqual([{ line: 1, id: 'ACT-A' }]);
    expect(p.parts_b).toEqual([{ line: 2, id: 'ACT-B' }]);
    expect(p.material.recommended).toBe('PA-CF (carbon-fibre-filled nylon)');
    expect(p.material.avoid).toBe('PLA');
    expect(p.min_thickness_mm).toBe(12); // 2 x M6, above the 6 mm floor
    expect(p.min_outer_diameter_mm).toBe(87); // 63 + 4 x 6
    // hole circles 6.5 mm apart radially, 6.6 mm holes + 3 mm web needed: rotate by half of 360/lcm(4,6)
    expect(p).toMatchObject({ clock_patterns: true, clocking_deg: 15, patterns_fit: true });
    // rule of thumb: 5 MPa x 12 mm x (4 bolts x 6 mm x 25 mm) = 36 Nm on the weaker pattern
    expect(p.load).toMatchObject({ status: 'beyond_printed', declared_torque_nm: 40, printed_limit_nm: 36 });
    expect(p.load.evidence).toEqual(['ACT-A: torque "40 Nm"', 'ACT-B: torque "12 Nm"']);
    expect(p.load.rule).toMatch(/^Engineering rule of thumb/);
    expect(p.warnings).toEqual([
      'Declared torque 40 Nm (ACT-A) is beyond the 36 Nm a printed plate of this size should carry (rule of thumb): machine the adapter from aluminium or steel.',
    ]);
    expect(doc.items[0].print_suggestions).toEqual([p.id]);
    expect(doc.items[1].print_suggestions).toEqual([p.id]);
    expect(p.print_services!.map((s) => s.name)).toEqual(['JLC 3D', 'Shapeways']);
    expect(BomDocument.parse(JSON.parse(JSON.stringify(doc)))).toEqual(doc); // the output schema holds

    const rows = parse(renderBomCsv(doc, true), { columns: true, bom: true }) as Record<string, string>[];
    expect(rows[0].print_suggestions).toContain('ISO9409-1-A50-4-M6 (4xM6 on PCD 50 mm) to ISO9409-1-A63-6-M6 (6xM6 on PCD 63 mm)');
    expect(rows[0].print_suggestions).toContain('WARNING: Declared torque 40 Nm');
  });

  it('within the rule of thumb: no warning', () => {
    const light = flanged('ACT-A', 'ISO9409-1-A50-4-M6', { torque: '9.2 Nm' });
    const [p] = adapters(exportBom({ items: [{ id: 'ACT-A', quantity: 1 }, { id: 'ACT-B', quantity: 1 }] }, [light, b]));
    expect(p.load).toMatchObject({ status: 'within_rule_of_thumb', declared_torque_nm: 12, printed_limit_nm: 36 });
    expect(p.warnings).toEqual([]);
  });

  it('no declared torque: load unknown, said so', () => {
    const x = flanged('ACT-X', 'ISO9409-1-A20-4-M3');
    const y = flanged('ACT-Y', 'ISO9409-1-A31.5-4-M5');
    const [p] = adapters(exportBom({ items: [{ id: 'ACT-X', quantity: 1 }, { id: 'ACT-Y', quantity: 1 }] }, [x, y]));
    expect(p.blocking_dims).toEqual(['pcd_mm']);
    expect(p.min_thickness_mm).toBe(10);
    expect(p.load).toMatchObject({ status: 'unknown', declared_torque_nm: null, printed_limit_nm: 6 });
    expect(p.load.evidence).toEqual(['ACT-X: no torque declared', 'ACT-Y: no torque declared']);
    expect(p.warnings[0]).toMatch(/^No declared torque/);
  });

  it('reads a declared peak torque exactly and uses the highest value', () => {
    const r = flanged('ACT-P', 'ISO9409-1-A50-4-M6', { torque: '30 Nm', declared: { torque: '30 Nm', peak_torque: '90 Nm (peak)' } });
    expect(partTorque(1, 'ACT-P', r)).toEqual({
      line: 1,
      id: 'ACT-P',
      nm: 90,
      evidence: ['ACT-P: torque "30 Nm"', 'ACT-P: declared peak torque "90 Nm (peak)" = 90 Nm'],
    });
    const peakInTorque = flanged('ACT-T', 'ISO9409-1-A50-4-M6', { torque: '', declared: { torque: '48 Nm peak' } });
    expect(partTorque(3, 'ACT-T', peakInTorque)).toEqual({ line: 3, id: 'ACT-T', nm: 48, evidence: ['ACT-T: declared torque "48 Nm peak" = 48 Nm'] });
    const vague = flanged('ACT-V', 'ISO9409-1-A50-4-M6', { declared: { torque: 'high' } });
    expect(partTorque(2, 'ACT-V', vague)).toEqual({ line: 2, id: 'ACT-V', nm: null, evidence: ['ACT-V: declared torque "high" not exactly readable'] });
  });

  it('same designation, unregistered flanges and parts without a flange get no adapter', () => {
    const same = flanged('ACT-S', 'ISO9409-1-A50-4-M6');
    const odd = flanged('ACT-O', '50mm');
    const doc = exportBom({ items: [{ id: 'ACT-A', quantity: 1 }, { id: 'ACT-S', quantity: 1 }, { id: 'ACT-O', quantity: 1 }, { id: 'NONE', quantity: 1 }] }, [a, same, odd]);
    expect(adapters(doc)).toEqual([]);
  });

  it('one suggestion per designation pair, listing every part on each side', () => {
    const a2 = flanged('ACT-A2', 'ISO9409-1-A50-4-M6');
    const doc = exportBom({ items: [{ id: 'ACT-A', quantity: 1 }, { id: 'ACT-B', quantity: 1 }, { id: 'ACT-A2', quantity: 1 }] }, [a, b, a2]);
    const [p] = adapters(doc);
    expect(adapters(doc)).toHaveLength(1);
    expect(p.parts_a).toEqual([{ line: 1, id: 'ACT-A' }, { line: 3, id: 'ACT-A2' }]);
  });

  it('patterns that clash at any rotation are flagged', () => {
    const p = adapterPlate(printRules, {
      ruling: {
        pair: ['X-40-4-M6', 'Y-42-6-M8'],
        side_a: { pcd_mm: 40, bolt_count: 4, thread: 'M6' },
        side_b: { pcd_mm: 42, bolt_count: 6, thread: 'M8' },
        verdict: 'adapter_required',
        reason: 'test',
        adapter_required: true,
        adapter_available: true,
        fastener_note: null,
        blocking_dims: ['pcd_mm', 'bolt_count'],
      },
      parts_a: [],
      parts_b: [],
      torques: [],
    });
    expect(p.patterns_fit).toBe(false);
    expect(p.clocking_deg).toBeNull();
    expect(p.warnings[0]).toMatch(/cannot share one flat plate/);
  });
});

describe('structural parts', () => {
  it.each([
    [{ name: 'Hip bracket' }, null, true, 'name contains "bracket"'],
    [{ name: 'Leg link set' }, null, true, 'name contains "link set"'],
    [{ name: 'x' }, makeEntity({ id: 'S1', category: 'structural', type: 'link_set' }), true, 'catalogue type "link_set"'],
    [{ name: 'x', category: 'structural' }, null, true, 'category "structural"'],
    [{ name: 'x' }, makeEntity({ id: 'S2', category: 'structural', type: 'aluminum_extrusion' }), false, 'type "aluminum_extrusion" is a stock part'],
    [{ name: 'M3 screws', category: 'structural' }, null, false, '"screws" is a stock part'],
    [{ name: 'Motor mount', category: 'actuators' }, null, false, 'not a structural category'],
    [{ name: 'IMU' }, null, false, 'not recognised as a structural part'],
  ])('%j -> %s', (item, record, printable, reason) => {
    expect(structuralVerdict(printRules, item, record)).toEqual({ printable, reason });
  });

  it('export suggests printing structural lines with material and wall rule', () => {
    const doc = exportBom({ items: [{ id: 'BR-1', name: 'Shoulder bracket', quantity: 2 }, { id: 'M-1', name: 'Servo', category: 'actuators', quantity: 1 }], include_suppliers: false });
    expect(doc.print_suggestions).toEqual([
      {
        id: 'P1',
        kind: 'structural_part',
        lines: [1],
        part_ids: ['BR-1'],
        reason: 'name contains "bracket"',
        material: printRules.material,
        min_wall_mm: 3,
        rule_of_thumb: printRules.structural.rule,
      },
    ]);
    expect(doc.items.map((l) => l.print_suggestions)).toEqual([['P1'], []]);
  });
});
