/** bom_md extractor: the BOM tables of a Markdown text (a BOM file or a README). Pure. */
import { classifyColumns, columnRoles, documentCurrency, ignoredColumns, isBomTable, readBomRows } from './bom.js';
import { excerpt, SkipLog } from './limits.js';
import { cleanCell, markdownTables } from './table.js';
import type { BomItemRecord, BomTableInfo, ExtractionResult } from './types.js';

export function extractBomMarkdown(text: string): ExtractionResult {
  const skipped = new SkipLog();
  const records: BomItemRecord[] = [];
  const tables = markdownTables(text);
  let bomTables = 0;
  let rows = 0;
  const infos: BomTableInfo[] = [];
  const docCurrency = documentCurrency(text);
  for (const t of tables) {
    const cols = classifyColumns(t.header);
    if (!isBomTable(cols)) {
      skipped.add('table_not_bom', 'table', t.line, `table with columns ${excerpt(cols.map((c) => c.header).join(' | '), 80)} has no item column with a quantity or price column`);
      continue;
    }
    bomTables += 1;
    const info: BomTableInfo = { table: bomTables, line: t.line, section: t.section, columns: columnRoles(cols), ignored_columns: ignoredColumns(cols), document_currency: docCurrency };
    infos.push(info);
    rows += readBomRows(cols, t.rows, { extractor: 'bom_md', cell: cleanCell, table: bomTables, section: t.section, records, skipped, documentCurrency: docCurrency, info });
  }
  if (tables.length === 0) skipped.add('not_recognised', 'input', null, 'no Markdown pipe table (header row followed by a |---| delimiter row) found');
  return { kind: 'bom_md', robot_name: null, records, counts: { records: records.length, skipped: skipped.total, tables: tables.length, bom_tables: bomTables, rows }, bom_tables: infos, skipped: skipped.listed };
}
