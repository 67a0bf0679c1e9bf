/**
 * Exact conversion of a parsed vendor value to a target unit, and the comparability level of
 * a pair of values (spec levels A-D).
 */
import { invalidInput } from '../shared/errors.js';
import { cmp, div, mul, rat, toDecimalText, toNumber, type Rat } from './exact.js';
import { conditionWords, parseDetailed, requiredConditions } from './parse.js';
import type { Condition, Level, ParameterHint, ParsedParameter } from './types.js';
import { CANONICAL_UNIT, CANON_VAR, lookupTargetUnit, unitSymbols, type Dimension, type UnitDef } from './units.js';

/** Encoder resolutions are angles once converted to their step. */
function convDim(d: Dimension): Dimension {
  return d === 'encoder_bits' || d === 'encoder_counts' ? 'angle' : d;
}


function ratText(r: Rat): string {
  return toDecimalText(r) ?? `${r.n}/${r.d}`;
}

/** The formula from the canonical unit to `u` (the inverse of u's own formula). */
export function inverseFormula(u: UnitDef): string {
  const c = CANON_VAR[u.dimension];
  const v = u.variable;
  if (u.p === -1) {
    if (u.k === 1 && u.r.n === 1n) return `${v} = (pi/${u.r.d}) / ${c}`;
    return `${v} = ${ratText(u.r)}${u.k === 1 ? ' * pi' : u.k === -1 ? ' / pi' : ''} / ${c}`;
  }
  let expr: string;
  if (u.r.n === u.r.d) expr = c;
  else if (u.r.n === 1n) expr = `${c} * ${u.r.d}`;
  else if (u.r.d === 1n) expr = `${c} / ${u.r.n}`;
  else expr = `${c} / ${ratText(u.r)}`;
  if (u.k === 1) expr += ' / pi';
  if (u.k === -1) expr += ' * pi';
  return `${v} = ${expr}`;
}

export interface ConvertedNumber {
  value: number;
  /** Exact decimal when it terminates, else null. */
  exact: string | null;
  /** Exact fraction "n/d" when the result is rational but its decimal does not terminate (e.g. 1000/11), else null. */
  fraction: string | null;
}

export type ConvertResult =
  | {
      ok: true;
      parsed: ParsedParameter;
      to: string;
      value: number | null;
      exact: string | null;
      fraction: string | null;
      range: { min: ConvertedNumber; max: ConvertedNumber } | null;
      /** Formulas applied in order: declared unit -> canonical unit -> target unit. */
      formulas: string[];
      /** "1.4709975 Nm" (a range as "a~b unit"); numbers without an exact decimal are given to 12 significant digits. */
      text: string;
      notes: string[];
    }
  | {
      ok: false;
      parsed: ParsedParameter;
      to: string;
      reason: 'unrecognized' | 'different_quantity' | 'unsupported_target';
      message: string;
      notes: string[];
    };

function convertPart(x: Rat, from: UnitDef, to: UnitDef): ConvertedNumber {
  // canonical = r_f · pi^k_f · x^p_f ; target: canonical = r_t · pi^k_t · y^p_t
  let q: Rat;
  if (from.bits) q = mul(from.r, rat(1n, 2n ** x.n));
  else q = from.p === 1 ? mul(from.r, x) : div(from.r, x);
  const e = (from.bits ? 0 : from.k) - to.k;
  const base = div(q, to.r); // y^p_t = base · pi^e
  if (e === 0) {
    const y = to.p === 1 ? base : div(rat(1n), base);
    const exact = toDecimalText(y);
    return { value: toNumber(y), exact, fraction: exact === null ? `${y.n}/${y.d}` : null };
  }
  const yp = toNumber(base) * Math.PI ** e;
  const value = to.p === 1 ? yp : 1 / yp;
  return { value, exact: null, fraction: null };
}

function show(n: ConvertedNumber): string {
  return n.exact ?? String(Number(n.value.toPrecision(12)));
}

/**
 * Converts a vendor value to a target unit exactly. `to` must be a unit the parser knows
 * (e.g. "Nm", "kgf·cm", "rad/s", "rpm", "sec/60deg", "deg", "arcmin", "g", "kg", "V", "Mbps");
 * an unknown unit is an invalid_input error. A value that cannot be read, or a target of a
 * different quantity, is answered with ok: false and the reason (never a guess).
 */
