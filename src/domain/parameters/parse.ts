/**
 * The vendor-parameter parser. It reads one declared value ("4.1 Nm @ 12V", "0.11 sec/60°",
 * "12-bit") EXACTLY or not at all: anything outside the grammar below is `unrecognized`, never a
 * guess, and the parser never throws.
 *
 * Grammar, after normalisation (NFKC, one kind of dash / dot / tilde, single spaces):
 *   value      := prefix* core suffix*
 *   core       := NUM [" "] UNIT
 *               | NUM [" "] [UNIT] [" "] ("~" | "-" | "to") [" "] NUM [" "] UNIT     (a range)
 *               | NUM [" "] ("s" | "sec") "/60" ("°" | "deg")                         (servo speed)
 *   NUM        := digits ["." digits]         (no exponents, no thousands separators)
 *   prefix     := rating word (peak, max, maximum, rated, nominal, continuous, stall)
 *               | qualifier (up to, ≤, <, ≥, >, ~, approx., ±) | DC | AC
 *               | repeatability | absolute accuracy | positioning accuracy | gripping force
 *   suffix     := "@ <n>V" | "@ <n>°C" | rating word | "no load" | "output" | "motor side"
 *               | repeatability | absolute accuracy | accuracy | encoder | "@ <n> Nm" / "@ <n>%" (a load)
 * UNIT is looked up case-sensitively in the unit table (units.ts).
 */
import { div, mul, pow2, ratFromDecimal, toDecimalText, toNumber, type Rat } from './exact.js';
import { CANONICAL_UNIT, SEC_PER_60DEG, lookupUnit, type Dimension, type UnitDef } from './units.js';
import type {
  AppliedConversion,
  Condition,
  Level,
  ParameterHint,
  ParsedParameter,
  Quantity,
  Qualifier,
  Rating,
  SiValue,
} from './types.js';
import { QUANTITIES } from './types.js';

const NUM = '\\d+(?:\\.\\d+)?';

/** Normalises the spellings that do not change meaning. */
export function normalizeNotation(raw: string): string {
  return raw
    .normalize('NFKC')
    .replace(/[⋅•∙]/g, '·')
    .replace(/[‐‑‒–—−]/g, '-')
    .replace(/[〜∼]/g, '~')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The value's shape with every number abstracted to "<n>" (the registry's notion of a notation). */
export function notationOf(raw: string): string {
  const s = normalizeNotation(raw);
  // The 60 of "sec/60°" is part of the unit, not a declared number.
  return s.replace(/\d+(?:\.\d+)?/g, (m: string, off: number) =>
    m === '60' && /(?:s|sec|secs|second|seconds) ?\/ ?$/.test(s.slice(0, off)) ? m : '<n>',
  );
}

function emptyCondition(): Condition {
  return {
    voltage_v: null,
    rating: null,
    measuring_end: null,
    load: null,
    temperature_c: null,
    current: null,
    accuracy_kind: null,
  };
}

const HINT_FAMILY: Record<ParameterHint, string> = {
  torque: 'torque',
  peak_torque: 'torque',
  speed: 'speed',
  weight: 'weight',
  mass: 'weight',
  voltage: 'voltage',
  position_resolution: 'position_resolution',
  backlash: 'backlash',
  accuracy: 'accuracy',
  repeatability: 'accuracy',
};

function base(input: string, dialect: string, reason: string, notes: string[] = []): ParsedParameter {
  return {
    input,
    recognized: false,
    quantity: null,
    dimension: null,
    dialect,
    notation: notationOf(input),
    declared: null,
    qualifier: null,
    si: null,
    conversion: null,
    condition: emptyCondition(),
    comparability: { level: 'D', reason, missing_conditions: [] },
    notes,
  };
}

function unrecognized(input: string, why: string): ParsedParameter {
  return base(input, 'unrecognized', `not read exactly (${why}); not comparable`, [why]);
}

/** Mutable state while stripping prefixes and suffixes. */
interface Affixes {
  cond: Condition;
  qualifier: Qualifier | null;
  role: 'accuracy' | 'position_resolution' | 'force' | null;
  conflict: string | null;
}

