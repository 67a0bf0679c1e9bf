/**
 * 3D-print suggestions: printable structural parts, and adapter plates for flange pairs whose
 * ruling is adapter_required. The numbers come from data/print.json, engineering rules of thumb
 * that every suggestion labels as such; the bolt patterns come from the flange registry.
 */
import { z } from 'zod';
import type { StoredEntity } from '../catalogue/entity.js';
import type { FlangeRulingRecord } from '../knowledge/flange.js';
import { parseParameter } from '../parameters/index.js';
import type { AdapterPlateSuggestion } from './schema.js';
import { normaliseName } from './suppliers.js';
import { PARSE_ONCE } from '../shared/parse-once.js';

export const PrintRules = z
  .object({
    meta: z.object({ name: z.string(), version: z.string(), schema: z.literal('print_rules/v1'), status: z.string(), authored_by: z.string() }).strict(),
    clearance_holes_mm: z.object({ basis: z.string(), by_thread: z.record(z.string(), z.number().positive()) }).strict(),
    material: z.object({ recommended: z.string(), alternative: z.string(), avoid: z.string(), reason: z.string() }).strict(),
    structural: z
      .object({
        categories: z.array(z.string()),
        types: z.array(z.string()),
        name_tokens: z.array(z.string()),
        name_phrases: z.array(z.string()),
        non_structural_categories: z.array(z.string()),
        exclude_types: z.array(z.string()),
        exclude_tokens: z.array(z.string()),
        min_wall_mm: z.number().positive(),
        infill_min_pct: z.number().positive(),
        rule: z.string(),
      })
      .strict(),
    adapter_plate: z
      .object({
        min_thickness_floor_mm: z.number().positive(),
        thickness_per_bolt_diameter: z.number().positive(),
        edge_distance_per_bolt_diameter: z.number().positive(),
        min_web_mm: z.number().positive(),
        bearing_stress_allowable_mpa: z.number().positive(),
        thickness_rule: z.string(),
        outline_rule: z.string(),
        torque_rule: z.string(),
      })
      .strict(),
  })
  .strict();
export type PrintRules = z.infer<typeof PrintRules>;

export function parsePrintRules(json: unknown): PrintRules {
  return PrintRules.parse(json, PARSE_ONCE);
}



// ------------------------------------------------------------------ structural parts

export interface StructuralVerdict {
  printable: boolean;
  reason: string;
}

const lower = (s: string | null | undefined) => (s ?? '').trim().toLowerCase();

/**
 * Whether a line is a printable structural part (bracket, link set, housing ...).
 * Decision order: excluded stock parts (extrusions, fasteners, bearings) never; a structural
 * type or category yes; otherwise a structural word in the name, unless a category says the part
 * is something else (an actuator named "... flange mount" is still an actuator).
 */
export function structuralVerdict(
  rules: PrintRules,
  item: { name?: string | null; category?: string | null },
  record: StoredEntity | null,
): StructuralVerdict {
  const r = rules.structural;
  const type = lower(record?.type);
  const names = [item.name, record?.name, record?.name_en].filter((x): x is string => !!x);
  const tokens = new Set([...names, type].flatMap((t) => normaliseName(t).split(' ')).filter(Boolean));
  const categories = [item.category, record?.category].map(lower).filter(Boolean);

  if (type && r.exclude_types.includes(type)) return { printable: false, reason: `type "${type}" is a stock part` };
  const excluded = r.exclude_tokens.find((t) => tokens.has(t));
  if (excluded) return { printable: false, reason: `"${excluded}" is a stock part` };
  if (type && r.types.includes(type)) return { printable: true, reason: `catalogue type "${type}"` };
  const cat = categories.find((c) => r.categories.includes(c));
  if (cat) return { printable: true, reason: `category "${cat}"` };
  if (categories.some((c) => r.non_structural_categories.includes(c))) return { printable: false, reason: 'not a structural category' };
  const joined = names.map((n) => ` ${normaliseName(n)} `);
  const word = r.name_tokens.find((t) => tokens.has(t)) ?? r.name_phrases.find((p) => joined.some((n) => n.includes(` ${p} `)));
  if (word) return { printable: true, reason: `name contains "${word}"` };
  return { printable: false, reason: 'not recognised as a structural part' };
}

