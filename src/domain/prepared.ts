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

/**
 * JSON.stringify(output) for a tool output, byte for byte, reusing the prepared JSON of the
 * frozen records inside its top-level arrays (a 650 kB deep listing is then a join of cached strings).
 */
export function stringifyOutput(output: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const k of Object.keys(output)) {
    const v = output[k];
    let json: string | undefined;
    if (Array.isArray(v) && v.length > 0 && v.every((x) => x !== null && typeof x === 'object' && !Array.isArray(x) && Object.isFrozen(x))) {
      json = `[${v.map((x) => preparedJson(x as object)).join(',')}]`;
    } else {
      json = JSON.stringify(v);
    }
    if (json !== undefined) parts.push(`${JSON.stringify(k)}:${json}`);
  }
  return `{${parts.join(',')}}`;
}
