/**
 * Reads a JSON document of the shape `{ ..., "<key>": [ record, record, ... ], ... }` record by
 * record: the top-level members other than the array are parsed whole, each array element is
 * parsed from its own slice of the bytes and handed to `onRecord` at once.
 *
 * Why: `JSON.parse` of a 100 MB catalogue builds the whole text as one string and every record
 * as objects that live until the end of the parse, so they are promoted to the old generation
 * and the heap grows to several times the data it keeps. Parsing one record at a time leaves
 * only short-lived garbage (collected young) beside what the caller keeps.
 *
 * The result is the same as JSON.parse of the whole document: the scanner only finds where the
 * top-level members and the array elements begin and end (tracking strings, escapes and nesting);
 * each slice is parsed by JSON.parse itself. When the document is not of that shape (or not
 * valid JSON), `null` is returned and the caller parses it whole, which reports the error; a
 * record may then have been handed to `onRecord` already (the caller discards what it kept).
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/** Index just past the JSON string starting at `i` (a '"'), or -1 when it does not end. */
function skipString(buf: Buffer, i: number): number {
  for (let j = i + 1; j < buf.length; j++) {
    const b = buf[j];
    if (b === BACKSLASH) j++;
    else if (b === QUOTE) return j + 1;
  }
  return -1;
}

/** Index just past the JSON value starting at `i` (no leading space), or -1 when it does not end. */
function skipValue(buf: Buffer, i: number): number {
  const first = buf[i];
  if (first === QUOTE) return skipString(buf, i);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    // A number, true, false or null: up to the next delimiter.
    let j = i;
    while (j < buf.length && buf[j] !== COMMA && buf[j] !== CLOSE_BRACE && buf[j] !== CLOSE_BRACKET && !isSpace(buf[j]!)) j++;
    return j;
  }
  let depth = 0;
  for (let j = i; j < buf.length; j++) {
    const b = buf[j];
    if (b === QUOTE) {
      j = skipString(buf, j);
      if (j < 0) return -1;
      j--;
    } else if (b === OPEN_BRACE || b === OPEN_BRACKET) depth++;
    else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
      depth--;
      if (depth === 0) return j + 1;
    }
  }
  return -1;
}

function skipSpace(buf: Buffer, i: number): number {
  while (i < buf.length && isSpace(buf[i]!)) i++;
  return i;
}

/** A slice that JSON.parse refuses: the document is handed back to the caller's whole parse. */
class NotJson extends Error {}

function parseSlice(buf: Buffer, start: number, end: number): unknown {
  try {
    return JSON.parse(buf.toString('utf8', start, end));
  } catch {
    throw new NotJson();
  }
}

/**
 * Where the next record ends, found without walking its bytes. Records of a file written by one
 * program are separated alike: the bytes from the first record's closing brace through the second
 * record's first key ('},{"id":' or '},\n    {\n      "id":') are learned once, and each later
 * record is taken to end where that separator next occurs (Buffer.indexOf: native). The guess is
 * checked by JSON.parse itself: the slice starts where a value starts (outside any string, at
 * depth 0), so it parses only if it is exactly one whole value, i.e. only if the guess is the
 * record's real end (a guess inside a string leaves the string open; one inside a nested value
 * leaves a bracket open; one past the record leaves text after the value). A wrong guess (the
 * separator inside a record, a record of another shape, the last record) costs a failed parse of
 * that slice, and the byte scanner decides; when guesses keep failing they are no longer made.
 */
class BoundaryGuess {
  private sep: Buffer | null = null;
  private tried = 0;
  private failed = 0;
  /** The longest record so far: a guess much longer than that is not parsed (the last record would try the rest of the file). */
  private longest = 0;
  /** The parsed record of the last successful guess. */
  value: unknown = undefined;

