/**
 * The unit table: every notation of a unit the parser reads, with its exact relation to the
 * canonical unit of its dimension. Symbols are matched case-sensitively (SI prefixes differ by
 * case: mN·m is milli, MN·m is mega).
 *
 * A unit's value in the canonical unit is  canonical = r · pi^k · x^p  (p = 1 or -1), or the
 * special encoder-bit rule deg_step = 360 / 2^bits.
 */
import { R, div, mul, rat, type Rat } from './exact.js';

export type Dimension =
  | 'torque'
  | 'angular_speed'
  | 'data_rate'
  | 'mass'
  | 'voltage'
  | 'angle'
  | 'length'
  | 'force'
  | 'relative'
  | 'encoder_bits'
  | 'encoder_counts';

/** Canonical unit per dimension (the SI unit, or the spec's target unit for angles). */
export const CANONICAL_UNIT: Record<Dimension, string> = {
  torque: 'Nm',
  angular_speed: 'rad/s',
  data_rate: 'bit/s',
  mass: 'kg',
  voltage: 'V',
  angle: 'deg',
  length: 'm',
  force: 'N',
  relative: '%FS',
  encoder_bits: 'deg',
  encoder_counts: 'deg',
};

export interface UnitDef {
  /** Display symbol, e.g. "kgf·cm". */
  readonly symbol: string;
  /** Family, used in dialect names (nm, kgf_cm, rpm, sec_deg, bps, ...). */
  readonly family: string;
  readonly dimension: Dimension;
  /** canonical = r · pi^k · x^p */
  readonly r: Rat;
  readonly k: -1 | 0 | 1;
  readonly p: 1 | -1;
  /** True for the encoder-bit rule (360 / 2^bits). */
  readonly bits?: true;
  /** True when the unit is the canonical unit or an SI-prefixed form of it (no non-SI conversion). */
  readonly native: boolean;
  /** The formula of the conversion to the canonical unit, in words of the spec where it has one. */
  readonly formula: string;
  /** The name of the declared number inside `formula`. */
  readonly variable: string;
  /** Whether the conversion is one of the spec's five listed conversions. */
  readonly spec_conversion: boolean;
  readonly note?: string;
}

const table = new Map<string, UnitDef>();
const bySymbol = new Map<string, UnitDef>();

function add(aliases: string[], def: UnitDef): void {
  for (const a of aliases) table.set(a, def);
  if (!bySymbol.has(def.symbol)) bySymbol.set(def.symbol, def);
}

const ONE = rat(1n);
const PREFIXES: { p: string; name: string; f: Rat; aliases?: string[] }[] = [
  { p: 'n', name: 'nano', f: rat(1n, 10n ** 9n) },
  { p: 'µ', name: 'micro', f: rat(1n, 10n ** 6n), aliases: ['μ'] },
  { p: 'm', name: 'milli', f: rat(1n, 1000n) },
  { p: 'c', name: 'centi', f: rat(1n, 100n) },
  { p: 'k', name: 'kilo', f: rat(1000n) },
  { p: 'M', name: 'mega', f: rat(10n ** 6n) },
  { p: 'G', name: 'giga', f: rat(10n ** 9n) },
  { p: 'T', name: 'tera', f: rat(10n ** 12n) },
];

/** Variable name of the canonical unit inside formulas. */
export const CANON_VAR: Record<Dimension, string> = {
  torque: 'Nm',
  angular_speed: 'rad_s',
  data_rate: 'bit_s',
  mass: 'kg',
  voltage: 'V',
  angle: 'deg',
  length: 'm',
  force: 'N',
  relative: 'pct_fs',
  encoder_bits: 'deg_step',
  encoder_counts: 'deg_step',
};

const varName = (sym: string) => sym.replace(/[/·]/g, '_');

function prefixFormula(to: string, from: string, f: Rat): string {
  if (f.n === 1n) return `${to} = ${from} / ${f.d}`;
  return `${to} = ${from} * ${f.n}`;
}

