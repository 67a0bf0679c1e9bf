/**
 * tools/list stays small enough for an agent's context, and the shared form of the output schemas
 * (a repeated subtree written once under $defs, referenced with a local $ref) is read by both
 * TypeScript SDK clients: each validates the structured answers of real calls against it.
 */
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Deps } from '../../src/deps.js';
import { TOOLS } from '../../src/tools/index.js';
import { realDeps } from '../support/deps.js';
import { startRealServer } from '../support/http.js';
import { memoryClient } from '../support/mcp.js';

/** Characters of the tools/list result: issue 26's budget (136,288 before the output schemas were compacted and the descriptions trimmed). */
const TOOLS_LIST_BUDGET = 100_000;

/** Calls whose answers exercise the shared ($defs) parts of the output schemas. */
const CALLS: { name: string; arguments: Record<string, unknown> }[] = [
  { name: 'rule_flange', arguments: { a: 'ISO9409-1-A50-4-M6', b: 'ISO9409-1-A63-4-M6' } },
  { name: 'check_compatibility', arguments: { a: 'ACT-001', b: 'ACT-002' } },
  { name: 'convert_parameter', arguments: { value: '15 kgf·cm', compare_with: '1.2 N·m' } },
  { name: 'list_parts', arguments: { category: 'actuators', limit: 3 } },
  { name: 'find_where_used', arguments: { q: 'STS3215' } },
  { name: 'get_analytics', arguments: { category: 'actuators' } },
];

type Json = Record<string, unknown>;

/**
 * The typed skeleton of a JSON Schema: for every path (`.prop`, `[]` for items, `{}` for
 * additional properties) the set of types, enums, consts, required lists and bounds found there,
 * through anyOf/oneOf/allOf branches, type arrays, tuples and local $refs. Written here, apart from
 * src/mcp/json-schema.ts, so the listed (shared, portable) form is checked against zod's own output.
 * Safe-integer bounds are left out (zod writes them on every int(); the listed form drops them).
 */
function skeleton(root: Json): Record<string, string[]> {
  const out = new Map<string, Set<string>>();
  const add = (path: string, fact: string) => {
    let s = out.get(path);
    if (!s) out.set(path, (s = new Set()));
    s.add(fact);
  };
  const defs = { ...((root.$defs ?? {}) as Json), ...((root.definitions ?? {}) as Json) };
  const walk = (node: unknown, path: string, refs: string[]): void => {
    if (node === true || (typeof node === 'object' && node !== null && Object.keys(node).length === 0)) return add(path, 'any');
    if (node === null || typeof node !== 'object') return;
    const n = node as Json;
    if (typeof n.$ref === 'string') {
      const name = n.$ref.replace(/^#\/(\$defs|definitions)\//, '');
      if (refs.includes(name)) return add(path, `recursive:${name}`);
      walk(defs[name], path, [...refs, name]);
    }
    for (const k of ['anyOf', 'oneOf', 'allOf'] as const) if (Array.isArray(n[k])) for (const b of n[k] as unknown[]) walk(b, path, refs);
    if (Array.isArray(n.type)) for (const t of n.type as string[]) walk({ ...n, type: t }, path, refs);
    else if (typeof n.type === 'string') add(path, `type:${n.type}`);
    if (Array.isArray(n.enum)) add(path, `enum:${JSON.stringify([...(n.enum as unknown[])].sort())}`);
    if ('const' in n) add(path, `const:${JSON.stringify(n.const)}`);
    if (Array.isArray(n.required)) add(path, `required:${JSON.stringify([...(n.required as string[])].sort())}`);
    for (const k of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'pattern', 'format']) {
      const v = n[k];
      if (v !== undefined && v !== Number.MAX_SAFE_INTEGER && v !== Number.MIN_SAFE_INTEGER) add(path, `${k}:${JSON.stringify(v)}`);
    }
    for (const [p, c] of Object.entries((n.properties ?? {}) as Json)) walk(c, `${path}.${p}`, refs);
    if (n.items !== undefined && n.items !== false) walk(n.items, `${path}[]`, refs);
    if (Array.isArray(n.prefixItems)) for (const c of n.prefixItems) walk(c, `${path}[]`, refs);
    if (n.additionalProperties !== undefined && n.additionalProperties !== false) walk(n.additionalProperties, `${path}{}`, refs);
  };
  walk(root, '', []);
  return Object.fromEntries([...out].sort(([a], [b]) => a.localeCompare(b)).map(([p, s]) => [p, [...s].sort()]));
}

const hasDefs = (s: unknown) => typeof s === 'object' && s !== null && '$defs' in s;

