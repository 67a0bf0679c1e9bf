/**
 * The search index built on a worker thread while the catalogue is read (large catalogues) is the
 * index the main thread builds from the same validated records: the same arrays and the same
 * answers, on the shipped catalogue and on a larger generated one in shuffled order. A server does
 * not answer before it is built; a worker that fails fails the start with a clear error.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { buildDeps, WARM_ASK, type Deps } from '../../src/deps.js';
import type { StoredEntity } from '../../src/domain/catalogue/entity.js';
import { documentsOf, idOrder, PostingsBuilder, SearchIndex, searchTexts, sortedById, tokenCounts, tokenize, type SearchField } from '../../src/domain/catalogue/search.js';
import { startHttpServer } from '../../src/http/app.js';
import { silentLogger } from '../../src/log.js';
import { readCatalogueData } from '../../src/store/catalogue-data.js';
import { recordsInMemory } from '../../src/store/catalogue-records.js';
import { IndexBuild, type IndexBuildOptions, type TailAnswer, type TailRead } from '../../src/store/search-index-build.js';
import { testConfig } from '../support/deps.js';
import { rng } from '../support/rng.js';

const DATA = path.resolve(import.meta.dirname, '../../data');
const shipped = JSON.parse(fs.readFileSync(path.join(DATA, 'catalogue/entities.json'), 'utf8')) as { meta: Record<string, unknown>; entities: StoredEntity[] };

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** A data directory like the shipped one, with `entitiesJson` as its catalogue file. */
function dataDirWith(entitiesJson: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-index-build-'));
  dirs.push(dir);
  for (const name of fs.readdirSync(DATA)) if (name !== 'catalogue') fs.symlinkSync(path.join(DATA, name), path.join(dir, name));
  fs.mkdirSync(path.join(dir, 'catalogue'));
  fs.copyFileSync(path.join(DATA, 'catalogue/categories.json'), path.join(dir, 'catalogue/categories.json'));
  fs.writeFileSync(path.join(dir, 'catalogue/entities.json'), entitiesJson);
  return dir;
}

