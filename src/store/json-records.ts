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
 * A file is read through a window (readJsonRecordsFile): a buffer of a megabyte or so, reused,
 * that moves along the file and grows only for a record larger than itself. The file is never
 * held whole. On the 2-core host, reading a 100 MB catalogue into one new buffer took 350-400 ms
 * (the kernel filling fresh pages) and scanning it another ~600 ms (memory that is not in cache);
 * through a 1 MB window the reads take ~13 ms and the scan ~30 ms.
 *
 * The result is the same as JSON.parse of the whole document: the scanner only finds where the
 * top-level members and the array elements begin and end (tracking strings, escapes and nesting);
 * each slice is parsed by JSON.parse itself. When the document is not of that shape (or not
 * valid JSON), `null` is returned and the caller parses it whole, which reports the error; a
 * record may then have been handed to `onRecord` already (the caller discards what it kept).
 */
import fs from 'node:fs';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/**
 * Thrown by the scanner when it needs bytes past the window (the file has more): the reader keeps
 * the bytes from the step's start, reads more, and runs the step again. One object, never an Error
 * (no stack is taken): it is thrown about once per window.
 */
const NEED_MORE = { needMore: true } as const;

/** The byte at i; -1 past the end of the document; NEED_MORE thrown past the window when the file has more. */
function byteAt(buf: Buffer, i: number, eof: boolean): number {
  if (i < buf.length) return buf[i]!;
  if (eof) return -1;
  throw NEED_MORE;
}

/** Index just past the JSON string starting at `i` (a '"'), or -1 when it does not end. */
function skipString(buf: Buffer, i: number, eof: boolean): number {
  for (let j = i + 1; j < buf.length; j++) {
    const b = buf[j];
    if (b === BACKSLASH) j++;
    else if (b === QUOTE) return j + 1;
  }
  if (eof) return -1;
  throw NEED_MORE;
}

/** Index just past the JSON value starting at `i` (no leading space), or -1 when it does not end. */
function skipValue(buf: Buffer, i: number, eof: boolean): number {
  const first = byteAt(buf, i, eof);
  if (first === QUOTE) return skipString(buf, i, eof);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    // A number, true, false or null: up to the next delimiter.
    let j = i;
    while (j < buf.length && buf[j] !== COMMA && buf[j] !== CLOSE_BRACE && buf[j] !== CLOSE_BRACKET && !isSpace(buf[j]!)) j++;
    if (j === buf.length && !eof) throw NEED_MORE;
    return j;
  }
  let depth = 0;
  for (let j = i; j < buf.length; j++) {
    const b = buf[j];
    if (b === QUOTE) {
      j = skipString(buf, j, eof);
      if (j < 0) return -1;
      j--;
    } else if (b === OPEN_BRACE || b === OPEN_BRACKET) depth++;
    else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
      depth--;
      if (depth === 0) return j + 1;
    }
  }
  if (eof) return -1;
  throw NEED_MORE;
}

function skipSpace(buf: Buffer, i: number, eof: boolean): number {
  while (i < buf.length && isSpace(buf[i]!)) i++;
  if (i === buf.length && !eof) throw NEED_MORE;
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

/** A record much longer than the longest so far is not guessed at (the last record would try the rest of the file). */
const guessLimit = (longest: number) => Math.max(1 << 16, 8 * longest);

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
  /** Where in `sep` the next record begins (its opening brace). */
  private sepRecord = 0;
  /** Whether learning was tried (once, on the first pair of records the window holds together). */
  learned = false;
  private tried = 0;
  private failed = 0;
  /** The longest record so far. */
  longest = 0;
  /** The parsed record of the last successful guess. */
  value: unknown = undefined;

  /** Learns the separator from a record ending at `end` and the next one's start (`next`). */
  learn(buf: Buffer, end: number, next: number): void {
    this.learned = true;
    if (buf[end - 1] !== CLOSE_BRACE || buf[next] !== OPEN_BRACE) return;
    // Within the window only (as at the document's end: nothing is learned from bytes not read yet).
    const key = skipSpace(buf, next + 1, true);
    if (buf[key] !== QUOTE) return;
    const keyEnd = skipString(buf, key, true);
    if (keyEnd < 0) return;
    const colon = skipSpace(buf, keyEnd, true);
    if (buf[colon] !== COLON) return;
    this.sep = Buffer.from(buf.subarray(end - 1, colon + 1));
    this.sepRecord = next - (end - 1);
  }

  /** The separator learned (while guesses are still made), and where in it the next record begins. */
  separator(): { bytes: Buffer; record: number } | null {
    return this.sep === null ? null : { bytes: this.sep, record: this.sepRecord };
  }

  /** The end of the record starting at `i` (its value in `this.value`), or -1: scan it. */
  end(buf: Buffer, i: number, eof: boolean): number {
    if (this.sep === null) return -1;
    const at = buf.indexOf(this.sep, i + 1);
    const limit = guessLimit(this.longest);
    if (at < 0) {
      // Not in the window: the record may end in the bytes not read yet (unless it is already too long to guess at).
      if (!eof && buf.length - i <= limit) throw NEED_MORE;
      return -1;
    }
    const end = at + 1;
    if (end - i > limit) return -1;
    this.tried++;
    try {
      this.value = JSON.parse(buf.toString('utf8', i, end));
    } catch {
      if (++this.failed > 16 && this.failed * 4 > this.tried) this.sep = null;
      return -1;
    }
    return end;
  }
}

