/** bom_md and bom_csv on the real BOM files and on synthetic fixtures; byte decoding. */
import { describe, expect, it } from 'vitest';
import { decodeText, extract, extractBomDelimited, extractBomMarkdown, ExtractionResult, type BomItemRecord } from '../../src/ingest/oss/index.js';
import { fixtureText, FIXTURES, robotBytes, robotsPresent, robotText } from './helpers.js';
import fs from 'node:fs';
import path from 'node:path';

const items = (r: ExtractionResult) => r.records as BomItemRecord[];

describe.skipIf(!robotsPresent)('real BOM files', () => {
  it('roboto_origin BOM_EN.md: 63 numbered rows in 7 sections, prices in CNY as written, the two summary rows skipped', () => {
    const r = extract(robotText('bom/roboto_origin_BOM_EN.md'));
    expect(r.kind).toBe('bom_md');
    expect(r.counts).toEqual({ records: 63, skipped: 2, tables: 7, bom_tables: 7, rows: 65 });
    expect(items(r).every((i) => i.row_number !== null && /^\d+$/.test(i.row_number))).toBe(true);
    expect(new Set(items(r).map((i) => i.section)).size).toBe(7);
    expect(r.skipped.map((s) => s.code)).toEqual(['row_summary', 'row_summary']);
    const dm4340 = items(r).find((i) => i.item.startsWith('DM 4340P'))!;
    expect(dm4340).toMatchObject({ item: 'DM 4340P (48V)', part_number: 'ATOM-01-035', quantity: 14, section: 'ATOM 01 Actuators', confidence: 'high' });
    expect(dm4340.unit_prices).toEqual([{ column: 'Unit Price (CNY)', as_written: '949', currency_label: 'CNY', symbol: null, currency: 'CNY', currency_source: 'header', amount: '949', product_of: null, basis_evidence: null }]);
    expect(dm4340.line_totals[0].amount).toBe('13286');
    expect(dm4340.links).toHaveLength(1);
    expect(dm4340.links[0].url).toMatch(/^https:\/\/item\.taobao\.com\/item\.htm\?/);
    const dm10010 = items(r).find((i) => i.item === 'DM 10010L')!;
    expect(dm10010).toMatchObject({ quantity: 9, unit_prices: [expect.objectContaining({ amount: '1989', currency: 'CNY' })] });
    // Values as written: the row says 4 x 46 with a total of 164; nothing is recomputed.
    const usbCan = items(r).find((i) => i.item === 'USB-to-CAN')!;
    expect([usbCan.quantity, usbCan.unit_prices[0].amount, usbCan.line_totals[0].amount]).toEqual([4, '46', '164']);
    // An empty quantity stays absent (medium confidence), never filled.
    const jig = items(r).find((i) => i.row_number === '30')!;
    expect(jig).toMatchObject({ quantity: null, quantity_as_written: null, unit_prices: [], confidence: 'medium' });
  });

  it('SO-ARM100 README: two BOM tables (8 + 6 items); USD / EUR / RMB / JPY prices with currency as written; "￥5.2*4" kept but not read as an amount', () => {
    const r = extract(robotText('bom/so_arm100_README_bom.md'));
    expect(r.kind).toBe('bom_md');
    expect(r.counts).toMatchObject({ records: 14, tables: 8, bom_tables: 2 });
    expect(items(r).filter((i) => i.table === 1)).toHaveLength(8);
    expect(items(r).filter((i) => i.table === 2)).toHaveLength(6);
    const servo = items(r)[0];
    expect(servo.item).toBe('STS3215 Servo 7.4V, 1/345 gear (C001)');
    expect(servo.quantity).toBe(7);
    expect(servo.unit_prices.map((p) => [p.currency_label, p.symbol, p.currency, p.amount])).toEqual([
      ['US', '$', 'USD', '13.89'],
      ['EU', '€', 'EUR', '12.2'],
      ['RMB', '￥', 'CNY', '97.72'],
      ['JPY', '￥', 'JPY', '2980'],
    ]);
    expect(servo.links.map((l) => l.column)).toEqual(['Buy US', 'Buy EU', 'Buy CN', 'Buy JP']);
    const clamp = items(r).find((i) => i.item === 'Table Clamp 4pcs')!;
    expect(clamp.unit_prices[2]).toEqual({ column: 'Unit Cost (RMB)', as_written: '￥5.2*4', currency_label: 'RMB', symbol: '￥', currency: 'CNY', currency_source: 'header_and_cell', amount: null, product_of: { amount: '5.2', factor: '4' }, basis_evidence: null });
    expect(clamp.confidence).toBe('medium');
    expect(r.skipped.filter((s) => s.code === 'price_not_plain').map((s) => s.line)).toEqual([80, 82]);
    expect(r.skipped.filter((s) => s.code === 'table_not_bom')).toHaveLength(6);
  });

  it('OpenArm hub BOM: UTF-16LE with BOM, tab-separated despite .csv; manufacturer and LCSC supplier part', () => {
    const d = decodeText(robotBytes('bom/openarm_bom-for-hub.utf16.csv'));
    expect([d.encoding, d.bom, d.replaced]).toEqual(['utf-16le', true, 0]);
    const r = extract(d.text);
    expect(r.kind).toBe('bom_csv');
    expect(items(r)).toHaveLength(1);
    expect(items(r)[0]).toMatchObject({
      row_number: '1',
      item: 'XT30(2+2)PB-M.G.B CONN-TH_XT30PB-M',
      quantity: 6,
      manufacturer: 'AMASS(艾迈斯)',
      manufacturer_part: 'XT30(2+2)PB-M.G.B',
      supplier: 'LCSC',
      supplier_part: 'C19268029',
      other_columns: { Designator: 'CN1,CN2,CN3,CN4,CN5,CN6', Footprint: 'CONN-TH_XT30PB-M' },
    });
  });
});

