import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compareParameters, convert, parseParameter, specShapedFields, voltageRange } from '../../src/domain/parameters/index.js';

/** "0.9990" -> "0.999", "12.0000" -> "12", "100" -> "100". */
const canonicalDecimal = (s: string) => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s);

/** Plain decimal text, as vendors write it. */
const decimal = fc
  .tuple(fc.integer({ min: 0, max: 99999 }), fc.option(fc.integer({ min: 0, max: 9999 }), { nil: undefined }))
  .map(([w, f]) => (f === undefined ? String(w) : `${w}.${String(f).padStart(4, '0')}`))
  .filter((s) => Number(s) > 0);

const RATIONAL_PAIRS: [string, string][] = [
  ['Nm', 'kgf·cm'],
  ['kgf·cm', 'Nm'],
  ['mNm', 'kgf·m'],
  ['ozf·in', 'Nm'],
  ['g', 'kg'],
  ['kg', 'lb'],
  ['oz', 'g'],
  ['arcmin', 'deg'],
  ['arcsec', 'arcmin'],
  ['deg', 'arcsec'],
  ['Mbps', 'kbps'],
  ['V', 'mV'],
  ['mm', 'µm'],
  ['rpm', 'deg/s'],
  ['rpm', 'sec/60deg'],
  ['sec/60deg', 'deg/s'],
];
const PI_PAIRS: [string, string][] = [
  ['rpm', 'rad/s'],
  ['sec/60deg', 'rad/s'],
  ['rad/s', 'deg/s'],
  ['deg', 'rad'],
];

describe('properties', () => {
  it('the parser never throws and always answers a dialect, on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (s) => {
        const p = parseParameter(s);
        expect(typeof p.dialect).toBe('string');
        expect(['A', 'B', 'C', 'D']).toContain(p.comparability.level);
        if (!p.recognized) expect(p.si).toBeNull();
      }),
      { numRuns: 2000 },
    );
  });

  it('the parser never throws on unit-like noise (numbers, units, separators, affixes)', () => {
    const token = fc.constantFrom('1', '0.5', '12', '~', '-', ' ', '@', 'V', 'Nm', 'N·m', 'kg', 'g', 'rpm', 'sec/60°', 'bit', 'peak', 'rated', '±', '≤', '(', ')', 'mm', 'repeatability', 'Mbps', 'arcmin', '°C', 'output', 'no load', '0', 'to', 'kgf·cm', 'DC');
    fc.assert(
      fc.property(fc.array(token, { maxLength: 10 }), (ts) => {
        const s = ts.join('');
        const p = parseParameter(s);
        expect(p.input).toBe(s);
        specShapedFields({ voltage: s, weight: s, torque: s });
        voltageRange(s);
        compareParameters(s, '1 Nm');
      }),
      { numRuns: 3000 },
    );
  });

  it('rational conversions round-trip exactly', () => {
    fc.assert(
      fc.property(decimal, fc.constantFrom(...RATIONAL_PAIRS), (x, [from, to]) => {
        const there = convert(`${x} ${from}`, to);
        expect(there.ok).toBe(true);
        if (!there.ok) return;
        // Go back from the exact decimal, or from the exact fraction when the decimal does not terminate.
        if (there.exact !== null) {
          const back = convert(`${there.exact} ${to}`, from);
          expect(back.ok && back.exact).toBe(canonicalDecimal(x));
        } else {
          expect(there.fraction).toMatch(/^\d+\/\d+$/);
          const [n, d] = there.fraction!.split('/').map(Number);
          expect(n / d).toBeCloseTo(there.value!, 6);
        }
      }),
      { numRuns: 1500 },
    );
  });

  it('pi conversions round-trip to within floating-point precision', () => {
    fc.assert(
      fc.property(decimal, fc.constantFrom(...PI_PAIRS), (x, [from, to]) => {
        const there = convert(`${x} ${from}`, to);
        expect(there.ok).toBe(true);
        if (!there.ok || there.value === null) return;
        const back = convert(`${there.value} ${to}`, from);
        if (!back.ok) {
          // A value printed in exponent notation is not a vendor notation; the parser refuses it.
          expect(String(there.value)).toMatch(/e/);
          return;
        }
        expect(Math.abs(back.value! - Number(x)) / Number(x)).toBeLessThan(1e-12);
      }),
      { numRuns: 1500 },
    );
  });

  it('sec/60deg ordering is the inverse of rad/s ordering', () => {
    fc.assert(
      fc.property(decimal, decimal, (t1, t2) => {
        fc.pre(Number(t1) !== Number(t2));
        const a = parseParameter(`${t1} sec/60°`).si!.value!;
        const b = parseParameter(`${t2} sec/60°`).si!.value!;
        expect(Number(t1) < Number(t2)).toBe(a > b);
      }),
    );
  });

  it('spec-shaped weight in grams equals the exact kg value × 1000', () => {
    fc.assert(
      fc.property(decimal, (x) => {
        const w = specShapedFields({ weight: `${x} kg` }).weight;
        expect(w).toMatch(/^\d+(\.\d+)?g$/);
        const back = convert(w.replace('g', ' g'), 'kg');
        expect(back.ok && Number(back.exact)).toBe(Number(x));
      }),
    );
  });
});
