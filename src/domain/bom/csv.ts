/**
 * BOM as CSV (csv-stringify), safe to open in a spreadsheet.
 *
 * - Fixed column order (BOM_CSV_COLUMNS; the three supplier columns only when suppliers were
 *   requested). One row per BOM line (row_type "item"), one per suggested line (row_type
 *   "suggested", unpriced, with add_required), then one row_type "total" row per currency (never
 *   summed across currencies; one without an amount when no line has a price).
 * - Formula injection (OWASP "CSV Injection"): every TEXT cell that begins with = + - @, a tab
 *   or a carriage return gets a single quote in front; so does one whose first visible character
 *   is a formula character (after any run of controls, format characters, white space, Unicode
 *   default-ignorable or blank-looking code points, or as a full-width or small form). Numeric cells (line, quantity,
 *   unit_price, line_total) are written by the service as plain decimals and are never prefixed:
 *   a negative number is a number.
 * - Any cell holding CR or LF is quoted (csv-stringify would otherwise leave a lone CR bare).
 * - UTF-8 with a byte order mark and CRLF line ends (RFC 4180), so spreadsheets read CJK names.
 */
import { lazyRequire } from '../../lazy-require.js';
import type { BomDocument, BomLine, LineSuppliers, PartReferences, PrintSuggestion, SupplierSuggestion } from './schema.js';

/** csv-stringify, loaded by the first CSV export (src/lazy-require.ts). */
const csv = lazyRequire<typeof import('csv-stringify/sync')>('csv-stringify/sync');

const DANGEROUS_START = /^[=+\-@\t\r]/;
/**
 * Code points that look blank but are in neither Default_Ignorable_Code_Point nor White_Space
 * (nor Cc/Cf/Z): U+2800 BRAILLE PATTERN BLANK and U+1D159 MUSICAL SYMBOL NULL NOTEHEAD. The
 * Hangul fillers (U+115F, U+1160, U+3164, U+FFA0) need no entry: they are default-ignorable.
 */
export const BLANK_LOOKING = [0x2800, 0x1d159] as const;
/**
 * What a spreadsheet may skip, fold or show as nothing before the character it decides a formula
 * by: the Unicode classes, not a list of examples. Control characters (Cc: U+0000, VT, FF, LF,
 * U+0085, ...), format characters (Cf: U+FEFF, U+200B, U+202E, ...), every separator (Z) and
 * White_Space code point (NBSP, U+3000, U+2028, ...), every Default_Ignorable_Code_Point (Hangul
 * fillers, variation selectors, U+034F, U+180B-U+180F, tags U+E0000-U+E0FFF, unassigned
 * ignorables, ...), and the blank-looking code points above.
 */
const IGNORABLE_LEAD = new RegExp(
  `^[\\p{Cc}\\p{Cf}\\p{Z}\\p{White_Space}\\p{Default_Ignorable_Code_Point}${BLANK_LOOKING.map((cp) => `\\u{${cp.toString(16)}}`).join('')}]+`,
  'u',
);
/** Formula characters after compatibility folding (full-width ＝＋－＠, small ﹦﹢﹣﹫), plus the minus sign. */
const FORMULA_CHARS = /^[=+\-@\u2212]/;

/** Could a spreadsheet read this text cell as a formula? */
export function mayStartFormula(text: string): boolean {
  if (DANGEROUS_START.test(text)) return true;
  const rest = text.replace(IGNORABLE_LEAD, '');
  const first = rest.codePointAt(0);
  return first !== undefined && FORMULA_CHARS.test(String.fromCodePoint(first).normalize('NFKC'));
}

/**
 * OWASP neutralisation of one text cell: prefix a single quote when it could start a formula,
 * also when the formula character hides behind invisible or white-space characters or is a
 * full-width or small form.
 */
export function neutraliseCell(text: string): string {
  return mayStartFormula(text) ? `'${text}` : text;
}

export const BOM_CSV_BASE_COLUMNS = [
  'row_type',
  'line',
  'id',
  'name',
  'category',
  'manufacturer',
  'specs',
  'supplier',
  'quantity',
  'unit_price',
  'line_total',
  'currency',
  'price_source',
  'price_note',
  'catalogue_id',
  'catalogue_price_range',
  'quarantine',
] as const;
export const BOM_CSV_SUPPLIER_COLUMNS = ['official_stores', 'distributors', 'supplier_notes'] as const;
export const BOM_CSV_TAIL_COLUMNS = ['print_suggestions', 'source', 'reference_prices'] as const;

/** Columns holding numbers written by the service: never neutralised. */
export const BOM_CSV_NUMERIC_COLUMNS = new Set<string>(['line', 'quantity', 'unit_price', 'line_total']);

export function bomCsvColumns(includeSuppliers: boolean): string[] {
  return [...BOM_CSV_BASE_COLUMNS, ...(includeSuppliers ? BOM_CSV_SUPPLIER_COLUMNS : []), ...BOM_CSV_TAIL_COLUMNS];
}

const supplierText = (s: SupplierSuggestion) => (s.basis === 'manufacturer' ? `${s.name} ${s.url}` : `${s.name} ${s.url} (${s.basis}: ${s.matched})`);

