/**
 * Tables out of text: GitHub-flavoured Markdown pipe tables (with the nearest heading above
 * each) and delimited text (tab, comma or semicolon; RFC 4180 quoting). Cells are cleaned of
 * Markdown and HTML markup by exact rules (cleanCell). Never throws; linear in the input.
 */
export interface RawRow {
  line: number;
  cells: string[];
}

export interface RawTable {
  /** Line of the header row. */
  line: number;
  section: string | null;
  header: string[];
  rows: RawRow[];
}

export interface Cell {
  text: string;
  links: { label: string | null; url: string }[];
}

const HEADING_OPEN = /^ {0,3}#{1,6}(?:[ \t]+|$)/;

/** ATX heading text (closing #s removed), or null when the line is not a heading. Linear. */
function headingText(line: string): string | null {
  const m = HEADING_OPEN.exec(line);
  if (!m) return null;
  let rest = line.slice(m[0].length).trimEnd();
  let k = rest.length;
  while (k > 0 && rest[k - 1] === '#') k -= 1;
  if (k < rest.length && (k === 0 || rest[k - 1] === ' ' || rest[k - 1] === '\t')) rest = rest.slice(0, k).trimEnd();
  return rest;
}
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const DELIMITER_CELL = /^\s*:?-+:?\s*$/;

/** Splits a pipe-table line into raw cells: unescaped '|' separates; outer pipes are optional. */
export function splitPipeRow(line: string): string[] {
  const cells: string[] = [];
  let cur = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '\\' && line[i + 1] === '|') {
      cur += '\\|';
      i += 1;
    } else if (c === '|') {
      cells.push(cur);
      cur = '';
    } else cur += c;
  }
  cells.push(cur);
  if (cells.length > 1 && cells[0].trim() === '') cells.shift();
  if (cells.length > 1 && cells[cells.length - 1].trim() === '') cells.pop();
  return cells;
}

function hasPipe(line: string): boolean {
  return /(^|[^\\])\|/.test(line);
}

function isDelimiterRow(line: string): boolean {
  if (!hasPipe(line) || !line.includes('-')) return false;
  const cells = splitPipeRow(line);
  return cells.length > 0 && cells.every((c) => DELIMITER_CELL.test(c));
}

export function splitLines(text: string): string[] {
  return text.split(/\r\n|\n|\r/);
}

/** Every pipe table in a Markdown text, outside fenced code blocks. */
export function markdownTables(text: string): RawTable[] {
  const lines = splitLines(text);
  const tables: RawTable[] = [];
  let section: string | null = null;
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const f = FENCE.exec(line);
    if (fence !== null) {
      if (f && f[1][0] === fence[0] && f[1].length >= fence.length) fence = null;
      continue;
    }
    if (f) {
      fence = f[1];
      continue;
    }
    const h = headingText(line);
    if (h !== null) {
      section = cleanCell(h).text || null;
      continue;
    }
    if (i + 1 < lines.length && hasPipe(line) && isDelimiterRow(lines[i + 1])) {
      const table: RawTable = { line: i + 1, section, header: splitPipeRow(line), rows: [] };
      let j = i + 2;
      while (j < lines.length && lines[j].trim() !== '' && hasPipe(lines[j]) && !FENCE.test(lines[j])) {
        table.rows.push({ line: j + 1, cells: splitPipeRow(lines[j]) });
        j += 1;
      }
      tables.push(table);
      i = j - 1;
    }
  }
  return tables;
}

export type Delimiter = '\t' | ',' | ';';

/** The delimiter of the first non-blank line: tab when it has one, else the more frequent of ',' and ';'. */
export function detectDelimiter(text: string): Delimiter | null {
  const first = splitLines(text).find((l) => l.trim() !== '') ?? '';
  const unquoted = first.replace(/"[^"]*"/g, '');
  if (unquoted.includes('\t')) return '\t';
  const commas = (unquoted.match(/,/g) ?? []).length;
  const semis = (unquoted.match(/;/g) ?? []).length;
  if (commas === 0 && semis === 0) return null;
  return semis > commas ? ';' : ',';
}

/** Delimited text -> rows (RFC 4180 quoting; an unterminated quote runs to the end of the input). */
export function delimitedRows(text: string, delimiter: Delimiter): { rows: RawRow[]; unterminatedQuoteLine: number | null } {
  const rows: RawRow[] = [];
  let cells: string[] = [];
  let cur = '';
  let line = 1;
  let rowLine = 1;
  let inQuotes = false;
  let quoteLine = 0;
  let atFieldStart = true;
  const n = text.length;
  const endRow = () => {
    cells.push(cur);
    if (!(cells.length === 1 && cells[0].trim() === '')) rows.push({ line: rowLine, cells });
    cells = [];
    cur = '';
    atFieldStart = true;
  };
  for (let i = 0; i < n; i++) {
    const c = text[i];
    if (inQuotes) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          cur += '"';
          i += 1;
        } else inQuotes = false;
      } else {
        if (c === '\n' || (c === '\r' && text[i + 1] !== '\n')) line += 1;
        cur += c;
      }
      continue;
    }
    if (c === '"' && atFieldStart) {
      inQuotes = true;
      quoteLine = line;
      atFieldStart = false;
      continue;
    }
    if (c === delimiter) {
      cells.push(cur);
      cur = '';
      atFieldStart = true;
      continue;
    }
    if (c === '\r' || c === '\n') {
      if (c === '\r' && text[i + 1] === '\n') i += 1;
      endRow();
      line += 1;
      rowLine = line;
      continue;
    }
    cur += c;
    atFieldStart = false;
  }
  if (cur !== '' || cells.length > 0) endRow();
  return { rows, unterminatedQuoteLine: inQuotes ? quoteLine : null };
}

