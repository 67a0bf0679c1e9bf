/**
 * The JSON of tool outputs, as text (the MCP text block) and as UTF-8 bytes (REST answers),
 * prepared once per frozen object. The catalogue snapshot (src/store/memory-catalogue.ts) is
 * deep-frozen and its views (src/domain/catalogue/views.ts) are frozen too, so the JSON and bytes of a
 * record, a listing page or a search hit's summary are computed the first time they are asked for
 * and kept (WeakMaps keyed by the frozen object: memoisation, not state; an object that is not
 * frozen is serialised afresh every time, since it could change). Every answer is byte for byte
 * JSON.stringify's.
 *
 * Wire code: used by src/tools/text.ts and src/http/rest.ts; the domain hands out plain data.
 */
import { hitSummary, isSearchHit } from '../domain/catalogue/views.js';

const jsonOf = new WeakMap<object, string>();

/** JSON.stringify(o), once per frozen object (objects from this module and the snapshot are frozen all the way down). */
export function preparedJson(o: object): string {
  let s = jsonOf.get(o);
  if (s === undefined) {
    s = JSON.stringify(o);
    if (Object.isFrozen(o)) jsonOf.set(o, s);
  }
  return s;
}

/**
 * A hit's link members as JSON text (`,"detail_url":...` and `,"page_url":...`, each when present)
 * and the same escaped: kept per record for the URLs last seen (a server gives each record one of
 * each; their bytes are kept with the summary's, HitWire).
 */
interface UrlEntry {
  detail: string | undefined;
  page: string | undefined;
  json: string;
  escaped?: string;
}
const urlOf = new WeakMap<object, UrlEntry>();

/**
 * The link members of hit h (null when it has none), kept with its (frozen) summary e: made again
 * when its URLs change. The URLs are compared as strings (equal strings from preparedLinks' cache are
 * the same string, so the comparison is one pointer check), never joined into a key per hit.
 */
function urlEntry(e: object, h: Record<string, unknown>): UrlEntry | null {
  const detail = h.detail_url as string | undefined;
  const page = h.page_url as string | undefined;
  if (detail === undefined && page === undefined) return null;
  let u = urlOf.get(e);
  if (u === undefined || u.detail !== detail || u.page !== page) {
    u = { detail, page, json: (detail === undefined ? '' : KEY_URL + JSON.stringify(detail)) + (page === undefined ? '' : KEY_PAGE + JSON.stringify(page)) };
    if (Object.isFrozen(e)) urlOf.set(e, u);
  }
  return u;
}

const arrayBytesOf = new WeakMap<readonly unknown[], Buffer>();
const bytesOf = new WeakMap<object, Buffer>();

/** A search hit (frozen when made) or another frozen non-array object: its JSON can be prepared. */
const isFrozenObject = (x: unknown) => x !== null && typeof x === 'object' && (isSearchHit(x) || (!Array.isArray(x) && Object.isFrozen(x)));

const KEY_SCORE = ',"relevance_score":';
const KEY_FIELDS = ',"matched_fields":';
const KEY_URL = ',"detail_url":';
const KEY_PAGE = ',"page_url":';
const KEY_SPECS = ',"specs":';

/** The members a hit adds after its summary's, as JSON.stringify writes them (each preceded by ','). */
function hitTail(h: Record<string, unknown>, summary: object): string {
  const fields = h.matched_fields as object;
  let out = KEY_SCORE + JSON.stringify(h.relevance_score) + KEY_FIELDS + preparedJson(fields);
  const u = urlEntry(summary, h);
  if (u !== null) out += u.json;
  if (h.specs !== undefined) out += KEY_SPECS + JSON.stringify(h.specs);
  return out;
}

const KEY_SCORE_ESCAPED = escapeJsonText(KEY_SCORE);
const KEY_FIELDS_ESCAPED = escapeJsonText(KEY_FIELDS);

