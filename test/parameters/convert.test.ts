import { describe, expect, it } from 'vitest';
import { compareParameters, convert } from '../../src/domain/parameters/index.js';
import { DomainError } from '../../src/domain/shared/errors.js';

describe('convert: exact conversions', () => {
  it.each([
    ['15 kgf·cm', 'Nm', '1.4709975 Nm', ['Nm = kgf_cm * 0.0980665']],
    ['1.4709975 Nm', 'kgf·cm', '15 kgf·cm', ['kgf_cm = Nm / 0.0980665']],
    ['3 arcmin', 'deg', '0.05 deg', ['deg = arcmin / 60']],
    ['0.05 deg', 'arcmin', '3 arcmin', ['arcmin = deg * 60']],
    ['12-bit', 'deg', '0.087890625 deg', ['deg_step = 360 / 2**bits']],
    ['12-bit', 'cpr', '4096 cpr', ['deg_step = 360 / 2**bits', 'cpr = 360 / deg_step']],
    ['0.5 kg', 'g', '500 g', ['g = kg * 1000']],
    ['82g', 'kg', '0.082 kg', ['kg = g / 1000']],
    ['1 Mbps', 'kbps', '1000 kbit/s', ['bit_s = Mbit_s * 1000000', 'kbit_s = bit_s / 1000']],
    ['12~24V', 'mV', '12000~24000 mV', ['mV = V * 1000']],
    ['60 rpm', 'rad/s', '6.28318530718 rad/s', ['rad_s = rpm * pi / 30']],
    ['0.11 sec/60°', 'rad/s', '9.51997773815 rad/s', ['rad_s = (pi/3) / t_sec']],
    ['0.11 sec/60°', 'rpm', '90.9090909091 rpm', ['rad_s = (pi/3) / t_sec', 'rpm = rad_s * 30 / pi']],
    ['60 rpm', 'deg/s', '360 deg/s', ['rad_s = rpm * pi / 30', 'deg_s = rad_s * 180 / pi']],
    ['60 rpm', 'sec/60deg', '0.166666666667 sec/60deg', ['rad_s = rpm * pi / 30', 't_sec = (pi/3) / rad_s']],
  ])('%s -> %s = %s', (value, to, text, formulas) => {
    const r = convert(value, to);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.text).toBe(text);
    expect(r.formulas).toEqual(formulas);
  });

  it('pi cancels between rpm and sec/60deg, so the result is an exact fraction', () => {
    const r = convert('0.11 sec/60°', 'rpm');
    expect(r.ok && r.fraction).toBe('1000/11');
    const s = convert('60 rpm', 'sec/60deg');
    expect(s.ok && s.fraction).toBe('1/6');
    const d = convert('60 rpm', 'deg/s');
    expect(d.ok && d.exact).toBe('360');
  });

  it('a π conversion has no exact decimal but the right number', () => {
    const r = convert('6.28 rad/s', 'rpm');
    expect(r.ok && r.exact).toBeNull();
    expect(r.ok && r.value).toBeCloseTo((6.28 * 30) / Math.PI, 12);
  });

  it('a data rate does not convert to an angular speed (KD-01)', () => {
    const r = convert('1 Mbps', 'rad/s');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toBe('different_quantity');
  });

  it('an unreadable value is not converted', () => {
    const r = convert('varies', 'Nm');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toBe('unrecognized');
  });

  it('an unknown target unit is an invalid_input error naming "to"', () => {
    try {
      convert('1 Nm', 'furlongs');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(DomainError);
      expect((e as DomainError).code).toBe('invalid_input');
      expect(JSON.stringify((e as DomainError).toBody())).toMatch(/"to"|to/);
    }
  });

  it('target units are case-sensitive: MNm is mega', () => {
    const r = convert('1.5 Nm', 'MNm');
    expect(r.ok && r.exact).toBe('0.0000015');
    const m = convert('1.5 Nm', 'mNm');
    expect(m.ok && m.exact).toBe('1500');
  });
});

describe('compareParameters: pair levels', () => {
  it('sec/60deg vs rad/s: units comparable after conversion (B), inverse ordering noted; C overall without conditions', () => {
    const r = compareParameters('0.11 sec/60°', '6.28 rad/s');
    expect(r.unit_axis.level).toBe('B');
    expect(r.level).toBe('C');
    expect(r.ordering_note).toMatch(/opposite order/);
    expect(r.si_relation).toBe('a_greater'); // 9.52 rad/s > 6.28 rad/s
  });

  it('sec/60deg vs rad/s with the same stated conditions: B', () => {
    const r = compareParameters('0.11 sec/60° @ 7.4V no load', '6.28 rad/s @ 7.4V no load');
    expect(r.level).toBe('B');
    expect(r.ordering_note).not.toBeNull();
  });

  it('two sec/60deg values: the smaller number is the faster one', () => {
    const r = compareParameters('0.11 sec/60°', '0.22 sec/60°');
    expect(r.si_relation).toBe('a_greater');
    expect(r.unit_axis.level).toBe('A');
  });

  it('different quantities: D', () => {
    const r = compareParameters('1 Mbps', '60 rpm');
    expect(r.level).toBe('D');
    expect(r.reason).toMatch(/KD-01/);
    expect(compareParameters('1.5 Nm', '82g').level).toBe('D');
  });

  it('unreadable side: D', () => {
    expect(compareParameters('3 arcmin', '未明确').level).toBe('D');
    expect(compareParameters('', '1 Nm').reason).toMatch(/a is not declared/);
  });

  it('repeatability vs absolute accuracy: D (RL-04)', () => {
    expect(compareParameters('±0.01 mm repeatability', '±0.1 mm absolute accuracy').level).toBe('D');
  });

  it('bare torques in N·m and kgf·cm: C (conditions missing), unit axis B', () => {
    const r = compareParameters('1.5 Nm', '15 kgf·cm');
    expect(r.level).toBe('C');
    expect(r.unit_axis.level).toBe('B');
    expect(r.condition_axis.missing_a).toEqual(['rating', 'voltage_v', 'measuring_end', 'temperature_c']);
    expect(r.si_relation).toBe('a_greater');
  });

  it('peak vs rated: C, conditions differ', () => {
    const r = compareParameters('peak 48 Nm', 'rated 20 Nm');
    expect(r.level).toBe('C');
    expect(r.condition_axis.differing).toEqual(['rating']);
  });

  it('fully stated torques: A in the same unit, B across units', () => {
    expect(compareParameters('rated 5 Nm @ 24V @ 25°C at output', 'rated 6 Nm @ 24V @ 25°C output').level).toBe('A');
    expect(compareParameters('rated 5 Nm @ 24V @ 25°C at output', 'rated 50 kgf·cm @ 24V @ 25°C at output').level).toBe('B');
    expect(compareParameters('rated 5 Nm @ 24V @ 25°C at output', 'rated 5 Nm @ 48V @ 25°C at output').level).toBe('C');
  });

  it('voltage ranges are A and their relation is reported', () => {
    const r = compareParameters('12~24V', '10.0~14.8V');
    expect(r.level).toBe('A');
    expect(r.si_relation).toBe('ranges_overlap');
    expect(compareParameters('48-400V', '10.0~14.8V').si_relation).toBe('a_greater');
  });

  it('an angle of unstated role vs a backlash: C (same dimension, role missing)', () => {
    const r = compareParameters('3 arcmin', '1 arcmin', { b: 'backlash' });
    expect(r.level).toBe('C');
    expect(r.condition_axis.missing_a).toEqual(['role']);
  });
});
