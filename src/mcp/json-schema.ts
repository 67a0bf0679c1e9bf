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

/** Keywords whose values are data (enums, lists of names, examples), never schemas to walk into. */
const LITERAL_KEYS = new Set(['enum', 'const', 'required', 'examples', 'default']);

/** `output`: `additionalProperties: false` is left out (an output is typed by its properties; strictness only matters for what a client sends). */
function portable(node: unknown, io: 'input' | 'output'): unknown {
  if (Array.isArray(node)) return node.map((n) => portable(n, io));
  if (node === null || typeof node !== 'object') return node;
  const src = node as Json;
  const out: Json = {};
  for (const [k, v] of Object.entries(src)) {
    // Keys whose values are maps of name -> schema, not schemas themselves.
    if (k === 'properties' || k === '$defs' || k === 'definitions' || k === 'patternProperties') {
      out[k] = Object.fromEntries(Object.entries(v as Json).map(([n, s]) => [n, portable(s, io)]));
    } else if (io === 'output' && k === 'additionalProperties' && v === false) {
      continue;
    } else if (io === 'output' && ((k === 'minimum' && v === Number.MIN_SAFE_INTEGER) || (k === 'maximum' && v === Number.MAX_SAFE_INTEGER))) {
      continue; // zod's int() bounds: what every JSON integer an answer carries already is
    } else if (io === 'output' && k === 'propertyNames' && JSON.stringify(v) === '{"type":"string"}') {
      continue; // every JSON object key is a string
    } else if (LITERAL_KEYS.has(k)) {
      out[k] = v;
    } else {
      out[k] = portable(v, io);
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
  // anyOf: [anyOf: [a, b], null] -> anyOf: [a, b, null] (a nullable union is one union).
  if (Array.isArray(out.anyOf)) {
    out.anyOf = (out.anyOf as Json[]).flatMap((b) => (b && typeof b === 'object' && Array.isArray(b.anyOf) && Object.keys(b).length === 1 ? (b.anyOf as Json[]) : [b]));
  }
  // An empty schema {} for additional properties or items says "anything": spell it `true`.
  for (const k of ['additionalProperties', 'items']) {
    const v = out[k];
    if (v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0) out[k] = true;
  }
  return out;
}

/** Subtrees shorter than this are never shared; a share must save at least this many characters too. */
const SHARE_MIN_CHARS = 15;

/** A schema node's identity for sharing: its JSON without its own description (kept at each use unless every use has the same). */
function shape(node: Json): string {
  const { description: _d, ...rest } = node;
  return JSON.stringify(rest);
}

/**
 * Output schemas only: a subtree written out two or more times (the same flange side, evidence
 * list or supplier row in several places) is written once under `$defs` and referenced with a
 * local `$ref`; its description goes with it when every use has the same one, else stays at each
 * use. Largest saving first (counted exactly: the references and the definition against the
 * copies), until none saves SHARE_MIN_CHARS. Local `#/$defs/...` references are read by the
 * TypeScript SDK clients (v1 and v2, both validate with Ajv); `test/spine/tools-list-budget.test.ts`
 * validates real answers against the shared form with both.
 */
function share(root: Json): Json {
  const defs: Record<string, Json> = {};
  const used = new Set<string>();
  for (;;) {
    const seen = new Map<string, { node: Json; name: string; count: number; descriptions: Set<unknown> }>();
    const visit = (node: unknown, name: string, isRoot: boolean): void => {
      if (Array.isArray(node)) return node.forEach((n) => visit(n, name, false));
      if (node === null || typeof node !== 'object') return;
      const obj = node as Json;
      if (!isRoot && typeof obj.$ref !== 'string') {
        const k = shape(obj);
        if (k.length >= SHARE_MIN_CHARS) {
          const e = seen.get(k);
          if (e) {
            e.count += 1;
            e.descriptions.add(obj.description);
          } else seen.set(k, { node: obj, name, count: 1, descriptions: new Set([obj.description]) });
        }
      }
      for (const [key, v] of Object.entries(obj)) {
        if (LITERAL_KEYS.has(key)) continue;
        if (key === 'properties' || key === '$defs') for (const [n, c] of Object.entries(v as Json)) visit(c, n, false);
        else visit(v, name, false);
      }
    };
    visit(root, 'root', true);
    for (const d of Object.values(defs)) visit(d, 'def', true);
    let best: { key: string; node: Json; name: string; saving: number; withDescription: boolean } | null = null;
    for (const [key, e] of seen) {
      if (e.count < 2) continue;
      const name = defName(e.name, e.node, used);
      const oneDescription = e.descriptions.size === 1 ? [...e.descriptions][0] : undefined;
      const descChars = typeof oneDescription === 'string' ? JSON.stringify(oneDescription).length + ',"description":'.length : 0;
      // copies (with their one description) against {"$ref":"#/$defs/<name>"} per use and "<name>":<definition>, once
      const saving = e.count * (key.length + descChars) - e.count * (19 + name.length) - (name.length + 4 + key.length + descChars);
      if (saving >= SHARE_MIN_CHARS && (!best || saving > best.saving)) best = { key, node: e.node, name, saving, withDescription: descChars > 0 };
    }
    if (!best) break;
    const { name, withDescription } = best;
    used.add(name);
    const { description: _d, ...def } = best.node;
    const ref = `#/$defs/${name}`;
    const replace = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(replace);
      if (node === null || typeof node !== 'object') return node;
      const obj = node as Json;
      if (typeof obj.$ref !== 'string' && shape(obj) === best!.key) return withDescription || obj.description === undefined ? { $ref: ref } : { $ref: ref, description: obj.description };
      const out: Json = {};
      for (const [k, v] of Object.entries(obj)) {
        if (LITERAL_KEYS.has(k)) out[k] = v;
        else if (k === 'properties' || k === '$defs') out[k] = Object.fromEntries(Object.entries(v as Json).map(([n, c]) => [n, replace(c)]));
        else out[k] = replace(v);
      }
      return out;
    };
    for (const [k, v] of Object.entries(defs)) defs[k] = replace(v) as Json;
    const next = replace(root) as Json;
    for (const k of Object.keys(root)) delete root[k];
    Object.assign(root, next);
    defs[name] = withDescription ? { ...def, description: best.node.description } : def;
  }
  return Object.keys(defs).length > 0 ? { ...root, $defs: defs } : root;
}

/**
 * A definition's name: for a bare type the type it is, abbreviated ("str", "str_n" for a string or
 * null, "strs" for a list of strings: tools/list refers to them a few hundred times, issue 43's
 * room), so that a field referring to it never reads as another field; else the property it was
 * first found at. Made unique.
 */
function defName(found: string, node: Json, used: Set<string>): string {
  const base = typeName(node) ?? (found.replace(/[^A-Za-z0-9_]/g, '_') || 'shared');
  let name = base;
  for (let i = 2; used.has(name); i++) name = `${base}_${i}`;
  return name;
}

const TYPE_ABBREVIATIONS: Record<string, string> = { string: 'str', number: 'num', integer: 'int', boolean: 'bool', object: 'obj', array: 'arr', null: 'null' };

function typeName(node: Json): string | undefined {
  const { description: _d, ...rest } = node;
  const keys = Object.keys(rest);
  if (keys.length === 1 && typeof rest.type === 'string') return TYPE_ABBREVIATIONS[rest.type] ?? rest.type;
  if (keys.length === 1 && Array.isArray(rest.anyOf) && rest.anyOf.length === 2 && (rest.anyOf[1] as Json).type === 'null' && Object.keys(rest.anyOf[1] as Json).length === 1) {
    const first = typeName(rest.anyOf[0] as Json);
    return first && `${first}_n`;
  }
  if (keys.length === 2 && rest.type === 'array' && rest.items && typeof rest.items === 'object') {
    const item = typeName(rest.items as Json);
    return item && `${item}s`;
  }
  return undefined;
}

/**
 * The JSON Schema of a zod object (no $schema key), in the portable form described above. Output
 * schemas leave out `additionalProperties: false` (every field stays typed) and write a repeated
 * subtree once (see share).
 */
export function toPortableJsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
  const p = portable(rest, io) as Json;
  return io === 'output' ? share(p) : p;
}
