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

export function trlFor(e: TrlInput, table: TrlTable, referenceYear: number | null): TrlResult {
  const base = { status: e.status, entity_kind: e.entity_kind, year: e.year, capped_by_date: false };
  const none = (basis: string): TrlResult => ({ ...base, trl: null, level: null, basis });
  if (table.not_technology_kinds.kinds.includes(e.entity_kind)) return none(`entity_kind ${e.entity_kind}: ${table.not_technology_kinds.reason}`);
  if (e.status === null || e.status.trim() === '') return none('No lifecycle status is declared; the TRL is unknown (not filled from other fields).');
  const row = table.statuses.find((s) => s.status === e.status);
  if (!row) return none(`Declared status "${e.status}" is not in the TRL mapping table; the TRL is unknown.`);
  if (row.trl === null) return none(`status ${row.status}: ${row.reading}`);
  let trl = row.trl;
  let capped = false;
  if (e.year !== null && referenceYear !== null && e.year > referenceYear && trl > table.date_rule.cap_trl) {
    trl = table.date_rule.cap_trl;
    capped = true;
  }
  const level = table.levels[String(trl)]!.name;
  const basis = capped
    ? `status ${row.status} maps to TRL ${row.trl}, capped at ${trl} because the declared year ${e.year} is after the reference year ${referenceYear}: ${level}.`
    : `status ${row.status} -> TRL ${trl} (${level}): ${row.reading}`;
  return { ...base, trl, level, basis, capped_by_date: capped };
}
