/**
 * Red lines RL-01..RL-06: screening heuristics over an entity's vendor-declared values. Each one
 * fires, does not fire, or cannot be evaluated (naming the declared value that is missing). A red
 * line that fires marks the entry for manual review; it is not a verdict on the part or the vendor.
 *
 * The name / physics / common_trick / how_to_verify texts are written for this project.
 */
import type { DeclaredKey, StoredEntity } from '../catalogue/entity.js';
import { parseParameter, type ParsedParameter } from '../parameters/index.js';

export const RED_LINE_IDS = ['RL-01', 'RL-02', 'RL-03', 'RL-04', 'RL-05', 'RL-06'] as const;
export type RedLineId = (typeof RED_LINE_IDS)[number];

export interface RedLineDefinition {
  id: RedLineId;
  name: string;
  check: string;
  threshold: string;
  physics: string;
  common_trick: string;
  how_to_verify: string;
}

export const RED_LINES: readonly RedLineDefinition[] = [
  {
    id: 'RL-01',
    name: 'Torque density of a joint module',
    check: 'rated torque (Nm) / whole-module mass (kg)',
    threshold: '> 120 Nm/kg needs review; > 200 Nm/kg is practically not credible',
    physics:
      'Continuous torque is bounded by how much heat the windings can shed and by the magnetic flux the motor can carry, and the gearbox must survive it; all of these scale with material and mass, so a control scheme cannot lift the ratio far above what comparable modules reach.',
    common_trick:
      'Dividing a short-burst peak torque by the mass of the bare motor (without gearbox, housing, encoder, brake or cables) inflates the ratio several times.',
    how_to_verify:
      'Ask whether the torque is rated (continuous) or peak, and whether the mass is the complete module as shipped, weighed with its cables.',
  },
  {
    id: 'RL-02',
    name: 'Peak-to-rated torque ratio',
    check: 'peak torque / rated torque',
    threshold: '> 3 needs the allowed duration and starting temperature; > 5 is essentially an instantaneous stall value',
    physics:
      'Above the rated point the windings heat faster than they cool and the magnetic circuit saturates, so a peak torque only holds for a limited time from a given starting temperature; without that time it is not a property of the part.',
    common_trick: 'Quoting a value that lasts a fraction of a second, or a locked-rotor figure, as the peak torque without saying so.',
    how_to_verify:
      'Ask how many seconds the peak can be held, from what winding temperature, and how often it can be repeated (duty cycle).',
  },
  {
    id: 'RL-03',
    name: 'Backlash without a measurement load',
    check: 'backlash (arcmin) stated together with the load it was measured under',
    threshold: 'a backlash value without its measurement torque is not comparable',
    physics:
      'Measured lost motion grows with the torque applied during the measurement, because teeth, bearings and the flange deflect; an unloaded reading can look far better than one taken at a few percent of rated torque.',
    common_trick: 'Publishing an unloaded figure, or the gearbox alone instead of the lost motion of the assembled joint.',
    how_to_verify:
      'Ask for the measurement torque and whether the figure is the reducer alone or the complete joint including bearings and output flange.',
  },
  {
    id: 'RL-04',
    name: 'Repeatability and absolute accuracy mixed',
    check: 'accuracy stated as repeatability or as absolute accuracy',
    threshold: 'the two differ by one to two orders of magnitude; mixing them is meaningless',
    physics:
      'Repeatability is the scatter when returning to the same taught point; absolute accuracy is the error against a commanded coordinate and also carries calibration, kinematic and thermal errors, so it is usually far larger.',
    common_trick: 'Printing the repeatability figure under a heading that reads like positioning accuracy.',
    how_to_verify:
      'Ask which of the two the number is, under which standard and conditions (load, speed, temperature), and ask for the other one too.',
  },
  {
    id: 'RL-05',
    name: 'Scope of the IP rating',
    check: 'which part of the unit the IP rating covers',
    threshold: 'sealing of the output end only is not a rating of the whole unit',
    physics:
      'An ingress-protection code holds only for the enclosure that was tested; connectors, cable glands, vents and the rear housing are separate paths for dust and water.',
    common_trick: 'Quoting the rating of the sealed output shaft, or of the unit with mating connectors fitted, as if it applied to the whole module.',
    how_to_verify:
      'Ask which enclosure was tested, with which connectors and cables fitted, and ask for the test report.',
  },
  {
    id: 'RL-06',
    name: 'Encoder resolution presented as accuracy',
    check: 'position_resolution used as accuracy',
    threshold: 'resolution is a quantisation lower bound only',
    physics:
      'An encoder step is the smallest change the sensor can report; the position actually reached also depends on mounting eccentricity, gear transmission error, compliance and the control loop, so accuracy is always worse than the step.',
    common_trick: 'Converting the bit count into degrees (for example 360 / 2^14) and printing the result as the accuracy of the joint.',
    how_to_verify:
      'Ask for a measured positioning accuracy at the output, how it was measured, and on which side of the gearbox the encoder sits.',
  },
];

