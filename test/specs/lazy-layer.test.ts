/**
 * The spec layer is built on first use, once: constructing it reads no record, the first reader
 * builds every row (each field read once per record), later readers reuse the rows.
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
const entities = (read('catalogue/entities.json') as { entities: StoredEntity[] }).entities.slice(0, 60);

describe('SpecIndex: rows and same_as links built on first use', () => {
  it('reads each record once, on the first call that needs the rows', () => {
    let reads = 0;
    const counting: SpecFieldDef = { ...defaultSpecFields()[0]!, name: 'counted', read: (e, env) => (reads++, defaultSpecFields()[0]!.read(e, env)) };
    const idx = new SpecIndex(entities, { buses: parseBusTable(read('buses.json')), manufacturers: parseManufacturers(read('manufacturers.json')), fields: [...defaultSpecFields(), counting] });
    expect(reads).toBe(0);
    expect(idx.fields.map((f) => f.name)).toContain('counted'); // the field table needs no rows
    expect(idx.get(entities[5]!.id)?.id).toBe(entities[5]!.id);
    expect(reads).toBe(entities.length);
    expect(idx.rows).toHaveLength(entities.length);
    idx.counts();
    idx.specsOf(entities[0]!.id);
    expect(reads).toBe(entities.length);
    expect(idx.sameAs).toBe(idx.sameAs); // built once
  });
});

describe('SpecIndex: compact rows', () => {
  const build = () => new SpecIndex(entities, { buses: parseBusTable(read('buses.json')), manufacturers: parseManufacturers(read('manufacturers.json')) });

  it('finds a row by its id in any spelling of case, and nothing for an unknown id', () => {
    const idx = build();
    const id = entities.find((e) => /[A-Z]/.test(e.id))!.id;
    const row = idx.get(id);
    expect(row?.id).toBe(id);
    expect(idx.get(id.toLowerCase())).toBe(row);
    expect(idx.get(id.toLowerCase().replace(/^./, (c) => c.toUpperCase()))).toBe(row);
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