export function convert(value: string, to: string, hint?: ParameterHint): ConvertResult {
  const target = lookupTargetUnit(to);
  if (!target) {
    throw invalidInput('to', `unknown target unit "${to}"; known units: ${unitSymbols().join(', ')}`);
  }
  const { parsed, parts } = parseDetailed(value, hint);
  if (!parsed.recognized || !parts) {
    return {
      ok: false,
      parsed,
      to: target.symbol,
      reason: 'unrecognized',
      message: `"${value}" is not read exactly (${parsed.dialect}); nothing to convert`,
      notes: parsed.notes,
    };
  }
  const from = parts[0].unit;
  if (target.bits) {
    return {
      ok: false,
      parsed,
      to: target.symbol,
      reason: 'unsupported_target',
      message: 'encoder bits are a declaration, not a unit to convert into; convert to deg, arcmin or cpr instead',
      notes: parsed.notes,
    };
  }
  if (convDim(from.dimension) !== convDim(target.dimension) || (parsed.dimension === 'relative') !== (target.dimension === 'relative')) {
    return {
      ok: false,
      parsed,
      to: target.symbol,
      reason: 'different_quantity',
      message: `"${value}" is ${parsed.quantity?.replace('_', ' ')} (${CANONICAL_UNIT[from.dimension]}); ${target.symbol} measures ${convDim(target.dimension).replace('_', ' ')}: not convertible`,
      notes: parsed.notes,
    };
  }
  const nums = parts.map((p) => convertPart(p.x, p.unit, target));
  const formulas: string[] = [];
  for (const u of new Set(parts.map((p) => p.unit))) {
    if (u.formula !== `${CANON_VAR[u.dimension]} = ${CANON_VAR[u.dimension]}`) formulas.push(u.formula);
  }
  if (target.symbol !== CANONICAL_UNIT[convDim(target.dimension)]) formulas.push(inverseFormula(target));
  const notes = [...parsed.notes];
  if (target.note && !notes.includes(target.note)) notes.push(target.note);
  const single = nums.length === 1;
  return {
    ok: true,
    parsed,
    to: target.symbol,
    value: single ? nums[0].value : null,
    exact: single ? nums[0].exact : null,
    fraction: single ? nums[0].fraction : null,
    range: single ? null : { min: nums[0], max: nums[1] },
    formulas,
    text: single ? `${show(nums[0])} ${target.symbol}` : `${show(nums[0])}~${show(nums[1])} ${target.symbol}`,
    notes,
  };
}

// ------------------------------------------------------------------------------------------
// Pair comparability

export interface PairComparison {
  level: Level;
  reason: string;
  a: ParsedParameter;
  b: ParsedParameter;
  /** Units alone: A same unit, B exact conversion, D different quantity or unreadable. */
  unit_axis: { level: 'A' | 'B' | 'D'; reason: string };
  /** Conditions alone: A all needed conditions stated and equal, C missing or differing. */
  condition_axis: { level: 'A' | 'C' | 'D'; missing_a: string[]; missing_b: string[]; differing: string[]; reason: string };
  /** Order of the two values in the canonical unit (after conversion), when meaningful. */
  si_relation: 'a_greater' | 'b_greater' | 'equal' | 'ranges_overlap' | null;
  /** Set when a sec/60deg value is involved: raw-number order is the opposite of speed order. */
  ordering_note: string | null;
}

const LEVEL_ORDER: Level[] = ['A', 'B', 'C', 'D'];
const worst = (...ls: Level[]): Level => LEVEL_ORDER[Math.max(...ls.map((l) => LEVEL_ORDER.indexOf(l)))];

const COND_KEYS: (keyof Condition)[] = ['rating', 'voltage_v', 'measuring_end', 'load', 'temperature_c', 'current', 'accuracy_kind'];

function siPoint(p: ParsedParameter): { lo: number; hi: number } | null {
  if (!p.si) return null;
  return p.si.range ? { lo: p.si.range.min, hi: p.si.range.max } : { lo: p.si.value!, hi: p.si.value! };
}

function relation(a: ParsedParameter, b: ParsedParameter): PairComparison['si_relation'] {
  const x = siPoint(a);
  const y = siPoint(b);
  if (!x || !y) return null;
  if (x.lo === x.hi && y.lo === y.hi) {
    // Prefer exact decimals when both have them.
    if (a.si?.exact != null && b.si?.exact != null) {
      const c = cmp(toRat(a.si.exact), toRat(b.si.exact));
      return c > 0 ? 'a_greater' : c < 0 ? 'b_greater' : 'equal';
    }
    return x.lo > y.lo ? 'a_greater' : x.lo < y.lo ? 'b_greater' : 'equal';
  }
  if (x.lo > y.hi) return 'a_greater';
  if (y.lo > x.hi) return 'b_greater';
  return 'ranges_overlap';
}

function toRat(dec: string): Rat {
  const neg = dec.startsWith('-');
  const [w, f = ''] = (neg ? dec.slice(1) : dec).split('.');
  const n = BigInt(w + f);
  return rat(neg ? -n : n, 10n ** BigInt(f.length));
}

function describe(p: ParsedParameter, side: string): string {
  if (p.dialect === 'absent') return `${side} is not declared`;
  if (!p.recognized) return `${side} ("${p.input}") is ${p.dialect.endsWith('qualitative') ? 'qualitative' : 'not read exactly'}`;
  return '';
}

const ROLE_QUANTITIES: Record<string, string[]> = {
  angle: ['backlash', 'accuracy', 'position_resolution'],
  length: ['accuracy'],
};

/**
 * The comparability level of two vendor values (spec levels): D when either is unreadable or
 * they are different quantities; C when a needed condition is missing or the stated conditions
 * differ; B when everything needed is stated and equal but the units differ (exact conversion);
 * A when everything needed is stated and equal and the unit is the same.
 */