export type RedLineStatus = 'fires' | 'does_not_fire' | 'cannot_evaluate';

export interface RedLineInput {
  field: DeclaredKey;
  declared: string | null;
  dialect: string;
}

export interface RedLineResult {
  id: RedLineId;
  name: string;
  status: RedLineStatus;
  /** When it fires: which threshold band. */
  severity: 'review' | 'not_credible' | 'instantaneous' | null;
  threshold: string;
  /** The declared values this red line read. */
  inputs: RedLineInput[];
  /** The numbers behind the outcome (e.g. rated_torque_nm, mass_kg, ratio_nm_per_kg). */
  numbers: Record<string, number | string | null>;
  /** Declared values that are missing or unreadable, when it cannot be evaluated. */
  missing: DeclaredKey[];
  reason: string;
  ask_vendor: string[];
}

export interface ScreeningResult {
  id: string;
  name: string;
  summary: { fires: number; does_not_fire: number; cannot_evaluate: number };
  red_lines: RedLineResult[];
  note: string;
}

export const SCREENING_NOTE =
  'Screening marks for manual review, computed only from vendor-declared values; not a verdict on the part or its vendor.';

function def(id: RedLineId): RedLineDefinition {
  return RED_LINES.find((r) => r.id === id)!;
}

function input(e: StoredEntity, field: DeclaredKey, p: ParsedParameter | null): RedLineInput {
  // A number with no unit is its own case, not a dialect the parser failed to recognise.
  const dialect = !p ? 'absent' : !p.recognized && /^\s*\d+(?:\.\d+)?\s*$/.test(p.input) ? 'bare_number' : p.dialect;
  return { field, declared: e.declared[field] ?? null, dialect };
}

function result(
  id: RedLineId,
  status: RedLineStatus,
  fields: Omit<RedLineResult, 'id' | 'name' | 'status' | 'threshold'>,
): RedLineResult {
  const d = def(id);
  return { id, name: d.name, status, threshold: d.threshold, ...fields };
}

/** A single exact value (no range, no bound) of the quantity, else null. */
function exactSingle(p: ParsedParameter, quantity: ParsedParameter['quantity']): number | null {
  if (p.quantity !== quantity || !p.si || p.si.value === null) return null;
  if (p.qualifier !== null && p.qualifier !== 'plus_minus') return null;
  return p.si.value;
}

function round(x: number, digits = 4): number {
  return Number(x.toPrecision(digits));
}

function why(p: ParsedParameter): string {
  if (p.dialect === 'absent') return 'not declared';
  if (!p.recognized) return `not read exactly ("${p.input}")`;
  if (p.si?.range) return `a range ("${p.input}")`;
  if (p.qualifier && p.qualifier !== 'plus_minus') return `a bound, not a value ("${p.input}")`;
  return `not a single value of the needed quantity ("${p.input}")`;
}

function rl01(e: StoredEntity): RedLineResult {
  const tp = parseParameter(e.declared.torque, 'torque');
  const wp = parseParameter(e.declared.weight, 'weight');
  const inputs = [input(e, 'torque', tp), input(e, 'weight', wp)];
  const ask = [def('RL-01').how_to_verify];
  const torqueIsPeak = tp.condition.rating === 'peak' || tp.condition.rating === 'stall';
  const t = torqueIsPeak ? null : exactSingle(tp, 'torque');
  const m = exactSingle(wp, 'mass');
  const missing: DeclaredKey[] = [];
  const reasons: string[] = [];
  if (t === null) {
    missing.push('torque');
    reasons.push(torqueIsPeak ? 'the declared torque is a peak value, no rated torque' : `rated torque ${why(tp)}`);
  }
  if (m === null) {
    missing.push('weight');
    reasons.push(`module mass ${why(wp)}`);
  }
  if (t === null || m === null || m === 0) {
    return result('RL-01', 'cannot_evaluate', {
      severity: null,
      inputs,
      numbers: { rated_torque_nm: t, mass_kg: m, ratio_nm_per_kg: null },
      missing,
      reason: `cannot be evaluated: ${reasons.join('; ') || 'mass is zero'}`,
      ask_vendor: ['Ask for the rated (continuous) torque and the mass of the complete module.', ...ask],
    });
  }
  const ratio = t / m;
  const numbers = { rated_torque_nm: t, mass_kg: m, ratio_nm_per_kg: round(ratio) };
  const caveat = tp.condition.rating === null ? ' (the torque is not marked rated or peak; read here as rated)' : '';
  if (ratio > 200) {
    return result('RL-01', 'fires', {
      severity: 'not_credible',
      inputs,
      numbers,
      missing: [],
      reason: `${round(ratio)} Nm/kg is above 200 Nm/kg: practically not credible as a rated value for a whole module${caveat}`,
      ask_vendor: ask,
    });
  }
  if (ratio > 120) {
    return result('RL-01', 'fires', {
      severity: 'review',
      inputs,
      numbers,
      missing: [],
      reason: `${round(ratio)} Nm/kg is above 120 Nm/kg: needs review${caveat}`,
      ask_vendor: ask,
    });
  }
  return result('RL-01', 'does_not_fire', {
    severity: null,
    inputs,
    numbers,
    missing: [],
    reason: `${round(ratio)} Nm/kg is within 120 Nm/kg${caveat}`,
    ask_vendor: caveat ? ask : [],
  });
}

