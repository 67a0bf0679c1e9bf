/**
 * Views of catalogue records prepared once. The catalogue snapshot (src/store/memory-catalogue.ts)
 * is deep-frozen and never changes while the process runs, so the deep view of a record, its
 * summary and their serialised JSON are computed the first time they are asked for and kept
 * (WeakMaps keyed by the frozen record: memoisation, not state; a record that is not frozen
 * is converted afresh every time, since it could change).
 */
import { toDeep, toSummary, type DeepEntity, type StoredEntity, type SummaryEntity } from './entity.js';

const deepOf = new WeakMap<StoredEntity, DeepEntity>();
const summaryOf = new WeakMap<StoredEntity, SummaryEntity>();
const jsonOf = new WeakMap<object, string>();

/** toDeep(e), once per frozen record (the result is frozen too). */
export function preparedDeep(e: StoredEntity): DeepEntity {
  // Only frozen records are ever cached, so a hit needs no Object.isFrozen (a runtime call).
  let d = deepOf.get(e);
  if (!d) {
    if (!Object.isFrozen(e)) return toDeep(e);
    d = Object.freeze(toDeep(e)); // its nested values are the record's own, already frozen
    deepOf.set(e, d);
  }
  return d;
}

/** toSummary(e), once per frozen record (the result is frozen too). */
export function preparedSummary(e: StoredEntity): SummaryEntity {
  let s = summaryOf.get(e);
  if (!s) {
    if (!Object.isFrozen(e)) return toSummary(e);
    s = Object.freeze(toSummary(e));
    summaryOf.set(e, s);
  }
  return s;
}

/** JSON.stringify(o), once per frozen object (objects from this module and the snapshot are frozen all the way down). */
export function preparedJson(o: object): string {
  let s = jsonOf.get(o);
  if (s === undefined) {
    s = JSON.stringify(o);
    if (Object.isFrozen(o)) jsonOf.set(o, s);
  }
  return s;
}

/** A record's detail URL under a prefix, and its JSON text (the last prefix asked for, per record). */
const urlOf = new WeakMap<object, { prefix: string; url: string; json: string; member?: Buffer }>();

/**
 * prefix + encodeURIComponent(id), kept per frozen record for the prefix last asked for (a
 * server has one), with its JSON text: a page of hits then neither builds nor escapes its URLs.
 */
export function preparedUrl(e: { id: string }, prefix: string): string {
  let u = urlOf.get(e);
  if (u === undefined || u.prefix !== prefix) {
    const url = prefix + encodeURIComponent(e.id);
    if (!Object.isFrozen(e)) return url;
    u = { prefix, url, json: JSON.stringify(url) };
    urlOf.set(e, u);
  }
  return u.url;
}

/** JSON.stringify(url), from the cache when url is the one preparedUrl made for e. */
function urlJson(e: object, url: string): string {
  const u = urlOf.get(e);
  return u !== undefined && u.url === url ? u.json : JSON.stringify(url);
}

const deepListOf = new WeakMap<readonly StoredEntity[], readonly DeepEntity[]>();
const summaryListOf = new WeakMap<readonly StoredEntity[], readonly SummaryEntity[]>();
const arrayBytesOf = new WeakMap<readonly unknown[], Buffer>();
const bytesOf = new WeakMap<object, Buffer>();

/** items.map(preparedDeep), once per frozen list (the store hands out the same frozen page each time). */
export function preparedDeepList(items: readonly StoredEntity[]): DeepEntity[] {
  if (!Object.isFrozen(items)) return items.map(preparedDeep);
  let l = deepListOf.get(items);
  if (!l) {
    l = Object.freeze(items.map(preparedDeep));
    deepListOf.set(items, l);
  }
  return l as DeepEntity[];
}

/** items.map(preparedSummary), once per frozen list. */
export function preparedSummaryList(items: readonly StoredEntity[]): SummaryEntity[] {
  if (!Object.isFrozen(items)) return items.map(preparedSummary);
  let l = summaryListOf.get(items);
  if (!l) {
    l = Object.freeze(items.map(preparedSummary));
    summaryListOf.set(items, l);
  }
  return l as SummaryEntity[];
}

/** What a search hit adds after the summary fields, in this order (left out when undefined). */
export interface HitExtras {
  relevance_score: number;
  matched_fields: readonly string[];
  detail_url?: string;
  specs?: Record<string, unknown>;
}

/**
 * A search hit: the summary's fields (SUMMARY_FIELDS, in order), then relevance_score,
 * matched_fields, detail_url and specs; own data properties, frozen, so it is what
 * `{ ...summary, ...extras }` would be for every reader (JSON.stringify, Object.keys, spread).
 * Made by a constructor with fixed assignments (about ten times cheaper than a spread and a
 * freeze of 18 keys), and it remembers its summary: serialising a page of hits copies each
 * summary's prepared bytes and writes only the extras.
 */
class PreparedHit {
  readonly #summary: SummaryEntity;
  /** Whether the summary is frozen (a prepared one), so that its prepared bytes can stand for it. */
  readonly #prepared: boolean;

