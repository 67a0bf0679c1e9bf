/**
 * BOM tables -> bom_item records, shared by the Markdown and the delimited-text extractors.
 * Columns are recognised by their header; a table is a BOM table when it has an item column
 * and a quantity, unit-price or total column. Quantities and prices are kept as written; an
 * amount is the cell's plain decimal, and its currency is named only when the header label and
 * the cell's symbol determine exactly one ISO 4217 code. Nothing is converted.
 */
import { excerpt, MAX_RECORDS, type SkipLog } from './limits.js';
import { cleanCell, type Cell, type RawTable } from './table.js';
import type { BomItemRecord, BomTableInfo, Link, Price } from './types.js';

type Role =
  | 'number'
  | 'part_number'
  | 'item'
  | 'quantity'
  | 'unit_price'
  | 'line_total'
  | 'link'
  | 'manufacturer'
  | 'manufacturer_part'
  | 'supplier'
  | 'supplier_part'
  | 'designator'
  | 'other';

/**
 * Item-name columns, best first: the first present is the item column. "Comment" and "Value" name
 * the part in KiCad/JLCPCB component tables; Size and Dimensions only when nothing better exists
 * (bearings, springs, wire listed by size).
 */
const ITEM_HEADERS = ['item', 'item name', 'part name', 'part', 'parts', 'name', 'component', 'components', 'model', 'model name', 'product', 'product name', 'description', 'comment', 'value', '名称', '物料名称', '零件名称', '品名', '物料', '型号', 'size', 'dimensions', 'dimension', '尺寸', '规格'];