function rl02(e: StoredEntity): RedLineResult {
  const tp = parseParameter(e.declared.torque, 'torque');
  const pp = parseParameter(e.declared.peak_torque, 'peak_torque');
  const torqueIsPeak = tp.condition.rating === 'peak' || tp.condition.rating === 'stall';
  // The peak: the peak_torque field, or a torque field explicitly marked peak.
  const peakP = e.declared.peak_torque !== undefined ? pp : torqueIsPeak ? tp : pp;
  const peakField: DeclaredKey = e.declared.peak_torque !== undefined || !torqueIsPeak ? 'peak_torque' : 'torque';
  const inputs = [input(e, 'torque', tp), input(e, 'peak_torque', pp)];
  const peak = exactSingle(peakP, 'torque');
  const rated = torqueIsPeak ? null : exactSingle(tp, 'torque');
  const ask = [def('RL-02').how_to_verify];
  const missing: DeclaredKey[] = [];
  const reasons: string[] = [];
  if (rated === null) {
    missing.push('torque');
    reasons.push(torqueIsPeak ? 'no rated torque (the torque field holds a peak value)' : `rated torque ${why(tp)}`);
  }
  if (peak === null) {
    missing.push(peakField);
    reasons.push(`peak torque ${why(peakP)}`);
  }
  if (rated === null || peak === null || rated === 0) {
    return result('RL-02', 'cannot_evaluate', {
      severity: null,
      inputs,
      numbers: { peak_torque_nm: peak, rated_torque_nm: rated, ratio: null },
      missing,
      reason: `cannot be evaluated: ${reasons.join('; ') || 'rated torque is zero'}`,
      ask_vendor: ['Ask for both the rated and the peak torque, under the same conditions.', ...ask],
    });
  }
  const ratio = peak / rated;
  const numbers = { peak_torque_nm: peak, rated_torque_nm: rated, ratio: round(ratio) };
  if (ratio > 5) {
    return result('RL-02', 'fires', {
      severity: 'instantaneous',
      inputs,
      numbers,
      missing: [],
      reason: `peak / rated = ${round(ratio)} is above 5: essentially an instantaneous stall value`,
      ask_vendor: ask,
    });
  }
  if (ratio > 3) {
    return result('RL-02', 'fires', {
      severity: 'review',
      inputs,
      numbers,
      missing: [],
      reason: `peak / rated = ${round(ratio)} is above 3: needs the allowed duration and starting temperature`,
      ask_vendor: ask,
    });
  }
  return result('RL-02', 'does_not_fire', {
    severity: null,
    inputs,
    numbers,
    missing: [],
    reason: `peak / rated = ${round(ratio)} is within 3`,
    ask_vendor: [],
  });
}

