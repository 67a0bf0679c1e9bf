/**
 * The spec layer is built on first use, once: constructing it reads no record, the first reader
 * of the rows builds every row (each field read once per record), later readers reuse the rows.
 * A record's row asked for alone reads that record only; a filter's field column reads that field
 * of every record once, and the other fields only of records with an unread value of it. What a
 * column holds is what the rows hold for the field, record by record.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StoredEntity } from '../../src/domain/catalogue/entity.js';
import { parseBusTable } from '../../src/domain/compatibility/buses.js';
import { SpecIndex } from '../../src/domain/specs/index.js';
import { defaultSpecFields, type SpecFieldDef } from '../../src/domain/specs/fields.js';
import { parseManufacturers } from '../../src/domain/specs/manufacturers.js';

const DATA = path.resolve(import.meta.dirname, '../../data');
const read = (f: string) => JSON.parse(fs.readFileSync(path.join(DATA, f), 'utf8')) as unknown;
const all = (read('catalogue/entities.json') as { entities: StoredEntity[] }).entities;
const entities = all.slice(0, 60);
const build = (records = entities) => new SpecIndex(records, { buses: parseBusTable(read('buses.json')), manufacturers: parseManufacturers(read('manufacturers.json')) });

describe('SpecIndex: rows and same_as links built on first use', () => {
  it('reads each record once, on the first call that needs the rows', () => {
    let reads = 0;
    const counting: SpecFieldDef = { ...defaultSpecFields()[0]!, name: 'counted', read: (e, env) => (reads++, defaultSpecFields()[0]!.read(e, env)) };
    const idx = new SpecIndex(entities, { buses: parseBusTable(read('buses.json')), manufacturers: parseManufacturers(read('manufacturers.json')), fields: [...defaultSpecFields(), counting] });
    expect(reads).toBe(0);
    expect(idx.fields.map((f) => f.name)).toContain('counted'); // the field table needs no rows
    expect(idx.get(entities[5]!.id)?.id).toBe(entities[5]!.id);
    expect(reads).toBe(1); // that record's row alone
    expect(idx.rows).toHaveLength(entities.length);
    expect(reads).toBe(1 + entities.length);
    idx.counts();
    idx.specsOf(entities[0]!.id);
    idx.appliesTo('counted');
    idx.fieldSpecs(entities[3]!.id, 'counted');
    expect(reads).toBe(1 + entities.length); // the column is taken from the rows once they exist
    expect(idx.sameAs).toBe(idx.sameAs); // built once
  });

  it("a record's company is what its row says, read without building any row (before and after the rows exist)", () => {
    let reads = 0;
    const counting: SpecFieldDef = { ...defaultSpecFields()[0]!, name: 'counted', read: (e, env) => (reads++, defaultSpecFields()[0]!.read(e, env)) };
    const lazy = new SpecIndex(all, { buses: parseBusTable(read('buses.json')), manufacturers: parseManufacturers(read('manufacturers.json')), fields: [...defaultSpecFields(), counting] });
    const before = all.map((e) => lazy.companyOf(e.id));
    expect(reads).toBe(0); // no row was built
    expect(lazy.companyOf('NO-SUCH-ID')).toBeNull();
    // The rows, built by another index over the same records: the same company for every record.
    const rows = build(all);
    const expected = all.map((e) => rows.get(e.id)?.manufacturer?.canonical ?? null);
    expect(expected.filter((c) => c !== null).length).toBeGreaterThan(100);
    expect(before).toEqual(expected);
    // After the rows exist (and in another spelling of the id) it reads them.
    expect(rows.rows.length).toBe(all.length);
    expect(all.map((e) => rows.companyOf(e.id.toLowerCase()))).toEqual(expected);
  });

  it("a field's column reads that field of each record once, without building the rows", () => {
    let reads = 0;
    let others = 0;
    const fields = defaultSpecFields().map((f) => ({ ...f, read: (e: StoredEntity, env: Parameters<SpecFieldDef['read']>[1]) => (others++, f.read(e, env)) }));
    const counting: SpecFieldDef = { ...defaultSpecFields()[1]!, name: 'counted', read: (e, env) => (reads++, defaultSpecFields()[1]!.read(e, env)) };
    const idx = new SpecIndex(entities, { buses: parseBusTable(read('buses.json')), manufacturers: parseManufacturers(read('manufacturers.json')), fields: [...fields, counting] });
    idx.appliesTo('counted');
    for (const e of entities) idx.fieldSpecs(e.id, 'counted');
    const [done, doneOthers] = [reads, others];
    // Every record once, plus once more for each record whose row had to settle an unread value.
    const unsettled = entities.filter((e) => defaultSpecFields()[1]!.read(e, { buses: idx.buses }).unread.length > 0).length;
    expect(unsettled).toBeGreaterThan(0);
    expect(done).toBe(entities.length + unsettled);
    // Only the fields that read the same sources are asked to settle them (torque_rated, torque_peak, torque_range).
    expect(doneOthers).toBe(unsettled * 3);
  });

  it('the fields a query reads are built in one visit of each record (`each`), holding what the rows hold', () => {
    let visits = 0;
    const opts = { buses: parseBusTable(read('buses.json')), manufacturers: parseManufacturers(read('manufacturers.json')) };
    const idx = new SpecIndex(
      () => {
        throw new Error('the records are visited through each(), never asked for whole');
      },
      {
        ...opts,
        lookup: (id) => all.find((e) => e.id.toLowerCase() === id.toLowerCase()) ?? null,
        each: (visit) => {
          for (const e of all) {
            visits++;
            visit(e);
          }
        },
      },
    );
    idx.prepare(['torque_rated', 'trl_unknown_field', 'mass', 'torque_rated']);
    expect(visits).toBe(all.length);
    // Built already: asking again (or reading them) visits nothing.
    idx.prepare(['mass', 'torque_rated']);
    idx.appliesTo('mass');
    expect(visits).toBe(all.length);
    idx.appliesTo('voltage');
    expect(visits).toBe(2 * all.length);
    const rows = new SpecIndex(all, opts).rows;
    for (const r of rows)
      for (const f of ['torque_rated', 'mass', 'voltage']) {
        expect(idx.fieldSpecs(r.id, f)).toEqual(r.specs.specs.filter((s) => s.field === f));
        expect(idx.fieldUnread(r.id, f)).toEqual(r.specs.unread.filter((u) => u.field === f));
      }
    expect(idx.fieldSpecs(all[0]!.id, 'trl_unknown_field')).toEqual([]);
  });

  it("a field's column holds what the rows hold for it, record by record, in every spelling of the id", () => {
    const columns = build(all);
    const rows = build(all).rows;
    const other = (id: string) => id.toLowerCase();
    for (const f of columns.fields) {
      const applies = new Set<string>();
      for (const r of rows) {
        const specs = r.specs.specs.filter((s) => s.field === f.name);
        const unread = r.specs.unread.filter((u) => u.field === f.name);
        if (specs.length > 0 || unread.length > 0) applies.add(r.category);
        expect(columns.fieldSpecs(r.id, f.name)).toEqual(specs);
        expect(columns.fieldSpecs(other(r.id), f.name)).toEqual(specs);
        expect(columns.fieldUnread(r.id, f.name)).toEqual(unread);
      }
      expect(columns.appliesTo(f.name)).toEqual([...applies].sort());
    }
    expect(columns.fieldSpecs('NO-SUCH-ID', 'torque_rated')).toEqual([]);
    expect(columns.recordOf('NO-SUCH-ID')).toBeNull();
  });
});

describe('SpecIndex: compact rows', () => {
  it('finds a row by its id in any spelling of case, and nothing for an unknown id', () => {
    const idx = build();
    const id = entities.find((e) => /[A-Z]/.test(e.id))!.id;
    const row = idx.get(id);
    expect(row?.id).toBe(id);
    expect(idx.get(id.toLowerCase())).toEqual(row); // a row built alone, before the rows
    expect(idx.get('NO-SUCH-ID')).toBeNull();
    const built = idx.rows.find((r) => r.id === id)!;
    expect(built).toEqual(row);
    expect(idx.get(id.toLowerCase())).toBe(built);
    expect(idx.get(id.toLowerCase().replace(/^./, (c) => c.toUpperCase()))).toBe(built);
    expect(idx.get('NO-SUCH-ID')).toBeNull();
  });

  it('shares one manufacturer reading per written name and one frozen empty list for rows with nothing unread', () => {
    const idx = build();
    const byName = new Map<string, unknown>();
    for (const r of idx.rows) {
      const e = entities.find((x) => x.id === r.id)!;
      if (r.manufacturer && e.manufacturer) {
        const seen = byName.get(e.manufacturer);
        if (seen) expect(r.manufacturer).toBe(seen);
        byName.set(e.manufacturer, r.manufacturer);
      }
      expect(Object.isFrozen(r.specs.specs) && Object.isFrozen(r.specs.unread)).toBe(true);
    }
    expect([...byName.keys()].length).toBeLessThan(idx.rows.length); // names do repeat in the sample
    const empties = idx.rows.filter((r) => r.specs.unread.length === 0).map((r) => r.specs.unread);
    expect(new Set(empties).size).toBe(1);
  });
});
