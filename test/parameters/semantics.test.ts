import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { buildParameterSemantics, FIELDS_COVERED } from '../../src/domain/knowledge/semantics.js';
import { RED_LINES } from '../../src/domain/knowledge/redlines.js';
import { StoredEntity } from '../../src/domain/catalogue/entity.js';
import { lookupTargetUnit } from '../../src/domain/parameters/index.js';
import { makeEntity } from './factory.js';

const AT = '2026-01-02T03:04:05Z';

function fixture(): StoredEntity[] {
  return [
    makeEntity({ torque: '17 Nm', speed: '1 Mbps', weight: '0.5 kg', voltage: '24V', position_resolution: '14-bit' }),
    makeEntity({ torque: '9 Nm', speed: '6.3 rad/s', weight: '82g', voltage: '12~24V' }),
    makeEntity({ torque: '4.1 Nm @ 12V', speed: '0.11 sec/60° @ 7.4V' }),
    makeEntity({ torque: '未明确', speed: 'varies', voltage: 'N/A' }),
    makeEntity({ torque: 'varies (up to 50 Nm)', speed: '10 Gbps' }, { category: 'flexible_actuators' }),
    makeEntity({}, { category: 'chips', type: 'sbc' }),
    makeEntity({ speed: '60 rpm' }, { category: 'protocols', quarantine: true, quarantine_reason: 'test' }),
  ];
}

