/**
 * The search index against an independent, naive implementation of the spec's rules, on the
 * shipped catalogue: every hit, score, matched-field list, order and total must agree. Also the
 * candidate predicate and custom ordering the index offers for spec filters and sorting.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StoredEntity } from '../../src/domain/catalogue/entity.js';
import { SearchIndex, tokenize } from '../../src/domain/catalogue/search.js';

const entities = (JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../data/catalogue/entities.json'), 'utf8')) as { entities: StoredEntity[] }).entities;

// --- the naive reference: written from the spec text, not from the index ---
const FIELDS = ['id', 'name', 'manufacturer', 'type', 'application_interface', 'description'] as const;
const WEIGHT: Record<(typeof FIELDS)[number], number> = { id: 32, name: 16, manufacturer: 8, type: 4, application_interface: 2, description: 1 };
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** Words, and for a word holding CJK characters its tails from each position at or after a CJK character (CJK is written without spaces). */
const words = (s: string) => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
const indexWords = (s: string) =>
  words(s)
    .flatMap((w) => {
      const cs = Array.from(w);
      return [w, ...cs.flatMap((c, i) => (i > 0 && (CJK.test(c) || CJK.test(cs[i - 1]!)) ? [cs.slice(i).join('')] : []))];
    });
function fieldWords(e: StoredEntity): Record<(typeof FIELDS)[number], string[]> {
  const na = (s: string | null) => (s && s !== 'N/A' ? s : '');
  return {
    id: indexWords(e.id),
    name: indexWords(`${e.name} ${e.name_en}`),
    manufacturer: indexWords(e.manufacturer ?? ''),
    type: indexWords(e.type ?? ''),
    application_interface: indexWords([...e.applications, na(e.interface), ...e.interfaces, na(e.protocol)].join(' ')),
    description: indexWords(e.description),
  };
}
const prepared = entities.map((e) => ({ e, f: fieldWords(e) }));
function naive(q: string, opts: { includeQuarantine?: boolean; category?: string } = {}) {
  const terms = [...new Set(words(q))];
  const out: { id: string; score: number; fields: string[]; quarantine: boolean }[] = [];
  for (const { e, f } of prepared) {
    if (opts.category && e.category !== opts.category) continue;
    let score = 0;
    const fields = new Set<string>();
    let all = true;
    for (const t of terms) {
      let best = 0;
      for (const name of FIELDS) {
        const exact = f[name].includes(t);
        const prefix = f[name].some((w) => w.startsWith(t));
        if (prefix) fields.add(name);
        best = Math.max(best, exact ? WEIGHT[name] : prefix ? WEIGHT[name] / 2 : 0);
      }
      if (best === 0) all = false;
      score += best;
    }
    if (all && terms.length) out.push({ id: e.id, score, fields: FIELDS.filter((x) => fields.has(x)), quarantine: e.quarantine });
  }
  const lower = (s: string) => s.toLowerCase();
  out.sort((a, b) => b.score - a.score || (lower(a.id) < lower(b.id) ? -1 : lower(a.id) > lower(b.id) ? 1 : 0));
  const kept = out.filter((h) => opts.includeQuarantine || !h.quarantine);
  return { hits: kept, excluded: out.length - kept.length };
}

const index = new SearchIndex(entities);

// Queries: fixed ones, plus terms drawn deterministically from the catalogue's own words and their prefixes.
const vocabulary = [...new Set(prepared.flatMap((p) => Object.values(p.f).flat()))].sort();
const drawn: string[] = [];
for (let i = 0; i < 120; i++) {
  const a = vocabulary[(i * 7919) % vocabulary.length];
  const b = vocabulary[(i * 104729 + 13) % vocabulary.length];
  drawn.push(i % 3 === 0 ? a.slice(0, Math.max(1, Math.ceil(a.length / 2))) : i % 3 === 1 ? `${a} ${b.slice(0, 2)}` : a);
}
const QUERIES = ['servo', 'dynamixel xm540', 'harmonic drive', 'can joint', 'humanoid', 's', 'e c', '雷赛智能', 'xyzzyplonk', 'act 00', ...drawn];

