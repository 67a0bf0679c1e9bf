import { describe, expect, it } from 'vitest';
import { parseParameter, notationOf, type ParsedParameter } from '../../src/domain/parameters/index.js';

type Row = {
  input: string;
  hint?: Parameters<typeof parseParameter>[1];
  quantity: ParsedParameter['quantity'];
  dialect: string;
  unit: string;
  /** exact decimal of the SI value, or the number when pi is involved */
  value?: string | number;
  range?: [string, string];
  formula?: string | null;
  computation?: string;
  condition?: Partial<ParsedParameter['condition']>;
  level: 'A' | 'B' | 'C' | 'D';
  qualifier?: ParsedParameter['qualifier'];
};

const PI = Math.PI;

// Every notation the issue lists, with exact expected values.
const ROWS: Row[] = [
  { input: '1.5 Nm', quantity: 'torque', dialect: 'torque.nm.bare', unit: 'Nm', value: '1.5', formula: null, level: 'C' },
  { input: '1.5N·m', quantity: 'torque', dialect: 'torque.nm.bare', unit: 'Nm', value: '1.5', formula: null, level: 'C' },
  {
    input: '15 kgf·cm', quantity: 'torque', dialect: 'torque.kgf_cm', unit: 'Nm', value: '1.4709975',
    formula: 'Nm = kgf_cm * 0.0980665', computation: '15 * 0.0980665 = 1.4709975', level: 'C',
  },
  {
    input: '15kg.cm', quantity: 'torque', dialect: 'torque.kgf_cm', unit: 'Nm', value: '1.4709975',
    formula: 'Nm = kgf_cm * 0.0980665', computation: '15 * 0.0980665 = 1.4709975', level: 'C',
  },
  { input: 'peak 48 Nm', quantity: 'torque', dialect: 'torque.nm.peak', unit: 'Nm', value: '48', condition: { rating: 'peak' }, level: 'C' },
  { input: '4.1 Nm @ 12V', quantity: 'torque', dialect: 'torque.nm.at_voltage', unit: 'Nm', value: '4.1', condition: { voltage_v: 12 }, level: 'C' },
  {
    input: '0.11 sec/60°', quantity: 'angular_speed', dialect: 'speed.servo.sec_deg', unit: 'rad/s', value: PI / 3 / 0.11,
    formula: 'rad_s = (pi/3) / t_sec', level: 'C',
  },
  {
    input: '0.11s/60deg @ 7.4V', quantity: 'angular_speed', dialect: 'speed.servo.sec_deg', unit: 'rad/s', value: PI / 3 / 0.11,
    formula: 'rad_s = (pi/3) / t_sec', condition: { voltage_v: 7.4 }, level: 'C',
  },
  { input: '60 rpm', quantity: 'angular_speed', dialect: 'speed.ang.rpm', unit: 'rad/s', value: 2 * PI, formula: 'rad_s = rpm * pi / 30', level: 'C' },
  { input: '6.28 rad/s', quantity: 'angular_speed', dialect: 'speed.ang.rad_s', unit: 'rad/s', value: '6.28', formula: null, level: 'C' },
  { input: '1 Mbps', quantity: 'data_rate', dialect: 'speed.comm.bps', unit: 'bit/s', value: '1000000', level: 'A' },
  { input: '82g', quantity: 'mass', dialect: 'weight.g', unit: 'kg', value: '0.082', formula: 'kg = g / 1000', level: 'C' },
  { input: '0.5 kg', quantity: 'mass', dialect: 'weight.kg', unit: 'kg', value: '0.5', formula: null, level: 'C' },
  { input: '12~24V', quantity: 'voltage', dialect: 'voltage.range', unit: 'V', range: ['12', '24'], level: 'A' },
  { input: '24 VDC', quantity: 'voltage', dialect: 'voltage.single', unit: 'V', value: '24', condition: { current: 'DC' }, level: 'C' },
  {
    input: '12-bit', quantity: 'position_resolution', dialect: 'position_resolution.bits', unit: 'deg', value: '0.087890625',
    formula: 'deg_step = 360 / 2**bits', computation: '360 / 2**12 = 0.087890625', level: 'C',
  },
  {
    input: '4096 cpr', quantity: 'position_resolution', dialect: 'position_resolution.cpr', unit: 'deg', value: '0.087890625',
    formula: 'deg_step = 360 / cpr', level: 'C',
  },
  { input: '3 arcmin', quantity: 'angle', dialect: 'angle.arcmin', unit: 'deg', value: '0.05', formula: 'deg = arcmin / 60', level: 'C' },
  {
    input: '3 arcmin', hint: 'backlash', quantity: 'backlash', dialect: 'backlash.arcmin', unit: 'deg', value: '0.05',
    formula: 'deg = arcmin / 60', computation: '3 / 60 = 0.05', level: 'C',
  },
  {
    input: '±0.01 mm repeatability', quantity: 'accuracy', dialect: 'accuracy.length', unit: 'm', value: '0.00001',
    condition: { accuracy_kind: 'repeatability' }, qualifier: 'plus_minus', level: 'A',
  },
  // SI prefixes are case-sensitive.
  { input: '1.5 mNm', quantity: 'torque', dialect: 'torque.nm.bare', unit: 'Nm', value: '0.0015', formula: 'Nm = mNm / 1000', level: 'C' },
  { input: '1.5 MNm', quantity: 'torque', dialect: 'torque.nm.bare', unit: 'Nm', value: '1500000', formula: 'Nm = MNm * 1000000', level: 'C' },
  // Real catalogue notations.
  { input: '3.5 Nm continuous', quantity: 'torque', dialect: 'torque.nm.rated', unit: 'Nm', value: '3.5', condition: { rating: 'continuous' }, level: 'C' },
  { input: '0.005 ~ 13 Nm', quantity: 'torque', dialect: 'torque.nm.range', unit: 'Nm', range: ['0.005', '13'], level: 'C' },
  { input: '16.6 N·m', quantity: 'torque', dialect: 'torque.nm.bare', unit: 'Nm', value: '16.6', level: 'C' },
  { input: '0.222 sec/60° @ 12V', quantity: 'angular_speed', dialect: 'speed.servo.sec_deg', unit: 'rad/s', value: PI / 3 / 0.222, condition: { voltage_v: 12 }, level: 'C' },
  { input: '4780 rpm', quantity: 'angular_speed', dialect: 'speed.ang.rpm', unit: 'rad/s', value: (4780 * PI) / 30, level: 'C' },
  { input: '230.4 Kbps', quantity: 'data_rate', dialect: 'speed.comm.bps', unit: 'bit/s', value: '230400', level: 'A' },
  { input: '10 Gbps', quantity: 'data_rate', dialect: 'speed.comm.bps', unit: 'bit/s', value: '10000000000', level: 'A' },
  { input: '1 Mbps max', quantity: 'data_rate', dialect: 'speed.comm.bps', unit: 'bit/s', value: '1000000', qualifier: 'up_to', level: 'C' },
  { input: 'up to 5 Mbps', quantity: 'data_rate', dialect: 'speed.comm.bps', unit: 'bit/s', value: '5000000', qualifier: 'up_to', level: 'C' },
  { input: '100 Mbps - 1 Gbps', quantity: 'data_rate', dialect: 'speed.comm.bps', unit: 'bit/s', range: ['100000000', '1000000000'], level: 'A' },
  { input: '2.1 kg', quantity: 'mass', dialect: 'weight.kg', unit: 'kg', value: '2.1', level: 'C' },
  { input: '~1.0kg', quantity: 'mass', dialect: 'weight.kg', unit: 'kg', value: '1', qualifier: 'approximately', level: 'C' },
  { input: '48-400V', quantity: 'voltage', dialect: 'voltage.range', unit: 'V', range: ['48', '400'], level: 'A' },
  { input: '10.0~14.8V', quantity: 'voltage', dialect: 'voltage.range', unit: 'V', range: ['10', '14.8'], level: 'A' },
  { input: '48V DC', quantity: 'voltage', dialect: 'voltage.single', unit: 'V', value: '48', condition: { current: 'DC' }, level: 'C' },
  { input: '14-bit', quantity: 'position_resolution', dialect: 'position_resolution.bits', unit: 'deg', value: '0.02197265625', level: 'C' },
  { input: '14-bit encoder', quantity: 'position_resolution', dialect: 'position_resolution.bits', unit: 'deg', value: '0.02197265625', level: 'C' },
  {
    input: '≤10 arcsec', hint: 'accuracy', quantity: 'accuracy', dialect: 'accuracy.angle', unit: 'deg', value: 10 / 3600,
    qualifier: 'at_most', level: 'C',
  },
  { input: '0.5% F.S.', hint: 'accuracy', quantity: 'accuracy', dialect: 'accuracy.percent_fs', unit: '%FS', value: '0.5', level: 'C' },
  { input: 'gripping force 25-250N', hint: 'torque', quantity: 'force', dialect: 'force.n', unit: 'N', range: ['25', '250'], level: 'C' },
  {
    input: 'rated 5 Nm @ 24V @ 25°C at output', quantity: 'torque', dialect: 'torque.nm.at_voltage', unit: 'Nm', value: '5',
    condition: { rating: 'rated', voltage_v: 24, temperature_c: 25, measuring_end: 'output' }, level: 'A',
  },
  {
    input: 'rated 50 kgf·cm @ 24V @ 25°C at output', quantity: 'torque', dialect: 'torque.kgf_cm.at_voltage', unit: 'Nm', value: '4.903325',
    condition: { rating: 'rated', voltage_v: 24, temperature_c: 25, measuring_end: 'output' }, level: 'B',
  },
  { input: '48 Nm', hint: 'peak_torque', quantity: 'torque', dialect: 'torque.nm.peak', unit: 'Nm', value: '48', condition: { rating: 'peak' }, level: 'C' },
];

