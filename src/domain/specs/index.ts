/**
 * SpecIndex: the spec layer of the loaded catalogue, built ONCE at start (buildDeps) and never
 * changed: per-entity typed specs, the field table, manufacturer readings and same_as links.
 * Search, list_spec_fields, compare_parts and find_alternatives read it; no request rebuilds it.
 */
import type { StoredEntity } from '../entity.js';
import { deepFreeze } from '../freeze.js';
import type { BusTable } from '../compatibility/buses.js';
import { buildEntitySpecs, countFields, type FieldCount } from './build.js';
import { defaultSpecFields, type SpecFieldDef } from './fields.js';
import type { ManufacturerReading, ManufacturerTable } from './manufacturers.js';
import { SameAsIndex, type SameAsLink } from './same-as.js';
import type { EntitySpecs, Spec } from './types.js';
import type { FieldTable } from './where.js';

export interface SpecRow {
  id: string;
  category: string;
  quarantine: boolean;
  specs: EntitySpecs;
  manufacturer: ManufacturerReading | null;
}


export class SpecIndex implements FieldTable {
  readonly fields: readonly SpecFieldDef[];
  readonly buses: BusTable;
  readonly manufacturers: ManufacturerTable;
  readonly sameAs: SameAsIndex;
  /** Catalogue order (the order entities were given: id order). */
  readonly rows: readonly SpecRow[];
  private readonly byId: ReadonlyMap<string, SpecRow>;

  constructor(entities: readonly StoredEntity[], opts: { buses: BusTable; manufacturers: ManufacturerTable; fields?: readonly SpecFieldDef[] }) {
    this.fields = Object.freeze([...(opts.fields ?? defaultSpecFields())]);
    this.buses = opts.buses;
    this.manufacturers = opts.manufacturers;
    const env = { buses: opts.buses };
    this.rows = deepFreeze(
      entities.map((e) => ({
        id: e.id,
        category: e.category,
        quarantine: e.quarantine,
        specs: buildEntitySpecs(e, this.fields, env),
        manufacturer: opts.manufacturers.read(e.manufacturer),
      })),
    );
    this.byId = new Map(this.rows.map((r) => [r.id.toLowerCase(), r]));
    this.sameAs = new SameAsIndex(entities, opts.manufacturers);
  }

  get(id: string): SpecRow | null {
    return this.byId.get(id.toLowerCase()) ?? null;
  }

  specsOf(id: string): readonly Spec[] {
    return this.get(id)?.specs.specs ?? [];
  }

  field(name: string): SpecFieldDef | undefined {
    return this.fields.find((f) => f.name === name);
  }

  sameAsOf(id: string): readonly SameAsLink[] {
    return this.sameAs.of(this.get(id)?.id ?? id);
  }

  counts(rows: readonly SpecRow[] = this.rows): FieldCount[] {
    return countFields(
      rows.map((r) => r.specs),
      this.fields,
    );
  }
}
