/**
 * Bytes of a robot file -> text (issue 44). The encoding is read from the byte-order mark, else
 * from the XML declaration (`<?xml version="1.0" encoding="ISO-8859-1"?>`, honoured as the XML
 * rules say: ISO-8859-1 is read as Latin-1, any label the WHATWG decoder knows as that encoding),
 * else from the byte pattern (UTF-16 without a mark), else UTF-8. What ROS tools would do
 * differently is never silent: each such case is a note, which lint_urdf and extract_robot_parts
 * report as a finding with check_urdf's verdict, measured with Debian's check_urdf (urdfdom on
 * TinyXML) on test-written files (test/oss/encodings.test.ts):
 *
 * - UTF-16 (mark or pattern): decoded so the file can be checked, with an `encoding` error:
 *   check_urdf refuses it ("Error document empty" with a mark, no <robot> element without).
 * - A declared encoding this decoder does not know: read as UTF-8, an `encoding` warning; check_urdf
 *   reads any declared non-UTF-8 file's bytes as they are (TinyXML's legacy mode) and accepts it.
 * - Bytes that are not valid in the encoding read (undeclared ISO-8859-1 read as UTF-8): replaced by
 *   U+FFFD, a `replacement_character` finding naming the first line; check_urdf refuses invalid
 *   UTF-8 inside a tag (an attribute value) and accepts it in text or comments.
 *
 * Text that arrives as characters (MCP `content`, JSON `files`) has no bytes to decode: a
 * declaration there is not applied (see textNotes).
 */
export type TextEncodingName = string;

/**
 * The encoding notes of an archive upload's files, carried on the tool's arguments under this
 * symbol (outside the validated schema: set again after validation, src/tools/offload.ts).
 */
export const DECODE_NOTES: unique symbol = Symbol.for('robot-parts-mcp.decode-notes') as never;
export type FileNotes = { file: string; note: DecodeNote }[];

/** Something about the encoding that lint and extract report as a finding. */
export interface DecodeNote {
  code: 'encoding' | 'replacement_character';
  severity: 'error' | 'warning';
  check_urdf: 'refuses' | 'warns' | 'accepts';
  line: number | null;
  message: string;
  fix: string;
}

export interface Decoded {
  text: string;
  /** The encoding the bytes were read as (WHATWG name, or 'iso-8859-1' for true Latin-1). */
  encoding: TextEncodingName;
  /** Whether the file starts with a byte-order mark. */
  bom: boolean;
  /** The encoding the XML declaration names, as written (null: none). */
  declared: string | null;
  /** Invalid byte sequences replaced by U+FFFD (counted, never guessed). */
  replaced: number;
  /** What ROS tools would do differently (empty for plain UTF-8). */
  notes: DecodeNote[];
}

