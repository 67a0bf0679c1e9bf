/**
 * Every supplier, flange-alias (and canonical-flag) and bridge row of data/ names its evidence: a
 * record of the upstream snapshot (file + record path). This test opens the snapshot file, follows
 * the path, and checks the record holds what the row claims (the URL, the alias, the flag).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { normalizeDesignation } from '../../src/domain/knowledge/flange.js';
import { loadDatasets } from '../../src/store/datasets.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SNAP = path.resolve(ROOT, '../shared/reference/roboparts');
const present = fs.existsSync(path.join(SNAP, 'api/suppliers_seed.json'));
const d = loadDatasets(path.join(ROOT, 'data'));

/** Follows "a.b[key=value].c" through a parsed JSON document; undefined when a step is missing. */
function resolve(file: string, record: string): unknown {
  let cur: unknown = JSON.parse(fs.readFileSync(path.join(SNAP, file), 'utf8'));
  for (const step of record.match(/[^.[\]]+|\[[^\]]+\]/g) ?? []) {
    if (cur === undefined || cur === null) return undefined;
    const sel = /^\[([^=\]]+)=([^\]]*)\]$/.exec(step);
    if (sel) {
      if (!Array.isArray(cur)) return undefined;
      cur = cur.find((x) => x && typeof x === 'object' && String((x as Record<string, unknown>)[sel[1]!]) === sel[2]);
    } else {
      cur = (cur as Record<string, unknown>)[step];
    }
  }
  return cur;
}

function urlsCitedBy(file: string): string {
  return fs.readFileSync(path.join(SNAP, file), 'utf8');
}

describe.skipIf(!present)('dataset rows trace to their evidence', () => {
  it('every supplier channel: the evidence record exists and is that channel (same URL)', () => {
    expect(d.suppliers.channels.length).toBeGreaterThan(10);
    for (const c of d.suppliers.channels) {
      const rec = resolve(c.evidence.file, c.evidence.record) as { url?: string } | undefined;
      expect(rec, c.id).toBeDefined();
      expect(rec!.url, c.id).toBe(c.url);
    }
  });

  it('every bridge row: the evidence record exists and names the bridge (its product or the bus it links)', () => {
    expect(d.buses.file.bridges.length).toBeGreaterThanOrEqual(2);
    for (const b of d.buses.file.bridges) {
      const rec = resolve(b.evidence.file, b.evidence.record);
      expect(rec, b.id).toBeDefined();
      const text = JSON.stringify(rec);
      expect(text, b.id).toContain(b.evidence.names);
      // What the record names is in the row: the product name, or a bus the bridge links.
      const written = [b.name, ...b.sides.flat().flatMap((id) => d.buses.bus(id).aliases)].join(' ');
      expect(written, b.id).toContain(b.evidence.names);
    }
  });

  it('every flange alias: the evidence record lists that written form for that row; cited URLs occur in the snapshot', () => {
    let n = 0;
    for (const row of d.flanges.designations) {
      for (const a of row.aliases ?? []) {
        const rec = resolve(a.evidence.file, a.evidence.record) as string[] | undefined;
        expect(Array.isArray(rec), `${row.designation} ${a.form}`).toBe(true);
        expect(rec!.map(normalizeDesignation)).toContain(normalizeDesignation(a.form));
        expect(a.evidence.record).toContain(`[id=${row.designation}]`);
        for (const u of a.evidence.urls ?? []) expect(urlsCitedBy(a.evidence.file)).toContain(u);
        n++;
      }
      expect(row.is_canonical_iso_evidence, row.designation).toBeDefined();
      expect(resolve(row.is_canonical_iso_evidence!.file, row.is_canonical_iso_evidence!.record)).toBe(row.is_canonical_iso);
    }
    expect(n).toBeGreaterThanOrEqual(18);
    const jr = d.flanges.meta.join_rule!;
    expect(typeof resolve(jr.evidence.file, jr.evidence.record)).toBe('string');
  });
});