describe('buildParameterSemantics', () => {
  const reg = buildParameterSemantics(fixture(), { generatedAt: AT });

  it('has every top-level key of the spec', () => {
    expect(Object.keys(reg)).toEqual([
      'meta',
      'scope',
      'comparability_levels',
      'unit_conversions',
      'red_lines',
      'industry_evidence',
      'known_defects',
      'buyer_checklist',
      'citation',
    ]);
    for (const k of ['name', 'description', 'version', 'generated_at', 'neutrality_statement', 'epistemic_status', 'self_disclosure', 'access', 'license', 'attribution']) {
      expect(reg.meta).toHaveProperty(k);
    }
    expect(reg.meta.version).toBe('1.0.0');
    expect(reg.meta.generated_at).toBe(AT);
    expect(reg.meta.license).toBe('CC BY 4.0');
    expect(reg.meta.attribution).toBe('Data: RoboParts (https://roboparts.cc), CC BY 4.0');
    expect(reg.citation.license).toBe('CC BY 4.0');
    expect(reg.citation.recommended_form).toContain(AT);
    expect(reg.buyer_checklist).toHaveLength(7);
    expect(reg.known_defects.map((k) => [k.id, k.field, k.status])).toEqual([
      ['KD-01', 'speed', 'acknowledged'],
      ['KD-02', 'torque', 'acknowledged'],
    ]);
    expect(reg.red_lines.map((r) => r.id)).toEqual(RED_LINES.map((r) => r.id));
    expect(reg.comparability_levels.map((l) => l.level)).toEqual(['A', 'B', 'C', 'D']);
  });

  it('scope is computed', () => {
    expect(reg.scope).toMatchObject({
      entities_scanned: 7,
      actuator_class_entities: 5,
      quarantined_in_scan: 1,
      fields_covered: ['torque', 'speed', 'weight', 'voltage', 'position_resolution'],
    });
  });

  it('industry evidence counts and notations are computed', () => {
    const t = reg.industry_evidence.by_field.torque;
    expect(t).toMatchObject({ declared_count: 5, absent_count: 2, recognized_count: 3, distinct_notations: 4 });
    expect(t.top_notations).toEqual([
      { notation: '<n> Nm', count: 2 },
      { notation: '<n> Nm @ <n>V', count: 1 },
      { notation: 'varies (up to <n> Nm)', count: 1 },
      { notation: '未明确', count: 1 },
    ]);
    expect(t.notation_entropy_note).toMatch(/^5 declared torque values use 4 distinct notations/);
    // "N/A" is a not-declared placeholder.
    expect(reg.industry_evidence.by_field.voltage).toMatchObject({ declared_count: 2, absent_count: 5, distinct_notations: 2 });
    expect(reg.industry_evidence.by_field.speed).toMatchObject({ declared_count: 6, absent_count: 1 });
    expect(reg.industry_evidence.by_field.position_resolution.top_notations).toEqual([{ notation: '<n>-bit', count: 1 }]);
    for (const f of FIELDS_COVERED) {
      const ev = reg.industry_evidence.by_field[f];
      expect(ev.declared_count + ev.absent_count).toBe(7);
    }
  });

  it('dialect breakdown for speed separates data rates from angular speeds', () => {
    const rows = Object.fromEntries(reg.industry_evidence.dialect_breakdown.speed.map((r) => [r.dialect, r]));
    expect(rows['speed.comm.bps']).toMatchObject({ count: 2, quantity: 'data_rate', cross_vendor_comparable: true });
    expect(rows['speed.ang.rad_s']).toMatchObject({ count: 1, quantity: 'angular_speed', cross_vendor_comparable: false });
    expect(rows['speed.servo.sec_deg']).toMatchObject({ count: 1, quantity: 'angular_speed' });
    expect(rows['speed.ang.rpm']).toMatchObject({ count: 1 });
    expect(rows['speed.qualitative']).toMatchObject({ count: 1, quantity: 'none' });
    expect(rows['absent']).toMatchObject({ count: 1 });
    expect(rows['unrecognized']).toMatchObject({ count: 0, quantity: 'unknown' });
    const comparable = reg.industry_evidence.dialect_breakdown.speed.filter((r) => r.cross_vendor_comparable).map((r) => r.dialect);
    expect(comparable).toEqual(['speed.comm.bps']);
    const sum = reg.industry_evidence.dialect_breakdown.speed.reduce((s, r) => s + r.count, 0);
    expect(sum).toBe(7);
  });

  it('dialect breakdown for torque lists the spec dialects', () => {
    const rows = Object.fromEntries(reg.industry_evidence.dialect_breakdown.torque.map((r) => [r.dialect, r.count]));
    expect(rows).toEqual({
      absent: 2,
      'torque.nm.bare': 2,
      'torque.nm.at_voltage': 1,
      'torque.qualitative': 1,
      unrecognized: 1,
    });
  });

  it('known defects carry the computed numbers', () => {
    expect(reg.known_defects[0].problem).toContain('data rates (2 values');
    expect(reg.known_defects[0].problem).toContain('angular speeds (3 values');
    expect(reg.known_defects[1].problem).toContain('declared for 5 of 7 entities, in 4 notations; 3 of them');
  });

  it('observed comparability levels are computed from the declared values', () => {
    const obs = Object.fromEntries(reg.comparability_levels.map((l) => [l.level, l.observed_in_catalogue]));
    // A: 1 Mbps, 10 Gbps, 12~24V. C: 3 torques, 2 angular speeds... D: qualitative and unrecognized.
    expect(obs).toEqual({ A: 3, B: 0, C: 10, D: 3 });
    const mech = Object.fromEntries(reg.comparability_levels.map((l) => [l.level, l.observed_in_mechanical_values]));
    expect(mech.A).toBe(0);
  });

  it('counts change when the catalogue changes', () => {
    const more = [
      ...fixture(),
      makeEntity({ torque: '15 kgf·cm', speed: '100 Mbps', weight: '1.1 kg' }),
      makeEntity({ torque: '2 Nm', voltage: '48-400V' }),
    ];
    const reg2 = buildParameterSemantics(more, { generatedAt: AT });
    expect(reg2.scope.entities_scanned).toBe(9);
    expect(reg2.scope.actuator_class_entities).toBe(7);
    expect(reg2.industry_evidence.by_field.torque).toMatchObject({ declared_count: 7, absent_count: 2, distinct_notations: 5 });
    expect(reg2.industry_evidence.by_field.torque.top_notations[0]).toEqual({ notation: '<n> Nm', count: 3 });
    const bps = reg2.industry_evidence.dialect_breakdown.speed.find((r) => r.dialect === 'speed.comm.bps');
    expect(bps?.count).toBe(3);
    const kgf = reg2.industry_evidence.dialect_breakdown.torque.find((r) => r.dialect === 'torque.kgf_cm');
    expect(kgf?.count).toBe(1);
    const fewer = buildParameterSemantics(fixture().slice(0, 2), { generatedAt: AT });
    expect(fewer.industry_evidence.by_field.speed).toMatchObject({ declared_count: 2, absent_count: 0 });
    expect(fewer.known_defects[0].problem).toContain('data rates (1 values');
  });

  it('is deterministic for the same input', () => {
    expect(JSON.stringify(buildParameterSemantics(fixture(), { generatedAt: AT }))).toBe(
      JSON.stringify(buildParameterSemantics(fixture(), { generatedAt: AT })),
    );
  });

  it('unit conversion formulas are the ones the converter applies', () => {
    const unitOf: Record<string, string> = {
      rpm: 'rpm',
      'sec/60deg': 'sec/60deg',
      'kgf·cm': 'kgf·cm',
      arcmin: 'arcmin',
      'bit (single-turn encoder)': 'bit',
    };
    expect(reg.unit_conversions.map((c) => c.from)).toEqual(Object.keys(unitOf));
    for (const c of reg.unit_conversions) {
      expect(lookupTargetUnit(unitOf[c.from])?.formula).toBe(c.formula);
      expect(c.exact).toBe(true);
    }
  });

  it('reads the shipped catalogue: every covered field adds up and KD-01 is visible', () => {
    const file = path.resolve('data/catalogue/entities.json');
    if (!fs.existsSync(file)) return;
    const entities = (JSON.parse(fs.readFileSync(file, 'utf8')) as { entities: unknown[] }).entities.map((e) => StoredEntity.parse(e));
    const r = buildParameterSemantics(entities, { generatedAt: AT });
    expect(r.scope.entities_scanned).toBe(entities.length);
    for (const f of FIELDS_COVERED) {
      const ev = r.industry_evidence.by_field[f];
      expect(ev.declared_count + ev.absent_count).toBe(entities.length);
      expect(ev.declared_count).toBe(entities.filter((e) => e.declared[f] !== undefined && !['N/A', ''].includes(e.declared[f]!.trim())).length);
    }
    const rows = r.industry_evidence.dialect_breakdown.speed;
    expect(rows.find((x) => x.dialect === 'speed.comm.bps')!.count).toBeGreaterThan(0);
    expect(rows.find((x) => x.dialect === 'speed.ang.rad_s')!.count).toBeGreaterThan(0);
  });
});