  constructor(s: SummaryEntity, x: HitExtras) {
    const o = this as unknown as Record<string, unknown>;
    // SUMMARY_FIELDS in their order (test/spine/prepared.test.ts holds the two together).
    o.id = s.id;
    o.name = s.name;
    o.name_en = s.name_en;
    o.category = s.category;
    o.manufacturer = s.manufacturer;
    o.type = s.type;
    o.protocol = s.protocol;
    o.interface = s.interface;
    o.voltage = s.voltage;
    o.weight = s.weight;
    o.torque = s.torque;
    o.ros_support = s.ros_support;
    o.price_range = s.price_range;
    o.source_tier = s.source_tier;
    o.quarantine = s.quarantine;
    o.relevance_score = x.relevance_score;
    o.matched_fields = x.matched_fields;
    if (x.detail_url !== undefined) o.detail_url = x.detail_url;
    if (x.specs !== undefined) o.specs = x.specs;
    this.#summary = s;
    this.#prepared = Object.isFrozen(s);
    Object.freeze(this);
  }

  /** The summary a hit was made from, when its prepared bytes can stand for the hit's first fields. */
  static summaryOf(v: object): SummaryEntity | undefined {
    return #summary in v && (v as PreparedHit).#prepared ? (v as PreparedHit).#summary : undefined;
  }

  static is(v: object): boolean {
    return #summary in v;
  }
}

/** A search hit for `summary` (a prepared summary) with the extras after its fields. */
export function searchHit<S extends SummaryEntity, X extends HitExtras>(summary: S, extras: X): S & X {
  return new PreparedHit(summary, extras) as unknown as S & X;
}

/** A search hit (frozen when made) or another frozen non-array object: its JSON can be prepared. */
const isFrozenObject = (x: unknown) => x !== null && typeof x === 'object' && (PreparedHit.is(x) || (!Array.isArray(x) && Object.isFrozen(x)));

const KEY_SCORE = ',"relevance_score":';
const KEY_FIELDS = ',"matched_fields":';
const KEY_URL = ',"detail_url":';
const KEY_SPECS = ',"specs":';

/** The members a hit adds after its summary's, as JSON.stringify writes them (each preceded by ','). */
function hitTail(h: Record<string, unknown>, summary: object): string {
  const fields = h.matched_fields as object;
  let out = KEY_SCORE + JSON.stringify(h.relevance_score) + KEY_FIELDS + preparedJson(fields);
  if (h.detail_url !== undefined) out += KEY_URL + urlJson(summary, h.detail_url as string);
  if (h.specs !== undefined) out += KEY_SPECS + JSON.stringify(h.specs);
  return out;
}

/**
 * An object's JSON as bytes: prepared bytes and, for a search hit, the members after its
 * summary's as byte pieces: the score's digits and, prepared once, `,"matched_fields":[...]` per
 * field list and `,"detail_url":"..."` per record (then `,"specs":...` as text, when present).
 */
interface ObjectPiece {
  bytes: Buffer;
  /** null: the bytes are the whole object. */
  hit: { score: string; fields: Buffer; url: Buffer | null; rest: string; restBytes: number } | null;
}

const SCORE_KEY = Buffer.from(KEY_SCORE, 'latin1');

function objectPieces(o: object): ObjectPiece {
  const summary = PreparedHit.summaryOf(o);
  if (!summary) return { bytes: objectBytes(o), hit: null };
  const h = o as Record<string, unknown>;
  const rest = h.specs === undefined ? '' : KEY_SPECS + JSON.stringify(h.specs);
  return {
    bytes: frozenBytes(summary),
    hit: {
      score: JSON.stringify(h.relevance_score),
      fields: fieldsBytes(h.matched_fields as object),
      url: h.detail_url === undefined ? null : urlBytes(summary, h.detail_url as string),
      rest,
      restBytes: rest === '' ? 0 : Buffer.byteLength(rest, 'utf8'),
    },
  };
}

const fieldsBytesOf = new WeakMap<object, Buffer>();

/** `,"matched_fields":<JSON>` as bytes, once per frozen field list (a search has a handful). */
function fieldsBytes(fields: object): Buffer {
  let b = fieldsBytesOf.get(fields);
  if (!b) {
    b = Buffer.from(KEY_FIELDS + JSON.stringify(fields), 'utf8');
    if (Object.isFrozen(fields)) fieldsBytesOf.set(fields, b);
  }
  return b;
}

/** `,"detail_url":<JSON>` as bytes: kept with the record's prepared URL when url is that one. */
function urlBytes(summary: object, url: string): Buffer {
  const u = urlOf.get(summary);
  if (u === undefined || u.url !== url) return Buffer.from(KEY_URL + JSON.stringify(url), 'utf8');
  return (u.member ??= Buffer.from(KEY_URL + u.json, 'utf8'));
}

