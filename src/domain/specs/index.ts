/**
 * SpecIndex: the spec layer of the loaded catalogue, built ONCE and never changed: per-entity
 * typed specs, the field table, manufacturer readings and same_as links. Search (with `where` or
 * `sort`), list_spec_fields, compare_parts and find_alternatives read it; no request rebuilds it.
 *
 * The rows and the same_as links are built on first use, not in the constructor: a process that
 * only answers plain searches and lookups never pays for them (at 100,000 records they take about
 * 1.5 s and 100 MB). The first call that needs them builds them, once, for every later call.
 *
 * A `where` filter or a sort reads only its own fields: each field's column (the specs and unread
 * values of that field, for the records that have any, and the categories it applies to) is built
 * on its first use over every record, without the other fields' specs. A filter on torque and TRL
 * at 100,000 records then reads two fields, not twenty (and keeps a fraction of the memory). A
 * record's row asked for alone (get_part) is built for that record when the rows are not built.
 */
import type { StoredEntity } from '../catalogue/entity.js';
import { deepFreeze } from '../shared/freeze.js';
import type { BusTable } from '../compatibility/buses.js';
import { buildEntitySpecs, countFields, type FieldCount } from './build.js';
import { defaultSpecFields, type SpecFieldDef, type SpecSource } from './fields.js';
import type { ManufacturerReading, ManufacturerTable } from './manufacturers.js';
import { SameAsIndex, type SameAsLink, type VersionLink } from './same-as.js';
import type { EntitySpecs, Spec, UnreadValue } from './types.js';
import type { FieldTable } from './where.js';

export interface SpecRow {
  id: string;
  category: string;
  quarantine: boolean;
  specs: EntitySpecs;
  manufacturer: ManufacturerReading | null;
}


/** One field's readings over the catalogue: only records with a spec or an unread value of it are held. */
interface FieldColumn {
  specs: ReadonlyMap<string, readonly Spec[]>;
  unread: ReadonlyMap<string, readonly UnreadValue[]>;
  /** Categories where some record declares the field (read or not), in name order. */
  applies: readonly string[];
}

const NO_SPECS: readonly Spec[] = Object.freeze([]);
const NO_UNREAD: readonly UnreadValue[] = Object.freeze([]);

export class SpecIndex implements FieldTable {
  readonly fields: readonly SpecFieldDef[];
  readonly buses: BusTable;
  readonly manufacturers: ManufacturerTable;
  /** The records, or how to get them (a catalogue read lazily reads them all when first asked). */
  private readonly source: readonly StoredEntity[] | (() => readonly StoredEntity[]);
  private built: { rows: readonly SpecRow[]; byId: ReadonlyMap<string, SpecRow> } | null = null;
  private sameAsIndex: SameAsIndex | null = null;
  private byLowerId: ReadonlyMap<string, SpecRow> | null = null;
  /** The records by id as written, and lower-cased (made on the first lookup another way than through the rows). */
  private entityById: ReadonlyMap<string, StoredEntity> | null = null;
  private entityByLowerId: ReadonlyMap<string, StoredEntity> | null = null;
  private readonly columns = new Map<string, FieldColumn>();
  /** Told after each lazy build (the rows, the same_as links), with the number of records built over. */
  private readonly onBuilt: (what: 'spec_rows' | 'same_as', records: number) => void;

  constructor(
    entities: readonly StoredEntity[] | (() => readonly StoredEntity[]),
    opts: {
      buses: BusTable;
      manufacturers: ManufacturerTable;
      fields?: readonly SpecFieldDef[];
      onBuilt?: (what: 'spec_rows' | 'same_as', records: number) => void;
      /** A record of `entities` by id, case-insensitively (null otherwise), when the caller has such a table: none is made here then. */
      lookup?: (id: string) => StoredEntity | null;
      /**
       * Visits every record of `entities` once, in any order, without making the caller keep them
       * (a catalogue read lazily reads those not read yet and lets them go), or only the members
       * the spec fields read of each (SpecSource: a prepared start keeps them): what a field's
       * column is built over. Absent: the column walks `entities`.
       */
      each?: (visit: (e: SpecSource) => void) => void;
    },
  ) {
    this.fields = Object.freeze([...(opts.fields ?? defaultSpecFields())]);
    this.buses = opts.buses;
    this.manufacturers = opts.manufacturers;
    this.source = entities;
    this.onBuilt = opts.onBuilt ?? (() => {});
    this.lookup = opts.lookup ?? null;
    this.each = opts.each ?? ((visit) => this.entities.forEach((e) => visit(e)));
  }