describe('parseParameter: notations read exactly', () => {
  it.each(ROWS.map((r) => [r.input + (r.hint ? ` [${r.hint}]` : ''), r] as const))('%s', (_name, r) => {
    const p = parseParameter(r.input, r.hint);
    expect(p.recognized).toBe(true);
    expect(p.input).toBe(r.input);
    expect(p.quantity).toBe(r.quantity);
    expect(p.dialect).toBe(r.dialect);
    expect(p.si?.unit).toBe(r.unit);
    if (typeof r.value === 'string') {
      expect(p.si?.exact).toBe(r.value);
      expect(p.si?.value).toBe(Number(r.value));
    } else if (typeof r.value === 'number') {
      expect(p.si?.exact).toBeNull();
      expect(p.si?.value).toBeCloseTo(r.value, 12);
    }
    if (r.range) {
      expect(p.si?.value).toBeNull();
      expect([p.si?.range?.exact_min, p.si?.range?.exact_max]).toEqual(r.range);
    }
    if (r.formula !== undefined) expect(p.conversion?.formula ?? null).toBe(r.formula);
    if (r.computation) expect(p.conversion?.computation).toBe(r.computation);
    expect(p.condition).toMatchObject(r.condition ?? {});
    for (const [k, v] of Object.entries(p.condition)) if (!(r.condition && k in r.condition)) expect([k, v]).toEqual([k, null]);
    expect(p.qualifier).toBe(r.qualifier ?? null);
    expect(p.comparability.level).toBe(r.level);
  });
});

