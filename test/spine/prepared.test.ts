/** Prepared views and JSON of frozen catalogue records: the same bytes as converting and serialising afresh. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StoredEntity } from '../../src/domain/catalogue/entity.js';
import { SUMMARY_FIELDS } from '../../src/domain/catalogue/entity.js';
import { preparedDeep, preparedLinks, preparedSummary, searchHit } from '../../src/domain/catalogue/views.js';
import { outputJson, stringifyOutput } from '../../src/wire/prepared.js';
import { deepFreeze } from '../../src/store/memory-catalogue.js';

const read = () => (JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../data/catalogue/entities.json'), 'utf8')) as { entities: StoredEntity[] }).entities;

describe('prepared views', () => {
  it('deep and summary views of frozen records equal fresh conversions, and serialise identically', () => {
    const fresh = read();
    const frozen = deepFreeze(read());
    // Independent conversions: deep = free fields then paid fields at top level; summary = the listed keys.
    const deep = fresh.map(({ deep: d, ...free }) => ({ ...free, ...d }));
    const keys = ['id', 'name', 'name_en', 'category', 'manufacturer', 'type', 'protocol', 'interface', 'voltage', 'weight', 'torque', 'ros_support', 'price_range', 'source_tier', 'quarantine'] as const;
    const summary = fresh.map((e) => Object.fromEntries(keys.map((k) => [k, e[k]])));
    for (let round = 0; round < 2; round++) {
      const out = { count: frozen.length, data: frozen.map(preparedDeep), next_cursor: null, meta: { fields: 'deep', note: undefined } };
      expect(stringifyOutput(out).toString('utf8')).toBe(JSON.stringify({ ...out, data: deep }));
      const sum = { count: 3, data: frozen.map(preparedSummary), empty: [], meta: { q: 'x' } };
      expect(stringifyOutput(sum).toString('utf8')).toBe(JSON.stringify({ ...sum, data: summary }));
      expect(outputJson(out)).toBe(JSON.stringify({ ...out, data: deep }));
    }
    expect(Object.isFrozen(preparedDeep(frozen[0]))).toBe(true);
    expect(() => {
      (preparedDeep(frozen[0]) as { name: string }).name = 'changed';
    }).toThrow(TypeError);
  });

  it('records that are not frozen are converted afresh (never cached)', () => {
    const [e] = read();
    const a = preparedDeep(e);
    e.name = 'renamed';
    expect(preparedDeep(e).name).toBe('renamed');
    expect(a.name).not.toBe('renamed');
  });

  it('search hits equal {...summary, ...extras} for every reader, stay frozen, and serialise exactly like the plain object', () => {
    const fresh = read();
    const frozen = deepFreeze(read());
    const keys = ['id', 'name', 'name_en', 'category', 'manufacturer', 'type', 'protocol', 'interface', 'voltage', 'weight', 'torque', 'ros_support', 'price_range', 'source_tier', 'quarantine'] as const;
    expect([...SUMMARY_FIELDS]).toEqual([...keys]); // the hit constructor assigns these, in this order
    const extrasOf = (i: number) =>
      i % 3 === 0
        ? { relevance_score: i / 7, matched_fields: Object.freeze(['name', 'type']), detail_url: `http://h/api/entity/${encodeURIComponent(fresh[i].id)}`, specs: { torque_rated: { v: i, u: 'N·m' } } }
        : i % 3 === 1
          ? { relevance_score: 0, matched_fields: [] as string[], detail_url: undefined }
          : { relevance_score: 12.5, matched_fields: ['id'] };
    const hits = frozen.map((e, i) => searchHit(preparedSummary(e), extrasOf(i)));
    const plain = fresh.map((e, i) => JSON.parse(JSON.stringify({ ...Object.fromEntries(keys.map((k) => [k, e[k]])), ...extrasOf(i) })) as Record<string, unknown>);
    for (let round = 0; round < 2; round++) {
      const out = { data: hits, next_cursor: 'c', meta: { total: hits.length } };
      expect(stringifyOutput(out).toString('utf8')).toBe(JSON.stringify({ ...out, data: plain }));
      expect(outputJson(out)).toBe(JSON.stringify({ ...out, data: plain }));
    }
    hits.forEach((h, i) => {
      expect(JSON.stringify(h)).toBe(JSON.stringify(plain[i]));
      expect(Object.keys(h)).toEqual(Object.keys(plain[i]));
      expect({ ...h }).toEqual(plain[i]);
    });
    expect(Object.isFrozen(hits[0])).toBe(true);
    expect(() => {
      (hits[0] as { name: string }).name = 'changed';
    }).toThrow(TypeError);
    // A hit over a summary that is not frozen is serialised afresh (its summary could have changed).
    const loose = read()[0];
    const s = preparedSummary(loose);
    const h = searchHit(s, { relevance_score: 1, matched_fields: ['id'] });
    expect(stringifyOutput({ data: [h] }).toString()).toBe(JSON.stringify({ data: [h] }));
  });

  it('frozen and unfrozen arrays of plain frozen objects, empty objects and skipped members serialise like JSON.stringify', () => {
    const a = Object.freeze({ x: 1, y: 'é' });
    const e = Object.freeze({});
    for (const out of [{ data: [a, e, a], m: undefined, n: null }, { data: Object.freeze([e, a]), z: [1, 2] }, { k: [] }, {}]) {
      expect(stringifyOutput(out as Record<string, unknown>).toString('utf8')).toBe(JSON.stringify(out));
      expect(outputJson(out as Record<string, unknown>)).toBe(JSON.stringify(out));
    }
  });
});

describe('answers cut from shared slabs', () => {
  it('many answers kept at once each keep their own bytes (no answer overwrites another), small and large', () => {
    const frozen = deepFreeze(read());
    const outputs: Record<string, unknown>[] = [];
    // Pages of 1..40 hits (a few hundred bytes to well over the slab limit), each hit a little different.
    for (let n = 1; n <= 40; n++) {
      const start = (n * 7) % Math.max(1, frozen.length - n);
      const data = frozen.slice(start, start + n).map((e, i) => searchHit(preparedSummary(e), { relevance_score: n + i, matched_fields: ['name'], detail_url: `http://x/api/entity/${i}` }));
      outputs.push({ data, next_cursor: n % 2 ? null : 'c', meta: { n } });
    }
    const answers = outputs.map((o) => stringifyOutput(o));
    const expected = outputs.map((o) => JSON.stringify(o));
    expect(answers.map((b) => b.toString('utf8'))).toEqual(expected);
    expect(new Set(answers.map((b) => b.length > 16 * 1024)).size).toBe(2); // both kinds were made
  });
});

describe('detail and page URLs prepared per record', () => {
  it('equal prefix + encodeURIComponent(id) for every pair of prefixes asked for, and serialise like JSON.stringify whoever made them', () => {
    const frozen = deepFreeze(read());
    const odd = deepFreeze({ ...read()[0]!, id: 'X/Y "q" ü%' }) as StoredEntity;
    const prefixes: [string | null, string | null][] = [
      ['http://a.example/api/entity/', 'http://a.example/parts/'],
      ['https://b.example:8443/x/api/entity/', null],
      [null, 'https://b.example:8443/x/parts/'],
      ['http://a.example/api/entity/', 'http://a.example/parts/'],
    ];
    for (const e of [frozen[0]!, frozen[1]!, odd]) {
      const s = preparedSummary(e);
      for (const [detailPrefix, pagePrefix] of prefixes) {
        const links = preparedLinks(s, detailPrefix, pagePrefix);
        expect(links.detail).toBe(detailPrefix === null ? undefined : detailPrefix + encodeURIComponent(e.id));
        expect(links.page).toBe(pagePrefix === null ? undefined : pagePrefix + encodeURIComponent(e.id));
        expect(preparedLinks(s, detailPrefix, pagePrefix)).toEqual(links);
        // A hit carrying these URLs, other URLs, or none: the same bytes as the plain object.
        const variants: { detail_url?: string; page_url?: string }[] = [
          { ...(links.detail === undefined ? {} : { detail_url: links.detail }), ...(links.page === undefined ? {} : { page_url: links.page }) },
          { detail_url: `${links.detail ?? 'x'}?other`, page_url: `${links.page ?? 'y'}?other` },
          {},
        ];
        for (const urls of variants) {
          const extras = { relevance_score: 3, matched_fields: ['id'], ...urls };
          const out = { data: [searchHit(s, extras)], meta: { n: 1 } };
          const plain = JSON.stringify({ data: [{ ...s, ...extras }], meta: { n: 1 } });
          expect(stringifyOutput(out).toString('utf8')).toBe(plain);
          expect(outputJson(out)).toBe(plain);
        }
      }
    }
    const loose = { ...read()[0]!, id: 'A B' };
    expect(preparedLinks(loose, 'p/', 'q/')).toEqual({ detailPrefix: 'p/', pagePrefix: 'q/', detail: 'p/A%20B', page: 'q/A%20B' });
  });
});