describe('search index vs a naive scan of the spec rules (shipped catalogue)', () => {
  it('same hits, scores, fields, order, totals and quarantine counts', () => {
    for (const q of QUERIES) {
      const terms = [...new Set(words(q))];
      for (const includeQuarantine of [false, true]) {
        const want = naive(q, { includeQuarantine });
        const got = index.query(terms, { includeQuarantine });
        expect(got.total, q).toBe(want.hits.length);
        expect(got.quarantinedExcluded, q).toBe(want.excluded);
        expect(
          got.page.map((m) => [m.id, m.relevance_score, m.matched_fields.join(',')]),
          q,
        ).toEqual(want.hits.map((h) => [h.id, h.score, h.fields.join(',')]));
      }
    }
  });

  it('pages: top-k selection returns the same slice as sorting every match', () => {
    for (const q of ['humanoid', 's', 'e', 'servo']) {
      const terms = [...new Set(words(q))];
      const want = naive(q).hits.map((h) => h.id);
      for (const [offset, limit] of [[0, 1], [0, 20], [5, 7], [40, 20], [want.length - 1, 5], [want.length + 3, 5]]) {
        const got = index.query(terms, { offset, limit });
        expect(got.total, `${q} ${offset} ${limit}`).toBe(want.length);
        expect(got.page.map((m) => m.id), `${q} ${offset} ${limit}`).toEqual(want.slice(offset, offset + limit));
      }
    }
  });

  it('category narrows before counting', () => {
    const want = naive('servo', { category: 'actuators' });
    const got = index.query(['servo'], { category: 'actuators', limit: 1000 });
    expect(got.page.map((m) => m.id)).toEqual(want.hits.map((h) => h.id));
    expect(got.quarantinedExcluded).toBe(want.excluded);
  });
});

describe('wordsByCount: the most frequent (a new instance warms these before it serves)', () => {
  it('the words on the most (record, field) pairs, most first, ties in word order, as the naive field words count them', () => {
    const pairs = new Map<string, number>();
    for (const { f } of prepared) for (const field of FIELDS) for (const w of new Set(f[field])) pairs.set(w, (pairs.get(w) ?? 0) + 1);
    const expected = [...pairs].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([w]) => w);
    expect(index.wordsByCount(12, 0, 0).frequent).toEqual(expected.slice(0, 12));
    expect(index.wordsByCount(0, 0, 0).frequent).toEqual([]);
  });

  it('of some fields only: the words on the most records in those fields (each record once), as the naive field words count them', () => {
    const only = ['name', 'manufacturer', 'type'] as const;
    const records = new Map<string, number>();
    for (const { f } of prepared) for (const w of new Set(only.flatMap((field) => f[field]))) records.set(w, (records.get(w) ?? 0) + 1);
    const expected = [...records].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([w]) => w);
    expect(index.wordsByCount(20, 0, 0, only).frequent).toEqual(expected.slice(0, 20));
    // Not the all-fields order (descriptions and interfaces count there).
    expect(index.wordsByCount(20, 0, 0, only).frequent).not.toEqual(index.wordsByCount(20, 0, 0).frequent);
  });
});

