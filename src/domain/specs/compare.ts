/**
 * compare_parts: a side-by-side table on the normalised fields. A row ranks its values only when
 * every pair is comparable: both read exactly, comparability level A or B for the pair (the
 * parser's pair comparison: units and conditions), and the same rating (peak is never ranked
 * against rated). Otherwise the row says why not.
 */
import { compareParameters } from '../parameters/convert.js';
import type { ParameterHint } from '../parameters/types.js';
import type { SpecIndex, SpecRow } from './index.js';
import { compactSpec, type CompactSpec } from './query.js';
import type { Spec } from './types.js';
import { specBounds } from './where.js';

export interface CompareCell {
  id: string;
  spec: CompactSpec | null;
  /** Why there is no value: not declared, declared but not read (with the reason), or declared under another field. */
  note: string | null;
}

export interface CompareRow {
  field: string;
  unit: string | null;
  cells: CompareCell[];
  comparable: boolean;
  /** Worst pair level (A-D); null for set fields (compared as sets, never ranked). */
  level: string | null;
  reason: string;
  /** Ids from highest to lowest value, only when comparable (ties share a rank). */
  ranking: { id: string; rank: number }[] | null;
  /** Set fields: values every part declares. */
  common_values?: string[];
}

const LEVELS = ['A', 'B', 'C', 'D'];

function hintOf(field: string): ParameterHint | undefined {
  const h: Record<string, ParameterHint> = {
    torque_rated: 'torque',
    torque_peak: 'peak_torque',
    speed: 'speed',
    voltage: 'voltage',
    mass: 'weight',
    encoder_resolution: 'position_resolution',
    backlash: 'backlash',
  };
  return h[field];
}

function pairLevel(field: string, a: Spec, b: Spec): { level: string; reason: string } {
  if (a.qualifier !== null || b.qualifier !== null) return { level: 'D', reason: `a bound ("${a.qualifier !== null ? a.notation : b.notation}") is not a value: not ranked` };
  if ((a.conditions.rating === 'peak' || a.conditions.rating === 'stall') !== (b.conditions.rating === 'peak' || b.conditions.rating === 'stall')) {
    return { level: 'D', reason: 'peak vs rated: not comparable' };
  }
  if (a.dialect.includes('.') && b.dialect.includes('.') && a.quantity === b.quantity && a.unit !== null) {
    const c = compareParameters(a.notation, b.notation, { a: hintOf(field), b: hintOf(field) });
    return { level: c.level, reason: c.reason };
  }
  // This layer's own readers (ratio, count, code): exact numbers without conditions to state.
  return { level: 'B', reason: 'exact values of a unitless quantity' };
}

/** `extra`: rows of parts outside the catalogue (user-declared), by id; read before the index. */
export function compareParts(index: SpecIndex, ids: readonly string[], extra?: ReadonlyMap<string, SpecRow>): CompareRow[] {
  const rows: CompareRow[] = [];
  for (const f of index.fields) {
    const cells: CompareCell[] = [];
    const specs: (Spec | null)[] = [];
    for (const id of ids) {
      const row = extra?.get(id) ?? index.get(id);
      const s = row?.specs.specs.find((x) => x.field === f.name) ?? null;
      const unread = row?.specs.unread.find((u) => u.field === f.name) ?? null;
      let note: string | null = null;
      if (!s) {
        if (unread) note = `declared "${unread.notation}" (${unread.source}) but not read: ${unread.reason}`;
        else if (f.name === 'torque_rated' && row?.specs.specs.some((x) => x.field === 'torque_peak')) note = 'declares a peak torque only (torque_peak): peak vs rated, not comparable';
        else if (f.name === 'torque_peak' && row?.specs.specs.some((x) => x.field === 'torque_rated')) note = 'declares a rated torque only (torque_rated): rated vs peak, not comparable';
        else note = 'not declared';
      }
      cells.push({ id, spec: s ? compactSpec(s) : null, note });
      specs.push(s);
    }
    if (specs.every((s) => s === null) && cells.every((c) => c.note === 'not declared')) continue;
    const present = specs.filter((s): s is Spec => s !== null);
    if (f.kind === 'set' || f.kind === 'code') {
      const all = present.length === ids.length;
      const common = all ? (present[0].values ?? []).filter((v) => present.every((s) => s.values?.includes(v))) : [];
      rows.push({
        field: f.name,
        unit: null,
        cells,
        comparable: all,
        level: null,
        reason: all ? `${f.kind === 'set' ? 'sets' : 'codes'} compared by membership, not ranked` : 'not declared by every part',
        ranking: null,
        common_values: common,
      });
      continue;
    }
    if (present.length < ids.length) {
      const peak = cells.some((c) => c.note !== null && /peak vs rated|rated vs peak/.test(c.note));
      const reason = peak ? 'not comparable: peak vs rated (a part declares only the other rating)' : 'not declared (or not read) by every part: not ranked';
      rows.push({ field: f.name, unit: f.unit, cells, comparable: false, level: 'D', reason, ranking: null });
      continue;
    }
    let worst = { level: 'A', reason: '' };
    for (let i = 0; i < present.length; i++) {
      for (let j = i + 1; j < present.length; j++) {
        const p = pairLevel(f.name, present[i], present[j]);
        if (LEVELS.indexOf(p.level) > LEVELS.indexOf(worst.level) || worst.reason === '') worst = LEVELS.indexOf(p.level) >= LEVELS.indexOf(worst.level) ? p : worst;
      }
    }
    const comparable = worst.level === 'A' || worst.level === 'B';
    let ranking: CompareRow['ranking'] = null;
    if (comparable) {
      const keyed = present.map((s, i) => ({ id: ids[i], b: specBounds(s) }));
      if (keyed.every((k) => k.b !== null && k.b.lo.n === k.b.hi.n)) {
        const sorted = keyed.map((k) => ({ id: k.id, v: k.b!.lo.n })).sort((a, b) => b.v - a.v);
        ranking = sorted.map((k) => ({ id: k.id, rank: 1 + sorted.filter((o) => o.v > k.v).length }));
      }
    }
    rows.push({
      field: f.name,
      unit: f.unit,
      cells,
      comparable,
      level: worst.level,
      reason: comparable ? (ranking ? worst.reason : `${worst.reason}; ranges are not ranked`) : `not comparable: ${worst.reason}`,
      ranking,
    });
  }
  return rows;
}
