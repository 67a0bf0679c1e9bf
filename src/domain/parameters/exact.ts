/**
 * Exact rational arithmetic (bigint numerator / denominator) for unit conversion, so that
 * "15 kgf·cm" -> 15 × 0.0980665 = 1.4709975 Nm and "0.5 kg" -> 500 g carry no binary
 * floating-point noise. Conversions that involve pi are not rational; they are computed as
 * numbers and reported without an exact decimal text.
 */
export interface Rat {
  readonly n: bigint;
  readonly d: bigint; // > 0, gcd(n, d) = 1
}

function gcd(a: bigint, b: bigint): bigint {
  a = a < 0n ? -a : a;
  b = b < 0n ? -b : b;
  while (b) [a, b] = [b, a % b];
  return a;
}

export function rat(n: bigint, d: bigint = 1n): Rat {
  if (d === 0n) throw new RangeError('zero denominator');
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  const g = gcd(n, d) || 1n;
  return { n: n / g, d: d / g };
}

const DEC_RE = /^([+-]?)(\d+)(?:\.(\d+))?$/;

/** Plain decimal text ("12", "0.677") -> exact rational; anything else -> null. */
export function ratFromDecimal(text: string): Rat | null {
  const m = DEC_RE.exec(text);
  if (!m) return null;
  const frac = m[3] ?? '';
  const n = BigInt(m[2] + frac);
  return rat(m[1] === '-' ? -n : n, 10n ** BigInt(frac.length));
}

/** Like ratFromDecimal, for constants known to be valid. */
export function R(text: string): Rat {
  const r = ratFromDecimal(text);
  if (!r) throw new Error(`bad constant ${text}`);
  return r;
}

export const mul = (a: Rat, b: Rat): Rat => rat(a.n * b.n, a.d * b.d);
export const div = (a: Rat, b: Rat): Rat => rat(a.n * b.d, a.d * b.n);
export const isZero = (a: Rat): boolean => a.n === 0n;
export const cmp = (a: Rat, b: Rat): number => {
  const x = a.n * b.d;
  const y = b.n * a.d;
  return x < y ? -1 : x > y ? 1 : 0;
};
export const pow2 = (k: number): Rat => (k >= 0 ? rat(2n ** BigInt(k)) : rat(1n, 2n ** BigInt(-k)));

/** Exact decimal text when the expansion terminates (denominator 2^a·5^b), else null. */
export function toDecimalText(a: Rat): string | null {
  let d = a.d;
  let twos = 0;
  let fives = 0;
  while (d % 2n === 0n) {
    d /= 2n;
    twos++;
  }
  while (d % 5n === 0n) {
    d /= 5n;
    fives++;
  }
  if (d !== 1n) return null;
  const scale = Math.max(twos, fives);
  const scaled = (a.n * 10n ** BigInt(scale)) / a.d; // exact
  const neg = scaled < 0n;
  let digits = (neg ? -scaled : scaled).toString();
  let out: string;
  if (scale === 0) out = digits;
  else {
    digits = digits.padStart(scale + 1, '0');
    const whole = digits.slice(0, digits.length - scale);
    const frac = digits.slice(digits.length - scale).replace(/0+$/, '');
    out = frac ? `${whole}.${frac}` : whole;
  }
  return neg ? `-${out}` : out;
}

/** Nearest double (via a 40-digit decimal expansion, so large numerators do not lose precision). */
export function toNumber(a: Rat): number {
  const exact = toDecimalText(a);
  if (exact !== null) return Number(exact);
  const neg = a.n < 0n;
  const n = neg ? -a.n : a.n;
  const whole = n / a.d;
  const frac = ((n % a.d) * 10n ** 40n) / a.d;
  const v = Number(`${whole}.${frac.toString().padStart(40, '0')}`);
  return neg ? -v : v;
}