function rl03(e: StoredEntity): RedLineResult {
  const bp = parseParameter(e.declared.backlash, 'backlash');
  const inputs = [input(e, 'backlash', bp)];
  const ask = [def('RL-03').how_to_verify];
  if (e.declared.backlash === undefined || bp.dialect === 'absent') {
    return result('RL-03', 'cannot_evaluate', {
      severity: null,
      inputs,
      numbers: { backlash_arcmin: null, load: null },
      missing: ['backlash'],
      reason: 'cannot be evaluated: no backlash declared',
      ask_vendor: ['Ask for the backlash (lost motion) of the complete joint and its measurement torque.'],
    });
  }
  const deg = bp.quantity === 'backlash' && bp.si?.value != null ? bp.si.value : null;
  const arcmin = deg === null ? null : round(deg * 60, 6);
  const numbers = { backlash_arcmin: arcmin, load: bp.condition.load };
  if (bp.condition.load !== null) {
    return result('RL-03', 'does_not_fire', {
      severity: null,
      inputs,
      numbers,
      missing: [],
      reason: `backlash declared with its measurement load (${bp.condition.load})`,
      ask_vendor: [],
    });
  }
  const unitNote = bp.recognized ? '' : bp.dialect.endsWith('qualitative') ? ' (and it is qualitative)' : ' (and its unit or notation is not readable)';
  return result('RL-03', 'fires', {
    severity: 'review',
    inputs,
    numbers,
    missing: [],
    reason: `backlash "${e.declared.backlash}" is declared without the torque it was measured under${unitNote}: not comparable`,
    ask_vendor: ask,
  });
}

const REPEATABILITY_WORDS = /repeatab|重复/i;
const ABSOLUTE_WORDS = /absolute|绝对|pose accuracy|positioning accuracy/i;

function rl04(e: StoredEntity): RedLineResult {
  const raw = e.declared.accuracy;
  const ap = parseParameter(raw, 'accuracy');
  const inputs = [input(e, 'accuracy', ap)];
  const ask = [def('RL-04').how_to_verify];
  if (raw === undefined || ap.dialect === 'absent') {
    return result('RL-04', 'cannot_evaluate', {
      severity: null,
      inputs,
      numbers: { accuracy_kind: null },
      missing: ['accuracy'],
      reason: 'cannot be evaluated: no accuracy declared',
      ask_vendor: ['Ask for repeatability and absolute accuracy separately, with the standard and conditions.'],
    });
  }
  const rep = REPEATABILITY_WORDS.test(raw);
  const abs = ABSOLUTE_WORDS.test(raw);
  const kind = ap.condition.accuracy_kind ?? (rep && !abs ? 'repeatability' : abs && !rep ? 'absolute' : null);
  if (rep && abs) {
    return result('RL-04', 'fires', {
      severity: 'review',
      inputs,
      numbers: { accuracy_kind: 'both named' },
      missing: [],
      reason: `"${raw}" names both repeatability and absolute accuracy in one value: check which number is which`,
      ask_vendor: ask,
    });
  }
  if (kind !== null) {
    return result('RL-04', 'does_not_fire', {
      severity: null,
      inputs,
      numbers: { accuracy_kind: kind },
      missing: [],
      reason: `accuracy declared as ${kind}; compare it only with ${kind} values`,
      ask_vendor: [],
    });
  }
  return result('RL-04', 'fires', {
    severity: 'review',
    inputs,
    numbers: { accuracy_kind: null },
    missing: [],
    reason: `"${raw}" does not say whether it is repeatability or absolute accuracy; the two differ by one to two orders of magnitude`,
    ask_vendor: ask,
  });
}

const IP_CODE = /\bIP ?([0-6X])([0-9X])(K?)\b/i;
const OUTPUT_ONLY = /output|shaft|front|flange|输出/i;
const WHOLE_UNIT = /whole|entire|complete|full[- ]body|整机|全身|housing|enclosure|module/i;

function rl05(e: StoredEntity): RedLineResult {
  const raw = e.declared.ip_rating;
  const inputs: RedLineInput[] = [{ field: 'ip_rating', declared: raw ?? null, dialect: raw === undefined ? 'absent' : 'ip_rating' }];
  const ask = [def('RL-05').how_to_verify];
  if (raw === undefined || raw.trim() === '') {
    return result('RL-05', 'cannot_evaluate', {
      severity: null,
      inputs,
      numbers: { ip_code: null, scope: null },
      missing: ['ip_rating'],
      reason: 'cannot be evaluated: no IP rating declared',
      ask_vendor: ['Ask for the IP rating and which enclosure it was tested on.'],
    });
  }
  const m = IP_CODE.exec(raw);
  const code = m ? `IP${m[1].toUpperCase()}${m[2].toUpperCase()}${m[3].toUpperCase()}` : null;
  if (code === null) {
    return result('RL-05', 'fires', {
      severity: 'review',
      inputs,
      numbers: { ip_code: null, scope: null },
      missing: [],
      reason: `"${raw}" is not an IP code: a sealing claim without a tested rating`,
      ask_vendor: ask,
    });
  }
  if (OUTPUT_ONLY.test(raw) && !WHOLE_UNIT.test(raw)) {
    return result('RL-05', 'fires', {
      severity: 'review',
      inputs,
      numbers: { ip_code: code, scope: 'output end' },
      missing: [],
      reason: `${code} is stated for the output end only; it is not a rating of the whole unit`,
      ask_vendor: ask,
    });
  }
  if (WHOLE_UNIT.test(raw)) {
    return result('RL-05', 'does_not_fire', {
      severity: null,
      inputs,
      numbers: { ip_code: code, scope: 'whole unit' },
      missing: [],
      reason: `${code} is stated for the whole unit`,
      ask_vendor: [],
    });
  }
  return result('RL-05', 'fires', {
    severity: 'review',
    inputs,
    numbers: { ip_code: code, scope: null },
    missing: [],
    reason: `${code} is declared without saying which part of the unit it covers`,
    ask_vendor: ask,
  });
}

