/**
 * A large catalogue's records read lazily (src/store/catalogue-records.ts): their columns at start,
 * each record on first use or in the background. The records are the file's records validated as
 * zod gives them back, frozen and shared as the records read at start are; a server on them answers
 * every catalogue call as one on records read at start does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDeps, type Deps, type LazyBuild } from '../../src/deps.js';
import { StoredEntity } from '../../src/domain/catalogue/entity.js';
import { silentLogger } from '../../src/log.js';
import { preparedCatalogueData, readCatalogueData, type DerivedColumns } from '../../src/store/catalogue-data.js';
import { recordsInMemory, recordsLazily, type LazyRecords } from '../../src/store/catalogue-records.js';
import { knownManufacturers } from '../../src/ingest/oss/where-used-layer.js';
import { readManufacturers } from '../../src/store/spec-data.js';
import { SPEC_SOURCE_KEYS } from '../../src/domain/specs/fields.js';
import { SpecIndex } from '../../src/domain/specs/index.js';
import { catalogueDir, removeCatalogueDirs, shipped } from '../support/catalogue-dir.js';
import { testConfig } from '../support/deps.js';

const DATA = path.resolve(import.meta.dirname, '../../data');
afterAll(removeCatalogueDirs);

/** The shipped records `copies` times (ids suffixed), shuffled, pretty-printed (records at other offsets and with other separators than the compact file's). */
const shuffledCatalogue = (copies: number) => catalogueDir({ copies, order: 'shuffled', seed: 7, suffix: 'L', pretty: true });

/** Every array and object inside `v` (itself included). */
function containers(v: unknown, out: object[] = []): object[] {
  if (v !== null && typeof v === 'object') {
    out.push(v);
    for (const x of Object.values(v)) containers(x, out);
  }
  return out;
}

/** Each manufacturer name as written once, with the first record (in the file's order) writing it; records naming none left out. */
function firstMakers(records: readonly Record<string, unknown>[]): { id: string; manufacturer: string }[] {
  const firstOf = new Map<string, string>();
  for (const e of records) if (typeof e.manufacturer === 'string' && !firstOf.has(e.manufacturer)) firstOf.set(e.manufacturer, String(e.id));
  return [...firstOf].map(([manufacturer, id]) => ({ id, manufacturer }));
}

function lazyOf(dir: string): LazyRecords {
  const data = readCatalogueData(dir, undefined, { lazy: true });
  expect(data.lazy).toBeDefined();
  return data.lazy!;
}