const RATING_WORDS: Record<string, Rating> = {
  peak: 'peak',
  max: 'peak',
  'max.': 'peak',
  maximum: 'peak',
  rated: 'rated',
  nominal: 'nominal',
  continuous: 'continuous',
  'cont.': 'continuous',
  stall: 'stall',
};

function setOnce<K extends keyof Condition>(a: Affixes, key: K, value: Condition[K]): void {
  const cur = a.cond[key];
  if (cur !== null && cur !== value) a.conflict = `two different ${key} conditions`;
  else a.cond[key] = value;
}

function setQualifier(a: Affixes, q: Qualifier): void {
  if (a.qualifier !== null && a.qualifier !== q) a.conflict = 'two different qualifiers';
  else a.qualifier = q;
}

function setRole(a: Affixes, r: NonNullable<Affixes['role']>): void {
  if (a.role !== null && a.role !== r) a.conflict = 'two different roles';
  else a.role = r;
}

type AffixRule = { re: RegExp; apply: (m: RegExpExecArray, a: Affixes) => void };

const RATING_RE = '(peak|max\\.?|maximum|rated|nominal|continuous|cont\\.|stall)';

const PREFIX_RULES: AffixRule[] = [
  { re: /^(up to|upto) /i, apply: (_m, a) => setQualifier(a, 'up_to') },
  { re: new RegExp(`^${RATING_RE}(?: torque)?(?::| |(?=\\d))\\s*`, 'i'), apply: (m, a) => setOnce(a, 'rating', RATING_WORDS[m[1].toLowerCase()]) },
  { re: /^(≤|<=) ?/, apply: (_m, a) => setQualifier(a, 'at_most') },
  { re: /^(≥|>=) ?/, apply: (_m, a) => setQualifier(a, 'at_least') },
  { re: /^< ?/, apply: (_m, a) => setQualifier(a, 'below') },
  { re: /^> ?/, apply: (_m, a) => setQualifier(a, 'above') },
  { re: /^(~|≈|approx\.?|approximately|about|ca\.|circa) ?/i, apply: (_m, a) => setQualifier(a, 'approximately') },
  { re: /^(±|\+\/-|\+-) ?/, apply: (_m, a) => setQualifier(a, 'plus_minus') },
  { re: /^(DC|AC) /, apply: (m, a) => setOnce(a, 'current', m[1] as 'DC' | 'AC') },
  {
    re: /^(repeatability|position repeatability|positioning repeatability|repeat positioning accuracy|repeatable accuracy)(?::| )\s*/i,
    apply: (_m, a) => setOnce(a, 'accuracy_kind', 'repeatability'),
  },
  {
    re: /^(absolute accuracy|absolute positioning accuracy|positioning accuracy|pose accuracy)(?::| )\s*/i,
    apply: (_m, a) => setOnce(a, 'accuracy_kind', 'absolute'),
  },
  { re: /^accuracy(?::| )\s*/i, apply: (_m, a) => setRole(a, 'accuracy') },
  { re: /^(gripping force|grip force|gripper force|clamping force)(?::| )\s*/i, apply: (_m, a) => setRole(a, 'force') },
];