/** escapeJsonText(hitTail(h, summary)), from the escaped field list and URL kept with them (a number's JSON has nothing to escape). */
function hitTailEscaped(h: Record<string, unknown>, summary: object): string {
  let out = KEY_SCORE_ESCAPED + JSON.stringify(h.relevance_score) + KEY_FIELDS_ESCAPED + escapedJson(h.matched_fields as object);
  const u = urlEntry(summary, h);
  if (u !== null) out += u.escaped ??= escapeJsonText(u.json);
  if (h.specs !== undefined) out += escapeJsonText(KEY_SPECS + JSON.stringify(h.specs));
  return out;
}

const SCORE_KEY = Buffer.from(KEY_SCORE, 'latin1');
/** '{' and the score key without its ',': the start of a hit whose summary is '{}'. */
const EMPTY_HEAD = Buffer.from(`{${KEY_SCORE.slice(1)}`, 'latin1');

/**
 * A hit summary's bytes around a hit's own members, kept per (frozen) summary: `head`, its JSON
 * without the closing '}' and then `,"relevance_score":`; `links`, the `,"detail_url":...` and
 * `,"page_url":...` members (those present), made again when its URLs change (a server gives each
 * record one of each). One entry per summary: a page of hits reads one kept object per hit, not
 * one per piece (each read of a cold object costs more than the copy it leads to).
 */
interface HitWire {
  head: Buffer;
  detail: string | undefined;
  page: string | undefined;
  links: Buffer;
}
const hitWireOf = new WeakMap<object, HitWire>();
const NO_BYTES = Buffer.alloc(0);

function hitWire(summary: object, h: Record<string, unknown>): HitWire {
  const detail = h.detail_url as string | undefined;
  const page = h.page_url as string | undefined;
  let w = hitWireOf.get(summary);
  if (w === undefined || w.detail !== detail || w.page !== page) {
    const u = urlEntry(summary, h);
    let head = w?.head;
    if (head === undefined) {
      const base = frozenBytes(summary);
      head = base.length === 2 ? EMPTY_HEAD : Buffer.concat([base.subarray(0, base.length - 1), SCORE_KEY]);
    }
    w = { head, detail, page, links: u === null ? NO_BYTES : Buffer.from(u.json, 'utf8') };
    hitWireOf.set(summary, w);
  }
  return w;
}

const fieldsBytesOf = new WeakMap<object, Buffer>();

/** The field list last asked for and its bytes (consecutive hits often share one). */
let lastFields: object | null = null;
let lastFieldsBytes: Buffer = Buffer.alloc(0);

/** `,"matched_fields":<JSON>` as bytes, once per frozen field list (a search has a handful). */
function fieldsBytes(fields: object): Buffer {
  if (fields === lastFields) return lastFieldsBytes;
  let b = fieldsBytesOf.get(fields);
  if (!b) {
    b = Buffer.from(KEY_FIELDS + JSON.stringify(fields), 'utf8');
    if (!Object.isFrozen(fields)) return b; // it could change: never kept
    fieldsBytesOf.set(fields, b);
  }
  lastFields = fields;
  lastFieldsBytes = b;
  return b;
}

/**
 * An array of frozen objects and search hits, ready to write: per element, its prepared bytes (an
 * object) or its summary's HitWire with the hit's score digits, field list bytes and `,"specs":...`
 * text (a hit), gathered in one pass that also sums the length.
 */
interface ArrayRun {
  items: (Buffer | HitWire)[];
  scores: string[];
  fields: Buffer[];
  /** `,"specs":<JSON>` when the hit has specs, else ''. */
  rests: string[];
  length: number;
}

