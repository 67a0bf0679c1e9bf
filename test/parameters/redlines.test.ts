import { describe, expect, it } from 'vitest';
import { RED_LINES, screenEntity, type RedLineId, type RedLineResult } from '../../src/domain/knowledge/redlines.js';
import type { DeclaredParams } from '../../src/domain/catalogue/entity.js';
import { makeEntity } from './factory.js';

function line(declared: DeclaredParams, id: RedLineId): RedLineResult {
  return screenEntity(makeEntity(declared)).red_lines.find((r) => r.id === id)!;
}

describe('screenEntity', () => {
  it('returns all six red lines in order, with a summary and the screening note', () => {
    const s = screenEntity(makeEntity({}, { id: 'TEST-EMPTY' }));
    expect(s.id).toBe('TEST-EMPTY');
    expect(s.red_lines.map((r) => r.id)).toEqual(['RL-01', 'RL-02', 'RL-03', 'RL-04', 'RL-05', 'RL-06']);
    expect(s.summary).toEqual({ fires: 0, does_not_fire: 0, cannot_evaluate: 6 });
    expect(s.note).toMatch(/manual review/);
  });
});

describe('RL-01 torque density', () => {
  it.each([
    // torque, weight, status, severity, ratio
    ['17 Nm', '0.1 kg', 'fires', 'review', 170],
    ['120 Nm', '0.5 kg', 'fires', 'not_credible', 240],
    ['9.2 Nm @ 12V', '82g', 'does_not_fire', null, 112.2],
    ['25 Nm', '120g', 'fires', 'not_credible', 208.3],
    ['1.5 MNm', '1 kg', 'fires', 'not_credible', 1500000], // mega, read as written: flagged, not corrected
    ['1.5 mNm', '1 kg', 'does_not_fire', null, 0.0015],
    ['4.1 Nm @ 12V', '82g', 'does_not_fire', null, 50],
    ['15 kgf·cm', '60g', 'does_not_fire', null, 24.52],
    ['60 Nm', '0.5 kg', 'does_not_fire', null, 120], // exactly 120 is not above 120
  ] as const)('%s / %s -> %s', (torque, weight, status, severity, ratio) => {
    const r = line({ torque, weight }, 'RL-01');
    expect(r.status).toBe(status);
    expect(r.severity).toBe(severity);
    expect(r.numbers.ratio_nm_per_kg).toBeCloseTo(ratio, 1);
  });

  it('exact numbers behind it', () => {
    const r = line({ torque: '17 Nm', weight: '0.5 kg' }, 'RL-01');
    expect(r.numbers).toEqual({ rated_torque_nm: 17, mass_kg: 0.5, ratio_nm_per_kg: 34 });
    expect(r.status).toBe('does_not_fire');
  });

  it('cannot be evaluated, naming what is missing', () => {
    expect(line({ torque: '17 Nm' }, 'RL-01')).toMatchObject({ status: 'cannot_evaluate', missing: ['weight'] });
    expect(line({ weight: '1.1 kg' }, 'RL-01')).toMatchObject({ status: 'cannot_evaluate', missing: ['torque'] });
    expect(line({ torque: 'varies', weight: '~1.0kg' }, 'RL-01')).toMatchObject({ status: 'cannot_evaluate', missing: ['torque', 'weight'] });
    const peak = line({ torque: 'peak 48 Nm', weight: '0.2 kg' }, 'RL-01');
    expect(peak.status).toBe('cannot_evaluate');
    expect(peak.reason).toMatch(/peak/);
  });
});

describe('RL-02 peak / rated', () => {
  it.each([
    ['20 Nm', '50 Nm', 'does_not_fire', null, 2.5],
    ['20 Nm', '60 Nm', 'does_not_fire', null, 3],
    ['16 Nm', '120 Nm', 'fires', 'instantaneous', 7.5],
    ['30 Nm', '120 Nm', 'fires', 'review', 4],
    ['rated 48 Nm', '120 Nm', 'does_not_fire', null, 2.5],
  ] as const)('rated %s, peak %s -> %s', (torque, peak_torque, status, severity, ratio) => {
    const r = line({ torque, peak_torque }, 'RL-02');
    expect(r.status).toBe(status);
    expect(r.severity).toBe(severity);
    expect(r.numbers.ratio).toBe(ratio);
  });

  it('cannot be evaluated without both values', () => {
    expect(line({ torque: '20 Nm' }, 'RL-02')).toMatchObject({ status: 'cannot_evaluate', missing: ['peak_torque'] });
    expect(line({ peak_torque: '50 Nm' }, 'RL-02')).toMatchObject({ status: 'cannot_evaluate', missing: ['torque'] });
    // A torque field that itself says peak gives no rated value.
    expect(line({ torque: 'peak 48 Nm' }, 'RL-02')).toMatchObject({ status: 'cannot_evaluate', missing: ['torque'] });
    expect(line({ torque: '0.005 ~ 13 Nm', peak_torque: '50 Nm' }, 'RL-02')).toMatchObject({ status: 'cannot_evaluate', missing: ['torque'] });
  });
});

