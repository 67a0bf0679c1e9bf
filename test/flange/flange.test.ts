import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  FlangeRuling,
  FlangeRulingRecord,
  FlangeRulingsDataset,
  buildFlangeRulings,
  lookupFlange,
  normalizeDesignation,
  parseFlangeRegistry,
  ruleFlange,
  type FlangeRegistry,
} from '../../src/domain/knowledge/flange.js';
import { readFlangeRegistry } from '../../src/store/datasets.js';

const DATA_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../data');
const registry = readFlangeRegistry(DATA_DIR);

/** The spec's table of registered designations. */
const SPEC_TABLE: [string, number, number, string][] = [
  ['ISO9409-1-A20-4-M3', 20, 4, 'M3'],
  ['ISO9409-1-A31.5-4-M5', 31.5, 4, 'M5'],
  ['ISO9409-1-A40-4-M6', 40, 4, 'M6'],
  ['ISO9409-1-A50-4-M6', 50, 4, 'M6'],
  ['ISO9409-1-A63-6-M6', 63, 6, 'M6'],
  ['ISO9409-1-A80-6-M8', 80, 6, 'M8'],
  ['ISO9409-1-A100-4-M8', 100, 4, 'M8'],
  ['ISO9409-1-A160-4-M12', 160, 4, 'M12'],
  ['ISO9409-1-A250-4-M16', 250, 4, 'M16'],
];

const META = {
  name: 'test registry',
  description: 'synthetic rows for rule tests',
  license: 'CC BY 4.0',
  attribution: 'test',
  source: 'test',
};
function testRegistry(rows: { designation: string; pcd_mm: number; bolt_count: number; thread: string; aliases?: { form: string; evidence: { file: string; record: string } }[] }[]): FlangeRegistry {
  return parseFlangeRegistry({ meta: META, designations: rows.map((r) => ({ source_tier: 'B', ...r })) });
}

describe('flange registry (data/flange/designations.json)', () => {
  it('holds exactly the nine designations of the spec, with their geometry', () => {
    expect(registry.designations.map((d) => [d.designation, d.pcd_mm, d.bolt_count, d.thread])).toEqual(SPEC_TABLE);
  });

  it('carries the licence and attribution in meta', () => {
    expect(registry.meta.license).toBe('CC BY 4.0');
    expect(registry.meta.attribution).toBe('Data: RoboParts (https://roboparts.cc), CC BY 4.0');
    expect(registry.meta.source).toContain('mechanical_interfaces.json');
  });

  it('rejects a registry where two rows share a written form', () => {
    expect(() =>
      testRegistry([
        { designation: 'X-1', pcd_mm: 50, bolt_count: 4, thread: 'M6' },
        { designation: ' x-1', pcd_mm: 63, bolt_count: 6, thread: 'M6' },
      ]),
    ).toThrow(/collides/);
    expect(() =>
      testRegistry([
        { designation: 'X-1', pcd_mm: 50, bolt_count: 4, thread: 'M6' },
        { designation: 'X-2', pcd_mm: 63, bolt_count: 6, thread: 'M6', aliases: [{ form: 'X-1', evidence: { file: 'api/mechanical_interfaces.json', record: 'flange_designations[id=X].aliases' } }] },
      ]),
    ).toThrow(/collides/);
  });

  it('rejects invalid geometry', () => {
    expect(() => testRegistry([{ designation: 'X', pcd_mm: -1, bolt_count: 4, thread: 'M6' }])).toThrow();
    expect(() => testRegistry([{ designation: 'X', pcd_mm: 50, bolt_count: 4.5, thread: 'M6' }])).toThrow();
    expect(() => testRegistry([{ designation: 'X', pcd_mm: 50, bolt_count: 4, thread: '6mm' }])).toThrow();
  });
});