function arrayRun(v: readonly object[], array: boolean): ArrayRun {
  const n = v.length;
  const items = new Array<Buffer | HitWire>(n);
  const scores = new Array<string>(n);
  const fields = new Array<Buffer>(n);
  const rests = new Array<string>(n);
  let length = (array ? 2 : 0) + (n > 0 ? n - 1 : 0);
  for (let i = 0; i < n; i++) {
    const o = v[i]!;
    const summary = hitSummary(o);
    if (!summary) {
      const b = objectBytes(o);
      items[i] = b;
      scores[i] = '';
      fields[i] = NO_BYTES;
      rests[i] = '';
      length += b.length;
      continue;
    }
    const h = o as Record<string, unknown>;
    const w = hitWire(summary, h);
    const score = JSON.stringify(h.relevance_score);
    const f = fieldsBytes(h.matched_fields as object);
    const rest = h.specs === undefined ? '' : KEY_SPECS + JSON.stringify(h.specs);
    items[i] = w;
    scores[i] = score;
    fields[i] = f;
    rests[i] = rest;
    length += w.head.length + score.length + f.length + w.links.length + (rest === '' ? 0 : Buffer.byteLength(rest, 'utf8')) + 1;
  }
  return { items, scores, fields, rests, length };
}

/**
 * Writes a run at `off`: each object's bytes (for a hit, its head, score, fields, links, specs and
 * '}'), separated by ',' and, for an array, inside '[' ']'. Returns the end. Byte pieces are
 * copied with TypedArray#set; the score (ASCII digits) byte by byte.
 */
function writeRun(out: Buffer, off: number, run: ArrayRun, array: boolean): number {
  const { items, scores, fields, rests } = run;
  if (array) out[off++] = 0x5b; // [
  for (let i = 0; i < items.length; i++) {
    if (i) out[off++] = 0x2c; // ,
    const item = items[i]!;
    if (Buffer.isBuffer(item)) {
      out.set(item, off);
      off += item.length;
      continue;
    }
    out.set(item.head, off);
    off += item.head.length;
    const score = scores[i]!;
    for (let k = 0; k < score.length; k++) out[off++] = score.charCodeAt(k);
    const f = fields[i]!;
    out.set(f, off);
    off += f.length;
    if (item.links.length) {
      out.set(item.links, off);
      off += item.links.length;
    }
    const rest = rests[i]!;
    if (rest !== '') off += out.write(rest, off, 'utf8');
    out[off++] = 0x7d; // }
  }
  if (array) out[off++] = 0x5d; // ]
  return off;
}

/** A run written into one buffer of its exact length. */
function joinRun(run: ArrayRun, array: boolean): Buffer {
  const out = Buffer.allocUnsafe(run.length);
  writeRun(out, 0, run, array);
  return out;
}

function objectBytes(o: object): Buffer {
  if (hitSummary(o)) return joinRun(arrayRun([o], false), false);
  return Object.isFrozen(o) ? frozenBytes(o) : Buffer.from(JSON.stringify(o), 'utf8');
}

/** The UTF-8 JSON of a frozen object, once. */
function frozenBytes(o: object): Buffer {
  let b = bytesOf.get(o);
  if (!b) {
    b = Buffer.from(preparedJson(o), 'utf8');
    bytesOf.set(o, b);
  }
  return b;
}

/** The UTF-8 JSON of a frozen array of frozen objects, from each object's prepared bytes, once. */
function arrayBytes(v: readonly object[]): Buffer {
  let out = arrayBytesOf.get(v);
  if (!out) {
    out = joinRun(arrayRun(v, true), true);
    arrayBytesOf.set(v, out); // the same frozen page again: the same bytes
  }
  return out;
}

/**
 * The pieces of JSON.stringify(output), in order: text, and for each top-level array of frozen
 * records or search hits its JSON as `objectArray` gives it (a listing page the store hands out
 * again, frozen, or a page of hits made for this call).
 */
