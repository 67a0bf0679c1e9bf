/**
 * checkOssIds: the open-source layer's ids against the catalogue's (binary searches over the
 * catalogue's lower-cased ids in id order), compared with the rule checked the long way in the
 * test: every catalogue id against /^oss-/i, every layer id against a set of every catalogue id.
 */
import { describe, expect, it } from 'vitest';
import { idsInOrder } from '../../src/domain/catalogue/search.js';
import { checkOssIds } from '../../src/store/catalogue-data.js';
import { makeEntity } from '../support/factory.js';

/** The rule, spelled out: the first catalogue id (id order) with the prefix, else the first layer id (layer order) already seen. */
function expectedError(catalogueIds: readonly string[], layerIds: readonly string[]): string | null {
  const sorted = idsInOrder(catalogueIds).ids;
  const prefixed = sorted.find((id) => /^oss-/i.test(id));
  if (prefixed !== undefined) return `data/catalogue/entities.json: id ${prefixed} uses the prefix OSS-, reserved for the open-source layer`;
  const seen = new Set(catalogueIds.map((id) => id.toLowerCase()));
  const layerSeen = new Set<string>();
  for (const id of layerIds) {
    const k = id.toLowerCase();
    if (seen.has(k) || layerSeen.has(k)) return `data/oss/oss_components.json: id ${id} is already used by another record`;
    layerSeen.add(k);
  }
  return null;
}

function thrown(catalogueIds: readonly string[], layerIds: readonly string[]): string | null {
  const { ids, lower } = idsInOrder(catalogueIds);
  try {
    checkOssIds({ ids, lower }, layerIds.map((id) => makeEntity({ id })));
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

/** A small deterministic generator (the cases are the same on every run). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('checkOssIds', () => {
  it('refuses a catalogue id with the prefix in any case, and only the prefix', () => {
    for (const id of ['OSS-1', 'oss-1', 'OsS-x', 'oSs-']) expect(thrown(['ACT-1', id, 'ZZ-9'], []), id).toBe(expectedError(['ACT-1', id, 'ZZ-9'], []));
    for (const id of ['OSS1', 'OSR-1', 'OST-1', 'xOSS-1', 'OS-S1', 'oss', 'ǒss-1']) expect(thrown(['ACT-1', id, 'ZZ-9'], []), id).toBeNull();
    // The first in id order is named.
    expect(thrown(['oss-b', 'OSS-A'], [])).toContain('id OSS-A uses the prefix');
  });

  it('refuses a layer id that is a catalogue id in any case, or a layer id twice, naming the first in the layer', () => {
    expect(thrown(['ACT-1', 'SEN-2', 'ARM-3'], ['OSS-LIVE-1', 'sen-2', 'arm-3'])).toContain('id sen-2 is already used');
    expect(thrown(['ACT-1'], ['OSS-LIVE-1', 'OSS-LIVE-2', 'oss-live-1'])).toContain('id oss-live-1 is already used');
    expect(thrown(['ACT-1'], ['OSS-LIVE-1', 'OSS-LIVE-2'])).toBeNull();
    expect(thrown([], ['OSS-LIVE-1'])).toBeNull();
    // Below the first and past the last catalogue id.
    expect(thrown(['B-1', 'C-1'], ['a-1', 'A-1'])).toContain('id A-1 is already used');
    expect(thrown(['B-1', 'C-1'], ['c-1'])).toContain('id c-1 is already used');
  });

  it('agrees with the rule spelled out over random catalogues and layers', () => {
    const next = random(47);
    const alphabet = ['a', 'B', 'o', 'O', 's', 'S', '-', '1', 'é', 'É'];
    const word = () => Array.from({ length: 1 + Math.floor(next() * 5) }, () => alphabet[Math.floor(next() * alphabet.length)]!).join('');
    let refused = 0;
    for (let round = 0; round < 400; round++) {
      const catalogue = Array.from({ length: Math.floor(next() * 40) }, word);
      const layer = Array.from({ length: Math.floor(next() * 6) }, () => (next() < 0.3 && catalogue.length > 0 ? catalogue[Math.floor(next() * catalogue.length)]!.toUpperCase() : `OSS-LIVE-${word()}`));
      // Catalogue ids are unique as written (the catalogue refuses duplicates before this check).
      const unique = [...new Set(catalogue)];
      const want = expectedError(unique, layer);
      if (want !== null) refused++;
      expect(thrown(unique, layer), `${unique.join(',')} | ${layer.join(',')}`).toBe(want);
    }
    // Both outcomes are exercised.
    expect(refused).toBeGreaterThan(40);
    expect(refused).toBeLessThan(360);
  });
});
