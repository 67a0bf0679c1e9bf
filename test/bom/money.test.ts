import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { addAmounts, amountFromNumber, amountToNumber, formatAmount, mulAmount, parseAmount, sumAmounts } from '../../src/domain/bom/money.js';

describe('exact amounts', () => {
  it('0.1 + 0.2 is exactly 0.3', () => {
    const s = addAmounts(amountFromNumber(0.1), amountFromNumber(0.2));
    expect(formatAmount(s)).toBe('0.3');
    expect(amountToNumber(s)).toBe(0.3);
    expect(0.1 + 0.2).not.toBe(0.3); // the float drift the routine avoids
  });

  it('expands exponent forms exactly', () => {
    expect(formatAmount(amountFromNumber(1e-7))).toBe('0.0000001');
    expect(formatAmount(amountFromNumber(1.5e21))).toBe('1500000000000000000000');
    expect(formatAmount(parseAmount('12.50')!)).toBe('12.5');
    expect(parseAmount('12,5')).toBeNull();
  });

  it('multiplies by quantity and sums without drift', () => {
    expect(formatAmount(mulAmount(amountFromNumber(19.99), 3))).toBe('59.97');
    expect(formatAmount(sumAmounts(Array.from({ length: 10 }, () => amountFromNumber(0.1))))).toBe('1');
  });

  it('sum of cents equals the integer-cent sum (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 10_000_000 }), { maxLength: 60 }), (cents) => {
        const s = sumAmounts(cents.map((c) => amountFromNumber(c / 100)));
        const expected = cents.reduce((a, b) => a + b, 0);
        expect(formatAmount(s)).toBe(formatAmount({ units: BigInt(expected), scale: 2 }));
      }),
    );
  });
});