function outputPieces<P>(output: Record<string, unknown>, objectArray: (v: readonly object[]) => P): (string | P)[] {
  const pieces: (string | P)[] = [];
  let text = '{';
  let first = true;
  for (const k of Object.keys(output)) {
    const v = output[k];
    if (Array.isArray(v) && v.length > 0 && v.every(isFrozenObject)) {
      pieces.push(`${text}${first ? '' : ','}${JSON.stringify(k)}:`, objectArray(v as object[]));
      text = '';
      first = false;
      continue;
    }
    const json = JSON.stringify(v);
    if (json === undefined) continue;
    text += `${first ? '' : ','}${JSON.stringify(k)}:${json}`;
    first = false;
  }
  pieces.push(`${text}}`);
  return pieces;
}

/**
 * Whether a top-level array is serialised once and kept whole: a frozen listing page (the store
 * hands the same one out again). A page of hits is made for one answer (frozen or not): its
 * pieces are written straight into the answer.
 */
const keptWhole = (v: readonly object[]): boolean => Object.isFrozen(v) && !isSearchHit(v[0]!);

/** What JSON.stringify(s) writes between its quotes. */
export function escapeJsonText(s: string): string {
  const json = JSON.stringify(s);
  return json.slice(1, -1);
}

const escapedOf = new WeakMap<object, string>();

/** escapeJsonText(preparedJson(o)), once per frozen object. */
function escapedJson(o: object): string {
  let s = escapedOf.get(o);
  if (s === undefined) {
    s = escapeJsonText(preparedJson(o));
    if (Object.isFrozen(o)) escapedOf.set(o, s);
  }
  return s;
}

/**
 * Where arrayJsonParts writes: the JSON's pieces, and/or the same pieces escaped as a JSON
 * string's content (escaping is character by character, and no piece ends inside a surrogate
 * pair: each ends at JSON punctuation, so the escaped pieces joined are the whole text escaped).
 */
interface JsonParts {
  parts: string[] | null;
  escaped: (string | Buffer)[] | null;
  /** The escaped pieces prepared once (records, hit summaries, listing pages) as their UTF-8 bytes. */
  bytes?: boolean;
}

const escapedBytesOf = new WeakMap<object, Buffer>();

/**
 * The UTF-8 bytes of escapedJson(o) (or of arrayEscaped(o) for an array), once per frozen object:
 * like the prepared JSON and bytes of a record, kept while the record is (one more copy of each
 * hit summary an MCP session has been sent, ~0.6 kB).
 */
function escapedBytes(o: object): Buffer {
  let b = escapedBytesOf.get(o);
  if (b === undefined) {
    // From the JSON, not through the escaped string's cache: a server sending bytes keeps only the bytes.
    b = Buffer.from(escapeJsonText(Array.isArray(o) ? arrayJson(o as readonly object[]) : preparedJson(o)), 'utf8');
    if (Object.isFrozen(o)) escapedBytesOf.set(o, b);
  }
  return b;
}

/** The JSON text of an array of frozen objects: prepared once for a frozen array. */
function arrayJson(v: readonly object[]): string {
  // A frozen array (a listing page) is joined from its objects' JSON once and kept.
  const frozen = Object.isFrozen(v);
  if (frozen) {
    const known = jsonOf.get(v);
    if (known !== undefined) return known;
  }
  const out: JsonParts = { parts: [], escaped: null };
  arrayJsonParts(v, out);
  const text = out.parts!.join('');
  if (frozen) jsonOf.set(v, text);
  return text;
}

/** escapeJsonText(arrayJson(v)), once per frozen array. */
function arrayEscaped(v: readonly object[]): string {
  let s = escapedOf.get(v);
  if (s === undefined) {
    s = escapeJsonText(arrayJson(v));
    if (Object.isFrozen(v)) escapedOf.set(v, s);
  }
  return s;
}

/**
 * The JSON of an array of frozen objects or search hits, as pieces onto `out` (joined once by
 * the caller: a chain of concatenations costs twice as much to flatten): each object's prepared
 * JSON, and for a hit its summary's prepared JSON without the '}', the members after it, '}'.
 * Punctuation escapes to itself.
 */