const SUFFIX_RULES: AffixRule[] = [
  // "@ 12V", "at 7.4 V", "(@12V)", "@ 24 VDC"
  {
    re: new RegExp(`\\s*\\(?\\s*(?:@|at)\\s*(${NUM})\\s*V(?: ?DC)?\\s*\\)?$`),
    apply: (m, a) => setOnce(a, 'voltage_v', Number(m[1])),
  },
  { re: new RegExp(`\\s*\\(?\\s*(?:@|at)\\s*(-?${NUM})\\s*°C\\s*\\)?$`), apply: (m, a) => setOnce(a, 'temperature_c', Number(m[1])) },
  // Measurement load of a backlash / hysteresis value: "@ 2 Nm", "at 3% rated torque".
  {
    re: new RegExp(`\\s*(?:@|at|under)\\s*(${NUM}\\s*(?:Nm|N·m|% rated torque|%))\\s*$`),
    apply: (m, a) => setOnce(a, 'load', m[1]),
  },
  { re: new RegExp(`\\s*[,(]?\\s*${RATING_RE}(?: torque)?\\s*\\)?$`, 'i'), apply: (m, a) => setOnce(a, 'rating', RATING_WORDS[m[1].toLowerCase()]) },
  { re: /\s*[,(]?\s*(no[- ]load|unloaded|without load)\s*\)?$/i, apply: (_m, a) => setOnce(a, 'load', 'no load') },
  {
    re: /\s*[,(]?\s*(?:at |@ )?(?:the )?output(?: shaft| end| side| flange)?\s*\)?$/i,
    apply: (_m, a) => setOnce(a, 'measuring_end', 'output'),
  },
  { re: /\s*[,(]?\s*(?:at |@ )?(?:the )?motor(?: shaft| end| side)\s*\)?$/i, apply: (_m, a) => setOnce(a, 'measuring_end', 'motor') },
  { re: /\s*[,(]?\s*(repeatability|repeatable)\s*\)?$/i, apply: (_m, a) => setOnce(a, 'accuracy_kind', 'repeatability') },
  {
    re: /\s*[,(]?\s*(absolute accuracy|absolute|positioning accuracy|pose accuracy)\s*\)?$/i,
    apply: (_m, a) => setOnce(a, 'accuracy_kind', 'absolute'),
  },
  { re: /\s*[,(]?\s*accuracy\s*\)?$/i, apply: (_m, a) => setRole(a, 'accuracy') },
  { re: /\s+encoder$/i, apply: (_m, a) => setRole(a, 'position_resolution') },
];

/** "24 VDC", "48V DC", "220 V(AC)" -> "24 V" with current DC / AC. */
const CURRENT_IN_UNIT = new RegExp(`^(.*\\d\\s*)V\\s*\\(?(DC|AC|dc|ac)\\)?$`);

function stripAffixes(s: string, a: Affixes): string {
  let rest = s;
  for (let guard = 0; guard < 20; guard++) {
    let changed = false;
    for (const rule of PREFIX_RULES) {
      const m = rule.re.exec(rest);
      if (m && m[0].length > 0 && m[0].length < rest.length) {
        rule.apply(m, a);
        rest = rest.slice(m[0].length).trim();
        changed = true;
        break;
      }
    }
    if (!changed) {
      for (const rule of SUFFIX_RULES) {
        const m = rule.re.exec(rest);
        if (m && m[0].length > 0 && m.index > 0) {
          rule.apply(m, a);
          rest = rest.slice(0, m.index).trim();
          changed = true;
          break;
        }
      }
    }
    if (!changed) {
      const m = CURRENT_IN_UNIT.exec(rest);
      if (m) {
        setOnce(a, 'current', m[2].toUpperCase() as 'DC' | 'AC');
        rest = `${m[1].trim()}V`;
        changed = true;
      }
    }
    if (!changed || a.conflict) break;
  }
  return rest;
}

interface Core {
  min: string;
  max: string;
  range: boolean;
  unitMin: UnitDef;
  unitMax: UnitDef;
  unitText: string;
}

const SERVO_RE = new RegExp(`^(${NUM}) ?(?:s|sec|secs|second|seconds) ?/ ?60 ?(?:°|deg|degrees?)$`);
const RANGE_RE = new RegExp(`^(${NUM}) ?([^\\d~]*?) ?(?:~|-|to) ?(${NUM}) ?([^\\d~]+)$`);
const SINGLE_RE = new RegExp(`^(${NUM}) ?([^\\d~]+)$`);