describe('designation matching (the registry join rule)', () => {
  it.each([
    ['ISO 9409-1-50-4-M6', 'ISO9409-1-A50-4-M6'],
    ['ISO9409-1-50-4-M6', 'ISO9409-1-A50-4-M6'],
    ['ISO 9409-1-31.5-4-M5', 'ISO9409-1-A31.5-4-M5'],
    ['ISO 9409-1-40-4-M6', 'ISO9409-1-A40-4-M6'],
  ])('the form without "A" "%s" finds %s (listed as an alias with evidence)', (written, row) => {
    const hit = lookupFlange(registry, written);
    expect(hit?.designation).toBe(row);
    expect(hit?.aliases?.some((a) => normalizeDesignation(a.form) === normalizeDesignation(written))).toBe(true);
  });

  it('rule_flange on both written forms of the same flange is identity', () => {
    expect(ruleFlange(registry, 'ISO 9409-1-50-4-M6', 'ISO9409-1-A50-4-M6').verdict).toBe('identity');
  });

  it.each([
    ['ISO9409-1-A50-4-M6', 'ISO9409-1-A50-4-M6'],
    ['ISO 9409-1-A50-4-M6', 'ISO9409-1-A50-4-M6'],
    ['iso 9409-1-a50-4-m6', 'ISO9409-1-A50-4-M6'],
    ['  ISO9409-1-A31.5-4-M5 ', 'ISO9409-1-A31.5-4-M5'],
    ['ISO9409\u20111\u2013A63\u20146\u2212M6', 'ISO9409-1-A63-6-M6'],
  ])('"%s" is %s', (written, registered) => {
    expect(lookupFlange(registry, written)?.designation).toBe(registered);
  });

  it.each([
    'ISO 9409-1-50-4-M8', // parseable but not a registered pattern
    'ISO9409-1-A50-4-M8',
    'ISO9409-1-A50',
    'ISO 9409-1',
    '50mm',
    '',
  ])('"%s" is not registered', (written) => {
    expect(lookupFlange(registry, written)).toBeNull();
  });

  it('normalizes case, whitespace and dashes only', () => {
    expect(normalizeDesignation(' iso 9409\u20131-a50 ')).toBe('ISO9409-1-A50');
  });

  it('accepts a written form a registry row lists as an alias', () => {
    const r = testRegistry([{ designation: 'ISO9409-1-A50-4-M6', pcd_mm: 50, bolt_count: 4, thread: 'M6', aliases: [{ form: 'ISO 9409-1-50-4-M6', evidence: { file: 'api/mechanical_interfaces.json', record: 'flange_designations[id=X].aliases' } }] }]);
    expect(ruleFlange(r, 'iso9409-1-50-4-m6', 'ISO9409-1-A50-4-M6').verdict).toBe('identity');
  });
});

describe('rule 1: same designation -> identity', () => {
  it.each(SPEC_TABLE.map((r) => r[0]))('%s with itself', (d) => {
    const row = SPEC_TABLE.find((r) => r[0] === d)!;
    const side = { pcd_mm: row[1], bolt_count: row[2], thread: row[3] };
    expect(ruleFlange(registry, d, d)).toEqual({
      pair: [d, d],
      side_a: side,
      side_b: side,
      verdict: 'identity',
      reason: 'Same designation on both sides: the bolt patterns are identical.',
      adapter_required: false,
      adapter_available: false,
      fastener_note: null,
      blocking_dims: [],
    });
  });

  it('is identity when the two written forms differ only lexically', () => {
    const r = ruleFlange(registry, 'iso 9409-1-a50-4-m6', 'ISO9409-1-A50-4-M6');
    expect(r.verdict).toBe('identity');
    expect(r.pair).toEqual(['ISO9409-1-A50-4-M6', 'ISO9409-1-A50-4-M6']);
  });
});

describe('rule 2: PCD or bolt count differs -> adapter_required', () => {
  it('PCD differs only', () => {
    expect(ruleFlange(registry, 'ISO9409-1-A100-4-M8', 'ISO9409-1-A20-4-M3')).toEqual({
      pair: ['ISO9409-1-A100-4-M8', 'ISO9409-1-A20-4-M3'],
      side_a: { pcd_mm: 100, bolt_count: 4, thread: 'M8' },
      side_b: { pcd_mm: 20, bolt_count: 4, thread: 'M3' },
      verdict: 'adapter_required',
      reason: 'PCD differs (100 mm vs 20 mm): the bolt holes do not line up, so an adapter plate is required.',
      adapter_required: true,
      adapter_available: true,
      fastener_note: "Adapter plate drilled to each side's own pattern: side a 4×M8 on PCD 100 mm, side b 4×M3 on PCD 20 mm.",
      blocking_dims: ['pcd_mm'],
    });
  });

  it('PCD and bolt count differ: both are listed', () => {
    const r = ruleFlange(registry, 'ISO9409-1-A50-4-M6', 'ISO9409-1-A63-6-M6');
    expect(r.verdict).toBe('adapter_required');
    expect(r.blocking_dims).toEqual(['pcd_mm', 'bolt_count']);
    expect(r.reason).toBe(
      'PCD differs (50 mm vs 63 mm) and bolt count differs (4 vs 6): the bolt holes do not line up, so an adapter plate is required.',
    );
    expect(r.adapter_available).toBe(true);
  });

  it('bolt count differs only (synthetic rows with the same PCD)', () => {
    const r = testRegistry([
      { designation: 'P80-6', pcd_mm: 80, bolt_count: 6, thread: 'M8' },
      { designation: 'P80-4', pcd_mm: 80, bolt_count: 4, thread: 'M8' },
    ]);
    const ruling = ruleFlange(r, 'P80-6', 'P80-4');
    expect(ruling.verdict).toBe('adapter_required');
    expect(ruling.blocking_dims).toEqual(['bolt_count']);
    expect(ruling.reason).toBe('Bolt count differs (6 vs 4): the bolt holes do not line up, so an adapter plate is required.');
  });
});

