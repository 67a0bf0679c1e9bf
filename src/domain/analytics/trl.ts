/**
 * TRL (1-9) of one record from its declared lifecycle status, entity kind and declared year,
 * by the table in data/analytics/trl.json. Absent or unmapped status -> trl null (unknown).
 */
import type { TrlTable } from './tables.js';

export interface TrlInput {
  status: string | null;
  entity_kind: string;
  year: number | null;
}

export interface TrlResult {
  trl: number | null;
  /** Level name of the cited TRL scale, when trl is set. */
  level: string | null;
  /** What the value rests on (or why it is null), in words. */
  basis: string;
  /** The declared facts used. */
  status: string | null;
  entity_kind: string;
  year: number | null;
  /** True when the date rule lowered the status's level. */
  capped_by_date: boolean;
}

/** How the table reads a record: its TRL (after the date rule), or why there is none. */
type TrlReading =
  | { trl: number; row: TrlTable['statuses'][number]; capped: boolean }
  | { trl: null; why: 'kind' | 'no_status' | 'unmapped' | 'not_technology'; row: TrlTable['statuses'][number] | null };

function readTrl(e: TrlInput, table: TrlTable, referenceYear: number | null): TrlReading {
  if (table.not_technology_kinds.kinds.includes(e.entity_kind)) return { trl: null, why: 'kind', row: null };
  if (e.status === null || e.status.trim() === '') return { trl: null, why: 'no_status', row: null };
  const row = table.statuses.find((s) => s.status === e.status);
  if (!row) return { trl: null, why: 'unmapped', row: null };
  if (row.trl === null) return { trl: null, why: 'not_technology', row };
  if (e.year !== null && referenceYear !== null && e.year > referenceYear && row.trl > table.date_rule.cap_trl) return { trl: table.date_rule.cap_trl, row, capped: true };
  return { trl: row.trl, row, capped: false };
}

/** The TRL alone (what a `where` filter on trl needs): trlFor(...).trl without the basis text. */
export function trlLevel(e: TrlInput, table: TrlTable, referenceYear: number | null): number | null {
  return readTrl(e, table, referenceYear).trl;
}

export function trlFor(e: TrlInput, table: TrlTable, referenceYear: number | null): TrlResult {
  const base = { status: e.status, entity_kind: e.entity_kind, year: e.year, capped_by_date: false };
  const none = (basis: string): TrlResult => ({ ...base, trl: null, level: null, basis });
  const r = readTrl(e, table, referenceYear);
  if (r.trl === null) {
    if (r.why === 'kind') return none(`entity_kind ${e.entity_kind}: ${table.not_technology_kinds.reason}`);
    if (r.why === 'no_status') return none('No lifecycle status is declared; the TRL is unknown (not filled from other fields).');
    if (r.why === 'unmapped') return none(`Declared status "${e.status}" is not in the TRL mapping table; the TRL is unknown.`);
    return none(`status ${r.row!.status}: ${r.row!.reading}`);
  }
  const { trl, row, capped } = r;
  const level = table.levels[String(trl)]!.name;
  const basis = capped
    ? `status ${row.status} maps to TRL ${row.trl}, capped at ${trl} because the declared year ${e.year} is after the reference year ${referenceYear}: ${level}.`
    : `status ${row.status} -> TRL ${trl} (${level}): ${row.reading}`;
  return { ...base, trl, level, basis, capped_by_date: capped };
}
