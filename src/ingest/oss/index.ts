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
import { assertInputSize, MAX_INPUT_BYTES, MAX_RECORDS, MAX_SKIPPED_LISTED, SkipLog } from './limits.js';
import { delimitedRows, detectDelimiter, markdownTables } from './table.js';
import { ExtractionResult, type ExtractorKind } from './types.js';
import type { XacroExpansion } from './xacro.js';
import { DomainError, invalidInput } from '../../domain/shared/errors.js';
import type { XacroInfo } from './types.js';
import { loadDescription, MalformedXml, type DescriptionInput } from './package.js';
import { extractUrdfDocument } from './urdf.js';
import { LintResult, LintSummary, lintUrdfDocument, malformedResult, withDecodeNotes } from './lint.js';
import { DECODE_NOTES, textNotes, type FileNotes } from './decode.js';
import { xmlErrorDetails } from './limits.js';
import { z } from 'zod';

export * from './types.js';
export { MAX_INPUT_BYTES, MAX_REQUEST_BYTES, MAX_RECORDS, MAX_SKIPPED_LISTED, assertInputSize } from './limits.js';
export { decodeText, DECODE_NOTES, textNotes, type Decoded, type DecodeNote, type FileNotes } from './decode.js';
export { extractUrdf } from './urdf.js';
export { expandXacroDocument, isXacroDocument, XacroError, XACRO_LIMITS } from './xacro.js';
export { PACKAGE_LIMITS, type UploadFile, type DescriptionInput } from './package.js';
export { MAX_XML_DEPTH, MAX_XML_ELEMENTS } from './xml.js';
export { LintResult, LintSummary } from './lint.js';
export { extractBomMarkdown } from './bom-md.js';
export { extractBomDelimited } from './bom-csv.js';

/** The kind of a text: urdf (a <robot> with joints or links), bom_md (a Markdown pipe table), bom_csv (a delimited BOM header); else null. */
export function detectKind(content: string): ExtractorKind | null {
  // XML (the first non-blank character is '<') with a <robot>: a URDF or xacro, malformed or not.
  if (/^\s*</.test(content) && /<robot[\s>/]/.test(content)) return 'urdf';
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

const EXTRACTORS: Record<'bom_md' | 'bom_csv', (text: string) => ExtractionResult> = {
  bom_md: extractBomMarkdown,
  bom_csv: extractBomDelimited,
};

/** Extracts one text. URDF and xacro are parsed first (malformed XML: invalid_input with line and column), a xacro then expanded. */
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
  if (k === 'urdf') return extractDescription(describe({ content: text }, field));
  return EXTRACTORS[k](text);
}

/** The description of an input, malformed XML refused with invalid_input naming the line and column. */
function describe(input: DescriptionInput, field: string): ReturnType<typeof loadDescription> {
  try {
    return loadDescription(input, field);
  } catch (err) {
    if (err instanceof MalformedXml) {
      const where = err.file !== undefined ? `${err.file}: ` : '';
      throw new DomainError('invalid_input', `${err.field}: ${where}not well-formed XML: ${err.message}`, xmlErrorDetails(err.xml, err.field, err.file));
    }
    throw err;
  }
}

function extractDescription(d: ReturnType<typeof loadDescription>): ExtractionResult {
  const r = extractUrdfDocument(d.root, d.withFiles);
  return { ...r, ...(d.package ? { package: d.package } : {}), ...(d.xacro ? { xacro: xacroInfo(d.xacro, d.package !== null) } : {}) };
}

export function xacroInfo(x: XacroExpansion, pkg = false): XacroInfo {
  return {
    expanded: true,
    properties: x.properties,
    macros: x.macros,
    macro_calls: x.macro_calls,
    includes: x.includes,
    args: x.args,
    note: `expanded by this project\'s xacro expander (properties, args, macros with block parameters, if/unless${pkg ? ', includes, $(find), load_yaml' : ''}); each line is the line of the element in the file it is written in${pkg ? ' (record.file)' : ''}${x.warnings.length ? `. Warnings: ${x.warnings.slice(0, 20).join('; ')}${x.warnings.length > 20 ? `; and ${x.warnings.length - 20} more` : ''}` : ''}`,
  };
}

// ---- The entry functions the tools call (plain, serialisable arguments and results) ----

export interface RobotInput {
  content?: string;
  kind?: ExtractorKind | 'auto';
  files?: { path: string; content: string }[];
  entry?: string;
  args?: Record<string, string>;
  /** An archive upload's encoding notes (the files' bytes were decoded: src/ingest/oss/decode.ts). */
  [DECODE_NOTES]?: FileNotes;
}