/** An array element: its parsed value, its index, and the bytes [start, end) of the file it was parsed from. */
export type RecordCallback = (value: unknown, index: number, start: number, end: number) => void;

/**
 * The last records of a file read elsewhere (the search index's worker: readJsonRecordsTail) while
 * the scan reads the first ones. Once the scan has learned how records are separated, it looks for
 * that separator from byte `from` on and offers the record start it finds there (`start`); a guess,
 * since the separator's bytes may also occur inside a record. The scan then reads records up to
 * that byte and decides: when a record of the array starts exactly there, the guess was right and
 * `reached` hands back what the other reader found after it; when it passes that byte inside a
 * record (or the array ends before it, or the scan fails), `missed`, and the scan reads the rest
 * itself. The records of the tail are never handed to this scan's `onRecord`.
 */
export interface RecordSplit {
  /** The byte from which a record start is looked for. */
  readonly from: number;
  /** A record is guessed to start at byte `at`: whether its reading elsewhere has begun. */
  start(at: number): boolean;
  /**
   * A record of the array starts at the guessed byte: the document's members after the array as
   * the other reader found them; null when the rest is not of the shape (the caller parses the
   * file whole); 'here' when the rest is to be read by this scan after all.
   */
  reached(): Record<string, unknown> | null | 'here';
  /** The guessed byte is not where a record of the array starts: the rest is read by this scan. */
  missed(): void;
}

/** How many bytes from RecordSplit.from are looked through for the separator. */
const SPLIT_LOOK_BYTES = 1 << 18;

/** The bytes a scan reads: `view` holds the document's bytes [base, base + view.length). */
interface Source {
  view: Buffer;
  base: number;
  /** Whether the view reaches the end of the document. */
  eof: boolean;
  /** Drops the bytes before view index `keep`, reads more (growing the buffer when it cannot drop enough). */
  more(keep: number): void;
}

/**
 * The top-level members of the document except `key`, with the elements of its array given to
 * `onRecord` (parsed value, index, byte range) in order; null when the document is not an object holding
 * an array under `key` (the caller then parses it whole).
 */
export function readJsonRecords(buf: Buffer, key: string, onRecord: RecordCallback): Record<string, unknown> | null {
  return readFrom({ view: buf, base: 0, eof: true, more: () => {} }, key, onRecord);
}

/** The window's first size: records of a few kB each, a few hundred of them per read. */
export const RECORD_WINDOW_BYTES = 1 << 20;

/**
 * readJsonRecords of a file (a path, or a descriptor open for reading, left open), read through a
 * window of `windowBytes` (grown for a record larger than it) instead of whole. Byte ranges are the
 * file's.
 */
export function readJsonRecordsFile(
  file: string | number,
  key: string,
  onRecord: RecordCallback,
  windowBytes = RECORD_WINDOW_BYTES,
  split?: RecordSplit,
): Record<string, unknown> | null {
  const fd = typeof file === 'number' ? file : fs.openSync(file, 'r');
  try {
    return readFrom(fileSource(fd, windowBytes), key, onRecord, split ? { split: { split, fd } } : undefined);
  } finally {
    if (typeof file !== 'number') fs.closeSync(fd);
  }
}

