/**
 * CSV injection (OWASP): hostile text in every free-text field of a BOM line, exported over REST
 * and read back with csv-parse. Each field equals its input apart from the leading quote that
 * neutralises it, and no cell of the document starts with = + - @ tab or CR.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, DANGEROUS_START, newKey, parseCsv, parseCsvRows, post, restBalance, startRealServer, type Server } from './helpers.js';

const HOSTILE = ['=HYPERLINK("http://x","y")', "+cmd|' /C calc'!A0", '-2+3', '@SUM(1)', '\t=1', '\r=1'];
/** Text that must come back untouched: quotes, separators, line breaks, CJK, a quote already in front. */
const BENIGN = ['Servo, 12 V "pro"', "O'Brien", 'a=1', "'=already quoted", '舵机 サーボ', 'two\nlines', '2+3'];

const TEXT_FIELDS = ['id', 'name', 'category', 'manufacturer', 'specs', 'supplier'] as const;
type TextField = (typeof TEXT_FIELDS)[number];
type Item = Record<TextField, string> & { price: number; quantity: number };

const pick = (list: string[], i: number) => list[i % list.length];

const items: Item[] = [
  // every hostile value in every text field, rotated across lines
  ...HOSTILE.map((_, k) => ({
    id: `INJ-${k + 1}`,
    name: pick(HOSTILE, k),
    category: pick(HOSTILE, k + 1),
    manufacturer: pick(HOSTILE, k + 2),
    specs: pick(HOSTILE, k + 3),
    supplier: pick(HOSTILE, k + 4),
    price: 1.5,
    quantity: k + 1,
  })),
  // hostile ids (ids are trimmed, so no leading tab/CR here), one on a catalogue part's line
  { id: '=1+1', name: 'ACT', category: 'actuators', manufacturer: '+ROBOTIS', specs: '-', supplier: '@', price: 2, quantity: 1 },
  { id: '-2+3', name: pick(HOSTILE, 0), category: 'sensors', manufacturer: 'ROBOTIS', specs: pick(HOSTILE, 5), supplier: pick(HOSTILE, 4), price: 0.1, quantity: 2 },
  { id: '@ACT-001', name: pick(HOSTILE, 3), category: pick(HOSTILE, 2), manufacturer: pick(HOSTILE, 1), specs: pick(HOSTILE, 0), supplier: pick(HOSTILE, 5), price: 0.2, quantity: 1 },
  // benign text is left alone
  ...BENIGN.map((b, k) => ({
    id: `OK-${k + 1}`,
    name: b,
    category: pick(BENIGN, k + 1),
    manufacturer: pick(BENIGN, k + 2),
    specs: pick(BENIGN, k + 3),
    supplier: pick(BENIGN, k + 4),
    price: 3,
    quantity: 1,
  })),
];

const expected = (input: string) => (DANGEROUS_START.test(input) ? `'${input}` : input);

describe('CSV formula injection (REST export read back with csv-parse)', () => {
  let srv: Server;
  let key: string;
  beforeAll(async () => {
    srv = await startRealServer();
    key = await newKey(srv.deps, 'inject');
  });
  afterAll(async () => {
    await srv.stop();
  });

  it('the fixture covers every hostile value in every text field', () => {
    for (const f of TEXT_FIELDS.filter((x) => x !== 'id')) {
      for (const h of HOSTILE) expect(items.some((i) => i[f] === h), `${f} ${JSON.stringify(h)}`).toBe(true);
    }
  });

  for (const include_suppliers of [true, false]) {
    it(`include_suppliers ${include_suppliers}: every field equals its input apart from the leading quote; no cell starts dangerously`, async () => {
      const r = await post(`${srv.url}/api/bom/export`, { items, include_suppliers, project_name: '=cmd' }, bearer(key));
      expect(r.status).toBe(200);
      const rows = parseCsv(r.bytes);
      expect(rows).toHaveLength(items.length + 1);
      let neutralised = 0;
      items.forEach((it, i) => {
        for (const f of TEXT_FIELDS) {
          expect(rows[i][f], `line ${i + 1} ${f}`).toBe(expected(it[f]));
          if (expected(it[f]) !== it[f]) neutralised++;
          // reading back: the one added quote is all that differs
          expect(DANGEROUS_START.test(it[f]) ? rows[i][f].slice(1) : rows[i][f]).toBe(it[f]);
        }
      });
      expect(neutralised).toBeGreaterThanOrEqual(HOSTILE.length * 5 + 3);
      // the whole document, header, supplier columns, notes and total row included
      const cells = parseCsvRows(r.bytes).flat();
      const bad = cells.filter((c) => DANGEROUS_START.test(c));
      expect(bad).toEqual([]);
      expect(cells.filter((c) => c.startsWith("'")).length).toBeGreaterThanOrEqual(neutralised);
    });
  }

  it('JSON carries the same text verbatim (no prefix: JSON is not a spreadsheet)', async () => {
    const r = await post(`${srv.url}/api/bom/export`, { items, format: 'json' }, bearer(key));
    expect(r.status).toBe(200);
    const lines = (r.json as { items: Record<TextField, string>[] }).items;
    items.forEach((it, i) => {
      for (const f of TEXT_FIELDS) expect(lines[i][f], `line ${i + 1} ${f}`).toBe(it[f]);
    });
    expect(await restBalance(srv.url, key)).toBe(97);
  });
});