const ROLE_PATTERNS: [Role, RegExp][] = [
  ['number', /^(no\.?|#|nr\.?|num\.?|index|idx|item no\.?|item #|序号)$/],
  ['part_number', /^(part (no\.?|number|#|id)|p\/n|pn|sku|item (code|sku)|编号|料号|物料编码|零件号)$/],
  ['manufacturer_part', /^(manufacturer part( (no\.?|number|#))?|mfr\.? part( (no\.?|number|#))?|mpn)$/],
  ['supplier_part', /^(supplier part( (no\.?|number|#))?|lcsc part( (no\.?|number|#))?)$/],
  ['manufacturer', /^(manufacturer|mfr\.?|mfg\.?|maker|brand|vendor|厂商|品牌|制造商|厂家)$/],
  ['supplier', /^(supplier|distributor|供应商)$/],
  ['designator', /^(designators?|references?|refs?|ref\.? ?des\.?|reference designators?|位号)$/],
  ['quantity', /^(qty\.?|quantity|amount|count|pcs|数量|用量)$/],
  ['unit_price', /^(unit (price|cost)|(price|cost)( (per unit|each|per piece|per pc|\/ ?unit|\/ ?pc))?|(price|cost) \/ (unit|pc)|each|upe|u\.?p\.?|单价|价格)$/],
  ['line_total', /^(total( (price|cost))?|subtotal|line total|extended (price|cost)|ext\.? (price|cost)|金额|小计|总价|合计)$/],
  ['link', /^(buy|link|links|url|shop|store|purchase|where to buy|购买|购买链接|链接)\b/],
];

const PLACEHOLDER = /^(-+|—|–|n\/a|na|none|tbd|\?)$/i;

interface Column {
  index: number;
  header: string;
  role: Role;
  /** Label in parentheses or brackets at the end of the header, e.g. "CNY" in "Unit Price (CNY)". */
  label: string | null;
}

function headerKey(h: string): { key: string; label: string | null } {
  const m = /^(.*?)\s*[(（[]([^()（）[\]]*)[)）\]]\s*:?$/.exec(h);
  let base = (m ? m[1] : h).replace(/:$/, '').toLowerCase().replace(/\s+/g, ' ').trim();
  let label = m ? m[2].trim() || null : null;
  if (label === null) {
    // A currency written beside the word, without brackets: "Price USD", "USD price", "Cost in EUR", "Price $".
    const w = /^(?:(.+?) (?:in )?([a-z]{3}|rmb|[$€£¥￥])|([a-z]{3}|rmb|[$€£¥￥]) (.+))$/.exec(base);
    const word = w ? (w[2] ?? w[3]) : null;
    if (word !== null && labelCurrencies(word.toUpperCase()) !== null) {
      label = word.length === 3 ? word.toUpperCase() : word;
      base = (w![1] ?? w![4]).trim();
    }
  }
  return { key: base, label };
}

export function classifyColumns(header: string[]): Column[] {
  const cols: Column[] = header.map((raw, index) => {
    const h = cleanCell(raw).text;
    const { key, label } = headerKey(h);
    let role: Role = 'other';
    for (const [r, re] of ROLE_PATTERNS) {
      if (re.test(key)) {
        role = r;
        break;
      }
    }
    // "Amount (USD)" is money, not a count.
    if (role === 'quantity' && key === 'amount' && label !== null) role = 'line_total';
    return { index, header: h, role, label };
  });
  const itemRank = (c: Column) => ITEM_HEADERS.indexOf(headerKey(c.header).key);
  const candidates = cols.filter((c) => c.role === 'other' && itemRank(c) >= 0).sort((a, b) => itemRank(a) - itemRank(b));
  if (candidates.length > 0) candidates[0].role = 'item';
  else {
    // No item-name column: a manufacturer part number, else a part number / SKU names the item.
    const mp = cols.find((c) => c.role === 'manufacturer_part') ?? cols.find((c) => c.role === 'part_number');
    if (mp) mp.role = 'item';
  }
  return cols;
}

/** Headers of the columns the reader does not interpret (their cells are kept as text in other_columns). */
export function ignoredColumns(cols: Column[]): string[] {
  return cols.filter((c) => c.role === 'other').map((c) => c.header || `column ${c.index + 1}`);
}

/** What each column was read as, by header. */
export function columnRoles(cols: Column[]): { header: string; read_as: Role }[] {
  return cols.map((c) => ({ header: c.header || `column ${c.index + 1}`, read_as: c.role }));
}

/**
 * The currency a document states for its prices ("All prices in USD", "Prices are in EUR",
 * "Currency: CNY"): one code when it states exactly one, else null.
 */
export function documentCurrency(text: string): string | null {
  const found = new Set<string>();
  for (const m of text.matchAll(/\b(?:all )?(?:prices?|costs?)(?: are| is)?(?: given| listed| shown)? in ([A-Za-z]{3}|RMB)\b|\bcurrency\s*[:：]\s*([A-Za-z]{3}|RMB)\b/gi)) {
    const c = labelCurrencies((m[1] ?? m[2]).toUpperCase());
    if (c && c.length === 1) found.add(c[0]);
  }
  return found.size === 1 ? [...found][0] : null;
}

export function isBomTable(cols: Column[]): boolean {
  return cols.some((c) => c.role === 'item') && cols.some((c) => c.role === 'quantity' || c.role === 'unit_price' || c.role === 'line_total' || c.role === 'designator');
}

const DOLLAR = ['USD', 'AUD', 'CAD', 'HKD', 'NZD', 'SGD', 'TWD', 'MXN'];
const SYMBOLS: [string, string[]][] = [
  ['US$', ['USD']],
  ['$', DOLLAR],
  ['€', ['EUR']],
  ['£', ['GBP']],
  ['￥', ['CNY', 'JPY']],
  ['¥', ['CNY', 'JPY']],
  ['元', ['CNY']],
  ['円', ['JPY']],
  ['₩', ['KRW']],
  ['₹', ['INR']],
];
const ISO = new Set(['CNY', 'USD', 'EUR', 'JPY', 'GBP', 'KRW', 'INR', 'AUD', 'CAD', 'HKD', 'NZD', 'SGD', 'TWD', 'MXN', 'CHF', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK', 'RUB', 'BRL']);
/** Labels that name one currency: ISO codes, RMB, and the region labels seen in BOM headers. */
const LABEL_CURRENCY: Record<string, string> = { RMB: 'CNY', US: 'USD', EU: 'EUR', CN: 'CNY', JP: 'JPY', UK: 'GBP', EURO: 'EUR', '人民币': 'CNY', '元': 'CNY' };
/** Locales of these currencies write a decimal point, so "2,980" reads as 2980 exactly. */
const POINT_DECIMAL = new Set(['CNY', 'JPY', 'USD', 'GBP', 'KRW', 'INR', 'AUD', 'CAD', 'HKD', 'NZD', 'SGD', 'TWD', 'MXN']);

function labelCurrencies(label: string | null): string[] | null {
  if (label === null) return null;
  const u = label.toUpperCase();
  if (ISO.has(u)) return [u];
  if (LABEL_CURRENCY[u]) return [LABEL_CURRENCY[u]];
  for (const [sym, codes] of SYMBOLS) if (label === sym) return codes;
  return null;
}

export function readPrice(col: Column, text: string, docCurrency: string | null = null): Price {
  let rest = text.trim();
  let symbol: string | null = null;
  let fromSymbol: string[] | null = null;
  const code = /^([A-Z]{3})\s*(?=\d)|(?<=\d)\s*([A-Z]{3})$/.exec(rest);
  if (code && (ISO.has(code[1] ?? code[2]) || (code[1] ?? code[2]) === 'RMB')) {
    symbol = code[1] ?? code[2];
    fromSymbol = labelCurrencies(symbol);
    rest = rest.replace(code[0], '').trim();
  } else {
    for (const [sym, codes] of SYMBOLS) {
      if (rest.startsWith(sym)) {
        symbol = sym;
        fromSymbol = codes;
        rest = rest.slice(sym.length).trim();
        break;
      }
      if (rest.endsWith(sym)) {
        symbol = sym;
        fromSymbol = codes;
        rest = rest.slice(0, -sym.length).trim();
        break;
      }
    }
  }
  const fromLabel = labelCurrencies(col.label);
  let candidates = fromSymbol && fromLabel ? fromSymbol.filter((c) => fromLabel.includes(c)) : (fromSymbol ?? fromLabel);
  let source: Price['currency_source'] = fromSymbol && fromLabel ? 'header_and_cell' : fromSymbol ? 'cell' : fromLabel ? 'header' : null;
  // The document's stated currency decides only what the header and cell leave open, and never contradicts them.
  if (docCurrency !== null && (candidates === null || (candidates.length > 1 && candidates.includes(docCurrency)))) {
    candidates = [docCurrency];
    source = 'document';
  }
  const currency = candidates && candidates.length === 1 ? candidates[0] : null;
  if (currency === null) source = null;
  let amount: string | null = null;
  if (/^\d+(\.\d+)?$/.test(rest)) amount = rest;
  else if (/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(rest) && currency !== null && POINT_DECIMAL.has(currency)) amount = rest.replace(/,/g, '');
  if (amount !== null) amount = amount.replace(/^0+(?=\d)/, '');
  let product_of: Price['product_of'] = null;
  const prod = /^(\d+(?:\.\d+)?)\s*[*×xX]\s*(\d+(?:\.\d+)?)$/.exec(rest);
  if (amount === null && prod) product_of = { amount: prod[1], factor: prod[2] };
  return { column: col.header, as_written: text, currency_label: col.label, symbol, currency, currency_source: source, amount, product_of, basis_evidence: null };
}

/** A total label opening a cell: "Total", "Subtotal:", "**Total parts:**", "合计". */
const SUMMARY = /^(((grand|sub)[ -]?)?total\b|合计|小计|总计)/i;

/** Plain-text cell (delimited files): whitespace collapsed; a cell that is only an http(s) URL is a link. */
export function plainCell(raw: string): Cell {
  const text = raw.replace(/\s+/g, ' ').trim();
  return /^https?:\/\/\S+$/i.test(text) ? { text: '', links: [{ label: null, url: text }] } : { text, links: [] };
}

export interface BomTableContext {
  extractor: 'bom_md' | 'bom_csv';
  /** Cell reader: cleanCell for Markdown, plainCell for delimited text. */
  cell: (raw: string) => Cell;
  table: number;
  section: string | null;
  records: BomItemRecord[];
  skipped: SkipLog;
  /** The currency the document states for its prices, when exactly one. */
  documentCurrency?: string | null;
  /** The table's info: its totals per currency and unpriced lines are written to it. */
  info?: BomTableInfo;
}

/** "Same as above" written in a cell. */
const DITTO = /^(〃|"|''|ditto|same as above|same|同上|同前)$/i;

/** The designators a cell lists ("C1, C2, C5-C7" -> 5), null when a token is not one. */
export function countDesignators(text: string): number | null {
  let n = 0;
  for (const t of text.split(/[\s,;]+/).filter(Boolean)) {
    const range = /^([A-Za-z]+)(\d+)\s*[-–]\s*(?:\1)?(\d+)$/.exec(t);
    if (range) {
      const a = Number(range[2]);
      const b = Number(range[3]);
      if (b < a || b - a > 10_000) return null;
      n += b - a + 1;
    } else if (/^[A-Za-z]+\d+[A-Za-z]?$/.test(t)) n += 1;
    else return null;
  }
  return n > 0 ? n : null;
}

/** Reads the data rows of one BOM table into records; returns the number of data rows seen. */
export function readBomRows(cols: Column[], rows: RawTable['rows'], ctx: BomTableContext): number {
  const role = (r: Role) => cols.filter((c) => c.role === r);
  const one = (r: Role) => cols.find((c) => c.role === r) ?? null;
  const itemCol = one('item')!;
  const qtyCol = one('quantity');
  const seenHeaders = new Map<string, number>();
  const otherKey = new Map<number, string>();
  for (const c of cols) {
    const base = c.header || `column ${c.index + 1}`;
    const k = seenHeaders.get(base) ?? 0;
    seenHeaders.set(base, k + 1);
    otherKey.set(c.index, k === 0 ? base : `${base} (${k + 1})`);
  }
  let seen = 0;
  const first = ctx.records.length;
  const summaries: { line: number; cells: Cell[] }[] = [];
  const desCol = one('designator');
  const footCol = cols.find((c) => c.role === 'other' && /^(footprint|package)$/.test(headerKey(c.header).key)) ?? null;
  // KiCad/JLCPCB component tables: the part is its value (or comment) and footprint.
  const kicad = desCol !== null && footCol !== null && /^(value|comment)$/.test(headerKey(itemCol.header).key);
  /** The previous item row's cells and line: a blank item cell or a ditto mark is read as the same as above. */
  let above: { line: number; cells: Cell[] } | null = null;
  /** Rows already read, by their cells: a row written twice is flagged. */
  const byCells = new Map<string, number>();
  for (const row of rows) {
    const cells: Cell[] = cols.map((c) => ctx.cell(row.cells[c.index] ?? ''));
    const notes: string[] = [];
    if (above !== null) {
      for (const c of cols) {
        if (!DITTO.test(cells[c.index].text) || above.cells[c.index].text === '') continue;
        notes.push(`${c.header} "${cells[c.index].text}" (same as above) carried down from line ${above.line}`);
        cells[c.index] = above.cells[c.index];
      }
      // A row with content but a blank item cell, under an item row: the item is the one above (bearings listed by size).
      const blankItem = cells[itemCol.index].text === '';
      const content = cols.some((c) => c !== itemCol && (cells[c.index].text !== '' || cells[c.index].links.length > 0));
      const summaryRow = cells.some((c) => SUMMARY.test(c.text));
      if (blankItem && content && !summaryRow && above.cells[itemCol.index].text !== '') {
        notes.push(`${itemCol.header} is blank: "${above.cells[itemCol.index].text}" carried down from line ${above.line} (read as same as above)`);
        cells[itemCol.index] = above.cells[itemCol.index];
      }
    }
    // Cells beyond the header (a ragged row) are ignored; their text is not a named value.
    const value = (c: Column | null): string | null => {
      if (!c) return null;
      const t = cells[c.index].text;
      return t === '' || PLACEHOLDER.test(t) ? null : t;
    };
    if (cells.every((c) => c.text === '' && c.links.length === 0)) continue;
    seen += 1;
    let item = value(itemCol);
    if (kicad && item !== null && value(footCol) !== null) item = `${item} ${value(footCol)}`;
    const qtyPlain = /^\d+$/.test(value(qtyCol) ?? '');
    if (item === null || (SUMMARY.test(item) && !qtyPlain)) {
      const summary = item !== null || cells.some((c) => SUMMARY.test(c.text));
      // Only a row labelled Total in the item column states the table's total column by column.
      if (summary && item !== null && TOTAL_LABEL.test(item)) summaries.push({ line: row.line, cells });
      if (summary) ctx.skipped.add('row_summary', 'row', row.line, `summary row (${excerpt(cells.map((c) => c.text).filter(Boolean).join(' '), 40)}), not an item`);
      else ctx.skipped.add('row_no_item', 'row', row.line, `row has no value in the item column "${itemCol.header}"`);
      continue;
    }
    if (ctx.records.length >= MAX_RECORDS) {
      ctx.skipped.add('record_limit', 'row', row.line, `record limit ${MAX_RECORDS} reached`);
      continue;
    }
    let confidence: BomItemRecord['confidence'] = 'high';
    let qtyText = value(qtyCol);
    const desText = value(desCol);
    const designators = desText === null ? null : countDesignators(desText);
    let quantity: number | null = null;
    let quantity_source: BomItemRecord['quantity_source'] = qtyText !== null ? 'column' : null;
    let itemAsWritten: string | null = null;
    const prefix = qtyText === null ? QTY_PREFIX.exec(item) : null;
    if (qtyText === null && designators !== null) {
      // A component table without a quantity column: one part per designator.
      qtyText = desText;
      quantity = designators;
      quantity_source = 'column';
      notes.push(`quantity ${designators}: the designators in ${desCol!.header} counted`);
    } else if (prefix) {
      // "2x Dynamixel XL430-W250": the count is folded into the name when the table has no quantity.
      quantity = Number(prefix[1]);
      qtyText = item.slice(0, item.length - prefix[2].length).trim();
      quantity_source = 'item_prefix';
      itemAsWritten = item;
      item = prefix[2];
    } else if (qtyText !== null) {
      const plain = /^\d{1,3}(,\d{3})+$/.test(qtyText) ? qtyText.replace(/,/g, '') : qtyText;
      if (/^\d{1,15}$/.test(plain)) quantity = Number(plain);
      else ctx.skipped.add('quantity_not_integer', 'value', row.line, `quantity ${excerpt(qtyText, 30)} of ${excerpt(item, 40)} is not a plain integer; kept as written only`);
    }
    if (designators !== null && quantity !== null && quantity_source === 'column' && qtyText !== desText && designators !== quantity) {
      confidence = 'medium';
      notes.push(`${qtyCol!.header} says ${quantity} but ${desCol!.header} lists ${designators} designators`);
    }
    if (kicad && value(footCol) !== null) notes.push(`item: the ${itemCol.header} and ${footCol!.header} cells`);
    const key = JSON.stringify(cells.map((c) => [c.text, c.links.map((l) => l.url)]));
    const twin = byCells.get(key);
    if (twin !== undefined) notes.push(`every cell equals line ${twin}: the same row written twice? (kept, and counted in the table's totals)`);
    else byCells.set(key, row.line);
    above = { line: row.line, cells };
    if (quantity === null) confidence = 'medium';
    const prices = (r: 'unit_price' | 'line_total'): Price[] => {
      const out: Price[] = [];
      for (const c of role(r)) {
        const t = value(c);
        if (t === null) continue;
        const p = readPrice(c, t, ctx.documentCurrency ?? null);
        if (p.amount === null) {
          confidence = 'medium';
          const why = p.product_of
            ? `is written as a product (${p.product_of.amount} × ${p.product_of.factor}); both factors kept, no single amount`
            : unreadableWhy(t);
          ctx.skipped.add('price_not_plain', 'value', row.line, `${c.header} ${excerpt(t, 30)} of ${excerpt(item!, 40)} ${why}`);
        } else if (p.currency === null) {
          confidence = 'medium';
          ctx.skipped.add('currency_undetermined', 'value', row.line, `${c.header} ${excerpt(t, 30)}: the header, the cell and the document do not name exactly one currency`);
        }
        out.push(p);
      }
      return out;
    };
    const unit_prices = prices('unit_price');
    const line_totals = prices('line_total');
    const links: Link[] = [];
    const other_columns: Record<string, string> = {};
    for (const c of cols) {
      for (const l of cells[c.index].links) links.push({ column: c.header, label: l.label, url: l.url });
      // Designators are kept as written too (their count is the quantity or checked against it).
      if (c.role === 'other' || c.role === 'designator') {
        const t = value(c);
        if (t !== null) other_columns[otherKey.get(c.index)!] = t;
      }
    }
    ctx.records.push({
      record_type: 'bom_item',
      extractor: ctx.extractor,
      confidence,
      line: row.line,
      table: ctx.table,
      section: ctx.section,
      row_number: value(one('number')),
      part_number: value(one('part_number')),
      item,
      quantity,
      quantity_as_written: qtyText,
      quantity_source,
      item_as_written: itemAsWritten,
      unit_prices,
      line_totals,
      manufacturer: value(one('manufacturer')),
      manufacturer_part: value(one('manufacturer_part')),
      supplier: value(one('supplier')),
      supplier_part: value(one('supplier_part')),
      links,
      other_columns,
      ...(notes.length > 0 ? { notes } : {}),
    });
  }
  checkStatedTotals(cols, ctx.records.slice(first), summaries, ctx);
  if (ctx.info) Object.assign(ctx.info, tableTotals(ctx.records.slice(first)));
  return seen;
}

/**
 * A table added up per currency, in exact decimals: each line's total where written, else its
 * quantity × unit price; a line with neither (no amount, no currency or no quantity) is counted as
 * unpriced. A line with prices in two currencies adds to both.
 */
export function tableTotals(records: readonly BomItemRecord[]): { totals: { currency: string; amount: string; lines: number }[]; unpriced_lines: number } {
  const sums = new Map<string, { xs: { n: bigint; scale: number }[]; lines: number }>();
  let unpriced = 0;
  for (const r of records) {
    const byCurrency = new Map<string, { n: bigint; scale: number }>();
    for (const p of r.line_totals) if (p.amount !== null && p.currency !== null && !byCurrency.has(p.currency)) byCurrency.set(p.currency, dec(p.amount));
    if (r.quantity !== null) {
      for (const p of r.unit_prices) {
        if (p.amount === null || p.currency === null || byCurrency.has(p.currency)) continue;
        const d = dec(p.amount);
        byCurrency.set(p.currency, { n: d.n * BigInt(r.quantity), scale: d.scale });
      }
    }
    if (byCurrency.size === 0) unpriced += 1;
    for (const [c, d] of byCurrency) {
      const s = sums.get(c) ?? { xs: [], lines: 0 };
      s.xs.push(d);
      s.lines += 1;
      sums.set(c, s);
    }
  }
  const totals = [...sums.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([currency, s]) => ({ currency, amount: decText(decSum(s.xs)), lines: s.lines }));
  return { totals, unpriced_lines: unpriced };
}

/** Why a price cell is not a plain amount, in words. */
function unreadableWhy(t: string): string {
  if (/\d\s*(-|–|—|~|to)\s*[$€£¥￥]?\s*\d/i.test(t)) return 'is a range, not one amount; kept as written only';
  if (/^\s*(~|≈|ca\.?|approx\.?|about|around|<|>|up to)/i.test(t)) return 'is approximate or a bound, not an amount; kept as written only';
  if (/\d,\d{1,2}$/.test(t)) return 'has a decimal comma or thousands separators whose meaning the currency does not decide; kept as written only';
  if (!/\d/.test(t)) return 'holds no number (text such as "free" or "included"); kept as written only';
  return 'is not a plain amount (text around the number); kept as written only';
}

/** "2x Dynamixel XL430-W250", "4 x Motor", "3× Servo": a count folded into the item name. */
const TOTAL_LABEL = /^(total|合计|总计)\s*[:：]?$/i;

const QTY_PREFIX = /^(\d{1,4})\s*[x×X]\s+(\S.*)$/;

/** Exact decimal: value = n / 10^scale. */
function dec(s: string): { n: bigint; scale: number } {
  const [i, f = ''] = s.split('.');
  return { n: BigInt(i + f), scale: f.length };
}
function decEq(a: { n: bigint; scale: number }, b: { n: bigint; scale: number }): boolean {
  const s = Math.max(a.scale, b.scale);
  return a.n * 10n ** BigInt(s - a.scale) === b.n * 10n ** BigInt(s - b.scale);
}
function decSum(xs: { n: bigint; scale: number }[]): { n: bigint; scale: number } {
  const s = Math.max(0, ...xs.map((x) => x.scale));
  return { n: xs.reduce((t, x) => t + x.n * 10n ** BigInt(s - x.scale), 0n), scale: s };
}
function decText(x: { n: bigint; scale: number }): string {
  const neg = x.n < 0n;
  const digits = (neg ? -x.n : x.n).toString().padStart(x.scale + 1, '0');
  const t = x.scale === 0 ? digits : `${digits.slice(0, -x.scale)}.${digits.slice(-x.scale)}`;
  return neg ? `-${t}` : t;
}

/**
 * A table's stated Total against its rows, per price column, in exact decimals:
 * - equals the sum of quantity × price: the column holds unit prices (as its header says);
 * - equals the plain sum of the column, and the quantities do not make the two sums equal: the
 *   column holds line totals (Koch: "2x Dynamixel XL430-W250 | $100 ... Total | $258"); the
 *   prices move to line_totals with that evidence;
 * - neither: reported as total_mismatch (the stated total does not follow from the rows).
 */
function checkStatedTotals(cols: Column[], records: BomItemRecord[], summaries: { line: number; cells: Cell[] }[], ctx: BomTableContext): void {
  if (summaries.length !== 1 || records.length === 0) return;
  const total = summaries[0];
  for (const c of cols) {
    if (c.role !== 'unit_price' && c.role !== 'line_total') continue;
    const t = total.cells[c.index]?.text ?? '';
    if (t === '') continue;
    const stated = readPrice(c, t, ctx.documentCurrency ?? null);
    if (stated.amount === null) continue;
    // Same currency when both name one (¥ and ￥ are both CNY under a CN label), else the same symbol.
    const same = (p: Price) => (p.currency !== null && stated.currency !== null ? p.currency === stated.currency : p.symbol === stated.symbol && p.currency === stated.currency);
    const prices = records.map((r) => [...r.unit_prices, ...r.line_totals].find((p) => p.column === c.header) ?? null);
    if (prices.some((p) => p === null || p.amount === null || !same(p))) {
      const unreadable = prices.filter((p) => p === null || p.amount === null).length;
      ctx.skipped.add('total_mismatch', 'table', total.line, `stated ${c.header} total ${excerpt(t, 20)} not checked: ${unreadable} of ${records.length} rows have no plain amount in this column or another currency`);
      continue;
    }
    const plain = decSum(prices.map((p) => dec(p!.amount!)));
    const withQty = records.every((r) => r.quantity !== null)
      ? decSum(prices.map((p, i) => { const d = dec(p!.amount!); return { n: d.n * BigInt(records[i].quantity!), scale: d.scale }; }))
      : null;
    const s = dec(stated.amount);
    const asUnit = c.role === 'unit_price' ? withQty : plain;
    if (asUnit !== null && decEq(asUnit, s)) continue;
    if (c.role === 'unit_price' && decEq(plain, s)) {
      const evidence = `the table's stated total ${t} (line ${total.line}) equals the sum of the ${c.header} cells, not the sum of quantity × price: each cell is a line total`;
      for (const r of records) {
        const i = r.unit_prices.findIndex((p) => p.column === c.header);
        if (i < 0) continue;
        const [p] = r.unit_prices.splice(i, 1);
        r.line_totals.push({ ...p, basis_evidence: evidence });
      }
      continue;
    }
    if (c.role === 'unit_price' && withQty === null) {
      ctx.skipped.add('total_mismatch', 'table', total.line, `stated ${c.header} total ${excerpt(t, 20)} not checked against quantity × unit price (a row has no quantity); the plain sum of the column is ${decText(plain)}`);
      continue;
    }
    const computed = decText(c.role === 'unit_price' ? withQty! : plain);
    ctx.skipped.add('total_mismatch', 'table', total.line, `stated ${c.header} total ${excerpt(t, 20)} differs from the rows: ${c.role === 'unit_price' ? 'sum of quantity × unit price' : 'sum of line totals'} is ${computed}`);
  }
}