function arrayJsonParts(v: readonly object[], out: JsonParts): void {
  const raw = out.parts;
  const esc = out.escaped;
  raw?.push('[');
  esc?.push('[');
  for (let i = 0; i < v.length; i++) {
    if (i) {
      raw?.push(',');
      esc?.push(',');
    }
    const o = v[i]!;
    const summary = hitSummary(o);
    if (!summary) {
      raw?.push(preparedJson(o));
      esc?.push(out.bytes ? escapedBytes(o) : escapedJson(o));
      continue;
    }
    const h = o as Record<string, unknown>;
    // '{}' has no member before the hit's own: the tail's leading ',' is left out.
    const base = preparedJson(summary);
    const empty = base.length === 2;
    if (empty) {
      raw?.push('{');
      esc?.push('{');
    } else {
      raw?.push(base.slice(0, -1));
      esc?.push(out.bytes ? escapedBytes(summary).subarray(0, -1) : escapedJson(summary).slice(0, -1));
    }
    if (raw) {
      const tail = hitTail(h, summary);
      raw.push(empty ? tail.slice(1) : tail);
    }
    if (esc) {
      const tail = hitTailEscaped(h, summary);
      esc.push(empty ? tail.slice(1) : tail);
    }
    raw?.push('}');
    esc?.push('}');
  }
  raw?.push(']');
  esc?.push(']');
}

/**
 * The UTF-8 bytes of JSON.stringify(output) for a tool output, byte for byte, reusing the
 * prepared bytes of the frozen records inside its top-level arrays: a 650 kB deep listing is a
 * copy of cached buffers, not a serialisation, and needs no UTF-8 encoding per call; a page of
 * search hits is its summaries' prepared JSON with each hit's few extra members between them.
 * The answer is written into one buffer of its exact length.
 */
export function stringifyOutput(output: Record<string, unknown>): Buffer {
  // A frozen output (an answer the answer cache hands out again) is serialised once.
  const frozen = Object.isFrozen(output);
  if (frozen) {
    const known = outputBytesOf.get(output);
    if (known !== undefined) return known;
  }
  // A page of hits is written as its hits' pieces (each summary's prepared bytes, the hit's few
  // extra members after them), never as one long string to flatten and encode (keptWhole).
  const pieces = outputPieces(output, (v): Buffer | ArrayRun => (keptWhole(v) ? arrayBytes(v) : arrayRun(v, true)));
  let total = 0;
  for (const g of pieces) total += typeof g === 'string' ? Buffer.byteLength(g, 'utf8') : g.length;
  // A kept answer gets a buffer of its own (a slab lives as long as any answer cut from it).
  const out = frozen ? Buffer.allocUnsafeSlow(total) : answerBuffer(total);
  let off = 0;
  for (const g of pieces) off = typeof g === 'string' ? off + out.write(g, off, 'utf8') : Buffer.isBuffer(g) ? off + g.copy(out, off) : writeRun(out, off, g, true);
  if (frozen) outputBytesOf.set(output, out);
  return out;
}

/** The bytes of frozen outputs, made once each (kept while the output is). */
const outputBytesOf = new WeakMap<object, Buffer>();

/**
 * Answers up to this size are cut from shared slabs, as node cuts small Buffers from its 8 kB pool:
 * a search answer (2-20 kB) is over that pool's 4 kB limit, and an ArrayBuffer of its own per
 * answer cost more than writing the answer into it. A slab lives while any answer cut from it does.
 */
const SLAB_ANSWER_MAX = 16 * 1024;
const SLAB_SIZE = 128 * 1024;
let slab: Buffer | null = null;
let slabOffset = 0;