function readCore(rest: string): Core | string {
  let m = SERVO_RE.exec(rest);
  if (m) return { min: m[1], max: m[1], range: false, unitMin: SEC_PER_60DEG, unitMax: SEC_PER_60DEG, unitText: 'sec/60deg' };
  const r = rest.replace(/(\d) ?- ?(bits?)$/, '$1 $2');
  m = RANGE_RE.exec(r);
  if (m) {
    const u2 = lookupUnit(m[4].trim());
    const u1 = m[2].trim() === '' ? u2 : lookupUnit(m[2].trim());
    if (!u1 || !u2) return `unit "${(m[2].trim() && !u1 ? m[2] : m[4]).trim()}" is not a unit the parser reads`;
    if (u1.dimension !== u2.dimension) return 'the two ends of the range are in different quantities';
    return { min: m[1], max: m[3], range: true, unitMin: u1, unitMax: u2, unitText: u1 === u2 ? u2.symbol : `${u1.symbol}..${u2.symbol}` };
  }
  m = SINGLE_RE.exec(r);
  if (m) {
    const u = lookupUnit(m[2].trim());
    if (!u) return `unit "${m[2].trim()}" is not a unit the parser reads`;
    return { min: m[1], max: m[1], range: false, unitMin: u, unitMax: u, unitText: u.symbol };
  }
  if (/^\d+(?:\.\d+)?$/.test(r)) return 'a number without a unit';
  return 'text outside the notation grammar';
}

interface SiNumber {
  value: number;
  exact: string | null;
  rational: Rat | null;
}

/** Converts one declared number in `u` to the canonical unit of its dimension. */
export function toCanonical(x: Rat, u: UnitDef): SiNumber | string {
  if (u.bits) {
    if (x.d !== 1n || x.n < 1n || x.n > 64n) return 'encoder bits must be a whole number from 1 to 64';
    const r = mul(u.r, pow2(-Number(x.n)));
    return { value: toNumber(r), exact: toDecimalText(r), rational: r };
  }
  if (u.p === -1 && x.n === 0n) return 'zero in an inverse unit';
  const base = u.p === 1 ? mul(u.r, x) : div(u.r, x);
  if (u.k === 0) return { value: toNumber(base), exact: toDecimalText(base), rational: base };
  return { value: toNumber(base) * Math.PI ** u.k, exact: null, rational: null };
}

function quantityFor(dim: Dimension, a: Affixes, hint: ParameterHint | undefined): Quantity | string {
  const accuracyHint = hint === 'accuracy' || hint === 'repeatability';
  switch (dim) {
    case 'torque':
    case 'angular_speed':
    case 'data_rate':
    case 'mass':
    case 'voltage':
    case 'force':
      return dim;
    case 'encoder_bits':
    case 'encoder_counts':
      return 'position_resolution';
    case 'angle':
      if (a.cond.accuracy_kind || a.role === 'accuracy') return 'accuracy';
      if (a.role === 'position_resolution') return 'position_resolution';
      if (accuracyHint) return 'accuracy';
      if (hint === 'backlash') return 'backlash';
      if (hint === 'position_resolution') return 'position_resolution';
      return 'angle';
    case 'length':
      if (a.cond.accuracy_kind || a.role === 'accuracy' || accuracyHint) return 'accuracy';
      return 'length';
    case 'relative':
      if (a.cond.accuracy_kind || a.role === 'accuracy' || accuracyHint) return 'accuracy';
      return 'a percent of full scale without saying what it is a percent of';
  }
}

/** Which conditions each dimension may carry (anything else is text we do not understand). */
const ALLOWED: Record<Dimension, (keyof Condition)[]> = {
  torque: ['voltage_v', 'rating', 'measuring_end', 'temperature_c'],
  angular_speed: ['voltage_v', 'rating', 'measuring_end', 'load', 'temperature_c'],
  data_rate: ['rating'],
  mass: [],
  voltage: ['rating', 'current'],
  angle: ['measuring_end', 'load', 'accuracy_kind'],
  length: ['load', 'accuracy_kind'],
  force: ['voltage_v', 'rating', 'measuring_end'],
  relative: ['accuracy_kind'],
  encoder_bits: ['measuring_end'],
  encoder_counts: ['measuring_end'],
};

/**
 * Conditions a value must state to be comparable across vendors (level A or B). The spec's A:
 * same load / temperature / voltage condition, same measuring end, rated or peak declared.
 */
export type RequiredCondition = keyof Condition | 'scope' | 'operating_range' | 'role';

