/**
 * Tool schemas as JSON Schema, converted once per process and in a form every client we
 * checked can type: no `prefixItems` tuples (`items: false` breaks fastmcp and the Inspector's
 * strict mode), and nullable values as `anyOf: [<schema>, {type: "null"}]` instead of
 * `type: [<type>, "null"]` arrays (which the Inspector warns about).
 */
import { z } from 'zod';

type Json = Record<string, unknown>;

const KEYWORDS_BY_TYPE: Record<string, string[]> = {
  string: ['minLength', 'maxLength', 'pattern', 'format'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  integer: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  array: ['items', 'minItems', 'maxItems', 'uniqueItems', 'prefixItems'],
  object: ['properties', 'required', 'additionalProperties', 'patternProperties', 'propertyNames', 'minProperties', 'maxProperties'],
};
const TYPE_KEYWORDS = new Set(Object.values(KEYWORDS_BY_TYPE).flat().concat(['enum', 'const']));

function keywordsFor(type: string, schema: Json): Json {
  const keep = new Set([...(KEYWORDS_BY_TYPE[type] ?? []), 'enum', 'const']);
  return Object.fromEntries(Object.entries(schema).filter(([k]) => keep.has(k)));
}

function portable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(portable);
  if (node === null || typeof node !== 'object') return node;
  const src = node as Json;
  const out: Json = {};
  for (const [k, v] of Object.entries(src)) {
    // Keys whose values are maps of name -> schema, not schemas themselves.
    if (k === 'properties' || k === '$defs' || k === 'definitions' || k === 'patternProperties') {
      out[k] = Object.fromEntries(Object.entries(v as Json).map(([n, s]) => [n, portable(s)]));
    } else if (k === 'enum' || k === 'const' || k === 'required' || k === 'examples' || k === 'default') {
      out[k] = v;
    } else {
      out[k] = portable(v);
    }
  }
  // Tuple -> array of the union of its members, with the tuple's length kept as min/maxItems.
  if (Array.isArray(out.prefixItems)) {
    const members = out.prefixItems as Json[];
    delete out.prefixItems;
    const distinct = [...new Map(members.map((m) => [JSON.stringify(m), m])).values()];
    out.items = distinct.length === 1 ? distinct[0] : { anyOf: distinct };
    out.minItems ??= members.length;
    out.maxItems ??= members.length;
  }
  // type: ["string", "null"] -> anyOf: [{type: "string", ...}, {type: "null"}] (one type per branch;
  // the type-specific keywords stay on their branch).
  if (Array.isArray(out.type)) {
    const types = out.type as string[];
    const { type: _t, description, title, default: dflt, ...rest } = out;
    const branches = types.map((t) => (t === 'null' ? { type: 'null' } : { type: t, ...keywordsFor(t, rest) }));
    const shared = Object.fromEntries(Object.entries(rest).filter(([k]) => !TYPE_KEYWORDS.has(k)));
    const wrapped: Json = { ...shared, anyOf: branches };
    if (title !== undefined) wrapped.title = title;
    if (description !== undefined) wrapped.description = description;
    if (dflt !== undefined) wrapped.default = dflt;
    return wrapped;
  }
  // An empty schema {} for additional properties or items says "anything": spell it `true`.
  for (const k of ['additionalProperties', 'items']) {
    const v = out[k];
    if (v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0) out[k] = true;
  }
  return out;
}

/** Drops `additionalProperties: false` (an output is typed by its properties; strictness only matters for what a client sends). */
function lenient(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(lenient);
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    if (k === 'additionalProperties' && v === false) continue;
    out[k] = k === 'enum' || k === 'const' || k === 'required' || k === 'examples' || k === 'default' ? v : k === 'properties' ? Object.fromEntries(Object.entries(v as Json).map(([n, s]) => [n, lenient(s)])) : lenient(v);
  }
  return out;
}

/**
 * The JSON Schema of a zod object (no $schema key), in the portable form described above. Output
 * schemas leave out `additionalProperties: false`: every field stays typed, and tools/list is
 * ~6,000 characters shorter.
 */
export function toPortableJsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
  const p = portable(rest) as Json;
  return io === 'output' ? (lenient(p) as Json) : p;
}