function printText(p: PrintSuggestion): string {
  if (p.kind === 'structural_part') {
    return `${p.id} printable structural part (${p.reason}): ${p.material.recommended}, walls >= ${p.min_wall_mm} mm (rule of thumb)`;
  }
  const side = (s: typeof p.side_a) => `${s.designation} (${s.bolt_count}x${s.thread} on PCD ${s.pcd_mm} mm)`;
  const parts = [
    `${p.id} printed adapter plate ${side(p.side_a)} to ${side(p.side_b)}`,
    `${p.material.recommended}, >= ${p.min_thickness_mm} mm thick, outer diameter >= ${p.min_outer_diameter_mm} mm (rule of thumb)`,
  ];
  if (p.clocking_deg !== null) parts.push(`rotate pattern b by ${p.clocking_deg} deg`);
  for (const w of p.warnings) parts.push(`WARNING: ${w}`);
  return parts.join('; ');
}

/** A part's open-source BOM prices in one cell: "13.89 USD (SO-ARM100, <file> line 76)". */
function referenceText(r: PartReferences | undefined): string {
  if (!r) return '';
  const shown = r.prices.map((p) => `${p.amount} ${p.currency ?? '(currency not stated)'} (${p.robot}, ${p.file} line ${p.line})`);
  return `${shown.join('; ')}${r.total > r.prices.length ? `; ${r.total - r.prices.length} more` : ''}; reference only, not in the total`;
}

function lineRow(l: BomLine, refs: Map<number, PartReferences>, includeSuppliers: boolean, byId: Map<string, PrintSuggestion>): Record<string, string> {
  const row: Record<string, string> = {
    row_type: 'item',
    line: String(l.line),
    id: l.id,
    name: l.name ?? '',
    category: l.category ?? '',
    manufacturer: l.manufacturer ?? '',
    specs: l.specs ?? '',
    supplier: l.supplier ?? '',
    quantity: String(l.quantity),
    unit_price: l.unit_price_text ?? '',
    line_total: l.line_total_text ?? '',
    currency: l.currency ?? '',
    price_source: l.price_source,
    price_note: l.price_note ?? '',
    catalogue_id: l.catalogue.id ?? '',
    catalogue_price_range: l.catalogue.price_range === null ? '' : `${l.catalogue.price_range} (currency not stated)`,
    quarantine: l.catalogue.quarantine === null ? '' : String(l.catalogue.quarantine),
  };
  if (includeSuppliers) {
    const s: LineSuppliers = l.suppliers ?? { official_stores: [], distributors: [], notes: [] };
    row.official_stores = s.official_stores.map(supplierText).join('; ');
    row.distributors = s.distributors.map(supplierText).join('; ');
    row.supplier_notes = s.notes.join('; ');
  }
  row.print_suggestions = l.print_suggestions
    .map((id) => byId.get(id))
    .filter((p): p is PrintSuggestion => p !== undefined)
    .map(printText)
    .join(' | ');
  row.source = l.source;
  row.reference_prices = referenceText(refs.get(l.line));
  return row;
}

export function renderBomCsv(doc: BomDocument, includeSuppliers: boolean): string {
  const columns = bomCsvColumns(includeSuppliers);
  const byId = new Map(doc.print_suggestions.map((p) => [p.id, p]));
  const m = doc.metadata;
  const byPart = new Map(doc.reference_prices.map((r) => [r.id, r]));
  const refs = new Map<number, PartReferences>();
  for (const l of doc.items) {
    const r = l.catalogue.id === null ? undefined : byPart.get(l.catalogue.id);
    if (r) refs.set(l.line, r);
  }
  const rows: Record<string, string>[] = doc.items.map((l) => lineRow(l, refs, includeSuppliers, byId));
  // What check_bom says the set still needs: marked row_type "suggested", never priced, not in the total.
  for (const s of doc.suggested_lines) {
    const row: Record<string, string> = Object.fromEntries(columns.map((c) => [c, '']));
    row.row_type = 'suggested';
    row.id = s.kind;
    row.name = s.name;
    row.quantity = String(s.quantity);
    row.price_source = 'none';
    row.price_note = `suggested by check_bom (${s.source}) for line(s) ${s.for_lines.join(', ')}: not priced, not in the total. ${s.reason}`;
    const plate = s.print_suggestion ? byId.get(s.print_suggestion) : undefined;
    row.print_suggestions = plate ? printText(plate) : '';
    rows.push(row);
  }
  // One total row per currency (never summed across currencies); one empty total when nothing is priced.
  const groups = m.totals_by_currency;
  const partial = m.total_is_partial ? `partial: line(s) ${m.unpriced_lines.join(', ')} have no price and are excluded` : `all ${m.priced_lines} line(s) priced`;
  for (const g of groups) {
    const total: Record<string, string> = Object.fromEntries(columns.map((c) => [c, '']));
    total.row_type = 'total';
    total.quantity = String(doc.items.filter((l) => g.lines.includes(l.line)).reduce((acc, l) => acc + l.quantity, 0));
    total.line_total = g.total_text;
    total.currency = g.currency ?? '';
    total.price_note =
      groups.length > 1
        ? `${g.lines.length} line(s) priced in ${g.currency ?? 'a currency not stated'}, not summed with the other currencies; ${partial}`
        : `${partial}${g.currency === null ? '; currency not stated' : ''}`;
    rows.push(total);
  }
  if (groups.length === 0) {
    const total: Record<string, string> = Object.fromEntries(columns.map((c) => [c, '']));
    total.row_type = 'total';
    total.quantity = String(m.total_quantity);
    total.price_note = 'no line has a price: no total';
    rows.push(total);
  }
  const safe = rows.map((r) => columns.map((c) => (BOM_CSV_NUMERIC_COLUMNS.has(c) ? r[c] : neutraliseCell(r[c] ?? ''))));
  return csv().stringify(safe, {
    header: true,
    columns,
    bom: true,
    record_delimiter: 'windows',
    quoted_match: /[\r\n]/,
  });
}