describe('parseParameter: the spec formulas', () => {
  it('rpm -> rad/s = rpm * pi / 30', () => {
    for (const rpm of [1, 30, 60, 3000, 6000]) {
      expect(parseParameter(`${rpm} rpm`).si?.value).toBeCloseTo((rpm * Math.PI) / 30, 9);
    }
  });
  it('sec/60deg -> rad/s = (pi/3) / t, and is inverse: smaller seconds is faster', () => {
    const fast = parseParameter('0.11 sec/60°');
    const slow = parseParameter('0.22 sec/60°');
    expect(fast.si?.value).toBeCloseTo(9.519977738150889, 12);
    expect(slow.si?.value).toBeCloseTo(4.759988869075444, 12);
    // Raw numbers order 0.11 < 0.22, speeds order the other way.
    expect(fast.si!.value!).toBeGreaterThan(slow.si!.value!);
    expect(fast.conversion?.inverse).toBe(true);
    expect(fast.conversion?.note).toMatch(/opposite order/);
  });
  it('kgf·cm -> Nm * 0.0980665 exactly', () => {
    expect(parseParameter('1 kgf·cm').si?.exact).toBe('0.0980665');
    expect(parseParameter('25.5 kg·cm').si?.exact).toBe('2.50069575');
    expect(parseParameter('200 kgf.cm').si?.exact).toBe('19.6133');
  });
  it('arcmin -> deg / 60', () => {
    expect(parseParameter('1 arcmin', 'backlash').si?.exact).toBe(null); // 1/60 does not terminate
    expect(parseParameter('1 arcmin', 'backlash').si?.value).toBeCloseTo(1 / 60, 15);
    expect(parseParameter('6 arcmin', 'backlash').si?.exact).toBe('0.1');
    expect(parseParameter('1.5 arcmin', 'backlash').si?.exact).toBe('0.025');
  });
  it('bits -> deg step 360 / 2^bits', () => {
    expect(parseParameter('10-bit').si?.exact).toBe('0.3515625');
    expect(parseParameter('19-bit').si?.exact).toBe('0.0006866455078125');
    expect(parseParameter('20 bits').si?.exact).toBe('0.00034332275390625');
    expect(parseParameter('12-bit').conversion?.note).toMatch(/not positioning accuracy/);
  });
});