export function requiredConditions(q: Quantity, range: boolean): RequiredCondition[] {
  switch (q) {
    case 'torque':
      return ['rating', 'voltage_v', 'measuring_end', 'temperature_c'];
    case 'angular_speed':
      return ['voltage_v', 'load'];
    case 'data_rate':
      return [];
    case 'mass':
      return ['scope'];
    case 'voltage':
      return range ? [] : ['operating_range'];
    case 'position_resolution':
      return ['measuring_end'];
    case 'backlash':
      return ['load'];
    case 'accuracy':
      return ['accuracy_kind'];
    case 'force':
      return ['measuring_end'];
    case 'angle':
    case 'length':
      return ['role'];
  }
}

const CONDITION_WORDS: Record<string, string> = {
  rating: 'rated or peak',
  voltage_v: 'supply voltage',
  measuring_end: 'measuring end (output or motor)',
  temperature_c: 'temperature',
  load: 'load condition',
  scope: 'what the mass includes (whole module with cables, or a bare part)',
  operating_range: 'operating range (a single voltage is a nominal point)',
  accuracy_kind: 'repeatability or absolute accuracy',
  role: 'what the value measures (backlash, accuracy or resolution)',
};

export function conditionWords(key: string): string {
  return CONDITION_WORDS[key] ?? key;
}

function dialectOf(q: Quantity, u: UnitDef, c: Condition, range: boolean): string {
  switch (q) {
    case 'torque':
      if (u.family === 'nm') {
        if (range) return 'torque.nm.range';
        if (c.voltage_v !== null) return 'torque.nm.at_voltage';
        if (c.rating === 'peak' || c.rating === 'stall') return 'torque.nm.peak';
        if (c.rating === 'rated' || c.rating === 'continuous') return 'torque.nm.rated';
        return 'torque.nm.bare';
      }
      return `torque.${u.family}${c.voltage_v !== null ? '.at_voltage' : ''}`;
    case 'angular_speed':
      return u.family === 'sec_deg' ? 'speed.servo.sec_deg' : `speed.ang.${u.family}`;
    case 'data_rate':
      return 'speed.comm.bps';
    case 'mass':
      return `weight.${u.symbol === 'kg' ? 'kg' : u.family === 'g' ? 'g' : u.family}`;
    case 'voltage':
      return range ? 'voltage.range' : 'voltage.single';
    case 'position_resolution':
      return u.family === 'bits' ? 'position_resolution.bits' : u.family === 'cpr' ? 'position_resolution.cpr' : 'position_resolution.angle';
    case 'backlash':
      return `backlash.${u.family}`;
    case 'accuracy':
      return u.dimension === 'length' ? 'accuracy.length' : u.dimension === 'angle' ? 'accuracy.angle' : 'accuracy.percent_fs';
    case 'angle':
      return `angle.${u.family}`;
    case 'length':
      return 'length.m';
    case 'force':
      return 'force.n';
  }
}

function singleLevel(
  q: Quantity,
  c: Condition,
  range: boolean,
  native: boolean,
  qualifier: Qualifier | null,
): { level: Level; reason: string; missing_conditions: string[] } {
  if (q === 'angle' || q === 'length') {
    return {
      level: 'C',
      reason: 'a value with a unit, but what it measures (backlash, accuracy, resolution) is not stated',
      missing_conditions: ['role'],
    };
  }
  const missing = requiredConditions(q, range).filter((k) => k === 'scope' || k === 'operating_range' || k === 'role' || c[k as keyof Condition] === null);
  if (missing.length > 0) {
    return {
      level: 'C',
      reason: `value present but conditions missing: ${missing.map(conditionWords).join(', ')}; comparable within one vendor only`,
      missing_conditions: missing,
    };
  }
  if (qualifier !== null && qualifier !== 'plus_minus') {
    return { level: 'C', reason: `a bound (${qualifier.replace('_', ' ')}), not a stated value`, missing_conditions: [] };
  }
  if (native) return { level: 'A', reason: 'stated with every condition the quantity needs, in an SI unit', missing_conditions: [] };
  return {
    level: 'B',
    reason: 'stated with every condition the quantity needs; comparable after the exact unit conversion',
    missing_conditions: [],
  };
}

