/**
 * Issue 44, BOM tables as people write them: KiCad/JLCPCB component tables, item columns headed
 * Size/Dimensions, "same as above" cells, duplicate rows, totals per currency per table. On
 * test-written tables (expected values worked out by hand here) and the real files in
 * ../shared/robots/bom (rows counted in the files, independently of the extractor).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { extract, extractBomDelimited, extractBomMarkdown, type BomItemRecord, type ExtractionResult } from '../../src/ingest/oss/index.js';
import { countDesignators } from '../../src/ingest/oss/bom.js';
import type { Deps } from '../../src/deps.js';
import { testDeps } from '../support/deps.js';
import { call, memoryClient } from '../support/mcp.js';
import { ROBOTS, robotsPresent, robotText } from './helpers.js';

const items = (r: ExtractionResult) => r.records as BomItemRecord[];

describe('KiCad / JLCPCB component tables', () => {
  const kicad = [
    'Designator,Footprint,Quantity,Value,LCSC Part #',
    '"C1,C2,C3",C_0805_2012Metric,3,10uF,C15850',
    '"R1,R2",R_0603_1608Metric,3,10k,C25804',
    'U1,SOIC-8_3.9x4.9mm_P1.27mm,1,MCP2551,C7376',
  ].join('\n');

  it('the value and footprint are the item, designators are counted against the quantity, LCSC part numbers kept', () => {
    const r = extractBomDelimited(kicad);
    expect(r.counts).toMatchObject({ bom_tables: 1, records: 3, rows: 3 });
    const [c, res, u] = items(r);
    expect(c).toMatchObject({ item: '10uF C_0805_2012Metric', quantity: 3, supplier_part: 'C15850', confidence: 'high' });
    expect(c.other_columns).toMatchObject({ Designator: 'C1,C2,C3', Footprint: 'C_0805_2012Metric' });
    expect(c.notes).toEqual(['item: the Value and Footprint cells']);
    // Two designators for a quantity of 3: said, not corrected.
    expect(res).toMatchObject({ item: '10k R_0603_1608Metric', quantity: 3, confidence: 'medium' });
    expect(res.notes).toContain('Quantity says 3 but Designator lists 2 designators');
    expect(u).toMatchObject({ item: 'MCP2551 SOIC-8_3.9x4.9mm_P1.27mm', quantity: 1, supplier_part: 'C7376' });
  });

  it('a JLCPCB table without a quantity column (Comment, Designator, Footprint, LCSC Part #): one part per designator, ranges counted', async () => {
    const md = ['| Comment | Designator | Footprint | LCSC Part # |', '|---|---|---|---|', '| 100nF | C1, C4-C6 | C_0402 | C1525 |', '| LED | D1 | LED_0603 | C2286 |'].join('\n');
    const r = extractBomMarkdown(md);
    expect(items(r).map((i) => [i.item, i.quantity, i.quantity_as_written, i.supplier_part])).toEqual([
      ['100nF C_0402', 4, 'C1, C4-C6', 'C1525'],
      ['LED LED_0603', 1, 'D1', 'C2286'],
    ]);
    expect(items(r)[0].notes).toContain('quantity 4: the designators in Designator counted');
    expect(countDesignators('R1 R2; R7-R9')).toBe(5);
    expect(countDesignators('see note')).toBeNull();
  });

  let deps: Deps;
  let client: Client;
  let close: () => Promise<void>;
  beforeAll(async () => {
    deps = testDeps();
    ({ client, close } = await memoryClient(deps));
  });
  afterAll(async () => {
    await close();
    deps.close();
  });

  it('through extract_robot_parts (MCP): the same records and the table added up', async () => {
    const r = await call(client, 'extract_robot_parts', { content: kicad, kind: 'bom_csv' });
    expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
    const o = r.structuredContent as ExtractionResult;
    expect(items(o).map((i) => i.item)).toEqual(['10uF C_0805_2012Metric', '10k R_0603_1608Metric', 'MCP2551 SOIC-8_3.9x4.9mm_P1.27mm']);
    expect(o.bom_tables![0]).toMatchObject({ totals: [], unpriced_lines: 3 });
  });
});

describe('item columns, "same as above", duplicates, totals', () => {
  it('a table whose only name column is Size (bearings) or Dimensions (springs) is read', () => {
    const md = ['| Size | Qty | Price (USD) |', '|---|---|---|', '| 6x10x3 mm bearing | 4 | 1.20 |', '| 5x8x2.5 mm bearing | 2 | 0.95 |', '', '| Dimensions | Qty |', '|---|---|', '| 0.5 x 6 x 20 mm spring | 2 |'].join('\n');
    const r = extractBomMarkdown(md);
    expect(r.counts).toMatchObject({ bom_tables: 2, records: 3 });
    expect(items(r).map((i) => [i.table, i.item, i.quantity])).toEqual([
      [1, '6x10x3 mm bearing', 4],
      [1, '5x8x2.5 mm bearing', 2],
      [2, '0.5 x 6 x 20 mm spring', 2],
    ]);
    // A better column wins: Part before Size.
    const both = extractBomMarkdown(['| Part | Size | Qty |', '|---|---|---|', '| Bearing | 6x10x3 | 4 |'].join('\n'));
    expect(items(both)[0]).toMatchObject({ item: 'Bearing', other_columns: { Size: '6x10x3' } });
  });

  it('a blank item cell under an item row, and a ditto mark, are carried down and marked; a blank row is not', () => {
    const md = ['| Part | Size | Qty | Note |', '|---|---|---|---|', '| Bearing | 6x10x3 | 4 | Misumi |', '|  | 5x8x2.5 | 2 | 〃 |', '|  |  |  |  |', '| Spring | 0.5x6 | 1 | same as above |'].join('\n');
    const r = extractBomMarkdown(md);
    expect(items(r).map((i) => [i.line, i.item, i.quantity, i.other_columns.Note])).toEqual([
      [3, 'Bearing', 4, 'Misumi'],
      [4, 'Bearing', 2, 'Misumi'],
      [6, 'Spring', 1, 'Misumi'],
    ]);
    expect(items(r)[0].notes).toBeUndefined();
    expect(items(r)[1].notes).toEqual(['Note "〃" (same as above) carried down from line 3', 'Part is blank: "Bearing" carried down from line 3 (read as same as above)']);
    expect(items(r)[2].notes).toEqual(['Note "same as above" (same as above) carried down from line 4']);
    // Without an item row above, a blank item is still dropped with its reason.
    const first = extractBomMarkdown(['| Part | Qty |', '|---|---|', '|  | 2 |'].join('\n'));
    expect(first.records).toEqual([]);
    expect(first.skipped.map((s) => s.code)).toEqual(['row_no_item']);
  });

  it('a row written twice is flagged (kept), and each table is added up per currency with its unpriced lines counted', () => {
    const md = [
      '| Item | Qty | Unit Price | Total |',
      '|---|---|---|---|',
      '| Wheel | 2 | $7.00 | $14.00 |',
      '| Motor | 2 | €30.50 | |',
      '| Wheel | 2 | $7.00 | $14.00 |',
      '| Screw kit | 1 | free | |',
      '| Cable | | $3 | |',
      '',
      'All prices in USD.',
    ].join('\n');
    const r = extractBomMarkdown(md);
    const [w1, , w2] = items(r);
    expect(w1.notes).toBeUndefined();
    expect(w2.notes).toEqual(['every cell equals line 3: the same row written twice? (kept, and counted in the table\'s totals)']);
    // By hand: USD 14.00 + 14.00 (line totals) = 28.00 on 2 lines; EUR 2 x 30.50 = 61.00; "free" and a price without a quantity are unpriced.
    expect(r.bom_tables![0]).toMatchObject({ totals: [{ currency: 'EUR', amount: '61.00', lines: 1 }, { currency: 'USD', amount: '28.00', lines: 2 }], unpriced_lines: 2 });
  });
});

describe.skipIf(!robotsPresent)('the real BOM files', () => {
  it('rows read and dropped per file; every dropped row has its reason; the OpenArm hub table (KiCad export) counts its designators', () => {
    const report: string[] = [];
    for (const f of fs.readdirSync(path.join(ROBOTS, 'bom')).sort()) {
      const r = extract(robotText(`bom/${f}`));
      const dropped = r.skipped.filter((s) => s.scope === 'row').length;
      report.push(`${f}: ${r.counts.rows} data rows seen, ${r.counts.records} read, ${dropped} rows skipped with a reason`);
      // Every row the extractor saw is read or skipped with a reason; none is lost silently.
      expect(r.counts.records + dropped, f).toBe(r.counts.rows);
    }
    console.log(report.join('\n'));
    const hub = extract(robotText('bom/openarm_bom-for-hub.utf16.csv'));
    const text = robotText('bom/openarm_bom-for-hub.utf16.csv').split(/\r?\n/).filter((l) => l.trim() !== '');
    const header = text[0].split('\t');
    const [qi, di] = [header.indexOf('Quantity'), header.indexOf('Designator')];
    const want = text.slice(1).map((l) => l.split('\t')).map((c) => [Number(c[qi]), c[di].replace(/^"|"$/g, '').split(',').filter(Boolean).length]);
    const got = items(hub).map((i) => [i.quantity, countDesignators(i.other_columns.Designator ?? '')]);
    expect(got).toEqual(want);
    expect(hub.bom_tables![0].unpriced_lines).toBe(items(hub).filter((i) => i.unit_prices.length + i.line_totals.length === 0).length);
  });
});