function objectBytes(o: object): Buffer {
  if (PreparedHit.summaryOf(o)) return joinPieces([objectPieces(o)], false);
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

/** Objects' pieces written into one buffer of their exact length (see writePieces). */
function joinPieces(pieces: readonly ObjectPiece[], array: boolean): Buffer {
  const out = Buffer.allocUnsafe(piecesLength(pieces, array));
  writePieces(out, 0, pieces, array);
  return out;
}

/** The byte length writePieces writes. */
function piecesLength(pieces: readonly ObjectPiece[], array: boolean): number {
  let total = array ? 2 : 0;
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i]!;
    const x = p.hit;
    total += i ? 1 : 0;
    if (x === null) {
      total += p.bytes.length;
      continue;
    }
    // The summary without its '}' (for '{}' also without the score key's ','), the members, '}'.
    total += p.bytes.length - 1 - (p.bytes.length === 2 ? 1 : 0) + SCORE_KEY.length + x.score.length + x.fields.length + (x.url?.length ?? 0) + x.restBytes + 1;
  }
  return total;
}

/**
 * Writes objects' pieces at `off`: each object's bytes (for a hit without its closing '}', then
 * its members and '}'), separated by ',' and, for an array, inside '[' ']'. Returns the end.
 * Byte pieces are copied with TypedArray#set; the score (ASCII digits) byte by byte.
 */
function writePieces(out: Buffer, off: number, pieces: readonly ObjectPiece[], array: boolean): number {
  if (array) out[off++] = 0x5b; // [
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i]!;
    if (i) out[off++] = 0x2c; // ,
    out.set(p.bytes, off);
    off += p.bytes.length;
    const x = p.hit;
    if (x === null) continue;
    off -= 1; // over the summary's '}'
    if (p.bytes.length === 2) {
      out.set(SCORE_KEY.subarray(1), off); // '{}': no ',' before the first member
      off += SCORE_KEY.length - 1;
    } else {
      out.set(SCORE_KEY, off);
      off += SCORE_KEY.length;
    }
    for (let k = 0; k < x.score.length; k++) out[off++] = x.score.charCodeAt(k);
    out.set(x.fields, off);
    off += x.fields.length;
    if (x.url !== null) {
      out.set(x.url, off);
      off += x.url.length;
    }
    if (x.rest !== '') off += out.write(x.rest, off, 'utf8');
    out[off++] = 0x7d; // }
  }
  if (array) out[off++] = 0x5d; // ]
  return off;
}

/** The UTF-8 JSON of a frozen array of frozen objects, from each object's prepared bytes, once. */
function arrayBytes(v: readonly object[]): Buffer {
  let out = arrayBytesOf.get(v);
  if (!out) {
    out = joinPieces(v.map(objectPieces), true);
    arrayBytesOf.set(v, out); // the same frozen page again: the same bytes
  }
  return out;
}

/** JSON.stringify(o) for a frozen object or a search hit, from prepared JSON. */
function objectJson(o: object): string {
  const summary = PreparedHit.summaryOf(o);
  if (!summary) return preparedJson(o);
  const base = preparedJson(summary);
  const tail = hitTail(o as Record<string, unknown>, summary);
  return base.length === 2 ? `{${tail.slice(1)}}` : `${base.slice(0, -1)}${tail}}`;
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

/** The JSON text of an array of frozen objects or search hits: prepared once for a frozen array. */
function arrayJson(v: readonly object[]): string {
  if (Object.isFrozen(v)) return preparedJson(v);
  let text = '[';
  for (let i = 0; i < v.length; i++) text += (i ? ',' : '') + objectJson(v[i] as object);
  return `${text}]`;
}

/**
 * The UTF-8 bytes of JSON.stringify(output) for a tool output, byte for byte, reusing the
 * prepared bytes of the frozen records inside its top-level arrays: a 650 kB deep listing is a
 * copy of cached buffers, not a serialisation, and needs no UTF-8 encoding per call; a page of
 * search hits is its summaries' prepared JSON with each hit's few extra members between them.
 * The answer is written into one buffer of its exact length.
 */
export function stringifyOutput(output: Record<string, unknown>): Buffer {
  // A page of hits made for this call is written as its hits' pieces (each summary's prepared
  // bytes, the hit's few extra members after them), never as one long string to flatten and encode.
  const pieces = outputPieces(output, (v): Buffer | ObjectPiece[] => (Object.isFrozen(v) ? arrayBytes(v) : v.map(objectPieces)));
  let total = 0;
  for (const g of pieces) total += typeof g === 'string' ? Buffer.byteLength(g, 'utf8') : Buffer.isBuffer(g) ? g.length : piecesLength(g, true);
  const out = answerBuffer(total);
  let off = 0;
  for (const g of pieces) off = typeof g === 'string' ? off + out.write(g, off, 'utf8') : Buffer.isBuffer(g) ? off + g.copy(out, off) : writePieces(out, off, g, true);
  return out;
}

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
 * listing page: its JSON text prepared once). The text block of an MCP tool result carries it.
 */
export function outputJson(output: Record<string, unknown>): string {
  return outputPieces(output, arrayJson).join('');
}