  private readonly lookup: ((id: string) => StoredEntity | null) | null;
  private readonly each: (visit: (e: SpecSource) => void) => void;

  /** The records (asked for only by the builds that read them all). */
  private get entities(): readonly StoredEntity[] {
    return typeof this.source === 'function' ? this.source() : this.source;
  }

  /** One manufacturer reading per name, shared by its records (they are frozen, never changed). */
  private readonly readings = new Map<string | null, ManufacturerReading | null>();
  private reading(name: string | null): ManufacturerReading | null {
    let r = this.readings.get(name);
    if (r === undefined) this.readings.set(name, (r = this.manufacturers.read(name)));
    return r;
  }

  private rowOf(e: StoredEntity): SpecRow {
    return { id: e.id, category: e.category, quarantine: e.quarantine, specs: buildEntitySpecs(e, this.fields, { buses: this.buses }), manufacturer: this.reading(e.manufacturer) };
  }

  private rowsBuilt(): { rows: readonly SpecRow[]; byId: ReadonlyMap<string, SpecRow> } {
    if (this.built) return this.built;
    const rows = deepFreeze(this.entities.map((e) => this.rowOf(e)));
    // Keyed by the id as written (no second string per row); other spellings go through byLowerId.
    this.built = { rows, byId: new Map(rows.map((r) => [r.id, r])) };
    // The rows answer lookups from now on: the record tables of the columns are not needed.
    this.entityById = null;
    this.entityByLowerId = null;
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

  /** The record of an id (as written, else case-insensitively), without building the rows. */
  private entity(id: string): StoredEntity | null {
    if (this.lookup) return this.lookup(id);
    this.entityById ??= new Map(this.entities.map((e) => [e.id, e]));
    const exact = this.entityById.get(id);
    if (exact) return exact;
    this.entityByLowerId ??= new Map(this.entities.map((e) => [e.id.toLowerCase(), e]));
    return this.entityByLowerId.get(id.toLowerCase()) ?? null;
  }

  get(id: string): SpecRow | null {
    if (this.built === null) {
      // Not built: this record's row alone (what the rows would hold for it, value for value).
      const e = this.entity(id);
      return e ? deepFreeze(this.rowOf(e)) : null;
    }
    const built = this.built;
    const exact = built.byId.get(id);
    if (exact) return exact;
    // Ids match case-insensitively: the lower-case table is made the first time an id is asked for
    // in another spelling (or is not known), not for every process.
    this.byLowerId ??= new Map(built.rows.map((r) => [r.id.toLowerCase(), r]));
    return this.byLowerId.get(id.toLowerCase()) ?? null;
  }

  /**
   * The canonical company of a record's manufacturer (null when unread or unknown id), without
   * building its spec row: what `get(id)?.manufacturer?.canonical` answers, at the cost of a map
   * lookup (a search for a maker's whole name filters its candidates with it).
   */
  companyOf(id: string): string | null {
    if (this.built !== null) return this.get(id)?.manufacturer?.canonical ?? null;
    const e = this.entity(id);
    return e ? (this.reading(e.manufacturer)?.canonical ?? null) : null;
  }

  specsOf(id: string): readonly Spec[] {
    return this.get(id)?.specs.specs ?? [];
  }

  field(name: string): SpecFieldDef | undefined {
    return this.fields.find((f) => f.name === name);
  }

  sameAsOf(id: string): readonly SameAsLink[] {
    return this.sameAs.of(this.recordOf(id)?.id ?? id);
  }

  /** Newer and older versions of a record (newer_version / older_version, named from the listed record's side), never the same product. */
  versionsOf(id: string): VersionLink[] {
    return this.sameAs.versionsOf(this.recordOf(id)?.id ?? id);
  }

  /**
   * One field's column, built on its first use: what `rows` hold for the field, record by record
   * (an unread value is listed only when no field reads its source, as in the rows: a record with
   * an unread value of the field gets its whole row built to settle that).
   */
  private column(name: string): FieldColumn {
    const c = this.columns.get(name);
    if (c) return c;
    this.prepare([name]);
    return this.columns.get(name)!;
  }

  /**
   * Builds the columns of these fields not built yet, in one pass over the records (a filter on
   * torque and TRL visits each record once, not once per field: over a catalogue read lazily, each
   * visit of a record not read yet is a read of it). Unknown field names get an empty column.
   */
  prepare(names: readonly string[]): void {
    const missing = [...new Set(names)].filter((n) => !this.columns.has(n));
    if (missing.length === 0) return;
    const env = { buses: this.buses };
    // The fields that may read a source (only they can settle an unread value of it), in table order.
    const settlers = new Map<string, readonly SpecFieldDef[]>();
    const settlersOf = (u: readonly UnreadValue[]) => {
      const key = u.map((x) => x.source).join('\n');
      let list = settlers.get(key);
      if (!list) settlers.set(key, (list = this.fields.filter((g) => !g.reads || u.some((x) => g.reads!(x.source)))));
      return list;
    };
    const builders = missing.map((name) => {
      const specs = new Map<string, readonly Spec[]>();
      const unread = new Map<string, readonly UnreadValue[]>();
      const cats = new Set<string>();
      const keep = (e: { id: string; category: string }, s: readonly Spec[], u: readonly UnreadValue[]) => {
        if (s.length > 0) specs.set(e.id, s);
        if (u.length > 0) unread.set(e.id, u);
        if (s.length > 0 || u.length > 0) cats.add(e.category);
      };
      const f = this.field(name);
      const fromRecord = (e: SpecSource) => {
        const r = f!.read(e, env);
        if (r.specs.length === 0 && r.unread.length === 0) return;
        const u = r.unread.length === 0 ? NO_UNREAD : buildEntitySpecs(e, settlersOf(r.unread), env).unread.filter((x) => x.field === name);
        keep(e, r.specs.length === 0 ? NO_SPECS : deepFreeze(r.specs.slice()), deepFreeze(u));
      };
      return { name, f, specs, unread, cats, keep, fromRecord };
    });
    const reading = builders.filter((b) => b.f !== undefined);
    if (reading.length > 0 && this.built) {
      for (const r of this.built.rows)
        for (const b of reading)
          b.keep(
            r,
            r.specs.specs.filter((x) => x.field === b.name),
            r.specs.unread.filter((x) => x.field === b.name),
          );
    } else if (reading.length > 0) {
      // Over records that may be let go after the visit: what is kept is the fields' own readings
      // (copied and frozen), the record's id and category (strings).
      this.each((e) => {
        for (const b of reading) b.fromRecord(e);
      });
    }
    for (const b of builders) this.columns.set(b.name, { specs: b.specs, unread: b.unread, applies: Object.freeze([...b.cats].sort()) });
  }

  /** The specs of one field of a record (what specsOf(id) holds for the field, in order). */
  fieldSpecs(id: string, field: string): readonly Spec[] {
    return this.held(this.column(field).specs, id, NO_SPECS);
  }

  /** The unread values of one field of a record (after the layer settled which field lists a source). */
  fieldUnread(id: string, field: string): readonly UnreadValue[] {
    return this.held(this.column(field).unread, id, NO_UNREAD);
  }

  /** A column's values for a record: by the id as asked, else (another spelling) by the record's own id. */
  private held<T>(values: ReadonlyMap<string, readonly T[]>, id: string, none: readonly T[]): readonly T[] {
    const hit = values.get(id);
    if (hit || values.size === 0) return hit ?? none;
    const e = this.entity(id);
    return (e && values.get(e.id)) ?? none;
  }

  /** A record's category and quarantine flag (null for an id the layer does not hold). */
  recordOf(id: string): { id: string; category: string; quarantine: boolean } | null {
    if (this.built) return this.get(id);
    return this.entity(id);
  }

  /**
   * The categories a field applies to: those where at least one record declares it (read or
   * not), in name order. Unknown counts of a filter are taken within them.
   */
  appliesTo(field: string): readonly string[] {
    return this.column(field).applies;
  }

  counts(rows: readonly SpecRow[] = this.rows): FieldCount[] {
    return countFields(
      rows.map((r) => r.specs),
      this.fields,
    );
  }
}
