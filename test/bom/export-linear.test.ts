/**
 * finding N4 (issue 23): export_bom paired every flanged line with every other one (about 4.5 s
 * for 500 flange-bearing items). Counted, not timed: the flange lookups an export makes, and
 * the adapter plates against a pairwise reference computed here from the registry's own rows.
 */
import { describe, expect, it } from 'vitest';
import { buildBomExport, type BomExportDeps } from '../../src/domain/bom/export.js';
import { BomExportRequest, type AdapterPlateSuggestion } from '../../src/domain/bom/schema.js';
import type { StoredEntity } from '../../src/domain/catalogue/entity.js';
import type { FlangeDesignation, FlangeRegistry } from '../../src/domain/knowledge/flange.js';
import { makeEntity } from '../support/factory.js';
import { deps, flanges } from './helpers.js';

const flanged = (id: string, list: string[]) =>
  makeEntity({ id, type: 'joint_motor', mechanical_interface: { status: 'declared', mount_type: 'flange', flange: list.join(', '), flanges: list } } as Partial<StoredEntity> & { id: string });

// Four signatures: two that share A50 (no plate between them), A63 alone, A20 alone.
const RECORDS = [
  flanged('ACT-50', ['ISO9409-1-A50-4-M6']),
  flanged('ACT-31-50', ['ISO9409-1-A31.5-4-M5', 'ISO9409-1-A50-4-M6']),
  flanged('ACT-63', ['ISO9409-1-A63-6-M6']),
  flanged('ACT-20', ['ISO9409-1-A20-4-M3']),
  flanged('ACT-50B', ['ISO9409-1-A50-4-M6']),
];

function items(n: number) {
  return Array.from({ length: n }, (_, i) => ({ id: RECORDS[(i * 7 + Math.floor(i / 5)) % RECORDS.length]!.id, quantity: 1 + (i % 3) }));
}

/** The registry with its lookup table counting reads. */
function countingRegistry(): { registry: FlangeRegistry; reads: () => number } {
  let reads = 0;
  const inner = flanges.byKey;
  const byKey = {
    get(k: string) {
      reads += 1;
      return inner.get(k);
    },
    has: (k: string) => inner.has(k),
  } as unknown as ReadonlyMap<string, FlangeDesignation>;
  return { registry: { ...flanges, byKey }, reads: () => reads };
}

function exportWith(n: number, extra: Partial<BomExportDeps> = {}) {
  return buildBomExport(BomExportRequest.parse({ items: items(n), format: 'json', include_suppliers: false }), deps(RECORDS, extra));
}

const plates = (doc: ReturnType<typeof exportWith>) => doc.print_suggestions.filter((p): p is AdapterPlateSuggestion => p.kind === 'adapter_plate');

describe('finding N4: export_bom is linear in the number of items', () => {
  it('finding N4: the flange lookups of a 500-item export grow with the items, not with their pairs', () => {
    const counted = (n: number) => {
      const c = countingRegistry();
      exportWith(n, { flanges: c.registry });
      return c.reads();
    };
    const r50 = counted(50);
    const r500 = counted(500);
    // Linear: 10 x the items, at most ~10 x the reads (plus the fixed per-signature rulings).
    // Pairing every line with every other made this ratio about 100.
    expect(r500 / r50).toBeLessThan(12);
  });

  it('finding N4: the adapter plates are those of the pairwise rule (every pair of parts, every pattern combination)', () => {
    const doc = exportWith(120);
    const rows = new Map(flanges.designations.map((d) => [d.designation, d]));
    const fits = (p: string, q: string) => rows.get(p)!.pcd_mm === rows.get(q)!.pcd_mm && rows.get(p)!.bolt_count === rows.get(q)!.bolt_count;
    // Reference: every pair of lines (distinct parts) none of whose pattern combinations fits.
    const expected = new Map<string, { a: Set<number>; b: Set<number> }>();
    const lines = doc.items.map((l) => ({ line: l.line, des: RECORDS.find((r) => r.id === l.id)!.mechanical_interface!.flanges as string[] }));
    for (let i = 0; i < lines.length; i++) {
      for (let j = i + 1; j < lines.length; j++) {
        const x = lines[i]!;
        const y = lines[j]!;
        if (x.des.some((p) => y.des.some((q) => fits(p, q)))) continue;
        const [a, b] = x.des[0]! < y.des[0]! ? [x, y] : [y, x];
        const key = `${a.des[0]}|${b.des[0]}`;
        const g = expected.get(key) ?? { a: new Set<number>(), b: new Set<number>() };
        g.a.add(a.line);
        g.b.add(b.line);
        expected.set(key, g);
      }
    }
    const got = new Map(plates(doc).map((p) => [`${p.side_a.designation}|${p.side_b.designation}`, { a: new Set(p.parts_a.map((x) => x.line)), b: new Set(p.parts_b.map((x) => x.line)) }]));
    expect(got.size).toBeGreaterThan(1);
    expect(got).toEqual(expected);
    // Each plate lists a line once, in line order of first meeting; every line names its plates.
    for (const p of plates(doc)) for (const x of [...p.parts_a, ...p.parts_b]) expect(doc.items[x.line - 1]!.print_suggestions).toContain(p.id);
  });
});
