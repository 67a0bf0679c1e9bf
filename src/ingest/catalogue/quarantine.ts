/**
 * Import-wide checks that need the whole record set.
 *
 * 1. Id collisions. Ids are matched case-insensitively (spec), so two records whose ids differ
 *    only in letter case cannot both keep their id. The record that keeps it is the better one:
 *    not quarantined first, then the better source tier (A, B, C), then the earlier in the
 *    snapshot. Each other record is renamed to its upstream `rp_id` (upstream's own secondary id,
 *    deterministic, never made up) and quarantined with reason `id_collision`; when it has no
 *    rp_id that is free, it is dropped and listed in the report.
 * 2. Duplicates. The same name and manufacturer (compared case-, width- and
 *    whitespace-insensitively) under two ids: the canonical record is the first in snapshot order
 *    that is neither quarantined nor already marked a duplicate (else the first not marked); every
 *    other one not already marked by upstream is quarantined with reason `duplicate` and
 *    `duplicate_of` the canonical id. Records without a manufacturer are not compared (a missing
 *    manufacturer is a gap, not evidence of sameness).
 */
import type { Normalised } from './normalise.js';

export interface IdRename {
  upstream_id: string;
  new_id: string;
  kept_id: string;
}

export interface DuplicateFound {
  id: string;
  canonical: string;
  name: string;
  manufacturer: string;
}

export interface DroppedRecord {
  index: number;
  id: string | null;
  reason: string;
}

const TIER_RANK: Record<string, number> = { A: 0, B: 1, C: 2 };

function setReasons(n: Normalised): void {
  n.entity.quarantine = n.reasons.length > 0;
  n.entity.quarantine_reason = n.reasons.length > 0 ? n.reasons.join(', ') : null;
}

export function resolveIdCollisions(items: Normalised[]): { items: Normalised[]; renames: IdRename[]; dropped: DroppedRecord[] } {
  const groups = new Map<string, Normalised[]>();
  for (const n of items) {
    const k = n.entity.id.toLowerCase();
    const g = groups.get(k);
    if (g) g.push(n);
    else groups.set(k, [n]);
  }
  const taken = new Set(groups.keys());
  const renames: IdRename[] = [];
  const dropped: DroppedRecord[] = [];
  const droppedSet = new Set<Normalised>();
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const ranked = [...group].sort(
      (a, b) =>
        Number(a.entity.quarantine) - Number(b.entity.quarantine) ||
        (TIER_RANK[a.entity.source_tier] ?? 9) - (TIER_RANK[b.entity.source_tier] ?? 9) ||
        a.notes.index - b.notes.index,
    );
    const keeper = ranked[0]!;
    for (const loser of ranked.slice(1)) {
      const rp = loser.notes.rp_id;
      if (rp !== null && !taken.has(rp.toLowerCase())) {
        taken.add(rp.toLowerCase());
        renames.push({ upstream_id: loser.entity.id, new_id: rp, kept_id: keeper.entity.id });
        loser.entity.id = rp;
        loser.reasons.push('id_collision');
        setReasons(loser);
      } else {
        droppedSet.add(loser);
        dropped.push({
          index: loser.notes.index,
          id: loser.entity.id,
          reason: `id collides case-insensitively with ${keeper.entity.id} and no free upstream rp_id to rename it to`,
        });
      }
    }
  }
  return { items: items.filter((n) => !droppedSet.has(n)), renames, dropped };
}

function norm(s: string): string {
  return s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

export function markDuplicates(items: Normalised[]): DuplicateFound[] {
  const groups = new Map<string, Normalised[]>();
  for (const n of [...items].sort((a, b) => a.notes.index - b.notes.index)) {
    if (n.entity.manufacturer === null) continue;
    const k = `${norm(n.entity.name)}\u0000${norm(n.entity.manufacturer)}`;
    const g = groups.get(k);
    if (g) g.push(n);
    else groups.set(k, [n]);
  }
  const found: DuplicateFound[] = [];
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const unmarked = group.filter((n) => n.entity.duplicate_of === null);
    const canonical = unmarked.find((n) => !n.entity.quarantine) ?? unmarked[0];
    if (!canonical) continue;
    for (const n of unmarked) {
      if (n === canonical) continue;
      n.entity.duplicate_of = canonical.entity.id;
      if (!n.reasons.includes('duplicate')) n.reasons.push('duplicate');
      setReasons(n);
      found.push({ id: n.entity.id, canonical: canonical.entity.id, name: n.entity.name, manufacturer: n.entity.manufacturer! });
    }
  }
  return found;
}