describe('records read lazily', () => {
  it('have the columns of the file at start, read no record before it is asked for, and read each as zod validates it', () => {
    const { dir, records } = shuffledCatalogue(2);
    const lazy = lazyOf(dir);
    expect(lazy.size).toBe(records.length);
    expect(lazy.readCount).toBe(0);
    expect(lazy.ids).toEqual(records.map((e) => e.id));
    expect(lazy.categories).toEqual(records.map((e) => e.category));
    expect(Array.from(lazy.quarantine)).toEqual(records.map((e) => (e.quarantine ? 1 : 0)));
    expect(lazy.makers()).toEqual(firstMakers(records));
    for (const i of [5, 0, records.length - 1, 5]) {
      const e = lazy.record(i);
      expect(e).toEqual(StoredEntity.parse(records[i]));
      for (const c of containers(e)) expect(Object.isFrozen(c)).toBe(true);
    }
    expect(lazy.readCount).toBe(3); // the same record twice is read once
    expect(lazy.record(5)).toBe(lazy.record(5));
  });

  it('forEachSpecSource: what a start that derived the catalogue kept of each record for the spec fields, without reading a record; the same columns as the records give', async () => {
    const { dir, records } = shuffledCatalogue(2);
    // A start that derives the catalogue makes them as it reads its records again: some on first use
    // (their lines made once every record is read), the rest in the background (made as they are read) ...
    let derived: DerivedColumns | null = null;
    const first = readCatalogueData(dir, undefined, { lazy: true, derived: (d) => (derived = d) }).lazy!;
    const made = first.specSourcesWhenRead()!;
    expect(made).not.toBeNull();
    for (const i of [7, 0, records.length - 1]) first.record(i);
    await new Promise<void>((resolve) => first.readInBackground(1, resolve));
    const sources = await made;
    // ... the same bytes as when every record is read at once (all their lines made at the end).
    const again = readCatalogueData(dir, undefined, { lazy: true, derived: () => {} }).lazy!;
    const allAtOnce = again.specSourcesWhenRead()!;
    again.all();
    expect(Buffer.from(await allAtOnce).equals(Buffer.from(sources))).toBe(true);
    // ... and the next start gets them with its prepared start.
    const d = derived as DerivedColumns | null;
    const lazy = preparedCatalogueData(dir, fs.openSync(path.join(dir, 'catalogue/entities.json'), 'r'), d!.members, d!.columns, sources).lazy!;
    const seen: unknown[] = [];
    lazy.forEachSpecSource((e, i) => {
      expect(i).toBe(seen.length);
      seen.push(e);
    });
    expect(lazy.readCount).toBe(0);
    // Each record's members the spec fields read, picked here from the validated record.
    expect(seen).toEqual(records.map((r) => {
      const v = StoredEntity.parse(r) as Record<string, unknown>;
      return Object.fromEntries(SPEC_SOURCE_KEYS.filter((k) => v[k] !== undefined).map((k) => [k, v[k]]));
    }));
    // Every field's column over them, as a layer over the whole records builds it.
    const eager = buildDeps(testConfig({ dataDir: dir }), { log: silentLogger, indexWorker: false });
    try {
      const whole = eager.specs;
      const fromSources = new SpecIndex([], { buses: whole.buses, manufacturers: whole.manufacturers, fields: whole.fields, each: (visit) => lazy.forEachSpecSource(visit) });
      const names = whole.fields.map((f) => f.name);
      fromSources.prepare(names);
      for (const f of names) {
        expect(fromSources.appliesTo(f), f).toEqual(whole.appliesTo(f));
        for (const e of records) {
          expect(fromSources.fieldSpecs(String(e.id), f), `${f} ${String(e.id)}`).toEqual(whole.fieldSpecs(String(e.id), f));
          expect(fromSources.fieldUnread(String(e.id), f), `${f} ${String(e.id)}`).toEqual(whole.fieldUnread(String(e.id), f));
        }
      }
      expect(lazy.readCount).toBe(0);
    } finally {
      eager.close();
      lazy.close();
    }
  });

  it('all(): every record in the file order, the records read before kept; then the file is closed', () => {
    const { dir, records } = shuffledCatalogue(2);
    const lazy = lazyOf(dir);
    const early = lazy.record(17);
    expect(lazy.fileOpen).toBe(true);
    const all = lazy.all();
    expect(all).toEqual(records.map((e) => StoredEntity.parse(e)));
    expect(all[17]).toBe(early);
    expect(lazy.complete).toBe(true);
    expect(lazy.fileOpen).toBe(false);
    expect(lazy.all()).toBe(all);
    // The manufacturers read at start are let go: the records answer for them.
    expect(lazy.makers()).toEqual(firstMakers(records));
  });

  it('makers(): one entry per manufacturer name, so where-used knows the same manufacturers as from every record', () => {
    const { dir, records } = shuffledCatalogue(2);
    const lazy = lazyOf(dir);
    const makers = lazy.makers();
    // The shipped records repeat names and leave some unnamed: fewer entries than records, one per name.
    expect(makers.length).toBeLessThan(records.filter((e) => typeof e.manufacturer === 'string').length);
    expect(new Set(makers.map((m) => m.manufacturer)).size).toBe(makers.length);
    const table = readManufacturers(DATA);
    const fromEvery = knownManufacturers(records.map((e) => StoredEntity.parse(e)), table);
    expect(fromEvery.length).toBeGreaterThan(0);
    expect(knownManufacturers(makers, table)).toEqual(fromEvery);
    expect(lazy.readCount).toBe(0);
  });

  it('columns(): every record\'s quarantine flag and category in id order, from the columns (no record read) and from records in memory alike', () => {
    const { dir, records } = shuffledCatalogue(2);
    const parsed = records.map((e) => StoredEntity.parse(e));
    const byId = [...parsed].sort((a, b) => {
      const x = a.id.toLowerCase();
      const y = b.id.toLowerCase();
      return x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    });
    const expected = { quarantine: byId.map((e) => (e.quarantine ? 1 : 0)), categories: byId.map((e) => e.category) };
    expect(expected.quarantine).toContain(1);
    const lazy = lazyOf(dir);
    const lazily = recordsLazily(lazy).columns();
    expect({ quarantine: Array.from(lazily.quarantine), categories: lazily.categories }).toEqual(expected);
    expect(lazy.readCount).toBe(0);
    const inMemory = recordsInMemory(parsed).columns();
    expect({ quarantine: Array.from(inMemory.quarantine), categories: inMemory.categories }).toEqual(expected);
  });

  it('forEach(): visits every record in the file order as zod validates it, keeps none it reads (those read before are the kept ones)', () => {
    const { dir, records } = shuffledCatalogue(2);
    const lazy = lazyOf(dir);
    const early = lazy.record(40);
    const seen: unknown[] = [];
    lazy.forEach((e, i) => {
      expect(i).toBe(seen.length);
      seen.push(e);
    });
    expect(seen).toEqual(records.map((e) => StoredEntity.parse(e)));
    expect(seen[40]).toBe(early);
    expect(lazy.readCount).toBe(1);
    expect(lazy.fileOpen).toBe(true);
    // Read afterwards, a record is a new frozen object (the one visited was let go).
    const later = lazy.record(41);
    expect(later).not.toBe(seen[41]);
    expect(Object.isFrozen(later)).toBe(true);
  });

  it('reads the file opened at start: one replaced on disk afterwards does not change what is read', () => {
    const { dir, records } = shuffledCatalogue(1);
    const lazy = lazyOf(dir);
    const file = path.join(dir, 'catalogue/entities.json');
    const other = path.join(dir, 'catalogue/other.json');
    fs.writeFileSync(other, JSON.stringify({ meta: shipped.meta, entities: [...records].reverse() }));
    fs.renameSync(other, file);
    expect(lazy.record(3)).toEqual(StoredEntity.parse(records[3]));
    expect(lazy.all()).toEqual(records.map((e) => StoredEntity.parse(e)));
  });

  it('share common values and empty containers across records, as records read at start do', () => {
    const lazy = lazyOf(shuffledCatalogue(1).dir);
    const eager = readCatalogueData(DATA).entities;
    const all = lazy.all();
    // Two records with no sources hold the one shared empty list; equal provenance lists are one list.
    const noSources = all.filter((e) => e.deep?.sources?.length === 0);
    expect(noSources.length).toBeGreaterThan(1);
    expect(noSources[0]!.deep!.sources).toBe(noSources[1]!.deep!.sources);
    const eagerNoSources = eager.filter((e) => e.deep?.sources?.length === 0);
    expect(noSources[0]!.deep!.sources).toBe(eagerNoSources[0]!.deep!.sources);
    const lists = all.flatMap((e) => Object.values(e.provenance ?? {}));
    const distinct = new Set(lists).size;
    const distinctValues = new Set(lists.map((l) => l.join('\n'))).size;
    expect(distinct).toBe(distinctValues);
  });

  it('readInBackground reads the rest a slice at a time and tells once; stop() ends it, first use still reads', async () => {
    const { dir, records } = shuffledCatalogue(3);
    const lazy = lazyOf(dir);
    const early = lazy.record(3);
    let told = 0;
    await new Promise<void>((resolve) =>
      lazy.readInBackground(1, () => {
        told++;
        resolve();
      }),
    );
    expect(told).toBe(1);
    expect(lazy.complete).toBe(true);
    expect(lazy.all()[3]).toBe(early);
    let again = 0;
    lazy.readInBackground(1, () => again++);
    expect(again).toBe(1); // complete already: told at once

    const stopped = lazyOf(dir);
    stopped.readInBackground(1, () => {
      throw new Error('not to be told after stop()');
    });
    stopped.stop();
    await new Promise((r) => setTimeout(r, 20));
    expect(stopped.readCount).toBe(0);
    expect(stopped.record(records.length - 1)).toEqual(StoredEntity.parse(records[records.length - 1]));
  });

  it('readInBackground with a pace gives way while requests come, and reads the rest once they stop', async () => {
    const { dir } = shuffledCatalogue(2);
    const lazy = lazyOf(dir);
    let busy = true; // a request "just now" on every look
    let told = 0;
    const done = new Promise<void>((resolve) =>
      lazy.readInBackground(1, () => {
        told++;
        resolve();
      }, { lastRequest: () => (busy ? performance.now() : -Infinity), quietMs: 5, maxWaitMs: 1e9 }),
    );
    await new Promise((r) => setTimeout(r, 30));
    expect(lazy.readCount).toBe(0); // no slice while requests keep coming
    expect(lazy.record(5).id).toBe(lazy.ids[5]); // first use still reads
    busy = false;
    await done;
    expect(told).toBe(1);
    expect(lazy.complete).toBe(true);

    // Under a steady stream of requests the reading still ends: a slice at least every maxWaitMs.
    const steady = lazyOf(dir);
    await new Promise<void>((resolve) => steady.readInBackground(1, resolve, { lastRequest: () => performance.now(), quietMs: 1e9, maxWaitMs: 1 }));
    expect(steady.complete).toBe(true);
  });

  it('an invalid record fails the start with its id, as when the records are kept at start', () => {
    const { dir, records } = shuffledCatalogue(1);
    const bad = records.map((e, i) => (i === 9 ? { ...e, quarantine: 'no' } : e));
    fs.writeFileSync(path.join(dir, 'catalogue/entities.json'), JSON.stringify({ meta: shipped.meta, entities: bad }));
    expect(() => readCatalogueData(dir, undefined, { lazy: true })).toThrow(new RegExp(`record ${String(records[9]!.id)} is invalid: quarantine`));
  });
});