/**
 * The records of the array under `key` from byte `from` of the file open at `fd` (left open), where
 * one of them starts (RecordSplit: a guess the reader of the first records checks), to the
 * document's end: each handed to `onRecord` with its index from there and its byte range in the
 * file; returns the document's members after the array, or null when the bytes from there are not
 * the rest of such a document (the caller then parses the file whole).
 */
export function readJsonRecordsTail(fd: number, key: string, from: number, onRecord: RecordCallback, windowBytes = RECORD_WINDOW_BYTES): Record<string, unknown> | null {
  return readFrom(fileSource(fd, windowBytes, from), key, onRecord, { tail: true });
}

/** A window over an open file from byte `from`. */
function fileSource(fd: number, windowBytes: number, from = 0): Source {
  let buf = Buffer.allocUnsafe(Math.max(16, windowBytes));
  let len = 0;
  const src: Source = {
    view: buf.subarray(0, 0),
    base: from,
    eof: false,
    more(keep: number) {
      if (keep > 0) {
        buf.copy(buf, 0, keep, len);
        src.base += keep;
        len -= keep;
      }
      // Less than a quarter free: the step needs more than the window holds; double it.
      if (buf.length - len < buf.length / 4) {
        const grown = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(grown, 0, 0, len);
        buf = grown;
      }
      const n = fs.readSync(fd, buf, len, buf.length - len, src.base + len);
      if (n === 0) src.eof = true;
      len += n;
      src.view = buf.subarray(0, len);
    },
  };
  src.more(0);
  return src;
}

/** How a scan starts: `tail`, at a record of the array (readJsonRecordsTail); `split`, with the tail read elsewhere (RecordSplit). */
interface ScanOptions {
  tail?: boolean;
  split?: { split: RecordSplit; fd: number };
}

function readFrom(src: Source, key: string, onRecord: RecordCallback, opts: ScanOptions = {}): Record<string, unknown> | null {
  const tail = new TailOffer(opts.split);
  try {
    return scan(src, key, onRecord, opts.tail === true, tail);
  } catch (err) {
    if (err instanceof NotJson) return null;
    throw err; // the caller's own error (a record it refused)
  } finally {
    // A scan that ends (or fails) before the tail's start: the tail is not this document's rest.
    tail.miss();
  }
}

/** A scan's RecordSplit: the tail offered once the separator is learned, then reached or missed. */
class TailOffer {
  /** Where the tail is guessed to start; NaN: not offered yet; -1: none (no split, or decided). */
  at: number;
  constructor(private readonly split?: { split: RecordSplit; fd: number }) {
    this.at = split ? Number.NaN : -1;
  }

  /** Offers the tail (the record at byte `next` is the next one the scan reads): once, after the separator is learned. */
  offer(sep: { bytes: Buffer; record: number } | null, next: number): void {
    const { split, fd } = this.split!;
    this.at = -1;
    if (sep === null || split.from <= next) return;
    const start = guessRecordStart(fd, split.from, sep);
    if (start > next && split.start(start)) this.at = start;
  }

  reached(): Record<string, unknown> | null | 'here' {
    this.at = -1;
    return this.split!.split.reached();
  }

  miss(): void {
    if (this.at >= 0) this.split!.split.missed();
    this.at = -1;
  }
}

/** Where the first `sep` at or after byte `from` of the file puts a record's start (sep.record bytes into it), or -1. */
function guessRecordStart(fd: number, from: number, sep: { bytes: Buffer; record: number }): number {
  const buf = Buffer.allocUnsafe(SPLIT_LOOK_BYTES);
  const n = fs.readSync(fd, buf, 0, buf.length, from);
  const at = buf.subarray(0, n).indexOf(sep.bytes);
  return at < 0 ? -1 : from + at + sep.record;
}

const START = 0;
const KEY = 1;
const ELEMENT = 2;
const AFTER_ELEMENT = 3;
const AFTER_MEMBER = 4;

/**
 * The scan, as steps that each start at the committed index `i` and commit only once they have
 * all the bytes they need: a step that runs past the window throws NEED_MORE before it commits,
 * and runs again from `i` on the window moved on.
 */
