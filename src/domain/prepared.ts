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

const isFrozenObject = (x: unknown) => x !== null && typeof x === 'object' && !Array.isArray(x) && Object.isFrozen(x);

function objectBytes(o: object): Buffer {
  let b = bytesOf.get(o);
  if (!b) {
    b = Buffer.from(preparedJson(o), 'utf8');
    bytesOf.set(o, b);
  }
  return b;
}

const COMMA = Buffer.from(',');

/** The UTF-8 JSON of an array of frozen objects, from each object's prepared bytes. */
function arrayBytes(v: readonly object[]): Buffer {
  const cached = arrayBytesOf.get(v);
  if (cached) return cached;
  const parts: Buffer[] = [Buffer.from('[')];
  v.forEach((x, i) => {
    if (i) parts.push(COMMA);
    parts.push(objectBytes(x));
  });
  parts.push(Buffer.from(']'));
  const out = Buffer.concat(parts);
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