// ------------------------------------------------------------------ declared torque

export interface PartTorque {
  line: number;
  id: string;
  /** Highest exactly readable declared torque, Nm; null when none. */
  nm: number | null;
  evidence: string[];
}

/** N·m of a declared torque string when the parameter parser reads one exact value (any rating). */
function readTorqueNm(text: string): number | null {
  const p = parseParameter(text, 'torque');
  if (p.quantity !== 'torque' || p.qualifier !== null || !p.si || p.si.range !== null || p.si.exact == null) return null;
  return Number(p.si.exact);
}

/**
 * Declared torque of a catalogue record, as a load: the spec-shaped `torque` ("<n> Nm"), else the
 * declared torque string, and the declared peak torque, each when the parameter parser reads it
 * exactly. The highest is the load. Values that do not read exactly are listed, never guessed.
 */
export function partTorque(line: number, id: string, record: StoredEntity | null): PartTorque {
  const evidence: string[] = [];
  const values: number[] = [];
  if (!record) return { line, id, nm: null, evidence: [`${id}: not in the catalogue, no declared torque`] };
  const shaped = /^(\d+(?:\.\d+)?) Nm$/.exec(record.torque);
  if (shaped) {
    values.push(Number(shaped[1]));
    evidence.push(`${record.id}: torque "${record.torque}"`);
  } else if (record.declared.torque !== undefined) {
    const nm = readTorqueNm(record.declared.torque);
    if (nm !== null) {
      values.push(nm);
      evidence.push(`${record.id}: declared torque "${record.declared.torque}" = ${nm} Nm`);
    } else evidence.push(`${record.id}: declared torque "${record.declared.torque}" not exactly readable`);
  }
  const peak = record.declared.peak_torque;
  if (peak !== undefined) {
    const nm = readTorqueNm(peak);
    if (nm !== null) {
      values.push(nm);
      evidence.push(`${record.id}: declared peak torque "${peak}" = ${nm} Nm`);
    } else evidence.push(`${record.id}: declared peak torque "${peak}" not exactly readable`);
  }
  if (values.length === 0 && evidence.length === 0) evidence.push(`${record.id}: no torque declared`);
  return { line, id, nm: values.length ? Math.max(...values) : null, evidence };
}

// ------------------------------------------------------------------ adapter plates