/** Adds a base SI unit with the given prefixes (by letter). `bases` are alias spellings of the base. */
function addSi(
  bases: string[],
  dimension: Dimension,
  family: string,
  prefixes: string[],
  opts: { extraAliases?: Record<string, string[]> } = {},
): void {
  const canon = CANONICAL_UNIT[dimension];
  const baseSym = bases[0];
  // The canonical unit may itself be prefixed (kg): compute factors relative to it.
  const canonPrefix = PREFIXES.find((x) => canon === x.p + baseSym);
  const canonF = canonPrefix ? canonPrefix.f : ONE;
  const mk = (sym: string, f: Rat): UnitDef => {
    const rel = div(f, canonF);
    return {
      symbol: sym,
      family,
      dimension,
      r: rel,
      k: 0,
      p: 1,
      native: true,
      formula: sym === canon ? `${CANON_VAR[dimension]} = ${CANON_VAR[dimension]}` : prefixFormula(CANON_VAR[dimension], varName(sym), rel),
      variable: sym === canon ? CANON_VAR[dimension] : varName(sym),
      spec_conversion: false,
    };
  };
  add([...bases, ...(opts.extraAliases?.[''] ?? [])], mk(baseSym, ONE));
  for (const px of PREFIXES) {
    if (!prefixes.includes(px.p)) continue;
    const letters = [px.p, ...(px.aliases ?? [])];
    const aliases = letters.flatMap((l) => bases.map((b) => l + b));
    add([...aliases, ...(opts.extraAliases?.[px.p] ?? [])], mk(px.p + baseSym, px.f));
  }
}

// --- torque -------------------------------------------------------------------------------
addSi(['Nm', 'N·m', 'N.m', 'N-m', 'N m', 'N*m'], 'torque', 'nm', ['µ', 'm', 'k', 'M']);
const KGF_CM = R('0.0980665');
add(['kgf·cm', 'kgf.cm', 'kgf-cm', 'kgf cm', 'kgfcm', 'kgf*cm'], {
  symbol: 'kgf·cm', family: 'kgf_cm', dimension: 'torque', r: KGF_CM, k: 0, p: 1, native: false,
  formula: 'Nm = kgf_cm * 0.0980665', variable: 'kgf_cm', spec_conversion: true,
});
add(['kg·cm', 'kg.cm', 'kg-cm', 'kg cm', 'kgcm', 'kg*cm'], {
  symbol: 'kgf·cm', family: 'kgf_cm', dimension: 'torque', r: KGF_CM, k: 0, p: 1, native: false,
  formula: 'Nm = kgf_cm * 0.0980665', variable: 'kgf_cm', spec_conversion: true,
  note: 'kg·cm is the servo-vendor spelling of kilogram-force centimetre (kgf·cm); read as kgf·cm',
});
add(['kgf·m', 'kgf.m', 'kgf-m', 'kgfm'], {
  symbol: 'kgf·m', family: 'kgf_m', dimension: 'torque', r: R('9.80665'), k: 0, p: 1, native: false,
  formula: 'Nm = kgf_m * 9.80665', variable: 'kgf_m', spec_conversion: false,
});
// ozf·in = 0.028349523125 kg × 9.80665 m/s² × 0.0254 m, all exact by definition.
const OZF_IN = mul(mul(R('0.028349523125'), R('9.80665')), R('0.0254'));
add(['oz·in', 'oz-in', 'oz.in', 'ozf·in', 'ozf-in', 'ozf.in', 'oz in', 'ozin'], {
  symbol: 'ozf·in', family: 'ozf_in', dimension: 'torque', r: OZF_IN, k: 0, p: 1, native: false,
  formula: 'Nm = ozf_in * 0.00706155181422604375', variable: 'ozf_in', spec_conversion: false,
});

// --- angular speed ------------------------------------------------------------------------
add(['rad/s', 'rad/sec', 'rad s-1'], {
  symbol: 'rad/s', family: 'rad_s', dimension: 'angular_speed', r: ONE, k: 0, p: 1, native: true,
  formula: 'rad_s = rad_s', variable: 'rad_s', spec_conversion: false,
});
add(['rpm', 'RPM', 'r/min', 'rev/min'], {
  symbol: 'rpm', family: 'rpm', dimension: 'angular_speed', r: rat(1n, 30n), k: 1, p: 1, native: false,
  formula: 'rad_s = rpm * pi / 30', variable: 'rpm', spec_conversion: true,
});
add(['deg/s', '°/s', 'deg/sec', 'dps'], {
  symbol: 'deg/s', family: 'deg_s', dimension: 'angular_speed', r: rat(1n, 180n), k: 1, p: 1, native: false,
  formula: 'rad_s = deg_s * pi / 180', variable: 'deg_s', spec_conversion: false,
});
/** sec/60deg: the servo speed notation, time per 60 degrees (inverse of a speed). */
export const SEC_PER_60DEG: UnitDef = {
  symbol: 'sec/60deg', family: 'sec_deg', dimension: 'angular_speed', r: rat(1n, 3n), k: 1, p: -1, native: false,
  formula: 'rad_s = (pi/3) / t_sec', variable: 't_sec', spec_conversion: true,
  note: 'time per 60 degrees is the inverse of a speed: a smaller number is faster, so sorting raw numbers gives the opposite order of sorting rad/s',
};
add(['sec/60deg', 'sec/60°', 's/60°', 's/60deg'], SEC_PER_60DEG);