describe('parseParameter: what it does not read', () => {
  it.each([
    ['', 'absent'],
    ['   ', 'absent'],
    ['未明确', 'qualitative'],
    ['varies', 'qualitative'],
    ['1 Mbps (BLE)', 'unrecognized'],
    ['Up to 450 N·m peak torque per joint', 'unrecognized'],
    ['360 N·m maximum (arm joint)', 'unrecognized'],
    ['varies (up to 50 Nm)', 'unrecognized'],
    ['4096', 'unrecognized'],
    ['0.5', 'unrecognized'],
    ['0.05-0.3s', 'unrecognized'],
    ['24V (valve)', 'unrecognized'],
    ['14-58 V (14S)', 'unrecognized'],
    ['8/16 GT/s per lane', 'unrecognized'],
    ['1.5 nm', 'unrecognized'], // not N·m: lowercase is nanometre with no role -> length; see below
    ['1.5 NM', 'unrecognized'],
    ['1.5 mbps', 'unrecognized'],
    ['0.5% F.S.', 'unrecognized'],
    ['48-12V', 'unrecognized'],
    ['0 sec/60°', 'unrecognized'],
    ['12.5-bit', 'unrecognized'],
    ['4.1 Nm repeatability', 'unrecognized'],
    ['peak rated 4 Nm', 'unrecognized'],
    ['1e3 rpm', 'unrecognized'],
    ['1,5 Nm', 'unrecognized'],
  ])('%j -> %s', (input, dialect) => {
    const p = parseParameter(input);
    if (input === '1.5 nm') {
      // "nm" is the nanometre (case-sensitive): a length, never a torque.
      expect(p.quantity).toBe('length');
      expect(p.si?.exact).toBe('0.0000000015');
      return;
    }
    expect(p.dialect).toBe(dialect);
    expect(p.recognized).toBe(false);
    expect(p.quantity).toBeNull();
    expect(p.si).toBeNull();
    expect(p.comparability.level).toBe('D');
  });

  it('a qualitative value names the field family when the hint gives one', () => {
    expect(parseParameter('高扭矩密度', 'torque').dialect).toBe('torque.qualitative');
    expect(parseParameter('varies', 'speed').dialect).toBe('speed.qualitative');
    expect(parseParameter('classified', 'weight').dialect).toBe('weight.qualitative');
  });

  it('non-string inputs do not throw', () => {
    expect(parseParameter(undefined).dialect).toBe('absent');
    expect(parseParameter(null).dialect).toBe('absent');
    expect(parseParameter(0.5).dialect).toBe('unrecognized');
    expect(parseParameter({ toString: () => { throw new Error('x'); } }).dialect).toBe('unrecognized');
  });

  it('a very long input is refused quickly, not scanned', () => {
    const p = parseParameter(`1${' '.repeat(100_000)}~`);
    expect(p.dialect).toBe('unrecognized');
    expect(p.notes[0]).toMatch(/longer than 200/);
  });

  it('"N/A" is a not-declared placeholder', () => {
    expect(parseParameter('N/A').dialect).toBe('absent');
    expect(parseParameter(' n/a ').dialect).toBe('absent');
  });

  it('Chinese angle units', () => {
    const p = parseParameter('≤1 弧分', 'backlash');
    expect(p).toMatchObject({ quantity: 'backlash', dialect: 'backlash.arcmin', qualifier: 'at_most' });
    expect(p.si?.value).toBeCloseTo(1 / 60, 15);
  });

  it('a data rate in a speed field is flagged (KD-01)', () => {
    const p = parseParameter('1 Gbps', 'speed');
    expect(p.quantity).toBe('data_rate');
    expect(p.notes.join(' ')).toMatch(/KD-01/);
  });
});

describe('notationOf', () => {
  it.each([
    ['4.1 Nm @ 12V', '<n> Nm @ <n>V'],
    ['0.11 sec/60°', '<n> sec/60°'],
    ['12~24V', '<n>~<n>V'],
    ['14-bit', '<n>-bit'],
    ['  82g ', '<n>g'],
    ['未明确', '未明确'],
  ])('%j -> %j', (a, b) => expect(notationOf(a)).toBe(b));
});
