/**
 * deepFreeze: freezes a graph of plain data (objects, arrays, primitives) in place and returns
 * it. Immutable data built once at start (the catalogue snapshot, the spec layer, the analytics
 * documents) is frozen so that a caller that tried to change it throws instead of corrupting
 * later answers. An object already frozen is taken as frozen all the way down. isPlainObject:
 * whether a value is an object as JSON.parse makes them.
 */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  Object.freeze(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (v !== null && typeof v === 'object') deepFreeze(v);
    }
  } else {
    const o = value as Record<string, unknown>;
    for (const k in o) {
      if (!Object.hasOwn(o, k)) continue;
      const v = o[k];
      if (v !== null && typeof v === 'object') deepFreeze(v);
    }
  }
  return value;
}

const EMPTY_ARRAY: readonly never[] = Object.freeze([]);
const EMPTY_OBJECT: Readonly<Record<string, never>> = Object.freeze({});

/**
 * deepFreeze for data read in bulk (the catalogue's records, frozen as they are read): the same
 * graph frozen in place, except that each empty array and each empty plain object inside it is
 * replaced by one shared frozen empty array or object (returned instead of `value` when `value`
 * itself is one). A 100,000-record catalogue holds about half a million of them (no sources, no
 * compliance entries, ...): sharing them saves their memory (~20 MB) and half the freezing time.
 * Equal values, so nothing a reader sees changes. An object already frozen is taken as frozen all
 * the way down and left as it is.
 */
export function deepFreezeSharingEmpty<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  return settle(value, !hasEnumerable(Object.prototype)) as T;
}

/** Whether `o` has an enumerable property (own or inherited): for Object.prototype, whether for...in over a plain object can visit a key it does not own. */
export function hasEnumerable(o: object): boolean {
  for (const _ in o) return true;
  return false;
}

/**
 * deepFreezeSharingEmpty below the top (`v` an object not frozen). `plainOwn`: Object.prototype
 * has no enumerable property, so `for...in` over a plain object visits its own keys only (no
 * hasOwn check per key: half the time of the walk).
 */
function settle(v: object, plainOwn: boolean): object {
  if (Array.isArray(v)) {
    if (v.length === 0) return EMPTY_ARRAY;
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (x !== null && typeof x === 'object' && !Object.isFrozen(x)) {
        const settled = settle(x, plainOwn);
        if (settled !== x) v[i] = settled;
      }
    }
    return Object.freeze(v);
  }
  const o = v as Record<string, unknown>;
  const plain = Object.getPrototypeOf(o) === Object.prototype;
  const ownOnly = plain && plainOwn;
  let own = 0;
  for (const k in o) {
    if (!ownOnly && !Object.hasOwn(o, k)) continue;
    own++;
    const x = o[k];
    if (x !== null && typeof x === 'object' && !Object.isFrozen(x)) {
      const settled = settle(x, plainOwn);
      // An own data property (even "__proto__", as JSON.parse makes it): set as a property, never the prototype.
      if (settled !== x) o[k] = settled;
    }
  }
  if (own === 0 && plain) return EMPTY_OBJECT;
  return Object.freeze(o);
}

/** An object as JSON.parse makes them: not an array, Object.prototype as its prototype. */
export const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