export function threadDiameterMm(thread: string): number | null {
  const m = /^M(\d+(?:\.\d+)?)$/i.exec(thread.trim());
  return m ? Number(m[1]) : null;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
const round1 = (x: number) => Math.round(x * 10) / 10;
const floor1 = (x: number) => Math.floor(x * 10 + 1e-9) / 10;

export interface AdapterPlateInput {
  ruling: FlangeRulingRecord;
  parts_a: { line: number; id: string }[];
  parts_b: { line: number; id: string }[];
  torques: PartTorque[];
}

/** An adapter plate suggestion for one adapter_required designation pair (without id and services). */
export function adapterPlate(rules: PrintRules, input: AdapterPlateInput): Omit<AdapterPlateSuggestion, 'id' | 'print_services'> {
  const { ruling } = input;
  const ap = rules.adapter_plate;
  const [desA, desB] = ruling.pair;
  const dA = threadDiameterMm(ruling.side_a.thread);
  const dB = threadDiameterMm(ruling.side_b.thread);
  if (dA === null || dB === null) throw new Error(`unreadable thread in ruling ${desA} / ${desB}`);
  const cA = rules.clearance_holes_mm.by_thread[ruling.side_a.thread] ?? null;
  const cB = rules.clearance_holes_mm.by_thread[ruling.side_b.thread] ?? null;
  const warnings: string[] = [];

  const t = Math.max(ap.min_thickness_floor_mm, ap.thickness_per_bolt_diameter * Math.max(dA, dB));
  const od = Math.max(
    ruling.side_a.pcd_mm + 2 * ap.edge_distance_per_bolt_diameter * dA,
    ruling.side_b.pcd_mm + 2 * ap.edge_distance_per_bolt_diameter * dB,
  );

  // Hole clash: coincident angles leave |rA - rB| between hole centres; the best rotation of
  // pattern b is half the angular step of lcm(nA, nB) holes.
  const rA = ruling.side_a.pcd_mm / 2;
  const rB = ruling.side_b.pcd_mm / 2;
  const holeA = cA ?? dA;
  const holeB = cB ?? dB;
  if (cA === null || cB === null) warnings.push('clearance hole size not tabulated for a thread: hole clash check used the nominal diameter');
  const need = (holeA + holeB) / 2 + ap.min_web_mm;
  let clock = false;
  let clockingDeg: number | null = null;
  let fit = true;
  if (Math.abs(rA - rB) < need) {
    const nA = ruling.side_a.bolt_count;
    const nB = ruling.side_b.bolt_count;
    const lcm = (nA * nB) / gcd(nA, nB);
    const delta = Math.PI / lcm;
    const dist = Math.sqrt(rA * rA + rB * rB - 2 * rA * rB * Math.cos(delta));
    if (dist >= need) {
      clock = true;
      clockingDeg = round1(180 / lcm);
    } else {
      fit = false;
      warnings.push(
        `The two hole patterns cannot share one flat plate: at any rotation their holes come closer than ${need} mm centre to centre. Use a two-piece or stepped adapter.`,
      );
    }
  }

  // Load: rule-of-thumb bearing limit on the weaker pattern.
  const capacity = (n: number, d: number, pcd: number) => n * d * (pcd / 2);
  const weaker = Math.min(capacity(ruling.side_a.bolt_count, dA, ruling.side_a.pcd_mm), capacity(ruling.side_b.bolt_count, dB, ruling.side_b.pcd_mm));
  const limitNm = floor1((ap.bearing_stress_allowable_mpa * t * weaker) / 1000);
  const known = input.torques.filter((p) => p.nm !== null);
  const maxNm = known.length ? Math.max(...known.map((p) => p.nm as number)) : null;
  const evidence = input.torques.flatMap((p) => p.evidence);
  let status: AdapterPlateSuggestion['load']['status'];
  if (maxNm === null) {
    status = 'unknown';
    warnings.push('No declared torque for these parts: the load on a printed plate was not assessed. Check it against the joint torque before printing.');
  } else if (maxNm > limitNm) {
    status = 'beyond_printed';
    const who = known.filter((p) => p.nm === maxNm).map((p) => p.id);
    warnings.push(
      `Declared torque ${maxNm} Nm (${who.join(', ')}) is beyond the ${limitNm} Nm a printed plate of this size should carry (rule of thumb): machine the adapter from aluminium or steel.`,
    );
  } else {
    status = 'within_rule_of_thumb';
  }

  const side = (des: string, s: FlangeRulingRecord['side_a'], c: number | null) => ({
    designation: des,
    pcd_mm: s.pcd_mm,
    bolt_count: s.bolt_count,
    thread: s.thread,
    clearance_hole_mm: c,
  });

  return {
    kind: 'adapter_plate',
    side_a: side(desA, ruling.side_a, cA),
    side_b: side(desB, ruling.side_b, cB),
    blocking_dims: [...ruling.blocking_dims],
    parts_a: input.parts_a,
    parts_b: input.parts_b,
    material: { ...rules.material },
    min_thickness_mm: t,
    min_outer_diameter_mm: round1(od),
    clock_patterns: clock,
    clocking_deg: clockingDeg,
    patterns_fit: fit,
    load: { status, declared_torque_nm: maxNm, printed_limit_nm: limitNm, evidence, rule: ap.torque_rule },
    warnings,
    rule_of_thumb: `${ap.thickness_rule} ${ap.outline_rule}`,
  };
}
