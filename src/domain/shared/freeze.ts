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

/** An object as JSON.parse makes them: not an array, Object.prototype as its prototype. */
export const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