describe('synthetic Markdown BOM fixture', () => {
  const r = extractBomMarkdown(fixtureText('bom-tables.md'));

  it('finds the tables outside code fences, reads two as BOM tables, skips the file list', () => {
    expect(r.counts).toEqual({ records: 6, skipped: 8, tables: 3, bom_tables: 2, rows: 8 });
    expect(items(r).map((i) => [i.table, i.section, i.item])).toEqual([
      [1, 'Actuators', 'Joint motor A (48V)'],
      [1, 'Actuators', 'Joint motor B'],
      [1, 'Actuators', 'Calibration jig'],
      [2, 'Electronics', 'Servo S1 7.4V'],
      [2, 'Electronics', 'Cable 2 pcs'],
      [2, 'Electronics', 'Board | rev B'],
    ]);
  });

  it('currency only when exactly determined; decimal comma and multiplications kept as written without an amount', () => {
    const [a, , , servo, cable, board] = items(r);
    expect(a.unit_prices[0]).toMatchObject({ as_written: '1,200', currency: 'CNY', amount: '1200' });
    expect(a.links).toEqual([{ column: 'Notes', label: null, url: 'https://shop.example.com/item?id=1&sku=2' }]);
    expect(servo.unit_prices.map((p) => [p.as_written, p.currency, p.amount])).toEqual([
      ['$13.5', 'USD', '13.5'],
      ['€12,5', 'EUR', null],
      ['￥90.5', 'CNY', '90.5'],
      ['￥2,500', 'JPY', '2500'],
      ['¥88', null, '88'],
    ]);
    expect(cable.unit_prices[2]).toMatchObject({ as_written: '￥20*2', amount: null });
    expect(cable.links).toEqual([]);
    expect(board.unit_prices.map((p) => [p.symbol, p.currency, p.amount])).toEqual([
      ['USD', 'USD', '10'],
      ['EUR', 'EUR', '11.4'],
      ['元', 'CNY', '30'],
      ['円', 'JPY', '980'],
    ]);
    expect([board.quantity, board.quantity_as_written]).toEqual([null, 'two']);
    expect(r.skipped.map((s) => [s.code, s.line])).toEqual([
      ['row_summary', 13],
      ['price_not_plain', 18],
      ['currency_undetermined', 18],
      ['price_not_plain', 19],
      ['quantity_not_integer', 20],
      ['row_summary', 21],
      ['total_mismatch', 21],
      ['table_not_bom', 24],
    ]);
  });
});

