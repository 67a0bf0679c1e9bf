/** Prepared views and JSON of frozen catalogue records: the same bytes as converting and serialising afresh. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StoredEntity } from '../../src/domain/entity.js';
import { extendPrepared, preparedDeep, preparedSummary, stringifyOutput } from '../../src/domain/prepared.js';
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

  it('extended summaries (search hits) serialise exactly like the plain object, and stay frozen', () => {
    const fresh = read();
    const frozen = deepFreeze(read());
    const keys = ['id', 'name', 'name_en', 'category', 'manufacturer', 'type', 'protocol', 'interface', 'voltage', 'weight', 'torque', 'ros_support', 'price_range', 'source_tier', 'quarantine'] as const;
    const extrasOf = (i: number) =>
      i % 3 === 0
        ? { relevance_score: i / 7, matched_fields: ['name', 'type'], detail_url: `http://h/api/entity/${encodeURIComponent(fresh[i].id)}`, specs: { 'torque_rated': { v: i, u: 'N·m' } } }
        : i % 3 === 1
          ? { relevance_score: 0, matched_fields: [], detail_url: undefined }
          : { note: undefined };
    const hits = frozen.map((e, i) => extendPrepared(preparedSummary(e), extrasOf(i)));
    const plain = fresh.map((e, i) => ({ ...Object.fromEntries(keys.map((k) => [k, e[k]])), ...extrasOf(i) }));
    const out = { data: hits, next_cursor: 'c', meta: { total: hits.length } };
    expect(stringifyOutput(out).toString('utf8')).toBe(JSON.stringify({ ...out, data: plain }));
    for (const h of hits.slice(0, 5)) expect(JSON.stringify(h)).toBe(JSON.stringify(plain[hits.indexOf(h)]));
    expect(Object.isFrozen(hits[0])).toBe(true);
    // An empty base, and extras that repeat a base key (no shortcut: plain spread semantics).
    const empty = Object.freeze({});
    expect(stringifyOutput({ data: [extendPrepared(empty, { a: 1 })] }).toString()).toBe('{"data":[{"a":1}]}');
    const clash = extendPrepared(preparedSummary(frozen[0]), { name: 'other', z: 1 });
    expect(stringifyOutput({ data: [clash] }).toString()).toBe(JSON.stringify({ data: [{ ...Object.fromEntries(keys.map((k) => [k, fresh[0][k]])), name: 'other', z: 1 }] }));
  });
});