describe('a server on records read lazily', () => {
  function deps(dataDir: string, indexWorker: boolean): Deps {
    return buildDeps(testConfig({ dataDir }), { log: silentLogger, indexWorker });
  }

  it('answers every catalogue read as one on records read at start, and announces the records read once', async () => {
    const { dir, records } = shuffledCatalogue(3);
    const lazy = deps(dir, true); // the index on a worker: records read lazily
    const eager = deps(dir, false);
    const seen: LazyBuild[] = [];
    lazy.onLazyBuild((b) => seen.push(b));
    try {
      await Promise.all([lazy.ready, eager.ready]);
      const a = lazy.catalogue;
      const b = eager.catalogue;
      const someIds = [records[0]!.id, records[1]!.id, String(records[2]!.id).toLowerCase(), 'nope', records[records.length - 1]!.id] as string[];
      for (const id of someIds) expect(await a.get(id), id).toEqual(await b.get(id));
      expect(await a.getMany(someIds)).toEqual(await b.getMany(someIds));
      expect(await a.categories()).toEqual(await b.categories());
      expect(await a.meta()).toEqual(await b.meta());
      for (const p of ['act', 'ACT-00', 'sen', 'oss-', 'zz']) expect(await a.idsWithPrefix(p, 30), p).toEqual(await b.idsWithPrefix(p, 30));
      for (const q of [{}, { category: 'actuators', offset: 3, limit: 10 }, { includeQuarantine: true, offset: 100, limit: 50 }, { category: 'no-such' }]) {
        expect(await a.list(q), JSON.stringify(q)).toEqual(await b.list(q));
      }
      expect(lazy.index.parts()).toEqual(eager.index.parts());
      // Spec columns built over records visited and let go (before anything reads them all): what the eager layer holds.
      lazy.specs.prepare(['torque_rated', 'mass', 'bus']);
      for (const e of records)
        for (const f of ['torque_rated', 'mass', 'bus']) {
          expect(lazy.specs.fieldSpecs(String(e.id), f)).toEqual(eager.specs.fieldSpecs(String(e.id), f));
          expect(lazy.specs.fieldUnread(String(e.id), f)).toEqual(eager.specs.fieldUnread(String(e.id), f));
        }
      for (const f of ['torque_rated', 'mass', 'bus']) expect(lazy.specs.appliesTo(f)).toEqual(eager.specs.appliesTo(f));
      expect(await a.all()).toEqual(await b.all());
      expect(lazy.specs.rows).toEqual(eager.specs.rows);
      expect(lazy.analytics.document).toEqual(eager.analytics.document);
      expect(lazy.ossLayer).toEqual(eager.ossLayer);
      await new Promise((r) => setTimeout(r, 0));
      expect(seen.filter((s) => s.what === 'records')).toEqual([{ what: 'records', records: records.length }]);
    } finally {
      lazy.close();
      eager.close();
    }
  });

  it('reads its records in the background once ready', async () => {
    const { dir, records } = shuffledCatalogue(2);
    const d = deps(dir, true);
    try {
      const built = new Promise<LazyBuild>((resolve) => d.onLazyBuild((b) => b.what === 'records' && resolve(b)));
      await d.ready;
      expect(await built).toEqual({ what: 'records', records: records.length });
    } finally {
      d.close();
    }
  });
});