describe('synthetic UTF-16LE tab-separated fixture', () => {
  it('decodes from the byte-order mark and reads quoted cells and manufacturer columns', () => {
    const d = decodeText(fs.readFileSync(path.join(FIXTURES, 'bom-hub.utf16le.tsv')));
    expect(d.encoding).toBe('utf-16le');
    const r = extractBomDelimited(d.text);
    expect(items(r).map((i) => [i.item, i.quantity, i.quantity_as_written, i.manufacturer, i.supplier_part])).toEqual([
      ['Connector, 2 pin', 4, '4', 'Example Co(示例)', 'C000001'],
      ['Fuse 5A', null, 'x2', 'Example Co', 'C000002'],
    ]);
    expect(r.skipped.map((s) => [s.code, s.line])).toEqual([['quantity_not_integer', 3]]);
  });

  it('detects UTF-16 without a byte-order mark, big-endian, and UTF-8 with one', () => {
    const text = 'Item\tQty\nBolt M3\t10\n';
    expect(decodeText(Buffer.from(text, 'utf16le'))).toMatchObject({ encoding: 'utf-16le', bom: false, text });
    const be = Buffer.from(text, 'utf16le').swap16();
    expect(decodeText(Buffer.concat([Buffer.from([0xfe, 0xff]), be]))).toMatchObject({ encoding: 'utf-16be', bom: true, text });
    expect(decodeText(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]))).toMatchObject({ encoding: 'utf-8', bom: true, text });
    expect(decodeText(Buffer.from([0x41, 0xff, 0x42]))).toMatchObject({ encoding: 'utf-8', replaced: 1 });
  });

  it('comma and semicolon delimiters, and auto-detection of each kind', () => {
    expect(items(extract('Part;Quantity;Price (EUR)\nNut M4;20;"0,10"\n')).map((i) => [i.item, i.quantity, i.unit_prices[0].amount])).toEqual([['Nut M4', 20, null]]);
    expect(extract('Name,Qty,Unit Price (USD)\n"Board, v2",2,$5.50\n').records).toMatchObject([{ extractor: 'bom_csv', item: 'Board, v2', quantity: 2 }]);
    expect(extract('| Item | Qty |\n|---|---|\n| Motor | 2 |\n').kind).toBe('bom_md');
    expect(extract('<robot name="r"><link name="a"/></robot>').kind).toBe('urdf');
    expect(extract('just some prose, with a comma').kind).toBeNull();
    expect(extract('   \n ').skipped[0].code).toBe('input_empty');
  });
});

describe('BOM tables as written: price columns by meaning, Model / Part number items, ignored columns, why a price is not read', () => {
  const r = extract(fixtureText('bom-upe-model.md'));
  const items = r.records as BomItemRecord[];
  const byItem = (name: string) => items.find((i) => i.item === name)!;

  it('reads all three tables: the item column headed Part, Model and Part number', () => {
    expect(r.kind).toBe('bom_md');
    expect(items.map((i) => [i.table, i.item])).toEqual([
      [1, 'Brushless motor X'],
      [1, 'Motor driver board'],
      [1, 'Bearing 6805'],
      [1, 'Printed parts'],
      [2, 'STS3215 (12V)'],
      [2, 'STS3032'],
      [3, 'BRD-001'],
    ]);
  });

  it('"UPE (USD)" is a unit price in USD from the header; "Total (USD)" a line total', () => {
    expect(byItem('Brushless motor X').unit_prices).toEqual([
      { column: 'UPE (USD)', as_written: '89.00', currency_label: 'USD', symbol: null, currency: 'USD', currency_source: 'header', amount: '89.00', product_of: null, basis_evidence: null },
    ]);
    expect(byItem('Brushless motor X').line_totals[0]).toMatchObject({ column: 'Total (USD)', amount: '534.00', currency: 'USD' });
  });

  it('"Price" and "Cost each" are unit prices; the document\'s "All prices in USD" decides what header and cell leave open', () => {
    expect(byItem('STS3215 (12V)').unit_prices[0]).toMatchObject({ column: 'Price', symbol: '$', currency: 'USD', currency_source: 'document', amount: '15.90' });
    expect(byItem('STS3032').unit_prices[0]).toMatchObject({ currency: 'USD', currency_source: 'document', amount: '12.4' });
    expect(byItem('BRD-001').unit_prices[0]).toMatchObject({ column: 'Cost each', currency: 'USD', amount: '20' });
  });

  it('columns not interpreted are listed per table as ignored_columns', () => {
    expect(r.bom_tables!.map((t) => t.ignored_columns)).toEqual([['Comment'], [], []]);
    expect(r.bom_tables![0].columns.find((c) => c.header === 'UPE (USD)')!.read_as).toBe('unit_price');
    expect(r.bom_tables![1].columns.find((c) => c.header === 'Model')!.read_as).toBe('item');
    expect(r.bom_tables![0].document_currency).toBe('USD');
  });

  it('a price that cannot be read says why: approximate, a range, no number', () => {
    const reasons = r.skipped.filter((s) => s.code === 'price_not_plain').map((s) => s.reason);
    expect(reasons).toEqual([
      expect.stringMatching(/^UPE \(USD\) "~45" of "Motor driver board" is approximate or a bound/),
      expect.stringMatching(/^Total \(USD\) "~135" of "Motor driver board" is approximate or a bound/),
      expect.stringMatching(/^UPE \(USD\) "2.5-3" of "Bearing 6805" is a range/),
      expect.stringMatching(/^UPE \(USD\) "free" of "Printed parts" holds no number/),
    ]);
  });

  it('without a stated document currency a bare amount has none (never guessed)', () => {
    const bare = extract('| Model | Qty | Price |\n|---|---|---|\n| STS3215 | 1 | 12.4 |\n');
    expect((bare.records[0] as BomItemRecord).unit_prices[0]).toMatchObject({ currency: null, currency_source: null, amount: '12.4' });
  });
});
