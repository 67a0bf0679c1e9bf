/**
 * The open-source-layer extractors (pure: no MCP, HTTP or file access).
 *
 *   extract(content, kind = 'auto') -> ExtractionResult
 *
 * Never throws on any input within MAX_INPUT_BYTES (2 MiB of UTF-8); larger input throws
 * DomainError payload_too_large naming the field. What does not read exactly is skipped and
 * reported with a reason code, never guessed.
 */
import { classifyColumns, isBomTable } from './bom.js';
import { extractBomDelimited } from './bom-csv.js';
import { extractBomMarkdown } from './bom-md.js';
import { assertInputSize, SkipLog } from './limits.js';
import { delimitedRows, detectDelimiter, markdownTables } from './table.js';
import type { ExtractionResult, ExtractorKind } from './types.js';
import { extractUrdf } from './urdf.js';

export * from './types.js';
export { MAX_INPUT_BYTES, MAX_REQUEST_BYTES, MAX_RECORDS, MAX_SKIPPED_LISTED, assertInputSize } from './limits.js';
export { decodeText, type Decoded } from './decode.js';
export { extractUrdf } from './urdf.js';
export { extractBomMarkdown } from './bom-md.js';
export { extractBomDelimited } from './bom-csv.js';

/** The kind of a text: urdf (a <robot> with joints or links), bom_md (a Markdown pipe table), bom_csv (a delimited BOM header); else null. */
export function detectKind(content: string): ExtractorKind | null {
  if (/<robot[\s>]/.test(content) && /<(joint|link)[\s>/]/.test(content)) return 'urdf';
  if (markdownTables(content).length > 0) return 'bom_md';
  const d = detectDelimiter(content);
  if (d !== null) {
    const firstLines = content.slice(0, 64 * 1024);
    const [header] = delimitedRows(firstLines, d).rows;
    if (header && isBomTable(classifyColumns(header.cells))) return 'bom_csv';
  }
  return null;
}

const EXTRACTORS: Record<ExtractorKind, (text: string) => ExtractionResult> = {
  urdf: extractUrdf,
  bom_md: extractBomMarkdown,
  bom_csv: extractBomDelimited,
};

export function extract(content: string, kind: ExtractorKind | 'auto' = 'auto', field = 'content'): ExtractionResult {
  assertInputSize(content, field);
  const text = content.charCodeAt(0) === 0xfeff ? content.slice(1) : content;
  const empty = (k: ExtractorKind | null, code: 'input_empty' | 'not_recognised', reason: string): ExtractionResult => {
    const skipped = new SkipLog();
    skipped.add(code, 'input', null, reason);
    return { kind: k, robot_name: null, records: [], counts: { records: 0, skipped: 1 }, skipped: skipped.listed };
  };
  if (text.trim() === '') return empty(kind === 'auto' ? null : kind, 'input_empty', 'the input is empty or whitespace only');
  const k = kind === 'auto' ? detectKind(text) : kind;
  if (k === null) return empty(null, 'not_recognised', 'not recognised as URDF (<robot> with <joint>/<link>), a Markdown pipe table, or a delimited BOM with an item and a quantity or price column');
  return EXTRACTORS[k](text);
}