function computation(u: UnitDef, declared: string, result: SiNumber): string {
  const rhs = u.formula.slice(u.formula.indexOf('=') + 1).trim();
  const i = rhs.indexOf(u.variable);
  const sub = i >= 0 ? rhs.slice(0, i) + declared + rhs.slice(i + u.variable.length) : rhs;
  return `${sub} = ${result.exact ?? String(result.value)}`;
}

function conversionOf(core: Core, lo: SiNumber, hi: SiNumber): AppliedConversion | null {
  const u = core.unitMin;
  const canon = CANONICAL_UNIT[u.dimension];
  const identity = (x: UnitDef) => x.symbol === canon && x.r.n === x.r.d && x.k === 0 && x.p === 1;
  if (identity(core.unitMin) && identity(core.unitMax)) return null;
  const comp = core.range
    ? `min: ${computation(core.unitMin, core.min, lo)}; max: ${computation(core.unitMax, core.max, hi)}`
    : computation(u, core.min, lo);
  return {
    from: core.unitText,
    to: canon,
    formula: core.unitMin === core.unitMax ? u.formula : `${core.unitMin.formula}; ${core.unitMax.formula}`,
    computation: comp,
    exact: true,
    inverse: u.p === -1,
    spec_conversion: core.unitMin.spec_conversion || core.unitMax.spec_conversion,
    note: u.note ?? core.unitMax.note ?? null,
  };
}

/** The parsed value plus the exact declared numbers and units (for convert()). */
export interface DetailedParse {
  parsed: ParsedParameter;
  /** One part for a single value, two (min, max) for a range; null when not recognized. */
  parts: { x: Rat; unit: UnitDef }[] | null;
}

/** Longer inputs are not notations (and are refused before any pattern runs on them). */
export const MAX_NOTATION_LENGTH = 200;

/** Placeholders that mean "not declared" (the catalogue carries "N/A" verbatim in places). */
const NOT_DECLARED: ReadonlySet<string> = new Set(['n/a', 'na', 'n.a.', '-', '--', 'null']);

function parseInner(input: string, hint: ParameterHint | undefined): DetailedParse {
  const r = parseCore(input, hint);
  return 'parsed' in r ? r : { parsed: r, parts: null };
}

