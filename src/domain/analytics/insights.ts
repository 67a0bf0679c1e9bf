/**
 * Cross-domain insights: statements computed from the records in scope, each with its figure,
 * the query that produced it (in words precise enough to re-run) and the ids behind it.
 */
import type { Adoption } from './adoption.js';

export interface InsightRecord {
  id: string;
  name_en: string;
  category: string;
  manufacturer: string | null;
  protocol: string;
  interface: string;
  interfaces: readonly string[];
  ros_support: boolean | null;
}

export interface Insight {
  id: string;
  statement: string;
  figure: number;
  by_category: Record<string, number>;
  query: string;
  entity_ids: string[];
}

export const BUS_CATEGORIES = ['actuators', 'chips', 'protocols'] as const;

const CAN_WORD = /(?:^|[^a-z0-9])can(?:[ -]?fd|open)?(?:[^a-z0-9]|$)/i;
const ETHERCAT_WORD = /ethercat/i;

/** The fields a bus declaration is read from: protocol, interface, interfaces; for a protocol record also its English name (the record is the protocol). */
function busFields(r: InsightRecord): string[] {
  return [r.protocol, r.interface, ...r.interfaces, ...(r.category === 'protocols' ? [r.name_en] : [])];
}

function countBy(records: readonly InsightRecord[], cats: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of cats) out[c] = records.filter((r) => r.category === c).length;
  return out;
}

function sortedIds(records: readonly InsightRecord[]): string[] {
  return records.map((r) => r.id).sort();
}

function listPhrase(by: Record<string, number>): string {
  const parts = Object.entries(by).map(([c, n]) => `${n} ${c}`);
  return parts.length <= 1 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

export function computeInsights(records: readonly InsightRecord[], adoption: ReadonlyMap<string, Adoption>): Insight[] {
  const out: Insight[] = [];
  const cats = [...BUS_CATEGORIES];
  const inBus = records.filter((r) => (cats as string[]).includes(r.category));

  const ros = inBus.filter((r) => r.ros_support === true);
  const rosBy = countBy(ros, cats);
  out.push({
    id: 'ros_declared_across_layers',
    statement: `${listPhrase(rosBy)} declare ROS / ROS 2 support (${ros.length} records).`,
    figure: ros.length,
    by_category: rosBy,
    query: 'records in scope (not quarantined) with category in (actuators, chips, protocols) and ros_support = true',
    entity_ids: sortedIds(ros),
  });

  const can = inBus.filter((r) => busFields(r).some((f) => CAN_WORD.test(f)));
  const canBy = countBy(can, cats);
  out.push({
    id: 'can_declared_across_layers',
    statement: `${listPhrase(canBy)} declare CAN (CAN, CAN FD or CANopen) (${can.length} records).`,
    figure: can.length,
    by_category: canBy,
    query:
      'records in scope with category in (actuators, chips, protocols) where protocol, interface or an interfaces entry (and, for protocols, name_en) contains the word CAN, CAN FD, CAN-FD or CANopen (case-insensitive, whole word)',
    entity_ids: sortedIds(can),
  });

  const ecat = inBus.filter((r) => busFields(r).some((f) => ETHERCAT_WORD.test(f)));
  const ecatBy = countBy(ecat, cats);
  out.push({
    id: 'ethercat_declared_across_layers',
    statement: `${listPhrase(ecatBy)} declare EtherCAT (${ecat.length} records).`,
    figure: ecat.length,
    by_category: ecatBy,
    query: 'records in scope with category in (actuators, chips, protocols) where protocol, interface or an interfaces entry (and, for protocols, name_en) contains "EtherCAT" (case-insensitive)',
    entity_ids: sortedIds(ecat),
  });

  const byMaker = new Map<string, InsightRecord[]>();
  for (const r of records) {
    const m = r.manufacturer?.trim().toLowerCase();
    if (!m) continue;
    byMaker.set(m, [...(byMaker.get(m) ?? []), r]);
  }
  const multi = [...byMaker.values()].filter((rs) => new Set(rs.map((r) => r.category)).size >= 2);
  const multiRecords = multi.flat();
  const multiCats = [...new Set(multiRecords.map((r) => r.category))].sort();
  out.push({
    id: 'manufacturers_in_several_categories',
    statement: `${multi.length} manufacturers have records in two or more categories (${multiRecords.length} records).`,
    figure: multi.length,
    by_category: countBy(multiRecords, multiCats),
    query: 'records in scope grouped by manufacturer (trimmed, case-insensitive; records without a manufacturer left out); groups whose records span at least two categories',
    entity_ids: sortedIds(multiRecords),
  });

  const used = records.filter((r) => (adoption.get(r.id)?.robots.length ?? 0) > 0);
  const usedCats = [...new Set(used.map((r) => r.category))].sort();
  out.push({
    id: 'components_in_open_source_robot_boms',
    statement: `${used.length} catalogue components are named in the bill of materials of at least one open-source robot of the open-source layer.`,
    figure: used.length,
    by_category: countBy(used, usedCats),
    query: 'records in scope of entity_kind component whose model token (see meta.method.adoption_matching) is a word of an open-source-layer BOM line',
    entity_ids: sortedIds(used),
  });
  return out;
}