describe('lookups by id', () => {
  it('find a record by its id as written or in any case; of ids equal but for case, the first in id order answers every spelling', async () => {
    const { makeEntity, catalogueData } = await import('../support/factory.js');
    const { testConfig: config } = await import('../support/deps.js');
    const entities = [makeEntity({ id: 'act-7' }), makeEntity({ id: 'ACT-7' }), makeEntity({ id: 'Sen-2' }), makeEntity({ id: 'ARM-10' }), makeEntity({ id: 'arm-1' })];
    const d = buildDeps(config(), { log: silentLogger, catalogueData: catalogueData(entities), ossEntities: [] });
    try {
      const c = d.catalogue;
      // Id order: case-insensitive first, then by code unit ('A' < 'a'): ACT-7 before act-7.
      for (const spelling of ['ACT-7', 'act-7', 'Act-7', 'aCT-7']) expect((await c.get(spelling))?.id, spelling).toBe('ACT-7');
      for (const [spelling, id] of [['sen-2', 'Sen-2'], ['SEN-2', 'Sen-2'], ['arm-10', 'ARM-10'], ['ARM-1', 'arm-1']] as const) expect((await c.get(spelling))?.id, spelling).toBe(id);
      for (const missing of ['act-', 'act-77', 'arm-100', '', 'zzz', '0']) expect(await c.get(missing), missing).toBeNull();
      expect((await c.getMany(['sen-2', 'nope', 'act-7'])).map((e) => e.id)).toEqual(['Sen-2', 'ACT-7']);
      // With the search index's positions (id order): a record is taken from its position only when its id is the one asked.
      const ids = ['ACT-7', 'act-7', 'Sen-2', 'arm-1', 'ARM-10'];
      const order = (await c.all()).map((e) => e.id);
      expect(order).toEqual(['ACT-7', 'act-7', 'arm-1', 'ARM-10', 'Sen-2']);
      const right = ids.map((id) => order.indexOf(id));
      expect((await c.getMany(ids, right)).map((e) => e.id)).toEqual(ids);
      // Positions that do not hold the id (shifted, out of range, negative) are looked up instead: the same answer as without positions.
      for (const wrong of [right.map((d) => (d + 1) % order.length), ids.map(() => 99), ids.map(() => -1)]) {
        expect((await c.getMany(ids, wrong)).map((e) => e.id), wrong.join()).toEqual((await c.getMany(ids)).map((e) => e.id));
      }
      // act-7 asked at ACT-7's position is not ACT-7: looked up, every spelling answers the first of the two (ACT-7).
      expect((await c.getMany(['act-7'], [order.indexOf('act-7')])).map((e) => e.id)).toEqual(['act-7']);
      expect((await c.getMany(['act-7'], [order.indexOf('ACT-7')])).map((e) => e.id)).toEqual(['ACT-7']);
      // Records handed in unfrozen are frozen by the catalogue, as it shares them with every caller.
      expect(Object.isFrozen(await c.get('sen-2'))).toBe(true);
      expect(Object.isFrozen(await c.all())).toBe(false); // a copy for the caller
      expect((await c.all()).every((e) => Object.isFrozen(e))).toBe(true);
    } finally {
      d.close();
    }
  });
});