function parseCore(input: string, hint: ParameterHint | undefined): ParsedParameter | DetailedParse {
  if (input.length > MAX_NOTATION_LENGTH) {
    return unrecognized(input, `longer than ${MAX_NOTATION_LENGTH} characters: not a parameter notation`);
  }
  const s = normalizeNotation(input);
  const family = hint ? HINT_FAMILY[hint] : null;
  if (s === '' || NOT_DECLARED.has(s.toLowerCase())) return base(input, 'absent', 'not declared; not comparable');
  if (!/\d/.test(s)) {
    return base(input, family ? `${family}.qualitative` : 'qualitative', 'qualitative text, no number; not comparable', [
      'no number in the value',
    ]);
  }
  const a: Affixes = { cond: emptyCondition(), qualifier: null, role: null, conflict: null };
  const rest = stripAffixes(s, a);
  if (a.conflict) return unrecognized(input, a.conflict);
  const core = readCore(rest);
  if (typeof core === 'string') return unrecognized(input, core);
  const dim = core.unitMin.dimension;
  const q = quantityFor(dim, a, hint);
  if (!(typeof q === 'string' && (QUANTITY_SET as Set<string>).has(q))) return unrecognized(input, q);
  const quantity = q as Quantity;

  // Conditions must make sense for the dimension, and a role must match the unit read.
  for (const key of Object.keys(a.cond) as (keyof Condition)[]) {
    if (a.cond[key] !== null && !ALLOWED[dim].includes(key)) {
      return unrecognized(input, `a ${conditionWords(key)} condition does not apply to ${dim.replace('_', ' ')}`);
    }
  }
  if (a.role === 'force' && quantity !== 'force') return unrecognized(input, 'declared as a force but not in a force unit');
  if (a.role === 'position_resolution' && quantity !== 'position_resolution') {
    return unrecognized(input, 'declared as an encoder but not in a resolution unit');
  }
  if (a.qualifier === 'plus_minus' && !['angle', 'length', 'relative'].includes(dim)) {
    return unrecognized(input, '± on a quantity that is not a tolerance');
  }
  if (core.range && a.qualifier !== null) return unrecognized(input, 'a qualifier on a range');

  const notes: string[] = [];
  // "max" on a data rate or a voltage is an upper bound, not a peak rating.
  if ((dim === 'data_rate' || dim === 'voltage') && a.cond.rating === 'peak') {
    a.cond.rating = null;
    if (a.qualifier !== null && a.qualifier !== 'up_to') return unrecognized(input, 'two different qualifiers');
    a.qualifier = 'up_to';
  }
  if (hint === 'peak_torque' && quantity === 'torque') {
    if (a.cond.rating === null) a.cond.rating = 'peak';
    else if (a.cond.rating !== 'peak') notes.push(`declared in the peak_torque field but marked ${a.cond.rating}`);
  }
  if (hint === 'repeatability' && quantity === 'accuracy' && a.cond.accuracy_kind === null) a.cond.accuracy_kind = 'repeatability';
  if (hint === 'speed' && quantity === 'data_rate') notes.push('a communication data rate declared in a speed field (KD-01): not an angular speed');
  if (hint === 'torque' && quantity === 'force') notes.push('a force declared in a torque field: not a torque');
  if ((hint === 'accuracy' || hint === 'repeatability') && quantity === 'position_resolution') {
    notes.push('an encoder resolution declared as accuracy (RL-06): a quantisation step, not an accuracy');
  }

  const xMin = ratFromDecimal(core.min);
  const xMax = ratFromDecimal(core.max);
  if (!xMin || !xMax) return unrecognized(input, 'number not readable');
  const lo = toCanonical(xMin, core.unitMin);
  const hi = toCanonical(xMax, core.unitMax);
  if (typeof lo === 'string') return unrecognized(input, lo);
  if (typeof hi === 'string') return unrecognized(input, hi);
  // A degenerate range ("24~24V", the spec shape of a nominal voltage) is allowed; a reversed one is not.
  if (core.range && !(lo.value <= hi.value)) return unrecognized(input, 'range whose first end is above its second end');
  for (const u of new Set([core.unitMin, core.unitMax])) if (u.note) notes.push(u.note);

  const si: SiValue = core.range
    ? {
        unit: CANONICAL_UNIT[dim],
        value: null,
        exact: null,
        range: { min: lo.value, max: hi.value, exact_min: lo.exact, exact_max: hi.exact },
      }
    : { unit: CANONICAL_UNIT[dim], value: lo.value, exact: lo.exact, range: null };

  const parsed: ParsedParameter = {
    input,
    recognized: true,
    quantity,
    dimension: dim,
    dialect: dialectOf(quantity, core.unitMin, a.cond, core.range),
    notation: notationOf(input),
    declared: core.range
      ? { value: null, min: core.min, max: core.max, unit: core.unitText }
      : { value: core.min, min: null, max: null, unit: core.unitText },
    qualifier: a.qualifier,
    si,
    conversion: conversionOf(core, lo, hi),
    condition: a.cond,
    comparability: singleLevel(quantity, a.cond, core.range, core.unitMin.native && core.unitMax.native, a.qualifier),
    notes,
  };
  const parts = core.range
    ? [
        { x: xMin, unit: core.unitMin },
        { x: xMax, unit: core.unitMax },
      ]
    : [{ x: xMin, unit: core.unitMin }];
  return { parsed, parts };
}

const QUANTITY_SET: ReadonlySet<string> = new Set<string>(QUANTITIES);

/**
 * Reads one vendor-declared value. Never throws: a value it cannot read exactly comes back
 * with `recognized: false` and dialect `unrecognized` (or `absent`, or `<field>.qualitative`
 * when there is no number at all).
 */
export function parseParameter(value: unknown, hint?: ParameterHint): ParsedParameter {
  return parseDetailed(value, hint).parsed;
}

/** parseParameter plus the exact declared numbers (never throws either). */
export function parseDetailed(value: unknown, hint?: ParameterHint): DetailedParse {
  let input = '';
  try {
    input = typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
    return parseInner(input, hint);
  } catch {
    return { parsed: unrecognized(input, 'internal reading error'), parts: null };
  }
}