describe('wordsByCount (the warm-up also answers cheap words again and again)', () => {
  it('narrow: words in at least minDocs answered records (names, makers, types), asked as they are, with the fewest (record, field) pairs over all the words they start; fewest first, ties in word order', () => {
    const only = ['name', 'manufacturer', 'type'] as const;
    const minDocs = 20;
    // Records a search answers (not quarantined) having the word in those fields, each record once.
    const answered = new Map<string, number>();
    for (const { e, f } of prepared) {
      if (e.quarantine) continue;
      for (const w of new Set(only.flatMap((field) => f[field]))) answered.set(w, (answered.get(w) ?? 0) + 1);
    }
    // (record, field) pairs of each word, over every field.
    const pairs = new Map<string, number>();
    for (const { f } of prepared) for (const field of FIELDS) for (const w of new Set(f[field])) pairs.set(w, (pairs.get(w) ?? 0) + 1);
    const vocab = [...pairs.keys()];
    const cost = (w: string) => vocab.reduce((n, v) => (v.startsWith(w) ? n + pairs.get(v)! : n), 0);
    const cheap = [...answered]
      .filter(([w, n]) => n >= minDocs && words(w).length === 1 && words(w)[0] === w)
      .map(([w]) => [w, cost(w)] as const)
      .sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .map(([w]) => w);
    expect(cheap.length).toBeGreaterThan(16);
    const got = index.wordsByCount(5, 16, minDocs, only);
    expect(got.narrow).toEqual(cheap.slice(0, 16));
    expect(got.frequent).toEqual(index.wordsByCount(5, 0, 0, only).frequent);
    // Each fills a page of answers.
    for (const w of got.narrow) expect(naive(w).hits.filter((h) => !h.quarantine).length, w).toBeGreaterThanOrEqual(minDocs);
    expect(index.wordsByCount(5, 0, minDocs, only).narrow).toEqual([]);
    // No word is in that many records: none.
    expect(index.wordsByCount(5, 16, entities.length + 1, only).narrow).toEqual([]);
  });
});

describe('extension points: filter and orderBy', () => {
  const byId = new Map(entities.map((e) => [e.id, e]));
  it('filter rejects candidates before top-k; totals count only what passes', () => {
    const keep = (id: string) => byId.get(id)!.manufacturer !== null && byId.get(id)!.manufacturer!.length % 2 === 0;
    const want = naive('humanoid').hits.filter((h) => keep(h.id));
    const got = index.query(['humanoid'], { filter: keep, limit: 10 });
    expect(got.total).toBe(want.length);
    expect(got.page.map((m) => m.id)).toEqual(want.slice(0, 10).map((h) => h.id));
  });

  it('orderBy sorts by the key (undefined last, in both directions), then relevance, then id', () => {
    const key = (id: string) => byId.get(id)!.year ?? undefined;
    const all = naive('humanoid').hits;
    for (const dir of ['asc', 'desc'] as const) {
      const want = [...all].sort((a, b) => {
        const ka = key(a.id);
        const kb = key(b.id);
        if ((ka === undefined) !== (kb === undefined)) return ka === undefined ? 1 : -1;
        if (ka !== undefined && kb !== undefined && ka !== kb) return dir === 'asc' ? ka - kb : kb - ka;
        return 0; // stable: keeps relevance, then id
      });
      const got = index.query(['humanoid'], { orderBy: { key, dir }, limit: 25, offset: 3 });
      expect(got.total).toBe(all.length);
      expect(got.page.map((m) => m.id), dir).toEqual(want.slice(3, 28).map((h) => h.id));
    }
  });
});

describe('tokenize: one pass over code points, the same tokens as the spec regex split', () => {
  it('agrees with words() on every free text of the shipped catalogue', () => {
    let texts = 0;
    for (const e of entities) {
      for (const t of [e.id, e.name, e.name_en, e.manufacturer ?? '', e.type ?? '', e.description, ...e.applications, ...e.interfaces, e.interface ?? '', e.protocol ?? '']) {
        expect(tokenize(t)).toEqual(words(t));
        texts++;
      }
    }
    expect(texts).toBeGreaterThan(entities.length * 5);
  });

  it('agrees on letters and digits beyond ASCII, marks, astral characters and lone surrogates', () => {
    const cases = [
      '伺服电机 RS485-CAN 24V',
      'İstanbul ŞİRKET straße ΣΊΣΥΦΟΣ',
      'e\u0301clair café', // a combining mark splits, as in the regex
      '٣٤ ४२ Ⅻ ½ x²', // Arabic-Indic and Devanagari digits, Roman numeral (Nl), vulgar fraction (No), superscript
      '𝐀𝐁𝐂 🤖robot 𠀀字', // astral letters, an emoji (not a letter), an astral CJK ideograph
      'a\ud800b \udc00c', // lone surrogates are separators
      '', '   ', '---', 'M3×0.5 ⌀12 mm',
    ];
    for (const t of cases) expect(tokenize(t), t).toEqual(words(t));
  });
});
