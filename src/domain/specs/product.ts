/** A record's product identity: the records that are the same product, its versions, and the values they disagree on. */
import type { SpecIndex } from './index.js';
import type { SameAsLink, VersionLink } from './same-as.js';
import type { Spec } from './types.js';
import { specBounds } from './where.js';

export interface SpecConflict {
  field: string;
  values: { id: string; notation: string; source: string }[];
}

/** Relative difference under which two read values are the same declaration written differently. */
const SAME_VALUE = 0.005;

const midpoint = (s: Spec): number | null => {
  const b = specBounds(s);
  return b ? (b.lo.n + b.hi.n) / 2 : null;
};

/**
 * A record's product links: same_as (one product), versions, and the numeric values that differ
 * between it and a same_as record (read exactly, unqualified, the same rating), each value with the
 * record and field it was read from.
 */
export interface ProductLinks {
  same_as: SameAsLink[];
  versions: VersionLink[];
  conflicts: SpecConflict[];
}

export function productLinks(specs: SpecIndex, id: string): ProductLinks {
  const same_as = [...specs.sameAsOf(id)];
  const own = specs.specsOf(id).filter((x) => x.qualifier === null && x.values === null);
  const conflicts: SpecConflict[] = [];
  for (const l of same_as) {
    for (const a of own) {
      const b = specs.specsOf(l.id).find((x) => x.field === a.field && x.qualifier === null && x.values === null && x.conditions.rating === a.conditions.rating);
      const va = midpoint(a);
      const vb = b ? midpoint(b) : null;
      if (!b || va === null || vb === null) continue;
      const m = Math.max(Math.abs(va), Math.abs(vb));
      if (m === 0 || Math.abs(va - vb) / m <= SAME_VALUE) continue;
      const mine = { id, notation: a.notation, source: a.source };
      const theirs = { id: l.id, notation: b.notation, source: b.source };
      const c = conflicts.find((x) => x.field === a.field);
      if (c) c.values.push(theirs);
      else conflicts.push({ field: a.field, values: [mine, theirs] });
    }
  }
  return { same_as, versions: specs.versionsOf(id), conflicts };
}

