/**
 * Builds the spec layer from catalogue records: pure and deterministic (the importer writes the
 * same build to data/catalogue/specs.json; the server builds it once at start).
 */
import type { StoredEntity } from '../catalogue/entity.js';
import type { ReadEnv, SpecFieldDef, SpecSource } from './fields.js';
import type { EntitySpecs, Spec, UnreadValue } from './types.js';

export function buildEntitySpecs(e: SpecSource, fields: readonly SpecFieldDef[], env: ReadEnv): EntitySpecs {
  const specs: Spec[] = [];
  const tried: UnreadValue[] = [];
  for (const f of fields) {
    const r = f.read(e, env);
    specs.push(...r.specs);
    tried.push(...r.unread);
  }
  const readSources = new Set(specs.map((s) => s.source));
  const unread: UnreadValue[] = [];
  for (const u of tried) {
    if (readSources.has(u.source) || unread.some((x) => x.source === u.source)) continue;
    unread.push(u);
  }
  // Exact-size arrays (a pushed-to array keeps room for sixteen), one shared empty one for none:
  // at 100,000 records the slack alone was about a fifth of the spec layer.
  return { id: e.id, category: e.category, specs: exact(specs), unread: exact(unread) };
}

const NONE: never[] = Object.freeze([]) as unknown as never[];

function exact<T>(a: T[]): T[] {
  return a.length === 0 ? NONE : a.slice();
}

export function buildSpecLayer(entities: readonly StoredEntity[], fields: readonly SpecFieldDef[], env: ReadEnv): EntitySpecs[] {
  return entities.map((e) => buildEntitySpecs(e, fields, env));
}

export interface FieldCount {
  field: string;
  /** Entities that declare a value for the field (read or not). */
  declared: number;
  /** Entities with at least one value read exactly. */
  read: number;
  unread: number;
}

export function countFields(layer: readonly EntitySpecs[], fields: readonly SpecFieldDef[]): FieldCount[] {
  return fields.map((f) => {
    let declared = 0;
    let read = 0;
    for (const es of layer) {
      const has = es.specs.some((s) => s.field === f.name);
      const un = es.unread.some((u) => u.field === f.name);
      if (has || un) declared++;
      if (has) read++;
    }
    return { field: f.name, declared, read, unread: declared - read };
  });
}
