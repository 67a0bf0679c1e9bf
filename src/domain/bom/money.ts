/**
 * Exact decimal amounts for BOM costs. An amount is `units / 10^scale` with a bigint
 * numerator, so 0.1 + 0.2 is exactly 0.3 and a 500-line sum never drifts.
 *
 * A JS number enters through its shortest round-trip decimal text (`String(0.1)` is "0.1"),
 * which is the value the caller wrote in JSON; exponent forms ("1e-7", "1.5e+21") are
 * expanded exactly. Only the operations the BOM needs: add, multiply by an integer quantity.
 */
export interface Amount {
  readonly units: bigint;
  readonly scale: number;
}

export const ZERO: Amount = { units: 0n, scale: 0 };

const NUM_TEXT = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i;

/** Exact decimal of a finite number's shortest round-trip text. Throws on NaN / Infinity. */
export function amountFromNumber(n: number): Amount {
  if (!Number.isFinite(n)) throw new RangeError(`not a finite number: ${n}`);
  return amountFromText(String(n));
}

/** Plain or exponent decimal text -> exact amount; null when not a decimal. */
export function parseAmount(text: string): Amount | null {
  const m = NUM_TEXT.exec(text.trim());
  if (!m) return null;
  const frac = m[3] ?? '';
  let units = BigInt(m[2] + frac);
  if (m[1] === '-') units = -units;
  let scale = frac.length - Number(m[4] ?? '0');
  if (scale < 0) {
    units *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return normalise({ units, scale });
}

function amountFromText(text: string): Amount {
  const a = parseAmount(text);
  if (!a) throw new RangeError(`not a decimal: ${text}`);
  return a;
}

/** Drops trailing fractional zeros so equal amounts have one representation. */
function normalise(a: Amount): Amount {
  let { units, scale } = a;
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n;
    scale -= 1;
  }
  return { units, scale };
}

function align(a: Amount, s: number): bigint {
  return a.units * 10n ** BigInt(s - a.scale);
}

export function addAmounts(a: Amount, b: Amount): Amount {
  const s = Math.max(a.scale, b.scale);
  return normalise({ units: align(a, s) + align(b, s), scale: s });
}

export function sumAmounts(xs: Iterable<Amount>): Amount {
  let acc = ZERO;
  for (const x of xs) acc = addAmounts(acc, x);
  return acc;
}

export function mulAmount(a: Amount, quantity: number | bigint): Amount {
  const q = typeof quantity === 'bigint' ? quantity : BigInt(quantity);
  return normalise({ units: a.units * q, scale: a.scale });
}

export function compareAmounts(a: Amount, b: Amount): number {
  const s = Math.max(a.scale, b.scale);
  const x = align(a, s);
  const y = align(b, s);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Canonical decimal text: no exponent, no trailing zeros ("12.50" -> "12.5", "3" -> "3"). */
export function formatAmount(a: Amount): string {
  const n = normalise(a);
  const neg = n.units < 0n;
  const digits = (neg ? -n.units : n.units).toString().padStart(n.scale + 1, '0');
  const whole = digits.slice(0, digits.length - n.scale);
  const frac = digits.slice(digits.length - n.scale);
  const out = frac ? `${whole}.${frac}` : whole;
  return neg ? `-${out}` : out;
}

/**
 * The nearest JS number to the exact amount (what JSON can carry). Exact for every amount
 * of up to 15 significant digits; the exact text is always published beside it.
 */
export function amountToNumber(a: Amount): number {
  return Number(formatAmount(a));
}