describe('RL-03 backlash load condition', () => {
  it('fires when backlash has no measurement load', () => {
    const r = line({ backlash: '3 arcmin' }, 'RL-03');
    expect(r.status).toBe('fires');
    expect(r.numbers).toEqual({ backlash_arcmin: 3, load: null });
    expect(r.ask_vendor.join(' ')).toMatch(/measurement torque/);
  });
  it('fires on a number without a unit, and on qualitative text', () => {
    expect(line({ backlash: '1' }, 'RL-03')).toMatchObject({ status: 'fires', numbers: { backlash_arcmin: null, load: null } });
    expect(line({ backlash: 'near-zero' }, 'RL-03').status).toBe('fires');
  });
  it('does not fire when the load is stated', () => {
    const r = line({ backlash: '1 arcmin @ 2 Nm' }, 'RL-03');
    expect(r.status).toBe('does_not_fire');
    expect(r.numbers).toEqual({ backlash_arcmin: 1, load: '2 Nm' });
    expect(line({ backlash: '10 arcsec at 3% rated torque' }, 'RL-03').numbers.backlash_arcmin).toBe(0.166667);
  });
  it('cannot be evaluated when absent', () => {
    expect(line({}, 'RL-03')).toMatchObject({ status: 'cannot_evaluate', missing: ['backlash'] });
  });
});

describe('RL-04 repeatability vs absolute accuracy', () => {
  it.each([
    ['±0.01 mm repeatability', 'does_not_fire', 'repeatability'],
    ['repeatability ±0.02 mm (ISO 9283)', 'does_not_fire', 'repeatability'],
    ['±0.1 mm absolute accuracy', 'does_not_fire', 'absolute'],
    ['±0.2 mm', 'fires', null],
    ['sub-mm', 'fires', null],
    ['repeatability 0.02 mm, absolute accuracy 0.5 mm', 'fires', 'both named'],
  ] as const)('%s -> %s', (accuracy, status, kind) => {
    const r = line({ accuracy }, 'RL-04');
    expect(r.status).toBe(status);
    expect(r.numbers.accuracy_kind).toBe(kind);
  });
  it('cannot be evaluated when absent', () => {
    expect(line({}, 'RL-04')).toMatchObject({ status: 'cannot_evaluate', missing: ['accuracy'] });
  });
});

describe('RL-05 IP rating scope', () => {
  it.each([
    ['IP67', 'fires', 'IP67', null],
    ['IP65 (output shaft)', 'fires', 'IP65', 'output end'],
    ['IP54 whole module', 'does_not_fire', 'IP54', 'whole unit'],
    ['IP69K', 'fires', 'IP69K', null],
    ['waterproof (vendor-stated)', 'fires', null, null],
  ] as const)('%s -> %s', (ip_rating, status, code, scope) => {
    const r = line({ ip_rating }, 'RL-05');
    expect(r.status).toBe(status);
    expect(r.numbers).toEqual({ ip_code: code, scope });
  });
  it('cannot be evaluated when absent', () => {
    expect(line({}, 'RL-05')).toMatchObject({ status: 'cannot_evaluate', missing: ['ip_rating'] });
  });
});

describe('RL-06 resolution presented as accuracy', () => {
  it('fires when the accuracy is an encoder notation', () => {
    const r = line({ accuracy: '14-bit' }, 'RL-06');
    expect(r.status).toBe('fires');
    expect(line({ accuracy: '12-bit encoder, 0.088 deg' }, 'RL-06').status).toBe('fires');
  });
  it('fires when the accuracy equals the encoder step', () => {
    const r = line({ position_resolution: '12-bit', accuracy: '0.088°' }, 'RL-06');
    expect(r.status).toBe('fires');
    expect(r.numbers).toEqual({ resolution_step_deg: 0.087890625, accuracy_deg: 0.088 });
  });
  it('does not fire for a real accuracy, or for a resolution alone', () => {
    expect(line({ position_resolution: '12-bit', accuracy: '0.5°' }, 'RL-06').status).toBe('does_not_fire');
    const only = line({ position_resolution: '14-bit' }, 'RL-06');
    expect(only.status).toBe('does_not_fire');
    expect(only.numbers.resolution_step_deg).toBe(0.02197265625);
  });
  it('cannot be evaluated when neither is declared', () => {
    expect(line({}, 'RL-06')).toMatchObject({ status: 'cannot_evaluate', missing: ['position_resolution', 'accuracy'] });
  });
});

describe('red line definitions', () => {
  it('six, each with our own name, physics, common_trick and how_to_verify texts', () => {
    expect(RED_LINES.map((r) => r.id)).toEqual(['RL-01', 'RL-02', 'RL-03', 'RL-04', 'RL-05', 'RL-06']);
    for (const r of RED_LINES) {
      for (const k of ['name', 'check', 'threshold', 'physics', 'common_trick', 'how_to_verify'] as const) {
        expect(r[k].length).toBeGreaterThan(10);
        expect(r[k]).not.toMatch(/[\u4e00-\u9fff]/); // English, written here
      }
    }
  });
});