/** The shipped records `copies` times (ids suffixed, some names in CJK), in a shuffled order: not in id order. */
function generated(copies: number): StoredEntity[] {
  const next = rng(29);
  const out: StoredEntity[] = [];
  for (let k = 0; k < copies; k++) {
    for (const e of shipped.entities) {
      out.push(k === 0 ? e : { ...e, id: `${e.id}-G${k}`, name: k % 2 ? `${e.name} 谐波减速器 ${k}` : e.name, duplicate_of: e.duplicate_of ? `${e.duplicate_of}-G${k}` : e.duplicate_of });
    }
  }
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** A worker heap too small to build the index in. */
const TINY_HEAP = { maxOldGenerationSizeMb: 1, maxYoungGenerationSizeMb: 1 };

function deps(dataDir: string, indexWorker: boolean | IndexBuildOptions): Deps {
  return buildDeps(testConfig({ dataDir }), { log: silentLogger, indexWorker });
}

/** Queries from the index's own words: whole words, prefixes, pairs, CJK inside words. */
function queries(index: SearchIndex): string[][] {
  const words = index.words;
  const out: string[][] = [['谐波'], ['减速器'], ['servo'], ['motor', 'driver'], ['x'], ['1']];
  for (let i = 0; i < words.length; i += Math.max(1, Math.floor(words.length / 150))) {
    const w = words[i]!;
    out.push([w], [w.slice(0, Math.max(1, w.length - 2))], [w, words[(i * 7) % words.length]!]);
  }
  return out;
}

function expectSameIndex(built: SearchIndex, reference: SearchIndex): void {
  expect(built.parts()).toEqual(reference.parts());
  for (const terms of queries(reference)) {
    for (const opts of [{ limit: 20 }, { includeQuarantine: true, offset: 3, limit: 7 }]) expect(built.query(terms, opts), terms.join(' ')).toEqual(reference.query(terms, opts));
  }
}

describe('the search index built on a worker thread', () => {
  it('the shipped catalogue: the same index as the one built on the main thread', async () => {
    const onWorker = deps(DATA, true);
    const onMain = deps(DATA, false);
    try {
      await Promise.all([onWorker.ready, onMain.ready]);
      expectSameIndex(onWorker.index, onMain.index);
      expectSameIndex(onWorker.index, new SearchIndex(readCatalogueData(DATA).entities));
    } finally {
      onWorker.close();
      onMain.close();
    }
  });

  it('a larger catalogue read out of id order (the worker numbers documents as the catalogue sorts them)', async () => {
    const records = generated(4);
    const dir = dataDirWith(JSON.stringify({ meta: shipped.meta, entities: records }));
    const onWorker = deps(dir, true);
    try {
      await onWorker.ready;
      const reference = new SearchIndex(readCatalogueData(dir).entities);
      expectSameIndex(onWorker.index, reference);
      expect(onWorker.index.size).toBe(records.length);
      // The documents are numbered in id order (what the catalogue lists), not in the file's order.
      expect(onWorker.index.parts().ids).toEqual(sortedById(records).map((e) => e.id));
      const hit = onWorker.index.query(tokenize('谐波减速器'), { limit: 5 });
      expect(hit.total).toBeGreaterThan(0);
    } finally {
      onWorker.close();
    }
  });

  it("the warm-up's words, counted on the worker, are those the main thread's index counts (both lists, quarantined records among them)", async () => {
    const records = generated(4);
    // Some records quarantined, so that the narrow words' count of answered documents differs from the postings'.
    for (let i = 0; i < records.length; i += 7) records[i] = { ...records[i]!, quarantine: true };
    expect(records.filter((e) => e.quarantine).length).toBeGreaterThan(records.length / 8);
    const dir = dataDirWith(JSON.stringify({ meta: shipped.meta, entities: records }));
    const reference = new SearchIndex(readCatalogueData(dir).entities);
    const ask = (fields?: readonly SearchField[]) => reference.wordsByCount(WARM_ASK.n, WARM_ASK.narrowN, WARM_ASK.minDocs, fields);
    const expected = ask(WARM_ASK.fields);
    // Both lists full, and the fields and the quarantine flags matter to them (else the check below could not fail).
    expect(expected.frequent).toHaveLength(WARM_ASK.n);
    expect(expected.narrow.length).toBeGreaterThan(0);
    expect(ask()).not.toEqual(expected);
    // Through a build of its own: the worker's count, given the ask at end().
    const build = IndexBuild.forFile(path.join(dir, 'catalogue/entities.json'), true)!;
    const sorted = recordsInMemory(readCatalogueData(dir, build).entities);
    build.end(sorted, WARM_ASK);
    build.complete(sorted);
    expect(build.warmWords()).toBeNull(); // not before the index is built
    await build.ready;
    expect(build.warmWords()).toEqual(expected);
    // And what a server's deps hand the warm-up.
    const onWorker = deps(dir, true);
    try {
      await onWorker.ready;
      expect({ frequent: onWorker.warmUpWords(), narrow: onWorker.warmUpNarrowWords() }).toEqual(expected);
    } finally {
      onWorker.close();
    }
  });

  it('asked for before it is announced ready, the index is waited for, never missing', () => {
    const onWorker = deps(DATA, true);
    try {
      const index = onWorker.index; // synchronously, right after buildDeps
      expect(index.size).toBe(shipped.entities.length);
      expectSameIndex(index, new SearchIndex(readCatalogueData(DATA).entities));
    } finally {
      onWorker.close();
    }
  });

  it('a file read whole after all (the records key twice): the index is built on the main thread, the same', async () => {
    const records = generated(1);
    const text = JSON.stringify({ entities: [], meta: shipped.meta }).replace(/\}$/, `,"entities":${JSON.stringify(records)}}`);
    const dir = dataDirWith(text);
    const onWorker = deps(dir, true);
    try {
      await onWorker.ready;
      expectSameIndex(onWorker.index, new SearchIndex(records.map((e) => JSON.parse(JSON.stringify(e)) as StoredEntity)));
    } finally {
      onWorker.close();
    }
  });

  it('a server on it answers searches as one on the main-thread build does', async () => {
    const dir = dataDirWith(JSON.stringify({ meta: shipped.meta, entities: generated(2) }));
    const onWorker = deps(dir, true);
    const onMain = deps(dir, false);
    let indexBuilt = false;
    void onWorker.ready.then(() => (indexBuilt = true));
    const servers = await Promise.all([startHttpServer(onWorker), startHttpServer(onMain)]);
    expect(indexBuilt).toBe(true); // the server waited for it
    try {
      for (const q of ['servo', '谐波', 'motor controller', 'act']) {
        // The same answer but for each server's own address in its links.
        const [a, b] = await Promise.all(servers.map((s) => fetch(`${s.url}/api/search?q=${encodeURIComponent(q)}&limit=50`).then(async (r) => ({ status: r.status, body: (await r.text()).replaceAll(s.url, 'BASE') }))));
        expect(a!.status).toBe(200);
        expect(JSON.parse(a!.body).meta.total, q).toBeGreaterThan(0);
        expect(a!.body === b!.body, q).toBe(true);
      }
    } finally {
      await Promise.all(servers.map((s) => s.close()));
      onWorker.close();
      onMain.close();
    }
  });

  it('a worker that fails (out of memory here) fails the build with a clear error, for `ready` and for the index', async () => {
    const build = IndexBuild.forFile(path.join(DATA, 'catalogue/entities.json'), { resourceLimits: TINY_HEAP })!;
    const data = readCatalogueData(DATA, build);
    const records = recordsInMemory(data.entities);
    build.end(records);
    build.complete(records);
    await expect(build.ready).rejects.toThrow(/search index.*worker thread/);
    expect(() => build.index()).toThrow(/search index.*worker thread/);
  });

  it('a server whose index worker fails does not start: the error names the search index', async () => {
    const failing = deps(DATA, { resourceLimits: TINY_HEAP });
    try {
      await expect(startHttpServer(failing)).rejects.toThrow(/search index could not be built|search index's worker thread/);
      expect(() => failing.index).toThrow(/search index/);
    } finally {
      failing.close();
    }
  });

  it('a catalogue that fails to load stops the worker and fails the start with the record at fault', () => {
    const records = generated(1);
    records[5] = { ...records[5]!, category: 42 as unknown as string }; // a copy: generated() shares the shipped records
    const dir = dataDirWith(JSON.stringify({ meta: shipped.meta, entities: records }));
    expect(() => deps(dir, true)).toThrow(new RegExp(`record ${records[5]!.id} is invalid`));
  });
});

/** Watches the tails the index worker reads (IndexBuild.tail, the real one, called through): what each start, answer and drop was. */
function watchTails() {
  const seen = { offered: 0, started: 0, answers: [] as (TailAnswer | null)[], drops: 0 };
  const tail = IndexBuild.prototype.tail;
  vi.spyOn(IndexBuild.prototype, 'tail').mockImplementation(function (this: IndexBuild, ...args: Parameters<IndexBuild['tail']>): TailRead | null {
    const t = tail.apply(this, args);
    if (!t) return t;
    seen.offered++;
    return {
      from: t.from,
      start: (at) => {
        const ok = t.start(at);
        if (ok) seen.started++;
        return ok;
      },
      result: () => {
        const r = t.result();
        seen.answers.push(r);
        return r;
      },
      drop: () => {
        seen.drops++;
        t.drop();
      },
    };
  });
  return seen;
}

describe("a large catalogue's last records read on the index worker (IndexBuild.tail)", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('the worker reads the tail, the main thread the rest: the same index and the same records as one reader gives', async () => {
    const records = generated(4);
    const dir = dataDirWith(JSON.stringify({ meta: shipped.meta, entities: records }));
    const seen = watchTails();
    const onWorker = deps(dir, { tailShare: 0.4 });
    try {
      await onWorker.ready;
      expect(seen).toMatchObject({ offered: 1, started: 1, drops: 0 });
      const answer = seen.answers[0]!;
      expect(answer?.ok).toBe(true);
      // Its records are the file's last ones, about the share asked for.
      const tailIds = answer?.ok ? answer.columns.ids : [];
      expect(tailIds).toEqual(records.slice(records.length - tailIds.length).map((e) => e.id));
      expect(tailIds.length / records.length).toBeGreaterThan(0.3);
      expect(tailIds.length / records.length).toBeLessThan(0.5);
      expectSameIndex(onWorker.index, new SearchIndex(readCatalogueData(dir).entities));
    } finally {
      onWorker.close();
    }
    // The records themselves (read lazily, by the byte ranges the two readers found), in the file's order.
    const build = IndexBuild.forFile(path.join(dir, 'catalogue/entities.json'), { tailShare: 0.4 })!;
    const lazy = readCatalogueData(dir, build, { lazy: true });
    try {
      expect(seen.answers.at(-1)?.ok).toBe(true);
      expect(lazy.entities).toEqual(readCatalogueData(dir).entities);
      expect(lazy.meta).toEqual(readCatalogueData(dir).meta);
    } finally {
      build.abandon();
      lazy.lazy?.close();
    }
  });

  it('a record the worker refuses fails the start with the error one reader gives (and a record refused before it is the one named)', () => {
    const records = generated(2);
    records[records.length - 3] = { ...records[records.length - 3]!, category: 42 as unknown as string };
    const dir = dataDirWith(JSON.stringify({ meta: shipped.meta, entities: records }));
    const oneReader = (() => {
      try {
        deps(dir, false).close();
      } catch (err) {
        return (err as Error).message;
      }
      return null;
    })();
    expect(oneReader).toMatch(/record .* is invalid: category/);
    const seen = watchTails();
    expect(() => deps(dir, { tailShare: 0.4 })).toThrow(oneReader!);
    expect(seen.answers[0]).toMatchObject({ ok: false, invalid: { index: expect.any(Number) } });
    // A record refused in the main thread's part as well: that one, the first in the file, is named.
    records[4] = { ...records[4]!, name: 7 as unknown as string };
    const both = dataDirWith(JSON.stringify({ meta: shipped.meta, entities: records }));
    expect(() => deps(both, { tailShare: 0.4 })).toThrow(`record ${records[4]!.id} is invalid`);
  });

  it('a worker that dies while it reads the tail: the main thread waits a bounded time, reads the tail itself, and the start fails naming the search index', async () => {
    const records = generated(4);
    const dir = dataDirWith(JSON.stringify({ meta: shipped.meta, entities: records }));
    const seen = watchTails();
    const failing = deps(dir, { tailShare: 0.4, resourceLimits: TINY_HEAP });
    try {
      // No answer came (the worker ran out of memory): the main thread read the tail, and dropped the worker's.
      expect(seen).toMatchObject({ started: 1, answers: [null], drops: 1 });
      // The start ends (the wait for the tail is bounded, not the index's own 300 s): with the worker's failure.
      await expect(startHttpServer(failing)).rejects.toThrow(/search index could not be built|search index's worker thread/);
    } finally {
      failing.close();
    }
  });

  it('a guess past the array (another array of records after it, members after it): missed, dropped, and read by the main thread alone', async () => {
    const records = generated(2);
    // The document's other members after the array, one of them an array of objects that start as the records do.
    const extra = Array.from({ length: 30_000 }, (_, i) => ({ id: `extra-${i}` }));
    const text = `{"entities":${JSON.stringify(records)},"meta":${JSON.stringify(shipped.meta)},"extra":${JSON.stringify(extra)}}`;
    const dir = dataDirWith(text);
    const seen = watchTails();
    const onWorker = deps(dir, { tailShare: 0.05 });
    try {
      await onWorker.ready;
      expect(seen).toMatchObject({ offered: 1, started: 1, drops: 1, answers: [] });
      expectSameIndex(onWorker.index, new SearchIndex(readCatalogueData(dir).entities));
      expect(onWorker.index.size).toBe(records.length);
    } finally {
      onWorker.close();
    }
  });
});

describe('PostingsBuilder', () => {
  it("append: another builder's documents after this one's, the postings of one builder given them all (in both kinds, with and without the order given)", () => {
    const records = generated(2);
    const order = idOrder(records);
    for (const cut of [0, 1, 700, records.length - 1, records.length]) {
      for (const keepIds of [true, false]) {
        const one = new PostingsBuilder({ keepIds });
        for (const e of records) one.add(searchTexts(e));
        const first = new PostingsBuilder({ keepIds, ...(cut % 2 ? { pairs: 50_000 } : {}) });
        const second = new PostingsBuilder({ keepIds });
        records.forEach((e, i) => (i < cut ? first : second).add(searchTexts(e)));
        first.append(second);
        expect(first.added).toBe(records.length);
        const positions = keepIds ? undefined : order.positions;
        expect(first.finish(positions), `cut ${cut}, keepIds ${keepIds}`).toEqual(one.finish(positions));
        expect(() => second.add(['x'])).toThrow(/after finish/);
      }
    }
    expect(() => new PostingsBuilder().append(new PostingsBuilder({ keepIds: false }))).toThrow(/keeps its ids/);
  });

  it('documents added in any order: the postings of the records in id order, whether it computes the order or is given it', () => {
    const records = generated(2);
    const reference = new SearchIndex(records);
    const order = idOrder(records);
    expect(order.positions).not.toBeNull(); // shuffled: not in id order
    for (const positions of [undefined, order.positions]) {
      const builder = new PostingsBuilder();
      for (const e of records) builder.add(searchTexts(e));
      const { postings, order: used } = builder.finish(positions);
      expect(Array.from(used!)).toEqual(order.positions);
      expectSameIndex(SearchIndex.fromParts({ ...documentsOf(order.sorted), ...postings }), reference);
    }
  });

  it("a builder that does not keep the ids (as the worker's) gives the same postings when given the order, and asks for the order when it is not", () => {
    const records = generated(2);
    const order = idOrder(records);
    const keeping = new PostingsBuilder();
    const notKeeping = new PostingsBuilder({ keepIds: false });
    for (const e of records) {
      keeping.add(searchTexts(e));
      notKeeping.add(searchTexts(e));
    }
    expect(notKeeping.added).toBe(records.length);
    expect(notKeeping.finish(order.positions)).toEqual(keeping.finish());
    // Added in id order: null is the order.
    const inOrder = new PostingsBuilder({ keepIds: false });
    for (const e of order.sorted) inOrder.add(searchTexts(e));
    const reference = new PostingsBuilder();
    for (const e of order.sorted) reference.add(searchTexts(e));
    expect(inOrder.finish(null)).toEqual(reference.finish());
    const asked = new PostingsBuilder({ keepIds: false });
    asked.add(searchTexts(records[0]!));
    expect(() => asked.finish()).toThrow(/order is needed \(positions, or null when added in id order\)/);
  });

  it("asked to, finish counts each token's documents beside the postings: the counts tokenCounts makes over them, with and without fields, and the same postings", () => {
    const records = generated(2).map((e, i) => (i % 5 === 0 ? { ...e, quarantine: true } : e));
    const order = idOrder(records);
    const quarantine = Uint8Array.from(order.sorted, (e) => (e.quarantine ? 1 : 0));
    const plain = new PostingsBuilder({ keepIds: false });
    for (const e of records) plain.add(searchTexts(e));
    const { postings } = plain.finish(order.positions);
    for (const fields of [undefined, ['name', 'manufacturer', 'type'] as const, ['id'] as const]) {
      const counting = new PostingsBuilder({ keepIds: false });
      for (const e of records) counting.add(searchTexts(e));
      const made = counting.finish(order.positions, { quarantine, fields });
      expect(made.postings).toEqual(postings);
      const expected = tokenCounts({ ...postings, quarantine }, fields);
      expect(made.counts).toEqual(expected);
      // The quarantine flags count: fewer answered than counted for some token.
      expect(expected.answered.some((a, t) => a < expected.counted[t]!)).toBe(true);
    }
    const wrong = new PostingsBuilder({ keepIds: false });
    wrong.add(searchTexts(records[0]!));
    expect(() => wrong.finish(null, { quarantine: new Uint8Array(2) })).toThrow(/2 quarantine flags for 1 documents/);
  });

  it("postings equal those counted here from tokenize(), documents numbered in id order; the builder is spent after finish (its postings are in the pairs' own memory)", () => {
    const records = generated(1);
    const order = idOrder(records);
    const builder = new PostingsBuilder({ keepIds: false });
    for (const e of records) builder.add(searchTexts(e));
    const { postings } = builder.finish(order.positions);
    // The reference: each document's (token, field) pairs, each once per field, in the order found;
    // a word holding a CJK character is followed by its tails from each character that is or follows one.
    const cjk = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
    const withTails = (w: string) => {
      const chars = [...w];
      return [w, ...chars.flatMap((c, i) => (i > 0 && (cjk.test(c) || cjk.test(chars[i - 1]!)) ? [chars.slice(i).join('')] : []))];
    };
    const docs = order.sorted.map((e) => searchTexts(e).flatMap((text, f) => [...new Set(tokenize(text).flatMap(withTails))].map((t) => [t, f] as const)));
    const vocab = [...new Set(docs.flat().map(([t]) => t))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const number = new Map(vocab.map((t, i) => [t, i]));
    expect(postings.vocab).toEqual(vocab);
    expect([...postings.docTok]).toEqual(docs.flat().map(([t]) => number.get(t)));
    expect([...postings.docField]).toEqual(docs.flat().map(([, f]) => f));
    expect([...postings.docStart]).toEqual(docs.reduce((acc, d) => [...acc, acc[acc.length - 1]! + d.length], [0]));
    const byToken = vocab.map(() => [] as [number, number][]);
    docs.forEach((pairs, d) => pairs.forEach(([t, f]) => byToken[number.get(t)!]!.push([d, f])));
    expect([...postings.postDoc]).toEqual(byToken.flat().map(([d]) => d));
    expect([...postings.postField]).toEqual(byToken.flat().map(([, f]) => f));
    expect([...postings.tokStart]).toEqual(byToken.reduce((acc, l) => [...acc, acc[acc.length - 1]! + l.length], [0]));
    expect(() => builder.finish(order.positions)).toThrow(/called twice/);
    expect(() => builder.add(searchTexts(records[0]!))).toThrow(/after finish/);
  });

  it('tokens are made whole from their characters: long words, words across the 4,096-character steps, astral letters', () => {
    const astral = '\u{1D400}'; // MATHEMATICAL BOLD CAPITAL A: a letter of two UTF-16 units
    const long = 'Q'.repeat(4095) + astral + 'z'.repeat(5000);
    const texts = ['ID-1', `${long} Servo-Motor ${'b'.repeat(13)}`, '', '', '', 'drives'];
    const builder = new PostingsBuilder();
    builder.add(texts);
    const { postings } = builder.finish();
    // The independent reference: tokenize() (split, lower-cased, by slicing).
    const expected = [...new Set(texts.flatMap((t) => tokenize(t)))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect(postings.vocab).toEqual(expected);
    expect(postings.vocab).toContain(long.toLowerCase());
  });

  it('parts that do not fit together are refused', () => {
    const parts = new SearchIndex(shipped.entities).parts();
    expect(() => SearchIndex.fromParts({ ...parts, ids: parts.ids.slice(1) })).toThrow(/do not fit/);
    expect(() => SearchIndex.fromParts({ ...parts, vocab: parts.vocab.slice(1) })).toThrow(/do not fit/);
    expect(() => new PostingsBuilder().finish([0])).toThrow(/1 positions for 0 documents/);
  });
});