/** The encoding named by an XML declaration at the start of ASCII-compatible text (or bytes read as Latin-1). */
const DECLARED = /^\s*<\?xml\s[^>]*?\bencoding\s*=\s*["']([A-Za-z][A-Za-z0-9._:-]{0,39})["']/;
const LATIN1 = /^(iso[-_]?8859[-_]1|latin[-_]?1|l1|iso[-_]ir[-_]100|cp819|ibm819)$/i;
const UTF8 = /^(utf[-_]?8|unicode-1-1-utf-8)$/i;
const ASCII = /^(us[-_]?ascii|ascii|ansi_x3\.4-1968)$/i;
const UTF16 = /^(utf[-_]?16([-_]?(le|be))?|ucs[-_]?2)$/i;

const lineAt = (text: string, index: number): number => {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line += 1;
  return line;
};

/** Whether text[index] lies inside a tag (an attribute value) rather than in text or a comment. */
function insideTag(text: string, index: number): boolean {
  const lt = text.lastIndexOf('<', index);
  const gt = text.lastIndexOf('>', index);
  return lt > gt && !text.startsWith('<!--', lt);
}

function replacementNote(text: string, replaced: number, readAs: string): DecodeNote {
  const at = text.indexOf('\uFFFD');
  const inTag = insideTag(text, at);
  return {
    code: 'replacement_character',
    severity: inTag ? 'error' : 'warning',
    check_urdf: inTag ? 'refuses' : 'accepts',
    line: lineAt(text, at),
    message: `${replaced} byte sequence(s) are not valid ${readAs} and were replaced by U+FFFD (first at line ${lineAt(text, at)}${inTag ? ', inside a tag' : ''})${readAs === 'UTF-8' ? ': the file is likely ISO-8859-1 or Windows-1252 without an encoding declaration' : ''}`,
    fix: 'save the file as UTF-8, or declare the encoding it is in: <?xml version="1.0" encoding="ISO-8859-1"?>',
  };
}

function utf16Note(encoding: string, bom: boolean): DecodeNote {
  return {
    code: 'encoding',
    severity: 'error',
    check_urdf: 'refuses',
    line: null,
    message: `the file is ${encoding.toUpperCase()}${bom ? ' (byte-order mark)' : ' (no byte-order mark, read from the byte pattern)'}: decoded here to check it, but ROS tools (urdfdom's check_urdf, xacro, robot_state_publisher) cannot read UTF-16`,
    fix: 'save the file as UTF-8 (and write encoding="UTF-8" or no encoding in its XML declaration)',
  };
}

/** Windows-1252's 0x80-0x9F (WHATWG; the five unassigned bytes stay the C1 controls). Node 20's TextDecoder reads them as Latin-1. */
const CP1252_HIGH = '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

function run(bytes: Uint8Array, encoding: string, skip: number): { text: string; replaced: number } {
  const body = bytes.subarray(skip);
  const latin1 = () => Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('latin1');
  if (encoding === 'iso-8859-1') return { text: latin1(), replaced: 0 };
  if (encoding === 'windows-1252') return { text: latin1().replace(/[\u0080-\u009f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]!), replaced: 0 };
  try {
    return { text: new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(body), replaced: 0 };
  } catch {
    const text = new TextDecoder(encoding, { fatal: false, ignoreBOM: true }).decode(body);
    let replaced = 0;
    for (const ch of text) if (ch === '\uFFFD') replaced += 1;
    return { text, replaced };
  }
}

function declaredIn(text: string): string | null {
  return DECLARED.exec(text.slice(0, 400))?.[1] ?? null;
}

function utf16(bytes: Uint8Array, encoding: 'utf-16le' | 'utf-16be', bom: boolean): Decoded {
  const { text, replaced } = run(bytes, encoding, bom ? 2 : 0);
  const notes = [utf16Note(encoding, bom)];
  if (replaced > 0) notes.push(replacementNote(text, replaced, encoding.toUpperCase()));
  return { text, encoding, bom, declared: declaredIn(text), replaced, notes };
}

export function decodeText(bytes: Uint8Array): Decoded {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return utf16(bytes, 'utf-16le', true);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return utf16(bytes, 'utf-16be', true);
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  if (!bom) {
    // No BOM: UTF-16 text of mostly ASCII has a zero in every other byte.
    const n = Math.min(bytes.length, 1024) & ~1;
    if (n >= 4) {
      let evenZero = 0;
      let oddZero = 0;
      for (let i = 0; i < n; i += 2) {
        if (bytes[i] === 0) evenZero += 1;
        if (bytes[i + 1] === 0) oddZero += 1;
      }
      const half = n / 2;
      if (oddZero >= half * 0.4 && evenZero === 0) return utf16(bytes, 'utf-16le', false);
      if (evenZero >= half * 0.4 && oddZero === 0) return utf16(bytes, 'utf-16be', false);
    }
  }
  // The declaration is ASCII in every encoding this branch reads: look for it in the raw bytes.
  const head = bytes.subarray(bom ? 3 : 0, Math.min(bytes.length, 403));
  const declared = declaredIn(Buffer.from(head.buffer, head.byteOffset, head.byteLength).toString('latin1'));
  const notes: DecodeNote[] = [];
  let encoding = 'utf-8';
  if (declared !== null && !bom && !UTF8.test(declared) && !ASCII.test(declared)) {
    if (LATIN1.test(declared)) encoding = 'iso-8859-1';
    else if (UTF16.test(declared)) {
      notes.push({ code: 'encoding', severity: 'warning', check_urdf: 'accepts', line: 1, message: `the declaration says ${declared}, but the bytes are not UTF-16 (no byte-order mark, no zero bytes): read as UTF-8`, fix: 'write encoding="UTF-8" in the XML declaration' });
    } else {
      let known: string | null = null;
      try {
        known = new TextDecoder(declared).encoding;
      } catch {
        known = null;
      }
      if (known === null || known === 'utf-16le' || known === 'utf-16be') {
        notes.push({ code: 'encoding', severity: 'warning', check_urdf: 'accepts', line: 1, message: `the declared encoding "${declared}" is not one this server decodes: the file was read as UTF-8 (check_urdf reads its bytes as they are)`, fix: 'save the file as UTF-8 and write encoding="UTF-8" in the XML declaration' });
      } else encoding = known;
    }
  }
  const { text, replaced } = run(bytes, encoding, bom ? 3 : 0);
  if (replaced > 0) notes.push(replacementNote(text, replaced, encoding === 'utf-8' ? 'UTF-8' : (declared ?? encoding)));
  return { text, encoding, bom, declared, replaced, notes };
}

/**
 * Notes on text that arrived as characters (MCP content, JSON files): no bytes were decoded, so an
 * XML declaration naming another encoding is not applied; it is reported, because a file saved from
 * this text must be saved in the encoding it declares. U+FFFD outside tags (in text or comments:
 * lint reports those in attribute values itself) is reported too.
 */
export function textNotes(text: string): DecodeNote[] {
  const notes: DecodeNote[] = [];
  const declared = declaredIn(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  if (declared !== null && !UTF8.test(declared) && !ASCII.test(declared)) {
    const u16 = UTF16.test(declared);
    notes.push({
      code: 'encoding',
      severity: 'warning',
      check_urdf: u16 ? 'refuses' : 'accepts',
      line: 1,
      message: `the declaration says ${declared}; this text arrived as characters (JSON), so nothing was decoded and the declaration was not applied${u16 ? ': a file saved as UTF-16, as it declares, cannot be read by ROS tools' : `: a file saved from it must be saved as ${declared}`}`,
      fix: 'write encoding="UTF-8" in the XML declaration (and save the file as UTF-8), or upload the file\'s bytes as an archive',
    });
  }
  let outside = 0;
  let first = -1;
  for (let i = text.indexOf('\uFFFD'); i >= 0; i = text.indexOf('\uFFFD', i + 1)) {
    if (insideTag(text, i)) continue;
    outside += 1;
    if (first < 0) first = i;
  }
  if (outside > 0) {
    notes.push({
      code: 'replacement_character',
      severity: 'warning',
      check_urdf: 'accepts',
      line: lineAt(text, first),
      message: `${outside} U+FFFD replacement character(s) in text or comments (first at line ${lineAt(text, first)}): the text was decoded with the wrong encoding before it was sent`,
      fix: 'decode the file with the encoding it is in (its XML declaration) before sending it, or upload its bytes as an archive',
    });
  }
  return notes;
}