const RESOLUTION_WORDS = /\bbits?\b|-bit|\bcpr\b|encoder|resolution|分辨率/i;

function rl06(e: StoredEntity): RedLineResult {
  const rawAcc = e.declared.accuracy;
  const rawRes = e.declared.position_resolution;
  const ap = parseParameter(rawAcc, 'accuracy');
  const rp = parseParameter(rawRes, 'position_resolution');
  const inputs = [input(e, 'position_resolution', rp), input(e, 'accuracy', ap)];
  const ask = [def('RL-06').how_to_verify];
  const step = rp.quantity === 'position_resolution' && rp.si?.value != null ? rp.si.value : null;
  const numbers: Record<string, number | string | null> = {
    resolution_step_deg: step,
    accuracy_deg: ap.dimension === 'angle' && ap.si?.value != null ? ap.si.value : null,
  };
  if (rawAcc === undefined && rawRes === undefined) {
    return result('RL-06', 'cannot_evaluate', {
      severity: null,
      inputs,
      numbers,
      missing: ['position_resolution', 'accuracy'],
      reason: 'cannot be evaluated: neither a position resolution nor an accuracy is declared',
      ask_vendor: [],
    });
  }
  if (rawAcc !== undefined) {
    if (ap.quantity === 'position_resolution' || (!ap.recognized && RESOLUTION_WORDS.test(rawAcc))) {
      return result('RL-06', 'fires', {
        severity: 'review',
        inputs,
        numbers,
        missing: [],
        reason: `the accuracy "${rawAcc}" is an encoder resolution: a quantisation lower bound, not an accuracy`,
        ask_vendor: ask,
      });
    }
    const acc = numbers.accuracy_deg;
    if (typeof acc === 'number' && step !== null && step > 0 && Math.abs(acc - step) / step < 0.02) {
      return result('RL-06', 'fires', {
        severity: 'review',
        inputs,
        numbers,
        missing: [],
        reason: `the declared accuracy (${acc} deg) equals the encoder step (${step} deg): the resolution is presented as accuracy`,
        ask_vendor: ask,
      });
    }
    return result('RL-06', 'does_not_fire', {
      severity: null,
      inputs,
      numbers,
      missing: [],
      reason: 'the declared accuracy is not an encoder resolution',
      ask_vendor: [],
    });
  }
  // A bare number is never given a unit: "4096" would be 12 bit as counts per revolution, but the record does not say counts.
  const bare = rawRes !== undefined && /^\s*\d+\s*$/.test(rawRes) ? Number(rawRes) : null;
  const bits = bare !== null && bare > 1 && Number.isInteger(Math.log2(bare)) ? Math.log2(bare) : null;
  const unstated = bare === null ? '' : `: "${rawRes}" is a bare number, no unit stated, so it is not read${bits !== null ? ` (as counts per revolution it would be ${bits} bit; the record does not say counts)` : ''}`;
  return result('RL-06', 'does_not_fire', {
    severity: null,
    inputs,
    numbers,
    missing: [],
    reason: `only a resolution ("${rawRes}") is declared, not presented as accuracy; read it as a quantisation step, never as accuracy${unstated}`,
    ask_vendor: [],
  });
}

/** Runs RL-01..RL-06 on one entity's declared values. Never throws on odd declarations. */
export function screenEntity(entity: StoredEntity): ScreeningResult {
  const red_lines = [rl01(entity), rl02(entity), rl03(entity), rl04(entity), rl05(entity), rl06(entity)];
  const count = (s: RedLineStatus) => red_lines.filter((r) => r.status === s).length;
  return {
    id: entity.id,
    name: entity.name_en || entity.name,
    summary: { fires: count('fires'), does_not_fire: count('does_not_fire'), cannot_evaluate: count('cannot_evaluate') },
    red_lines,
    note: SCREENING_NOTE,
  };
}