export function compareParameters(
  aText: string,
  bText: string,
  hints: { a?: ParameterHint; b?: ParameterHint } = {},
): PairComparison {
  const a = parseDetailed(aText, hints.a).parsed;
  const b = parseDetailed(bText, hints.b).parsed;
  const base = { a, b, si_relation: null, ordering_note: null } as const;
  const dAxis = (reason: string): PairComparison => ({
    ...base,
    level: 'D',
    reason,
    unit_axis: { level: 'D', reason },
    condition_axis: { level: 'D', missing_a: [], missing_b: [], differing: [], reason: 'not evaluated' },
  });

  if (!a.recognized || !b.recognized) {
    return dAxis(`not comparable: ${[describe(a, 'a'), describe(b, 'b')].filter(Boolean).join('; ')}`);
  }
  const qa = a.quantity!;
  const qb = b.quantity!;
  const dimA = convDim(a.dimension!);
  const dimB = convDim(b.dimension!);
  if (qa !== qb) {
    const roleGap =
      dimA === dimB &&
      ((ROLE_QUANTITIES[qa]?.includes(qb) ?? false) || (ROLE_QUANTITIES[qb]?.includes(qa) ?? false));
    if (!roleGap) {
      const kd01 = new Set([qa, qb]).has('data_rate') && new Set([qa, qb]).has('angular_speed');
      return dAxis(
        `not comparable: different physical quantities (${qa.replace('_', ' ')} vs ${qb.replace('_', ' ')})` +
          (kd01 ? '; a communication data rate is not a mechanical speed (KD-01)' : ''),
      );
    }
  }
  if (dimA !== dimB) {
    return dAxis(`not comparable: ${qa} in different dimensions (${dimA} vs ${dimB})`);
  }
  if (a.condition.accuracy_kind && b.condition.accuracy_kind && a.condition.accuracy_kind !== b.condition.accuracy_kind) {
    return dAxis(
      `not comparable: ${a.condition.accuracy_kind} vs ${b.condition.accuracy_kind}; the two differ by one to two orders of magnitude (RL-04)`,
    );
  }

  // Unit axis.
  const sameUnit = a.declared!.unit === b.declared!.unit;
  const inverse = Boolean(a.conversion?.inverse || b.conversion?.inverse);
  const unit_axis = sameUnit
    ? { level: 'A' as const, reason: `same unit (${a.declared!.unit})` }
    : {
        level: 'B' as const,
        reason: `same quantity, units ${a.declared!.unit} and ${b.declared!.unit}: comparable after exact conversion to ${a.si!.unit}`,
      };

  // Condition axis.
  const missing = (p: ParsedParameter): string[] => {
    if (p.quantity === 'angle' || p.quantity === 'length' || qa !== qb) return ['role'];
    return requiredConditions(p.quantity!, p.si!.range !== null).filter(
      (k) => k === 'scope' || k === 'operating_range' || k === 'role' || p.condition[k as keyof Condition] === null,
    );
  };
  const missing_a = missing(a);
  const missing_b = missing(b);
  const differing = COND_KEYS.filter((k) => a.condition[k] !== null && b.condition[k] !== null && a.condition[k] !== b.condition[k]);
  const bounds = [a, b].filter((p) => p.qualifier !== null && p.qualifier !== 'plus_minus').length > 0;
  const condReasons: string[] = [];
  if (missing_a.length) condReasons.push(`a lacks ${missing_a.map(conditionWords).join(', ')}`);
  if (missing_b.length) condReasons.push(`b lacks ${missing_b.map(conditionWords).join(', ')}`);
  if (differing.length) condReasons.push(`stated conditions differ: ${differing.map(conditionWords).join(', ')}`);
  if (bounds) condReasons.push('a bound (up to / at most / approximately) is not a stated value');
  const condOk = condReasons.length === 0;
  const condition_axis = {
    level: condOk ? ('A' as const) : ('C' as const),
    missing_a,
    missing_b,
    differing,
    reason: condOk ? 'every condition the quantity needs is stated and equal on both' : condReasons.join('; '),
  };

  const level = worst(unit_axis.level, condition_axis.level);
  let reason: string;
  if (level === 'A') reason = 'directly comparable: same quantity, same unit, same stated conditions';
  else if (level === 'B') reason = `comparable after conversion: ${unit_axis.reason}; conditions stated and equal`;
  else
    reason =
      `comparable within one vendor only: ${condition_axis.reason}` +
      (unit_axis.level === 'B' ? ` (units alone would be comparable after conversion: ${unit_axis.reason})` : '');

  const ordering_note = inverse
    ? 'sec/60deg is time per 60 degrees: a smaller number is faster. After conversion to rad/s a larger number is faster, so ordering by the raw numbers gives the opposite order.'
    : null;
  return { a, b, level, reason, unit_axis, condition_axis, si_relation: qa === qb || dimA === dimB ? relation(a, b) : null, ordering_note };
}
