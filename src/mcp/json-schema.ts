/**
 * Tool schemas as JSON Schema, converted once per process and in a form every client we
 * checked can type: no `prefixItems` tuples (`items: false` breaks fastmcp and the Inspector's
 * strict mode), and nullable values as `anyOf: [<schema>, {type: "null"}]` instead of
 * `type: [<type>, "null"]` arrays (which the Inspector warns about).
 */
import { z } from 'zod';

type Json = Record<string, unknown>;

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
  // type: ["string", "null"] -> anyOf: [{type: "string", ...}, {type: "null"}]
  if (Array.isArray(out.type)) {
    const types = out.type as string[];
    if (types.includes('null') && types.length === 2) {
      const { type: _t, description, title, default: dflt, ...rest } = out;
      const base: Json = { type: types.find((t) => t !== 'null'), ...rest };
      const wrapped: Json = { anyOf: [base, { type: 'null' }] };
      if (title !== undefined) wrapped.title = title;
      if (description !== undefined) wrapped.description = description;
      if (dflt !== undefined) wrapped.default = dflt;
      return wrapped;
    }
  }
  return out;
}

/** The JSON Schema of a zod object (no $schema key), in the portable form described above. */
export function toPortableJsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
  return portable(rest) as Json;
}
