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
  if (!Object.isFrozen(e)) return toDeep(e);
  let d = deepOf.get(e);
  if (!d) {
    d = Object.freeze(toDeep(e)); // its nested values are the record's own, already frozen
    deepOf.set(e, d);
  }
  return d;
}

/** toSummary(e), once per frozen record (the result is frozen too). */
export function preparedSummary(e: StoredEntity): SummaryEntity {
  if (!Object.isFrozen(e)) return toSummary(e);
  let s = summaryOf.get(e);
  if (!s) {
    s = Object.freeze(toSummary(e));
    summaryOf.set(e, s);
  }
  return s;
}

/** JSON.stringify(o), once per frozen object (objects from this module and the snapshot are frozen all the way down). */
export function preparedJson(o: object): string {
  if (!Object.isFrozen(o)) return JSON.stringify(o);
  let s = jsonOf.get(o);
  if (s === undefined) {
    s = JSON.stringify(o);
    jsonOf.set(o, s);
  }
  return s;
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

/** A frozen object made by extendPrepared: its prepared base and the keys added after the base's. */
const EXTENDS = Symbol('extends');
interface Extended {
  [EXTENDS]: { base: object; extras: Record<string, unknown> };
}

/**
 * `{ ...base, ...extras }`, frozen, for a frozen prepared base (a summary) and per-call extras (a
 * search hit's score, URL, specs): serialising it reuses the base's prepared bytes and
 * serialises only the extras. The extras object is frozen and kept. Extras that repeat a key of
 * the base (which would move it) get a plain object.
 */
export function extendPrepared<B extends object, X extends Record<string, unknown>>(base: B, extras: X): B & X {
  const o = { ...base, ...extras };
  if (!Object.isFrozen(base) || Object.keys(extras).some((k) => Object.hasOwn(base, k))) return o;
  // Not enumerable: a spread copy of the hit (other keys) must not carry the shortcut along.
  Object.defineProperty(o, EXTENDS, { value: { base, extras: Object.freeze(extras) }, enumerable: false });
  return Object.freeze(o);
}

const isFrozenObject = (x: unknown) => x !== null && typeof x === 'object' && !Array.isArray(x) && Object.isFrozen(x);

const keyJson = new Map<string, string>();

/**
 * The members of extras as JSON.stringify writes them inside an object, each preceded by ','
 * ('' when every value is skipped): undefined, functions and symbols are left out, frozen
 * objects reuse their prepared JSON.
 */
function membersJson(extras: Record<string, unknown>): string {
  let out = '';
  for (const k of Object.keys(extras)) {
    const v = extras[k];
    let json: string | undefined;
    if (v !== null && typeof v === 'object' && Object.isFrozen(v)) json = preparedJson(v);
    else json = JSON.stringify(v);
    if (json === undefined) continue;
    let kj = keyJson.get(k);
    if (kj === undefined) {
      kj = `${JSON.stringify(k)}:`;
      if (keyJson.size < 1000) keyJson.set(k, kj);
    }
    out += `,${kj}${json}`;
  }
  return out;
}

/** An object's JSON as prepared bytes plus, for an extended object, the members after them. */
function objectPieces(o: object): { bytes: Buffer; tail: string } {
  const ext = (o as Partial<Extended>)[EXTENDS];
  if (!ext) return { bytes: objectBytes(o), tail: '' };
  // JSON.stringify({...base, ...extras}) = the base's JSON without its '}', the extras' members, '}'.
  return { bytes: objectBytes(ext.base), tail: membersJson(ext.extras) };
}

function objectBytes(o: object): Buffer {
  if ((o as Partial<Extended>)[EXTENDS]) return joinPieces([objectPieces(o)], false);
  let b = bytesOf.get(o);
  if (!b) {
    b = Buffer.from(preparedJson(o), 'utf8');
    bytesOf.set(o, b);
  }
  return b;
}

/**
 * Objects' pieces written into one buffer: each object's bytes (for an extended one without its
 * closing '}', then its tail and '}'), separated by ',' and, for an array, inside '[' ']'.
 */
function joinPieces(pieces: readonly { bytes: Buffer; tail: string }[], array: boolean): Buffer {
  let total = array ? 2 : 0;
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i]!;
    total += (i ? 1 : 0) + (p.tail === '' ? p.bytes.length : mergedLength(p));
  }
  const out = Buffer.allocUnsafe(total);
  let off = 0;
  if (array) out[off++] = 0x5b; // [
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i]!;
    if (i) out[off++] = 0x2c; // ,
    if (p.tail === '') {
      off += p.bytes.copy(out, off);
      continue;
    }
    const empty = p.bytes.length === 2; // '{}': the tail's leading ',' is dropped
    off += p.bytes.copy(out, off, 0, p.bytes.length - 1);
    off += out.write(empty ? p.tail.slice(1) : p.tail, off, 'utf8');
    out[off++] = 0x7d; // }
  }
  if (array) out[off++] = 0x5d; // ]
  return out;
}

function mergedLength(p: { bytes: Buffer; tail: string }): number {
  return p.bytes.length - 1 + Buffer.byteLength(p.tail, 'utf8') - (p.bytes.length === 2 ? 1 : 0) + 1;
}

/** The UTF-8 JSON of an array of frozen objects, from each object's prepared bytes. */
function arrayBytes(v: readonly object[]): Buffer {
  const cached = arrayBytesOf.get(v);
  if (cached) return cached;
  const out = joinPieces(v.map(objectPieces), true);
  if (Object.isFrozen(v)) arrayBytesOf.set(v, out); // the same frozen page again: the same bytes
  return out;
}

/**
 * The UTF-8 bytes of JSON.stringify(output) for a tool output, byte for byte, reusing the
 * prepared bytes of the frozen records inside its top-level arrays: a 650 kB deep listing is a
 * copy of cached buffers, not a serialisation, and needs no UTF-8 encoding per call.
 */
export function stringifyOutput(output: Record<string, unknown>): Buffer {
  const parts: Buffer[] = [];
  let text = '{';
  let first = true;
  for (const k of Object.keys(output)) {
    const v = output[k];
    if (Array.isArray(v) && v.length > 0 && v.every(isFrozenObject)) {
      text += `${first ? '' : ','}${JSON.stringify(k)}:`;
      parts.push(Buffer.from(text, 'utf8'), arrayBytes(v as object[]));
      text = '';
      first = false;
      continue;
    }
    const json = JSON.stringify(v);
    if (json === undefined) continue;
    text += `${first ? '' : ','}${JSON.stringify(k)}:${json}`;
    first = false;
  }
  parts.push(Buffer.from(`${text}}`, 'utf8'));
  return parts.length === 1 ? parts[0] : Buffer.concat(parts);
}
