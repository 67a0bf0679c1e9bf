import { describe, expect, it } from 'vitest';
import { specShapedFields, voltageRange } from '../../src/domain/parameters/index.js';

describe('specShapedFields', () => {
  it.each([
    ['10.0~14.8V', '10.0~14.8V'],
    ['12~24V', '12~24V'],
    ['12-24V', '12~24V'],
    ['48-400V', '48~400V'],
    ['24V', '24~24V'],
    ['24 VDC', '24~24V'],
    ['21.6V', '21.6~21.6V'],
    ['24V (valve)', 'N/A'],
    ['classified', 'N/A'],
    ['pneumatic', 'N/A'],
    ['220 VAC', 'N/A'],
    ['48-12V', 'N/A'],
  ])('voltage %s -> %s', (v, want) => {
    expect(specShapedFields({ voltage: v }).voltage).toBe(want);
  });

  it.each([
    ['82g', '82g'],
    ['0.5 kg', '500g'],
    ['2.1 kg', '2100g'],
    ['1.0kg', '1000g'],
    ['4.3kg', '4300g'],
    ['~1.0kg', 'N/A'],
    ['0.5', 'N/A'],
    ['varies', 'N/A'],
  ])('weight %s -> %s', (v, want) => {
    expect(specShapedFields({ weight: v }).weight).toBe(want);
  });

  it.each([
    ['1.5 Nm', '1.5 Nm'],
    ['1.5N·m', '1.5 Nm'],
    ['15 kgf·cm', '1.4709975 Nm'],
    ['15kg.cm', '1.4709975 Nm'],
    ['4.1 Nm @ 12V', '4.1 Nm'],
    ['3.5 Nm continuous', '3.5 Nm'],
    ['peak 48 Nm', ''],
    ['Up to 450 N·m peak torque per joint', ''],
    ['未明确', ''],
    ['varies (up to 50 Nm)', ''],
  ])('torque %s -> %s', (v, want) => {
    expect(specShapedFields({ torque: v }).torque).toBe(want);
  });

  it('absent declarations give the spec placeholders', () => {
    expect(specShapedFields({})).toEqual({ voltage: 'N/A', weight: 'N/A', torque: '' });
  });
});

describe('voltageRange', () => {
  it.each([
    ['12~24V', { min: 12, max: 24 }],
    ['24V', { min: 24, max: 24 }],
    ['10.0~14.8V', { min: 10, max: 14.8 }],
    ['pneumatic', null],
    ['24~24V', { min: 24, max: 24 }], // the spec shape of a nominal voltage reads back
    ['N/A', null],
    ['220 VAC', null],
    ['up to 100 V', null],
  ])('%s', (v, want) => {
    expect(voltageRange(v)).toEqual(want);
  });
});

describe('spec shapes read back to themselves', () => {
  it.each([
    [{ voltage: '24V', weight: '0.5 kg', torque: '15 kgf·cm' }],
    [{ voltage: '10.0~14.8V', weight: '82g', torque: '4.1 Nm @ 12V' }],
    [{ voltage: '48-400V', weight: '2.1 kg', torque: '1.5 mNm' }],
  ])('%j', (declared) => {
    const once = specShapedFields(declared);
    expect(specShapedFields(once)).toEqual(once);
  });
});
