import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { formatMinorUnits, parsePlans, toMinorUnits } from '../../src/domain/payments/plans.js';
import { loadPlans } from '../../src/store/datasets.js';
import { DomainError } from '../../src/domain/shared/errors.js';

const DATA = path.resolve(import.meta.dirname, '../../data');

describe('plans', () => {
  const plans = loadPlans(DATA);

  it('ships starter 9 CNY / 500, pro 29 / 2000, lifetime 199 / 9999', () => {
    expect(plans.plans).toEqual([
      { plan: 'starter', price: 9, amountMinor: 900, currency: 'CNY', credits: 500 },
      { plan: 'pro', price: 29, amountMinor: 2900, currency: 'CNY', credits: 2000 },
      { plan: 'lifetime', price: 199, amountMinor: 19900, currency: 'CNY', credits: 9999 },
    ]);
  });

  it('require(): unknown plan -> invalid_input naming the field and the choices', () => {
    expect(plans.require('pro').credits).toBe(2000);
    try {
      plans.require('free');
      expect.unreachable();
    } catch (e) {
      expect((e as DomainError).code).toBe('invalid_input');
      expect((e as DomainError).details.field).toBe('plan');
      expect((e as DomainError).message).toBe('plan: must be one of starter, pro, lifetime');
    }
  });

  it('never downgrades on purchase', () => {
    expect(plans.planAfterPurchase('free', 'starter')).toBe('starter');
    expect(plans.planAfterPurchase('starter', 'pro')).toBe('pro');
    expect(plans.planAfterPurchase('lifetime', 'starter')).toBe('lifetime');
    expect(plans.planAfterPurchase('pro', 'pro')).toBe('pro');
  });

  it('converts amounts to integer minor units exactly', () => {
    expect(toMinorUnits(9)).toBe(900);
    expect(toMinorUnits('9.00')).toBe(900);
    expect(toMinorUnits('9.5')).toBe(950);
    expect(toMinorUnits(0.1 + 0.2)).toBe(30);
    expect(toMinorUnits(19.999)).toBeNull();
    expect(toMinorUnits('9.001')).toBeNull();
    expect(toMinorUnits('-9')).toBeNull();
    expect(toMinorUnits(-1)).toBeNull();
    expect(toMinorUnits('9e2')).toBeNull();
    expect(toMinorUnits(null)).toBeNull();
    expect(formatMinorUnits(900)).toBe('9.00');
    expect(formatMinorUnits(19905)).toBe('199.05');
  });

  it('rejects malformed plan data', () => {
    expect(() => parsePlans({ plans: [] })).toThrow();
    expect(() => parsePlans({ plans: [{ plan: 'x', price: 1.234, currency: 'CNY', credits: 1 }] })).toThrow(/2 decimals/);
    expect(() =>
      parsePlans({
        plans: [
          { plan: 'x', price: 1, currency: 'CNY', credits: 1 },
          { plan: 'x', price: 2, currency: 'CNY', credits: 2 },
        ],
      }),
    ).toThrow(/duplicate/);
  });
});
