/**
 * bom_csv extractor: a BOM as delimited text (tab, comma or semicolon separated, whatever the
 * file name says), first row the header. Decode bytes with decodeText() first. Pure.
 */
import { classifyColumns, columnRoles, documentCurrency, ignoredColumns, isBomTable, plainCell, readBomRows } from './bom.js';
import { excerpt, SkipLog } from './limits.js';
import { delimitedRows, detectDelimiter } from './table.js';
import type { BomItemRecord, BomTableInfo, ExtractionResult } from './types.js';

export function extractBomDelimited(text: string): ExtractionResult {
  const skipped = new SkipLog();
  const records: BomItemRecord[] = [];
  const counts = { records: 0, skipped: 0, tables: 0, bom_tables: 0, rows: 0 };
  const infos: BomTableInfo[] = [];
  const delimiter = detectDelimiter(text);
  if (delimiter === null) {
    skipped.add('not_recognised', 'input', null, 'the first line has no tab, comma or semicolon: not delimited text');
  } else {
    const { rows, unterminatedQuoteLine } = delimitedRows(text, delimiter);
    if (unterminatedQuoteLine !== null) skipped.add('tag_malformed', 'input', unterminatedQuoteLine, 'a quoted field is never closed; it runs to the end of the input');
    const [header, ...data] = rows;
    if (header) {
      counts.tables = 1;
      const cols = classifyColumns(header.cells);
      if (!isBomTable(cols)) {
        skipped.add('table_not_bom', 'table', header.line, `header ${excerpt(cols.map((c) => c.header).join(' | '), 80)} has no item column with a quantity or price column`);
      } else {
        counts.bom_tables = 1;
        const docCurrency = documentCurrency(text);
        const info: BomTableInfo = { table: 1, line: header.line, section: null, columns: columnRoles(cols), ignored_columns: ignoredColumns(cols), document_currency: docCurrency };
        infos.push(info);
        counts.rows = readBomRows(cols, data, { extractor: 'bom_csv', cell: plainCell, table: 1, section: null, records, skipped, documentCurrency: docCurrency, info });
      }
    }
  }
  return { kind: 'bom_csv', robot_name: null, records, counts: { ...counts, records: records.length, skipped: skipped.total }, bom_tables: infos, skipped: skipped.listed };
}