// --- data rate ----------------------------------------------------------------------------
addSi(['bit/s', 'bps', 'b/s'], 'data_rate', 'bps', ['k', 'M', 'G', 'T'], {
  extraAliases: { k: ['Kbps', 'Kbit/s', 'Kb/s'] },
});

// --- mass ---------------------------------------------------------------------------------
addSi(['g'], 'mass', 'g', ['µ', 'm', 'k']);
add(['lb', 'lbs'], {
  symbol: 'lb', family: 'lb', dimension: 'mass', r: R('0.45359237'), k: 0, p: 1, native: false,
  formula: 'kg = lb * 0.45359237', variable: 'lb', spec_conversion: false,
});
add(['oz'], {
  symbol: 'oz', family: 'oz', dimension: 'mass', r: R('0.028349523125'), k: 0, p: 1, native: false,
  formula: 'kg = oz * 0.028349523125', variable: 'oz', spec_conversion: false,
});

// --- voltage (AC / DC marks are read as a condition before the unit lookup) ---------------
addSi(['V'], 'voltage', 'v', ['m', 'k']);

// --- angle --------------------------------------------------------------------------------
add(['deg', '°', 'degree', 'degrees'], {
  symbol: 'deg', family: 'deg', dimension: 'angle', r: ONE, k: 0, p: 1, native: true,
  formula: 'deg = deg', variable: 'deg', spec_conversion: false,
});
add(['arcmin', 'arc-min', 'arc min', 'arcminute', 'arcminutes', "'", '′', '弧分', '角分'], {
  symbol: 'arcmin', family: 'arcmin', dimension: 'angle', r: rat(1n, 60n), k: 0, p: 1, native: false,
  formula: 'deg = arcmin / 60', variable: 'arcmin', spec_conversion: true,
});
add(['arcsec', 'arc-sec', 'arc sec', 'arcsecond', 'arcseconds', '"', '″', '′′', '弧秒', '角秒'], {
  symbol: 'arcsec', family: 'arcsec', dimension: 'angle', r: rat(1n, 3600n), k: 0, p: 1, native: false,
  formula: 'deg = arcsec / 3600', variable: 'arcsec', spec_conversion: false,
});
add(['rad'], {
  symbol: 'rad', family: 'rad', dimension: 'angle', r: rat(180n), k: -1, p: 1, native: false,
  formula: 'deg = rad * 180 / pi', variable: 'rad', spec_conversion: false,
});
add(['mrad'], {
  symbol: 'mrad', family: 'rad', dimension: 'angle', r: rat(180n, 1000n), k: -1, p: 1, native: false,
  formula: 'deg = mrad * 180 / (1000 * pi)', variable: 'mrad', spec_conversion: false,
});

// --- length -------------------------------------------------------------------------------
addSi(['m'], 'length', 'm', ['n', 'µ', 'm', 'c'], { extraAliases: { 'µ': ['um'] } });

// --- force --------------------------------------------------------------------------------
addSi(['N'], 'force', 'n', ['m', 'k']);

// --- relative (percent of full scale) -----------------------------------------------------
add(['%FS', '% FS', '%F.S.', '% F.S.', '%F.S', '% F.S', '%fs'], {
  symbol: '%FS', family: 'percent_fs', dimension: 'relative', r: ONE, k: 0, p: 1, native: true,
  formula: 'pct_fs = pct_fs', variable: 'pct_fs', spec_conversion: false,
});

// --- encoder resolution -------------------------------------------------------------------
export const ENCODER_BITS: UnitDef = {
  symbol: 'bit', family: 'bits', dimension: 'encoder_bits', r: rat(360n), k: 0, p: 1, bits: true, native: false,
  formula: 'deg_step = 360 / 2**bits', variable: 'bits', spec_conversion: true,
  note: 'a single-turn quantisation step: a lower bound on resolution, not positioning accuracy',
};
add(['bit', 'bits'], ENCODER_BITS);
add(['cpr', 'CPR', 'counts/rev', 'counts per rev', 'counts per revolution', 'count/rev', 'counts/revolution'], {
  symbol: 'cpr', family: 'cpr', dimension: 'encoder_counts', r: rat(360n), k: 0, p: -1, native: false,
  formula: 'deg_step = 360 / cpr', variable: 'cpr', spec_conversion: false,
  note: 'a quantisation step: a lower bound on resolution, not positioning accuracy',
});

export function lookupUnit(text: string): UnitDef | null {
  return table.get(text) ?? null;
}

/** Target units accepted by convert(): display symbols and their aliases. */
export function lookupTargetUnit(text: string): UnitDef | null {
  const t = text.normalize('NFKC').replace(/\s+/g, ' ').trim();
  return table.get(t) ?? bySymbol.get(t) ?? null;
}

export function unitSymbols(): string[] {
  return [...bySymbol.keys()];
}