/**
 * The encoding notes of an input: an archive's (its bytes were decoded) or, for text that
 * arrived as characters, a declaration that was not applied and U+FFFD outside tags.
 */
function encodingNotes(input: RobotInput): { file?: string; note: import('./decode.js').DecodeNote }[] {
  const fromBytes = input[DECODE_NOTES];
  if (fromBytes) return fromBytes;
  if (input.content !== undefined) return textNotes(input.content).map((note) => ({ note }));
  return (input.files ?? []).filter((f) => /\.(xacro|urdf|xml)$/i.test(f.path)).flatMap((f) => textNotes(f.content).map((note) => ({ file: f.path, note })));
}

export const ExtractRobotPartsOutput = ExtractionResult.extend({
  detected: z.boolean(),
  lint: LintSummary.nullable().describe('urdf: lint_urdf summary'),
  limits: z.object({ max_input_bytes: z.number().int(), max_records: z.number().int(), max_skipped_listed: z.number().int() }).strict(),
});
export type ExtractRobotPartsOutput = z.infer<typeof ExtractRobotPartsOutput>;

function oneSource(input: RobotInput): void {
  if (input.files !== undefined && input.content !== undefined) throw invalidInput('content', 'send either content (one file) or files with entry (a package), not both');
  if (input.files === undefined && input.content === undefined) throw invalidInput('content', 'is required (or files with entry for a package)');
  if (input.files === undefined && input.entry !== undefined) throw invalidInput('entry', 'is only used with files');
}

/** extract_robot_parts: one file (content, kind) or a package (files, entry, args). */
export function extractRobotParts(input: RobotInput): ExtractRobotPartsOutput {
  oneSource(input);
  const kind = input.kind ?? 'auto';
  const limits = { max_input_bytes: MAX_INPUT_BYTES, max_records: MAX_RECORDS, max_skipped_listed: MAX_SKIPPED_LISTED };
  if (input.files !== undefined) {
    if (kind !== 'auto' && kind !== 'urdf') throw invalidInput('kind', 'a package (files) is a URDF / xacro description: use kind auto or urdf');
    const d = describe(input, 'files');
    return { ...extractDescription(d), detected: kind === 'auto', lint: withDecodeNotes(lintUrdfDocument(d.root, d.withFiles), encodingNotes(input)).summary, limits };
  }
  const content = input.content!;
  assertInputSize(content, 'content');
  const text = content.charCodeAt(0) === 0xfeff ? content.slice(1) : content;
  const k = kind === 'auto' && text.trim() !== '' ? detectKind(text) : kind;
  if (k === 'urdf') {
    const d = describe({ content: text, args: input.args }, 'content');
    return { ...extractDescription(d), detected: kind === 'auto', lint: withDecodeNotes(lintUrdfDocument(d.root, d.withFiles), encodingNotes(input)).summary, limits };
  }
  if (input.args !== undefined) throw invalidInput('args', 'xacro args apply to URDF / xacro input only');
  const result = extract(text, kind, 'content');
  if (result.kind === null) throw invalidInput('content', `${result.skipped[0]?.reason ?? 'not recognised'}; pass kind (urdf, bom_md or bom_csv) to force an extractor`);
  return { ...result, detected: kind === 'auto', lint: null, limits };
}

/** The parsed (xacro expanded) URDF document of one file (content) or a package (files, entry, args), for size_actuators. */
export function robotDescriptionRoot(input: RobotInput): ReturnType<typeof loadDescription>['root'] {
  oneSource(input);
  if (input.kind !== undefined && input.kind !== 'auto' && input.kind !== 'urdf') throw invalidInput('kind', 'sizing reads a URDF / xacro description: use kind auto or urdf');
  if (input.content !== undefined) {
    assertInputSize(input.content, 'content');
    const text = input.content.charCodeAt(0) === 0xfeff ? input.content.slice(1) : input.content;
    if (detectKind(text) !== 'urdf') throw invalidInput('content', 'is not a URDF or xacro description (<robot> with <link> and <joint>)');
    return describe({ content: text, args: input.args }, 'content').root;
  }
  return describe(input, 'files').root;
}

/** lint_urdf: one file (content) or a package (files, entry, args). Malformed XML is an xml_malformed finding with line and column. */
export function lintRobotDescription(input: RobotInput): LintResult {
  oneSource(input);
  if (input.content !== undefined) assertInputSize(input.content, 'content');
  try {
    const d = loadDescription(input, input.files ? 'files' : 'content');
    return withDecodeNotes(lintUrdfDocument(d.root, d.withFiles), encodingNotes(input));
  } catch (err) {
    if (err instanceof MalformedXml) return withDecodeNotes(malformedResult(err.xml, err.file), encodingNotes(input));
    throw err;
  }
}
