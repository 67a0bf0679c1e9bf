/**
 * Regression tests for the data, ledger and store findings of the second attack run (issue 23):
 * each `it` names the finding it covers. Public surfaces (the domain, the in-memory MCP client,
 * REST and MCP on loopback, the real binary), plus the database files where the finding is about them.
 */
import { execFileSync } from 'node:child_process';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildDeps } from '../../src/deps.js';
import { neutraliseCell } from '../../src/domain/bom/csv.js';
import { silentLogger } from '../../src/log.js';
import { catalogueData, sampleEntities } from '../support/factory.js';
import { testConfig } from '../support/deps.js';
import { call, memoryClient } from '../support/mcp.js';

/**
 * Every code point of Default_Ignorable_Code_Point and White_Space, listed by perl's own Unicode
 * tables (independent of V8's): the class the CSV neutraliser must treat as invisible.
 */
function perlClass(): number[] {
  const out = execFileSync('perl', ['-e', 'for my $c (0..0x10FFFF) { next if $c >= 0xD800 && $c <= 0xDFFF; print "$c\\n" if chr($c) =~ /[\\p{Default_Ignorable_Code_Point}\\p{White_Space}]/ }'], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  return out.trim().split('\n').map(Number);
}
/** Blank-looking code points outside both classes, and the fillers named in the finding. */
const BLANKS = [0x2800, 0x1d159, 0x3164, 0xffa0, 0x115f, 0x1160];
const FORMULA = ['=', '+', '-', '@', '＝', '＋', '－', '＠', '﹦', '﹢', '﹣', '﹫', '\u2212'];

describe('finding N8: CSV cells behind default-ignorable and blank-like code points', () => {
  const invisible = [...new Set([...perlClass(), ...BLANKS])];

  it('finding N8: every Default_Ignorable_Code_Point, White_Space and blank-looking code point before a formula character is neutralised (the whole class, and random runs of it)', () => {
    // The class perl lists is the one the finding names: it holds the Hangul fillers.
    expect(invisible.length).toBeGreaterThan(4000);
    for (const cp of [0x3164, 0xffa0, 0x115f, 0x1160, 0x200b, 0x3000, 0xe0001]) expect(invisible).toContain(cp);
    const missed: string[] = [];
    for (const cp of invisible) {
      for (const f of ['=', '＋', '-', '@']) {
        const cell = `${String.fromCodePoint(cp)}${f}HYPERLINK("http://x.example")`;
        if (!neutraliseCell(cell).startsWith("'")) missed.push(`U+${cp.toString(16).toUpperCase().padStart(4, '0')} ${f}`);
      }
    }
    expect(missed).toEqual([]);
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...invisible), { minLength: 1, maxLength: 8 }), fc.constantFrom(...FORMULA), fc.string({ maxLength: 12 }), (run, f, tail) => {
        const cell = `${String.fromCodePoint(...run)}${f}${tail}`;
        const out = neutraliseCell(cell);
        return out === `'${cell}`;
      }),
      { numRuns: 2000 },
    );
    // Visible text is left alone, also when it follows invisible code points.
    expect(neutraliseCell('\u3164Servo =1')).toBe('\u3164Servo =1');
    expect(neutraliseCell('Servo')).toBe('Servo');
  });

  it('finding N8: an exported BOM CSV quotes cells that begin with Hangul fillers or the braille blank before a formula character', async () => {
    const deps = buildDeps(testConfig(), { log: silentLogger, catalogueData: catalogueData(sampleEntities()) });
    const { client, close } = await memoryClient(deps);
    try {
      const key = ((await call(client, 'register_key', { email: 'csv-n8@example.com' })).structuredContent as { api_key: string }).api_key;
      const leads = BLANKS.map((cp) => `${String.fromCodePoint(cp)}=HYPERLINK("http://x.example","click")`);
      const items = leads.map((p, i) => ({ id: `N8-${i}`, name: p, manufacturer: p, supplier: p, price: 1, quantity: 1 }));
      const r = await call(client, 'export_bom', { api_key: key, items, currency: 'CNY' });
      expect(r.isError).toBeFalsy();
      const [header, ...rows] = parse((r.structuredContent as { csv: string }).csv, { bom: true }) as string[][];
      for (const col of ['name', 'manufacturer', 'supplier']) {
        const i = header.indexOf(col);
        expect(rows.slice(0, leads.length).map((row) => row[i])).toEqual(leads.map((p) => `'${p}`));
      }
    } finally {
      await close();
      deps.close();
    }
  });
});
