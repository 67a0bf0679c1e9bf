/**
 * SpecIndex: the spec layer of the loaded catalogue, built ONCE and never changed: per-entity
 * typed specs, the field table, manufacturer readings and same_as links. Search (with `where` or
 * `sort`), list_spec_fields, compare_parts and find_alternatives read it; no request rebuilds it.
 *
 * The rows and the same_as links are built on first use, not in the constructor: a process that
 * only answers plain searches and lookups never pays for them (at 100,000 records they take about
 * 1.5 s and 100 MB). The first call that needs them builds them, once, for every later call.
 */
import type { StoredEntity } from '../catalogue/entity.js';
import { deepFreeze } from '../shared/freeze.js';
import type { BusTable } from '../compatibility/buses.js';
import { buildEntitySpecs, countFields, type FieldCount } from './build.js';
import { defaultSpecFields, type SpecFieldDef } from './fields.js';
import type { ManufacturerReading, ManufacturerTable } from './manufacturers.js';
import { SameAsIndex, type SameAsLink, type VersionLink } from './same-as.js';
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
  private readonly entities: readonly StoredEntity[];
  private built: { rows: readonly SpecRow[]; byId: ReadonlyMap<string, SpecRow> } | null = null;
  private sameAsIndex: SameAsIndex | null = null;
  private byLowerId: ReadonlyMap<string, SpecRow> | null = null;
  /** Told after each lazy build (the rows, the same_as links), with the number of records built over. */
  private readonly onBuilt: (what: 'spec_rows' | 'same_as', records: number) => void;

  constructor(
    entities: readonly StoredEntity[],
    opts: { buses: BusTable; manufacturers: ManufacturerTable; fields?: readonly SpecFieldDef[]; onBuilt?: (what: 'spec_rows' | 'same_as', records: number) => void },
  ) {
    this.fields = Object.freeze([...(opts.fields ?? defaultSpecFields())]);
    this.buses = opts.buses;
    this.manufacturers = opts.manufacturers;
    this.entities = entities;
    this.onBuilt = opts.onBuilt ?? (() => {});
  }

  private rowsBuilt(): { rows: readonly SpecRow[]; byId: ReadonlyMap<string, SpecRow> } {
    if (this.built) return this.built;
    const env = { buses: this.buses };
    // One reading per manufacturer name, shared by its records (they are frozen, never changed).
    const readings = new Map<string | null, ManufacturerReading | null>();
    const reading = (name: string | null) => {
      let r = readings.get(name);
      if (r === undefined) readings.set(name, (r = this.manufacturers.read(name)));
      return r;
    };
    const rows = deepFreeze(
      this.entities.map((e) => ({
        id: e.id,
        category: e.category,
        quarantine: e.quarantine,
        specs: buildEntitySpecs(e, this.fields, env),
        manufacturer: reading(e.manufacturer),
      })),
    );
    // Keyed by the id as written (no second string per row); other spellings go through byLowerId.
    this.built = { rows, byId: new Map(rows.map((r) => [r.id, r])) };
    this.onBuilt('spec_rows', rows.length);
    return this.built;
  }

  /** Catalogue order (the order entities were given: id order). Built on first use. */
  get rows(): readonly SpecRow[] {
    return this.rowsBuilt().rows;
  }

  /** The same_as links between records. Built on first use. */
  get sameAs(): SameAsIndex {
    if (this.sameAsIndex === null) {
      this.sameAsIndex = new SameAsIndex(this.entities, this.manufacturers);
      this.onBuilt('same_as', this.entities.length);
    }
    return this.sameAsIndex;
  }

  get(id: string): SpecRow | null {
    const built = this.rowsBuilt();
    const exact = built.byId.get(id);
    if (exact) return exact;
    // Ids match case-insensitively: the lower-case table is made the first time an id is asked for
    // in another spelling (or is not known), not for every process.
    this.byLowerId ??= new Map(built.rows.map((r) => [r.id.toLowerCase(), r]));
    return this.byLowerId.get(id.toLowerCase()) ?? null;
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

  /** Newer and older versions of a record (successor_of / predecessor_of), never the same product. */
  versionsOf(id: string): VersionLink[] {
    return this.sameAs.versionsOf(this.get(id)?.id ?? id);
  }

  private applies: Map<string, readonly string[]> | null = null;

  /**
   * The categories a field applies to: those where at least one record declares it (read or
   * not), in name order. Unknown counts of a filter are taken within them.
   */
  appliesTo(field: string): readonly string[] {
    if (this.applies === null) {
      const m = new Map<string, Set<string>>();
      const add = (f: string, cat: string) => {
        const set = m.get(f);
        if (set) set.add(cat);
        else m.set(f, new Set([cat]));
      };
      for (const r of this.rows) {
        for (const x of r.specs.specs) add(x.field, r.category);
        for (const u of r.specs.unread) add(u.field, r.category);
      }
      this.applies = new Map([...m].map(([f, cats]) => [f, Object.freeze([...cats].sort())]));
    }
    return this.applies.get(field) ?? [];
  }

  counts(rows: readonly SpecRow[] = this.rows): FieldCount[] {
    return countFields(
      rows.map((r) => r.specs),
      this.fields,
    );
  }
}