const HTML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };
const MD_ESCAPABLE = /[\\`*_{}[\]()#+\-.!|<>~]/;
const SUP_OPEN = /<sup\b[^<>]*>/iy;
const SUP_CLOSE = /<\/sup\s*>/gi;
const AUTOLINK = /<(https?:\/\/[^<>\s]+)>/iy;
const TAG = /<(\/?)([A-Za-z][A-Za-z0-9-]*)\b[^<>]*>/y;
const BARE_URL = /https?:\/\/[^\s<>|]+/iy;

/**
 * Markup removed by exact rules, the text otherwise as written:
 * <sup>…</sup> (footnote markers) dropped with their content; images dropped; other HTML tags
 * dropped, their text kept (<br> becomes a space); [label](url) becomes label, the absolute URL
 * is collected; bare and <autolinked> http(s) URLs are collected and removed; ** __ ~~ and code
 * backticks removed; backslash escapes resolved; HTML entities decoded; whitespace collapsed.
 * One left-to-right pass: linear in the cell, whatever it holds.
 */
export function cleanCell(raw: string): Cell {
  const links: Cell['links'] = [];
  const s = raw;
  const n = s.length;
  let out = '';
  let noSupClose = false;
  let noClose = false;
  let noParen = false;
  let failedCloseAt = -1;
  /** [label](url) starting at '[' position i: [end, label, url] or null. */
  const link = (i: number): [number, string, string] | null => {
    if (noClose || i < failedCloseAt) return null;
    const j = s.indexOf(']', i + 1);
    if (j < 0) {
      noClose = true;
      return null;
    }
    if (s[j + 1] !== '(' || noParen) {
      failedCloseAt = j;
      return null;
    }
    const k = s.indexOf(')', j + 2);
    if (k < 0) {
      noParen = true;
      failedCloseAt = j;
      return null;
    }
    const target = s.slice(j + 2, k).trim().split(/\s+/)[0] ?? '';
    return [k + 1, s.slice(i + 1, j), target.replace(/^<|>$/g, '')];
  };
  let i = 0;
  while (i < n) {
    const c = s[i];
    if (c === '\\' && i + 1 < n) {
      out += c + s[i + 1];
      i += 2;
      continue;
    }
    if (c === '<') {
      SUP_OPEN.lastIndex = i;
      if (!noSupClose && SUP_OPEN.test(s)) {
        SUP_CLOSE.lastIndex = SUP_OPEN.lastIndex;
        const m = SUP_CLOSE.exec(s);
        if (m) {
          i = SUP_CLOSE.lastIndex;
          continue;
        }
        noSupClose = true;
      }
      AUTOLINK.lastIndex = i;
      const a = AUTOLINK.exec(s);
      if (a) {
        links.push({ label: null, url: a[1] });
        i = AUTOLINK.lastIndex;
        continue;
      }
      TAG.lastIndex = i;
      const t = TAG.exec(s);
      if (t) {
        if (t[2].toLowerCase() === 'br') out += ' ';
        i = TAG.lastIndex;
        continue;
      }
    }
    if (c === '!' && s[i + 1] === '[') {
      const l = link(i + 1);
      if (l) {
        i = l[0];
        continue;
      }
    }
    if (c === '[') {
      const l = link(i);
      if (l) {
        const label = cleanCell(l[1]);
        links.push(...label.links);
        if (/^https?:\/\//i.test(l[2])) links.push({ label: label.text || null, url: l[2] });
        out += label.text;
        i = l[0];
        continue;
      }
    }
    if ((c === 'h' || c === 'H') && (i === 0 || /[\s(]/.test(s[i - 1]))) {
      BARE_URL.lastIndex = i;
      const u = BARE_URL.exec(s);
      if (u) {
        links.push({ label: null, url: u[0] });
        i = BARE_URL.lastIndex;
        continue;
      }
    }
    out += c;
    i += 1;
  }
  return { text: cleanInline(out), links };
}

function cleanInline(s: string): string {
  let out = s.replace(/\\(.)|\*\*|__|~~|`/g, (m, c: string | undefined) => (c === undefined ? '' : MD_ESCAPABLE.test(c) ? c : m));
  out = out.replace(/&(#x[0-9A-Fa-f]{1,6}|#[0-9]{1,7}|[A-Za-z]{2,6}|#39);/g, (m, ref: string) => {
    if (ref in HTML_ENTITIES) return HTML_ENTITIES[ref];
    if (ref[0] === '#') {
      const cp = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) ? String.fromCodePoint(cp) : m;
    }
    return m;
  });
  return out.replace(/\s+/g, ' ').trim();
}