function scan(src: Source, key: string, onRecord: RecordCallback, fromElement: boolean, tail: TailOffer): Record<string, unknown> | null {
  const members: Record<string, unknown> = {};
  const guess = new BoundaryGuess();
  let sawKey = fromElement;
  let step = fromElement ? ELEMENT : START;
  let i = 0;
  let n = 0;
  /** The view index just past the last record handed on (-1: not in the window), for learning the separator. */
  let lastEnd = -1;
  for (;;) {
    const buf = src.view;
    const eof = src.eof;
    try {
      switch (step) {
        case START: {
          const open = skipSpace(buf, i, eof);
          if (byteAt(buf, open, eof) !== OPEN_BRACE) return null;
          const first = skipSpace(buf, open + 1, eof);
          if (byteAt(buf, first, eof) === CLOSE_BRACE) return null;
          i = first;
          step = KEY;
          break;
        }
        case KEY: {
          if (byteAt(buf, i, eof) !== QUOTE) return null;
          const keyEnd = skipString(buf, i, eof);
          if (keyEnd < 0) return null;
          const name = parseSlice(buf, i, keyEnd) as string;
          const colon = skipSpace(buf, keyEnd, eof);
          if (byteAt(buf, colon, eof) !== COLON) return null;
          const value = skipSpace(buf, colon + 1, eof);
          if (name === key && byteAt(buf, value, eof) === OPEN_BRACKET && !sawKey) {
            const first = skipSpace(buf, value + 1, eof);
            const empty = byteAt(buf, first, eof) === CLOSE_BRACKET;
            sawKey = true;
            i = first;
            step = empty ? AFTER_ELEMENT : ELEMENT;
            break;
          }
          if (name === key) return null; // the key twice, or not an array: let JSON.parse decide
          const end = skipValue(buf, value, eof);
          if (end < 0) return null;
          const after = skipSpace(buf, end, eof);
          // An own property even for "__proto__", as JSON.parse makes it.
          Object.defineProperty(members, name, { value: parseSlice(buf, value, end), enumerable: true, writable: true, configurable: true });
          i = after;
          step = AFTER_MEMBER;
          break;
        }
        case ELEMENT: {
          let end = guess.end(buf, i, eof);
          let value: unknown;
          if (end >= 0) value = guess.value;
          else {
            end = skipValue(buf, i, eof);
            if (end < 0) return null;
            value = parseSlice(buf, i, end);
          }
          const after = skipSpace(buf, end, eof);
          const b = byteAt(buf, after, eof);
          if (b !== COMMA && b !== CLOSE_BRACKET) return null;
          onRecord(value, n++, src.base + i, src.base + end);
          if (end - i > guess.longest) guess.longest = end - i;
          lastEnd = end;
          i = after;
          step = AFTER_ELEMENT;
          break;
        }
        case AFTER_ELEMENT: {
          if (buf[i] === COMMA) {
            const next = skipSpace(buf, i + 1, eof);
            if (!guess.learned && lastEnd > 0) guess.learn(buf, lastEnd, next);
            if (Number.isNaN(tail.at) && guess.learned) tail.offer(guess.separator(), src.base + next);
            if (tail.at >= 0 && src.base + next >= tail.at) {
              if (src.base + next !== tail.at) tail.miss();
              else {
                // The first records read here, the rest read elsewhere.
                const rest = tail.reached();
                if (rest === null) return null;
                if (rest !== 'here') {
                  // Members after the array, as JSON.parse takes them (a later one of the same name wins).
                  for (const name of Object.keys(rest)) Object.defineProperty(members, name, { value: rest[name], enumerable: true, writable: true, configurable: true });
                  return members;
                }
              }
            }
            i = next;
            step = ELEMENT;
            break;
          }
          // The array's closing bracket (an element's step has seen one of the two).
          tail.miss();
          i = skipSpace(buf, i + 1, eof);
          step = AFTER_MEMBER;
          break;
        }
        case AFTER_MEMBER: {
          const b = byteAt(buf, i, eof);
          if (b === COMMA) {
            i = skipSpace(buf, i + 1, eof);
            step = KEY;
            break;
          }
          if (b !== CLOSE_BRACE) return null;
          // Nothing but space after the document.
          if (skipSpace(buf, i + 1, eof) !== buf.length) return null;
          return sawKey ? members : null;
        }
      }
    } catch (err) {
      if (err !== NEED_MORE) throw err;
      const keep = i;
      src.more(keep);
      lastEnd = lastEnd - keep > 0 ? lastEnd - keep : -1;
      i = 0;
    }
  }
}
