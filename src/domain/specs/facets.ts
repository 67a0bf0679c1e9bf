/**
 * list_spec_fields: the facets an agent needs before filtering. Counted over the records search
 * sees by default (quarantined records left out), optionally within one category.
 */
import { OPS_BY_KIND, unitsFor } from './where.js';
import type { SpecIndex } from './index.js';
import { specBounds } from './where.js';
import type { SpecKind } from './types.js';

export interface SpecFieldFacet {
  name: string;
  kind: SpecKind;
  quantity: string;
  unit: string | null;
  ops: string[];
  /** Units a where value may be written in (number and range fields with a unit). */
  units: string[];
  description: string;
  example_value: string;
  /** Records declaring a value for the field (read or not) and records whose value was read exactly. */
  declared: number;
  read: number;
  /** Read records per category slug. */
  by_category: Record<string, number>;
  /** Smallest and largest value read (SI unit; ranges count both ends; bounds such as "up to" left out). */
  min: number | null;
  max: number | null;
  /** Set and code fields: each value with its record count, most frequent first. */
  values: { value: string; count: number }[] | null;
  /** One notation as written upstream. */
  example_notation: string | null;
}

export function listSpecFields(index: SpecIndex, category: string | null): SpecFieldFacet[] {
  const rows = index.rows.filter((r) => !r.quarantine && (category === null || r.category === category));
  return index.fields.map((f) => {
    let declared = 0;
    let read = 0;
    const byCat: Record<string, number> = {};
    let min: number | null = null;
    let max: number | null = null;
    const values = new Map<string, number>();
    let example: string | null = null;
    for (const r of rows) {
      const specs = r.specs.specs.filter((s) => s.field === f.name);
      const unread = r.specs.unread.some((u) => u.field === f.name);
      if (specs.length === 0 && !unread) continue;
      declared++;
      if (specs.length === 0) continue;
      read++;
      byCat[r.category] = (byCat[r.category] ?? 0) + 1;
      for (const s of specs) {
        example ??= s.notation;
        if (s.values) for (const v of new Set(s.values)) values.set(v, (values.get(v) ?? 0) + 1);
        if (s.qualifier !== null) continue;
        const b = specBounds(s);
        if (!b) continue;
        min = min === null ? b.lo.n : Math.min(min, b.lo.n);
        max = max === null ? b.hi.n : Math.max(max, b.hi.n);
      }
    }
    const isSet = f.kind === 'set' || f.kind === 'code';
    return {
      name: f.name,
      kind: f.kind,
      quantity: f.quantity,
      unit: f.unit,
      ops: [...OPS_BY_KIND[f.kind]],
      units: f.parse_quantity ? unitsFor(f.parse_quantity) : [],
      description: f.description,
      example_value: f.example,
      declared,
      read,
      by_category: Object.fromEntries(Object.entries(byCat).sort(([a], [b]) => (a < b ? -1 : 1))),
      min: isSet ? null : min,
      max: isSet ? null : max,
      values: isSet ? [...values].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([value, count]) => ({ value, count })) : null,
      example_notation: example,
    };
  });
}
