/**
 * A fast acceptor for the plain-data zod schemas the shipped files are validated with.
 *
 * `compileAcceptor(schema)` reads the schema's definition once and returns a predicate that
 * answers true only for a value zod would accept AND hand back unchanged (the same keys in the
 * same order, no key stripped, added or reordered). The caller then keeps the value itself instead
 * of zod's copy; for anything else (false) the caller asks zod, which gives the error or its copy.
 * So the predicate may refuse what zod accepts (it is conservative), never the other way round.
 *
 * Supported: object (unknown keys refused; keys in shape order, optional ones may be absent),
 * string and array (min_length), number (finite; safeint, >=/>/<=/< bounds), boolean, enum,
 * literal (strings, finite numbers, booleans, null), nullable, optional, record with string keys,
 * and a discriminated union of such objects (zod parses a value with the one option its
 * discriminator names, so that option's acceptor decides). A schema with anything else
 * (transforms, defaults, plain unions, other checks) gets null: the caller validates with zod alone.
 *
 * At 100,000 catalogue records zod's parse (and its copies) took about 0.4 s of start-up.
 */
import type { z } from 'zod';
import { hasEnumerable, isPlainObject } from '../domain/shared/freeze.js';

export type Acceptor = (value: unknown) => boolean;

interface Def {
  type: string;
  checks?: { _zod: { def: CheckDef } }[];
  shape?: Record<string, Schema>;
  catchall?: Schema;
  innerType?: Schema;
  element?: Schema;
  entries?: Record<string, unknown>;
  values?: unknown[];
  discriminator?: string;
  options?: Schema[];
  keyType?: Schema;
  valueType?: Schema;
}
interface CheckDef {
  check: string;
  minimum?: number;
  format?: string;
  value?: number;
  inclusive?: boolean;
}
interface Schema {
  _zod: { def: Def };
}

class Unsupported extends Error {}


function lengthChecks(def: Def): number {
  let min = 0;
  for (const c of def.checks ?? []) {
    const d = c._zod.def;
    if (d.check === 'min_length' && typeof d.minimum === 'number') min = Math.max(min, d.minimum);
    else throw new Unsupported(d.check);
  }
  return min;
}

function numberCheck(def: Def): Acceptor {
  const tests: Acceptor[] = [];
  for (const c of def.checks ?? []) {
    const d = c._zod.def;
    if (d.check === 'number_format' && d.format === 'safeint') tests.push((v) => Number.isSafeInteger(v));
    else if (d.check === 'greater_than' && typeof d.value === 'number') {
      const b = d.value;
      tests.push(d.inclusive ? (v) => (v as number) >= b : (v) => (v as number) > b);
    } else if (d.check === 'less_than' && typeof d.value === 'number') {
      const b = d.value;
      tests.push(d.inclusive ? (v) => (v as number) <= b : (v) => (v as number) < b);
    } else throw new Unsupported(d.check);
  }
  return (v) => {
    if (typeof v !== 'number' || !Number.isFinite(v)) return false;
    for (let i = 0; i < tests.length; i++) if (!tests[i]!(v)) return false;
    return true;
  };
}

function compile(s: Schema): Acceptor {
  const def = s._zod.def;
  switch (def.type) {
    case 'string': {
      const min = lengthChecks(def);
      return (v) => typeof v === 'string' && v.length >= min;
    }
    case 'number':
      return numberCheck(def);
    case 'boolean':
      if (def.checks?.length) throw new Unsupported('boolean check');
      return (v) => typeof v === 'boolean';
    case 'enum': {
      const values = new Set(Object.values(def.entries ?? {}));
      return (v) => values.has(v);
    }
    case 'literal': {
      const values = def.values ?? [];
      const plain = (x: unknown) => x === null || typeof x === 'string' || typeof x === 'boolean' || (typeof x === 'number' && Number.isFinite(x));
      if (def.checks?.length || values.length === 0 || !values.every(plain)) throw new Unsupported('literal');
      return (v) => values.includes(v);
    }
    case 'union': {
      // Only a discriminated union whose options are objects, each naming its literal value(s).
      const disc = def.discriminator;
      if (typeof disc !== 'string' || def.checks?.length) throw new Unsupported('union');
      const byValue = new Map<unknown, Acceptor>();
      for (const option of def.options ?? []) {
        const o = option._zod.def;
        const tag = o.type === 'object' ? o.shape?.[disc]?._zod.def : undefined;
        if (tag?.type !== 'literal') throw new Unsupported('union option');
        const accept = compile(option);
        for (const value of tag.values ?? []) {
          if (byValue.has(value)) throw new Unsupported('union: a discriminator value twice');
          byValue.set(value, accept);
        }
      }
      return (v) => {
        if (!isPlainObject(v) || !Object.hasOwn(v, disc)) return false;
        const accept = byValue.get(v[disc]);
        return accept !== undefined && accept(v);
      };
    }
    case 'nullable': {
      const inner = compile(def.innerType!);
      return (v) => v === null || inner(v);
    }
    case 'array': {
      const min = lengthChecks(def);
      const el = compile(def.element!);
      return (v) => {
        if (!Array.isArray(v) || v.length < min) return false;
        for (let i = 0; i < v.length; i++) if (!el(v[i])) return false;
        return true;
      };
    }
    case 'record': {
      const k = def.keyType!._zod.def;
      if (k.type !== 'string' || k.checks?.length) throw new Unsupported('record key');
      const val = compile(def.valueType!);
      return (v) => {
        if (!isPlainObject(v)) return false;
        for (const key of Object.keys(v)) if (key === '__proto__' || !val(v[key])) return false;
        return true;
      };
    }
    case 'object': {
      if (def.checks?.length) throw new Unsupported('object check');
      const keys = Object.keys(def.shape ?? {});
      const optional = keys.map((key) => def.shape![key]!._zod.def.type === 'optional');
      const tests = keys.map((key) => {
        const field = def.shape![key]!;
        return field._zod.def.type === 'optional' ? compile(field._zod.def.innerType!) : compile(field);
      });
      const n = keys.length;
      return (v) => {
        if (!isPlainObject(v)) return false;
        // The value's keys must be the shape's, in its order, optional ones possibly absent:
        // then zod's copy has the same keys in the same order. (With nothing enumerable on
        // Object.prototype, for...in over a plain object visits own keys only: no hasOwn per key.)
        const ownOnly = !hasEnumerable(Object.prototype);
        let i = 0;
        for (const key in v) {
          while (i < n && keys[i] !== key) {
            if (!optional[i]) return false;
            i++;
          }
          if (i === n || (!ownOnly && !Object.hasOwn(v, key))) return false; // unknown, repeated or out of order
          if (!tests[i]!(v[key])) return false;
          i++;
        }
        for (; i < n; i++) if (!optional[i]) return false;
        return true;
      };
    }
    default:
      throw new Unsupported(def.type);
  }
}

/** The acceptor of `schema`, or null when the schema uses something it does not support. */
export function compileAcceptor(schema: z.ZodType): Acceptor | null {
  try {
    return compile(schema as unknown as Schema);
  } catch (err) {
    if (err instanceof Unsupported) return null;
    throw err;
  }
}
