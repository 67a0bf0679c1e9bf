/**
 * Exact decimal arithmetic for unit conversion. A value is `int / 10^scale` with a bigint
 * numerator, so "15 kgf·cm" -> 15 × 0.0980665 = 1.4709975 Nm exactly, and "0.5 kg" -> 500 g
 * without binary floating-point noise. Only the operations the converters need.
 */
export interface Dec {
  readonly int: bigint;
  readonly scale: number;
}

const DEC_RE = /^([+-]?)(\d+)(?:\.(\d+))?$/;

/** Parses plain decimal text ("12", "0.677", "-3.5"); anything else (exponents, commas, ".5") -> null. */
export function parseDec(text: string): Dec | null {
  const m = DEC_RE.exec(text);
  if (!m) return null;
  const frac = m[3] ?? '';
  const int = BigInt(m[2] + frac);
  return { int: m[1] === '-' ? -int : int, scale: frac.length };
}

export function mulDec(a: Dec, b: Dec): Dec {
  return { int: a.int * b.int, scale: a.scale + b.scale };
}

/** Multiplies by 10^k (k may be negative). Exact. */
export function shiftDec(a: Dec, k: number): Dec {
  if (k >= 0) {
    const drop = Math.min(k, a.scale);
    return { int: a.int * 10n ** BigInt(k - drop), scale: a.scale - drop };
  }
  return { int: a.int, scale: a.scale - k };
}

/** Canonical decimal text: no exponent, no trailing fractional zeros ("1000.0" -> "1000"). */
export function formatDec(a: Dec): string {
  const neg = a.int < 0n;
  let digits = (neg ? -a.int : a.int).toString();
  let out: string;
  if (a.scale <= 0) {
    out = digits + '0'.repeat(-a.scale);
  } else {
    digits = digits.padStart(a.scale + 1, '0');
    const whole = digits.slice(0, digits.length - a.scale);
    const frac = digits.slice(digits.length - a.scale).replace(/0+$/, '');
    out = frac ? `${whole}.${frac}` : whole;
  }
  return neg && out !== '0' ? `-${out}` : out;
}

export function decToNumber(a: Dec): number {
  return Number(formatDec(a));
}

export function cmpDec(a: Dec, b: Dec): number {
  const s = Math.max(a.scale, b.scale);
  const x = a.int * 10n ** BigInt(s - a.scale);
  const y = b.int * 10n ** BigInt(s - b.scale);
  return x < y ? -1 : x > y ? 1 : 0;
}