describe('rule 3: a thread difference alone does not block', () => {
  it('same PCD and bolt count, different thread -> direct, no adapter', () => {
    const r = testRegistry([
      { designation: 'T50-4-M6', pcd_mm: 50, bolt_count: 4, thread: 'M6' },
      { designation: 'T50-4-M5', pcd_mm: 50, bolt_count: 4, thread: 'M5' },
    ]);
    expect(ruleFlange(r, 'T50-4-M6', 'T50-4-M5')).toEqual({
      pair: ['T50-4-M6', 'T50-4-M5'],
      side_a: { pcd_mm: 50, bolt_count: 4, thread: 'M6' },
      side_b: { pcd_mm: 50, bolt_count: 4, thread: 'M5' },
      verdict: 'direct',
      reason: 'PCD (50 mm) and bolt count (4) match; only the thread differs (M6 vs M5), which does not block.',
      adapter_required: false,
      adapter_available: false,
      fastener_note: 'The holes line up; use bolts that fit the threaded side (M6 on side a, M5 on side b).',
      blocking_dims: [],
    });
  });

  it('thread is never a blocking dimension', () => {
    const r = ruleFlange(registry, 'ISO9409-1-A40-4-M6', 'ISO9409-1-A100-4-M8');
    expect(r.blocking_dims).toEqual(['pcd_mm']);
    const all = buildFlangeRulings(registry, '2026-01-01T00:00:00.000Z').rulings;
    expect(all.flatMap((x) => x.blocking_dims).filter((d) => (d as string) === 'thread')).toEqual([]);
  });
});

describe('rule 4: geometry from the registry, never from the label', () => {
  it('a label saying A80 with a registered PCD of 63 is ruled on 63', () => {
    const r = testRegistry([
      { designation: 'VENDOR-A80-6-M6', pcd_mm: 63, bolt_count: 6, thread: 'M6' },
      { designation: 'ISO9409-1-A63-6-M6', pcd_mm: 63, bolt_count: 6, thread: 'M6' },
      { designation: 'ISO9409-1-A80-6-M8', pcd_mm: 80, bolt_count: 6, thread: 'M8' },
    ]);
    const same = ruleFlange(r, 'VENDOR-A80-6-M6', 'ISO9409-1-A63-6-M6');
    expect(same.verdict).toBe('direct');
    expect(same.side_a).toEqual({ pcd_mm: 63, bolt_count: 6, thread: 'M6' });
    const other = ruleFlange(r, 'VENDOR-A80-6-M6', 'ISO9409-1-A80-6-M8');
    expect(other.verdict).toBe('adapter_required');
    expect(other.blocking_dims).toEqual(['pcd_mm']);
  });

  it('the same A-number with different registered bolt counts blocks on bolt_count', () => {
    const r = testRegistry([
      { designation: 'ISO9409-1-A80-6-M8', pcd_mm: 80, bolt_count: 6, thread: 'M8' },
      { designation: 'LEGACY-A80-4-M8', pcd_mm: 80, bolt_count: 4, thread: 'M8' },
    ]);
    expect(ruleFlange(r, 'ISO9409-1-A80-6-M8', 'LEGACY-A80-4-M8').blocking_dims).toEqual(['bolt_count']);
  });
});

