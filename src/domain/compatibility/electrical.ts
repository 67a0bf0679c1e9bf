/**
 * Electrical dimension: can both parts run from one supply voltage within both declared ranges?
 *
 * Ranges come from the spec-shaped `voltage` field ("<min>~<max>V"), read with the parameter
 * module's voltageRange(); when it is "N/A" the verbatim declared.voltage is tried with the same
 * reader (so nothing is read that the parameter module would not read exactly). A single declared
 * value is a nominal point (min = max). Current, power and AC/DC beyond what the reader accepts are
 * not checked.
 * - either side not exactly readable -> unknown
 * - ranges share at least one voltage -> compatible (relation equal / a_contains_b / b_contains_a /
 *   overlap, with the common range)
 * - no shared voltage (relation disjoint):
 *   - parts that MUST share one rail (role `shared_rail`: the caller states that both hang on the
 *     same supply, e.g. a daisy-chained bus that carries power, or a battery feeding a part directly)
 *     -> incompatible: no voltage of that rail suits both;
 *   - otherwise -> adapter_required, adapter "separate supply rail or converter", both ranges named.
 *     Two parts with different supply voltages can run side by side from two rails or through a
 *     DC-DC converter; that is a wiring need, not a fact against the pair. No catalogue record
 *     declares how it is wired, so check_compatibility never assumes a shared rail.
 * A side declared as a single value is a nominal point (min = max) compared as such; the answer
 * says that its tolerance band is not declared (in the reason and as a condition).
 */
import type { StoredEntity } from '../catalogue/entity.js';
import { voltageRange } from '../parameters/index.js';
import { ev, type ElectricalResult, type Evidence, type VoltRange } from './types.js';
import { memoReading } from '../shared/memo.js';

const fmt = (r: VoltRange) => (r.min === r.max ? `${r.min} V` : `${r.min}–${r.max} V`);

type SideReading = { range: VoltRange | null; evidence: Evidence[]; written: string | null };
const SIDES = { a: { side: 'a' as const }, b: { side: 'b' as const } };
const readSideOnce = memoReading((s: { side: 'a' | 'b' }, e: StoredEntity): SideReading => readSideOf(e, s.side));
const readSide = (e: StoredEntity, side: 'a' | 'b'): SideReading => readSideOnce(SIDES[side], e);

function readSideOf(e: StoredEntity, side: 'a' | 'b'): SideReading {
  const evidence = [ev(side, 'voltage', e.voltage, e), ev(side, 'declared.voltage', e.declared.voltage ?? null, e)];
  if (e.voltage !== 'N/A') {
    const r = voltageRange(e.voltage);
    if (r) return { range: r, evidence, written: e.voltage };
  }
  if (e.declared.voltage !== undefined) {
    const r = voltageRange(e.declared.voltage);
    if (r) return { range: r, evidence, written: e.declared.voltage };
  }
  return { range: null, evidence, written: e.declared.voltage ?? (e.voltage === 'N/A' ? null : e.voltage) };
}

export interface ElectricalRoles {
  /** Both parts must run from one and the same supply rail (stated by the caller, never inferred). */
  shared_rail?: boolean;
}

export function electricalDimension(a: StoredEntity, b: StoredEntity, roles: ElectricalRoles = {}): ElectricalResult {
  const sa = readSide(a, 'a');
  const sb = readSide(b, 'b');
  const evidence = [...sa.evidence, ...sb.evidence];
  const ra = sa.range;
  const rb = sb.range;
  if (!ra || !rb) {
    const why = (['a', 'b'] as const)
      .filter((s) => (s === 'a' ? ra : rb) === null)
      .map((s) => {
        const w = (s === 'a' ? sa : sb).written;
        return w === null ? `${s} declares no voltage` : `${s}'s voltage "${w}" is not exactly readable`;
      });
    return {
      verdict: 'unknown',
      reason: `${why.join('; ')}.`,
      evidence,
      conditions: [],
      adapters: [],
      detail: { range_a: ra, range_b: rb, relation: null, common_range: null },
    };
  }
  const lo = Math.max(ra.min, rb.min);
  const hi = Math.min(ra.max, rb.max);
  const points = (['a', 'b'] as const).filter((s) => {
    const r = s === 'a' ? ra : rb;
    return r.min === r.max;
  });
  const pointNote = points.map((s) => `${s}'s voltage is a single nominal value (${fmt(s === 'a' ? ra : rb)}); its tolerance band is not declared.`);
  const nominal = points.length > 0 ? ` ${points.map((s) => `${s}'s ${fmt(s === 'a' ? ra : rb)} is a nominal value compared as declared (tolerance not declared)`).join('; ')}.` : '';
  if (lo > hi) {
    if (roles.shared_rail) {
      return {
        verdict: 'incompatible',
        reason: `The parts must share one supply rail, and their declared voltages do not meet: a ${fmt(ra)}, b ${fmt(rb)}; no voltage of one rail suits both.${nominal}`,
        evidence,
        conditions: pointNote,
        adapters: [],
        detail: { range_a: ra, range_b: rb, relation: 'disjoint', common_range: null },
      };
    }
    return {
      verdict: 'adapter_required',
      reason: `The declared voltages do not meet (a ${fmt(ra)}, b ${fmt(rb)}): they cannot run from one rail, but can sit on separate supply rails or behind a converter.${nominal}`,
      evidence,
      conditions: [...pointNote, 'Assumes the parts do not have to share one supply rail (e.g. a power-carrying daisy chain); if they do, the pair is incompatible.'],
      adapters: [`separate supply rail or converter: a ${fmt(ra)}, b ${fmt(rb)}`],
      detail: { range_a: ra, range_b: rb, relation: 'disjoint', common_range: null },
    };
  }
  const aInB = ra.min >= rb.min && ra.max <= rb.max;
  const bInA = rb.min >= ra.min && rb.max <= ra.max;
  const relation = aInB && bInA ? 'equal' : bInA ? 'a_contains_b' : aInB ? 'b_contains_a' : 'overlap';
  const common = { min: lo, max: hi };
  const what =
    relation === 'equal'
      ? `Both declare ${fmt(ra)}.`
      : relation === 'a_contains_b'
        ? `a's range (${fmt(ra)}) contains b's (${fmt(rb)}).`
        : relation === 'b_contains_a'
          ? `b's range (${fmt(rb)}) contains a's (${fmt(ra)}).`
          : `The ranges overlap: a ${fmt(ra)}, b ${fmt(rb)}.`;
  return {
    verdict: 'compatible',
    reason: `${what} Both can run from a supply of ${fmt(common)}.${nominal}`,
    evidence,
    conditions: pointNote,
    adapters: [],
    detail: { range_a: ra, range_b: rb, relation, common_range: common },
  };
}