  /** Learns the separator from the first record ([start, end)) and the second's start (`next`). */
  learn(buf: Buffer, start: number, end: number, next: number): void {
    this.longest = end - start;
    if (buf[end - 1] !== CLOSE_BRACE || buf[next] !== OPEN_BRACE) return;
    const key = skipSpace(buf, next + 1);
    if (buf[key] !== QUOTE) return;
    const keyEnd = skipString(buf, key);
    if (keyEnd < 0) return;
    const colon = skipSpace(buf, keyEnd);
    if (buf[colon] !== COLON) return;
    this.sep = Buffer.from(buf.subarray(end - 1, colon + 1));
  }

  /** The end of the record starting at `i` (its value in `this.value`), or -1: scan it. */
  end(buf: Buffer, i: number): number {
    if (this.sep === null) return -1;
    const at = buf.indexOf(this.sep, i + 1);
    const end = at + 1;
    if (at < 0 || end - i > Math.max(1 << 16, 8 * this.longest)) return -1;
    this.tried++;
    try {
      this.value = JSON.parse(buf.toString('utf8', i, end));
    } catch {
      if (++this.failed > 16 && this.failed * 4 > this.tried) this.sep = null;
      return -1;
    }
    if (end - i > this.longest) this.longest = end - i;
    return end;
  }
}

/** An array element: its parsed value, its index, and the bytes [start, end) it was parsed from. */
export type RecordCallback = (value: unknown, index: number, start: number, end: number) => void;

/**
 * The top-level members of the document except `key`, with the elements of its array given to
 * `onRecord` (parsed value, index, byte range) in order; null when the document is not an object holding
 * an array under `key` (the caller then parses it whole).
 */
export function readJsonRecords(buf: Buffer, key: string, onRecord: RecordCallback): Record<string, unknown> | null {
  try {
    return scan(buf, key, onRecord);
  } catch (err) {
    if (err instanceof NotJson) return null;
    throw err; // the caller's own error (a record it refused)
  }
}

function scan(buf: Buffer, key: string, onRecord: RecordCallback): Record<string, unknown> | null {
  let i = skipSpace(buf, 0);
  if (buf[i] !== OPEN_BRACE) return null;
  const members: Record<string, unknown> = {};
  let sawKey = false;
  i = skipSpace(buf, i + 1);
  if (buf[i] === CLOSE_BRACE) return null;
  for (;;) {
    if (buf[i] !== QUOTE) return null;
    const keyEnd = skipString(buf, i);
    if (keyEnd < 0) return null;
    const name = parseSlice(buf, i, keyEnd) as string;
    i = skipSpace(buf, keyEnd);
    if (buf[i] !== COLON) return null;
    i = skipSpace(buf, i + 1);
    if (name === key && buf[i] === OPEN_BRACKET && !sawKey) {
      sawKey = true;
      i = skipSpace(buf, i + 1);
      let n = 0;
      if (buf[i] !== CLOSE_BRACKET) {
        const guess = new BoundaryGuess();
        for (;;) {
          let end = guess.end(buf, i);
          let value: unknown;
          if (end >= 0) value = guess.value;
          else {
            end = skipValue(buf, i);
            if (end < 0) return null;
            value = parseSlice(buf, i, end);
          }
          onRecord(value, n++, i, end);
          const at = skipSpace(buf, end);
          if (buf[at] === COMMA) {
            const next = skipSpace(buf, at + 1);
            if (n === 1) guess.learn(buf, i, end, next);
            i = next;
            continue;
          }
          if (buf[at] === CLOSE_BRACKET) {
            i = at;
            break;
          }
          return null;
        }
      }
      i = skipSpace(buf, i + 1);
    } else {
      if (name === key) return null; // the key twice, or not an array: let JSON.parse decide
      const end = skipValue(buf, i);
      if (end < 0) return null;
      // An own property even for "__proto__", as JSON.parse makes it.
      Object.defineProperty(members, name, { value: parseSlice(buf, i, end), enumerable: true, writable: true, configurable: true });
      i = skipSpace(buf, end);
    }
    if (buf[i] === COMMA) {
      i = skipSpace(buf, i + 1);
      continue;
    }
    if (buf[i] === CLOSE_BRACE && skipSpace(buf, i + 1) === buf.length) break;
    return null;
  }
  return sawKey ? members : null;
}