describe('rule 5: unregistered -> unknown, no fallback to the label', () => {
  it('a parseable-looking unregistered label is unknown', () => {
    const r = ruleFlange(registry, 'ISO9409-1-A50-4-M8', 'ISO9409-1-A50-4-M6');
    expect(r.verdict).toBe('unknown');
    expect(r).toMatchObject({
      pair: ['ISO9409-1-A50-4-M8', 'ISO9409-1-A50-4-M6'],
      side_a: null,
      side_b: { pcd_mm: 50, bolt_count: 4, thread: 'M6' },
      adapter_required: null,
      adapter_available: null,
      fastener_note: null,
      blocking_dims: [],
      unregistered: ['ISO9409-1-A50-4-M8'],
    });
    expect(r.reason).toMatch(/^"ISO9409-1-A50-4-M8" is not a registered flange designation\. /);
    expect(r.reason).toContain('never read from a label');
  });

  it('both sides unregistered are both named', () => {
    const r = ruleFlange(registry, ' ISO 9409-1-50-4-M8 ', 'foo');
    if (r.verdict !== 'unknown') throw new Error(`expected unknown, got ${r.verdict}`);
    expect(r.unregistered).toEqual(['ISO 9409-1-50-4-M8', 'foo']);
    expect(r.side_a).toBeNull();
    expect(r.side_b).toBeNull();
    expect(r.reason).toMatch(/^"ISO 9409-1-50-4-M8" and "foo" are not registered/);
  });

  it('an unregistered label with itself is still unknown, not identity', () => {
    expect(ruleFlange(registry, 'ISO9409-1-A50-4-M8', 'ISO9409-1-A50-4-M8').verdict).toBe('unknown');
  });

  it('never throws, and answers unknown for any string that is not registered', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const r = ruleFlange(registry, a, b);
        FlangeRuling.parse(r);
        const registered = lookupFlange(registry, a) !== null && lookupFlange(registry, b) !== null;
        return registered ? r.verdict !== 'unknown' : r.verdict === 'unknown';
      }),
    );
  });
});

describe('rule 6 and the dataset (negative_compat/v1)', () => {
  const ds = buildFlangeRulings(registry, new Date('2026-03-01T12:00:00Z'));

  it('has the schema, the counts and the source tier summary of the spec', () => {
    expect(ds.meta.schema).toBe('negative_compat/v1');
    expect(ds.meta.counts).toEqual({ designations: 9, rulings: 81, identity: 9, direct: 0, adapter_required: 72 });
    expect(ds.meta.source_tier_summary).toEqual({ B: 9 });
    expect(ds.meta.generated_at).toBe('2026-03-01T12:00:00.000Z');
    expect(ds.meta.license).toBe('CC BY 4.0');
    expect(ds.meta.attribution).toBe('Data: RoboParts (https://roboparts.cc), CC BY 4.0');
    expect(FlangeRulingsDataset.parse(ds)).toEqual(ds);
  });

  it('covers every ordered pair of registered designations exactly once, and nothing else', () => {
    const names = SPEC_TABLE.map((r) => r[0]);
    const expected = names.flatMap((a) => names.map((b) => `${a}|${b}`));
    expect(ds.rulings.map((r) => r.pair.join('|'))).toEqual(expected);
  });

  it('each record has exactly the spec fields and equals ruleFlange for its pair', () => {
    for (const r of ds.rulings) {
      expect(Object.keys(r).sort()).toEqual(
        ['adapter_available', 'adapter_required', 'blocking_dims', 'fastener_note', 'pair', 'reason', 'side_a', 'side_b', 'verdict'],
      );
      FlangeRulingRecord.parse(r);
      expect(ruleFlange(registry, r.pair[0], r.pair[1])).toEqual(r);
    }
  });

  it('blocking dims: 44 rulings on PCD only, 28 on PCD and bolt count', () => {
    const key = (d: string[]) => d.join('+');
    const tally: Record<string, number> = {};
    for (const r of ds.rulings.filter((x) => x.verdict === 'adapter_required')) tally[key(r.blocking_dims)] = (tally[key(r.blocking_dims)] ?? 0) + 1;
    expect(tally).toEqual({ pcd_mm: 44, 'pcd_mm+bolt_count': 28 });
  });

  it('identity rulings are the diagonal, with null fastener notes; others carry a note', () => {
    for (const r of ds.rulings) {
      expect(r.verdict === 'identity').toBe(r.pair[0] === r.pair[1]);
      expect(r.fastener_note === null).toBe(r.verdict === 'identity');
    }
  });

  it('rulings are symmetric in verdict and blocking dims', () => {
    for (const r of ds.rulings) {
      const back = ruleFlange(registry, r.pair[1], r.pair[0]);
      expect(back.verdict).toBe(r.verdict);
      expect(back.blocking_dims).toEqual(r.blocking_dims);
    }
  });

  it('counts are computed from the registry: another registry gives other counts', () => {
    const r = testRegistry([
      ...SPEC_TABLE.map(([designation, pcd_mm, bolt_count, thread]) => ({ designation, pcd_mm, bolt_count, thread })),
      { designation: 'EXTRA-50-4-M8', pcd_mm: 50, bolt_count: 4, thread: 'M8' },
    ]);
    const d = buildFlangeRulings(r, '2026-01-01T00:00:00.000Z');
    expect(d.meta.counts).toEqual({ designations: 10, rulings: 100, identity: 10, direct: 2, adapter_required: 88 });
    expect(d.meta.source_tier_summary).toEqual({ B: 10 });
  });
});