describe('tools/list size and the shared output schemas', () => {
  let deps: Deps;
  let mcp: Awaited<ReturnType<typeof memoryClient>>;
  let srv: Awaited<ReturnType<typeof startRealServer>>;
  beforeAll(async () => {
    deps = realDeps();
    mcp = await memoryClient(deps);
    srv = await startRealServer();
  });
  afterAll(async () => {
    await mcp.close();
    deps.close();
    await srv.stop();
  });

  it(`tools/list is at most ${TOOLS_LIST_BUDGET} characters, with no icon repeated per tool`, async () => {
    const { tools } = await mcp.client.listTools();
    const size = JSON.stringify({ tools }).length;
    console.log(`tools/list: ${size} characters`);
    expect(size).toBeLessThanOrEqual(TOOLS_LIST_BUDGET);
    expect(tools.filter((t) => t.icons)).toEqual([]);
    expect(tools.filter((t) => hasDefs(t.outputSchema)).length).toBeGreaterThanOrEqual(5);
    expect(tools.filter((t) => hasDefs(t.inputSchema))).toEqual([]); // input schemas stay inline
  });

  it.each(['input', 'output'] as const)('no typed field is lost: each listed %s schema has the paths, types, enums and required lists of zod\'s own JSON Schema', async (io) => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS.map((t) => t.name).sort());
    for (const tool of TOOLS) {
      const listed = tools.find((t) => t.name === tool.name)!;
      const source = z.toJSONSchema(io === 'input' ? tool.inputSchema : tool.outputSchema, { io, unrepresentable: 'any' }) as Json;
      const expected = skeleton(source);
      expect(Object.keys(expected).length, tool.name).toBeGreaterThan(io === 'input' ? 0 : 1);
      expect(skeleton((io === 'input' ? listed.inputSchema : listed.outputSchema) as Json), `${tool.name} ${io}`).toEqual(expected);
    }
  });

  it('the skeleton sees a lost field, a lost enum value and a lost required name', () => {
    const base = { type: 'object', properties: { a: { anyOf: [{ type: 'string', enum: ['x', 'y'] }, { type: 'null' }] }, b: { type: 'integer' } }, required: ['a', 'b'] };
    const same = { type: 'object', properties: { a: { $ref: '#/$defs/e' }, b: { type: 'integer', minimum: Number.MIN_SAFE_INTEGER } }, required: ['b', 'a'], $defs: { e: { type: ['string', 'null'], enum: ['y', 'x'] } } };
    expect(skeleton(same)).toEqual(skeleton(base));
    expect(skeleton({ ...base, properties: { a: base.properties.a } })).not.toEqual(skeleton(base));
    expect(skeleton({ ...base, properties: { ...base.properties, a: { anyOf: [{ type: 'string', enum: ['x'] }, { type: 'null' }] } } })).not.toEqual(skeleton(base));
    expect(skeleton({ ...base, required: ['a'] })).not.toEqual(skeleton(base));
  });

  it('the v2 client validates real answers against the shared schemas', async () => {
    await mcp.client.listTools(); // caches the output validators
    for (const c of CALLS) {
      const r = await mcp.client.callTool(c);
      expect(r.isError, c.name).toBeFalsy();
      expect(r.structuredContent, c.name).toBeDefined();
    }
  });

  it('the v1 client (@modelcontextprotocol/sdk) over Streamable HTTP validates the same answers', async () => {
    const client = new V1Client({ name: 'v1-test', version: '1.0.0' });
    await client.connect(new V1HttpTransport(new URL(`${srv.url}/mcp`)));
    try {
      await client.listTools();
      for (const c of CALLS) {
        const r = await client.callTool(c);
        expect(r.isError, c.name).toBeFalsy();
        expect(r.structuredContent, c.name).toBeDefined();
      }
    } finally {
      await client.close();
    }
  });

  it('a $ref is followed, not skipped: a wrong type inside a shared part fails validation', async () => {
    const { tools } = await mcp.client.listTools();
    const tool = tools.find((t) => t.name === 'rule_flange')!;
    expect(JSON.stringify(tool.outputSchema)).toContain('"$ref":"#/$defs/');
    const validate = new Ajv2020({ strict: false }).compile(tool.outputSchema!);
    const r = await mcp.client.callTool(CALLS[0]);
    expect(validate(r.structuredContent)).toBe(true);
    const broken = structuredClone(r.structuredContent) as { ruling: { side_a: Record<string, unknown> } };
    expect(broken.ruling.side_a).toBeDefined();
    broken.ruling.side_a.pcd_mm = 'fifty';
    expect(validate(broken)).toBe(false);
  });
});