function answerBuffer(size: number): Buffer {
  if (size > SLAB_ANSWER_MAX) return Buffer.allocUnsafe(size);
  if (slab === null || slabOffset + size > slab.length) {
    slab = Buffer.allocUnsafeSlow(SLAB_SIZE);
    slabOffset = 0;
  }
  const out = slab.subarray(slabOffset, slabOffset + size);
  slabOffset += (size + 7) & ~7; // the next answer starts 8-byte aligned, as in node's pool
  return out;
}

/**
 * JSON.stringify(output) for a tool output, as text, from the same prepared JSON (a frozen
 * listing page: its JSON text prepared once), after `prefix` when given. The text block of an MCP
 * tool result carries it (its summary line as the prefix: one flat string, never a
 * concatenation of two that the transport's JSON.stringify would copy again to flatten).
 */
export function outputJson(output: Record<string, unknown>, prefix = ''): string {
  const out: JsonParts = { parts: [], escaped: null };
  outputJsonParts(output, prefix, out);
  return out.parts!.join('');
}

/**
 * outputJson(output, prefix) escaped as a JSON string's content (what JSON.stringify of the text
 * writes between its quotes), from escaped pieces prepared once per frozen record, hit summary and
 * listing page: a tool result's text block is sent inside the JSON of its message, and escaping a
 * search answer's text again on every call cost as much as serialising the rest of the message
 * (src/mcp/prepared-message.ts).
 */
export function outputEscaped(output: Record<string, unknown>, prefix = ''): string {
  const out: JsonParts = { parts: null, escaped: [] };
  outputJsonParts(output, prefix, out);
  return out.escaped!.join('');
}

/**
 * outputEscaped's text as UTF-8 bytes, in pieces to be written one after the other: short strings
 * made for this output, and the bytes of the escaped JSON prepared once per record, hit summary
 * and listing page (copied, never encoded again: a text with CJK names is a two-byte string, whose
 * UTF-8 encoding costs more than all the rest of writing it).
 */
export function outputEscapedPieces(output: Record<string, unknown>, prefix = ''): (string | Buffer)[] {
  const out: JsonParts = { parts: null, escaped: [], bytes: true };
  outputJsonParts(output, prefix, out);
  return out.escaped!;
}

/**
 * Strings (UTF-8) and bytes written one after the other into one buffer of their exact length.
 * The strings between two byte pieces are written as one (a hit's tail, '}' and ',' in one call).
 */
export function writeAll(pieces: readonly (string | Buffer)[]): Buffer {
  const runs: (string | Buffer)[] = [];
  let total = 0;
  let text = '';
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i]!;
    if (typeof p === 'string') {
      text += p;
      continue;
    }
    if (text !== '') {
      runs.push(text);
      total += Buffer.byteLength(text, 'utf8');
      text = '';
    }
    runs.push(p);
    total += p.length;
  }
  if (text !== '') {
    runs.push(text);
    total += Buffer.byteLength(text, 'utf8');
  }
  const out = Buffer.allocUnsafe(total);
  let off = 0;
  for (let i = 0; i < runs.length; i++) {
    const p = runs[i]!;
    off += typeof p === 'string' ? out.write(p, off, 'utf8') : p.copy(out, off);
  }
  return out;
}

function outputJsonParts(output: Record<string, unknown>, prefix: string, out: JsonParts): void {
  // One flat list of pieces joined once. A page of hits adds its hits' pieces to it; a frozen
  // listing page is its JSON text, joined once and kept (keptWhole).
  if (prefix !== '') {
    out.parts?.push(prefix);
    out.escaped?.push(escapeJsonText(prefix));
  }
  for (const p of outputPieces(output, (v): readonly object[] => v)) {
    if (typeof p === 'string') {
      out.parts?.push(p);
      out.escaped?.push(escapeJsonText(p));
    } else if (keptWhole(p)) {
      out.parts?.push(arrayJson(p));
      out.escaped?.push(out.bytes ? escapedBytes(p) : arrayEscaped(p));
    } else arrayJsonParts(p, out);
  }
}
