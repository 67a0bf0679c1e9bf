/** Prompts through the MCP client: real templates that call our tools with their real argument names. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../src/deps.js';
import { PROMPTS } from '../../src/prompts/index.js';
import { TOOLS } from '../../src/tools/index.js';
import { testDeps } from '../support/deps.js';
import { memoryClient } from '../support/mcp.js';

const ARGS: Record<string, Record<string, string>> = {
  select_actuator: { requirements: 'knee joint, >= 40 Nm rated, EtherCAT, 48 V', category: 'actuators', candidates: '3' },
  plan_bom: { description: 'small biped', parts: 'ACT-001 x4, SENS-001', format: 'json' },
  check_mounting: { a: 'ACT-001', b: 'ACT-002' },
};

describe('prompts', () => {
  let deps: Deps;
  let mcp: Awaited<ReturnType<typeof memoryClient>>;
  beforeAll(async () => {
    deps = testDeps();
    mcp = await memoryClient(deps);
  });
  afterAll(async () => {
    await mcp.close();
    deps.close();
  });

  async function text(name: string, args: Record<string, string>): Promise<string> {
    const r = await mcp.client.getPrompt({ name, arguments: args });
    expect(r.messages).toHaveLength(1);
    expect(r.messages[0].role).toBe('user');
    return (r.messages[0].content as { text: string }).text;
  }

  it.each(PROMPTS.map((p) => p.name))('%s names only tools that exist, with argument names of their input schema', async (name) => {
    const t = await text(name, ARGS[name]);
    const byName = new Map(TOOLS.map((tool) => [tool.name, tool]));
    const calls = [...t.matchAll(/\b([a-z]+(?:_[a-z]+)+)\(([^)]*)\)/g)];
    expect(calls.length).toBeGreaterThanOrEqual(2);
    for (const [, tool, inner] of calls) {
      const def = byName.get(tool);
      expect(def, `${name} mentions ${tool}`).toBeDefined();
      const fields = Object.keys(def!.inputSchema.shape);
      // Argument names written as `name:` or bare `name` (comma-separated) must be fields of the tool.
      for (const arg of inner.split(',').map((a) => a.trim().split(':')[0].trim()).filter((a) => /^[a-z_]+$/.test(a))) {
        expect(fields, `${tool}(${inner}) in ${name}`).toContain(arg);
      }
    }
  });

  it.each(PROMPTS.map((p) => p.name))('%s: every spec field it puts in a where clause is one list_spec_fields lists', async (name) => {
    const t = await text(name, ARGS[name]);
    const listed = await mcp.client.callTool({ name: 'list_spec_fields', arguments: {} });
    const fields = new Set((listed.structuredContent as { fields: { name: string }[] }).fields.map((f) => f.name));
    const wheres = [...t.matchAll(/where: "([^"]+)"/g)].map((m) => m[1]);
    for (const w of wheres) {
      for (const clause of w.split(';')) {
        const field = /^\s*([a-z_]+)/.exec(clause)?.[1];
        expect(field && fields.has(field), `${name}: field of "${clause.trim()}"`).toBe(true);
      }
    }
  });

  it('the prompts steer to the fewest calls: spec filters for selection, one compatibility call for mounting, where-used for prices', async () => {
    const select = await text('select_actuator', ARGS.select_actuator);
    expect(select).toMatch(/search_parts\(where, category: "actuators"/);
    expect(select).toContain('list_spec_fields(');
    expect(select).toContain('find_alternatives(');
    expect(select).not.toMatch(/list_parts\(/);
    const mount = await text('check_mounting', ARGS.check_mounting);
    expect(mount.match(/\b[a-z]+(?:_[a-z]+)+\(/g)?.filter((c) => c !== 'rule_flange(')).toEqual(['check_compatibility(']);
    const plan = await text('plan_bom', ARGS.plan_bom);
    expect(plan).toContain('find_where_used(');
    expect(plan).toContain('check_bom(items)');
  });

  it('select_actuator carries the requirements, category and candidate count', async () => {
    const t = await text('select_actuator', ARGS.select_actuator);
    expect(t).toContain('knee joint, >= 40 Nm rated, EtherCAT, 48 V');
    expect(t).toContain('search_parts(where, category: "actuators"');
    expect(t).toContain('compare_parts(ids) with the 3 best hits');
    expect(await text('select_actuator', { requirements: 'x' })).toContain('compare_parts(ids) with the 5 best hits');
  });

  it('plan_bom turns the part list into check_bom items and keeps the export format', async () => {
    const t = await text('plan_bom', ARGS.plan_bom);
    expect(t).toContain(JSON.stringify([{ id: 'ACT-001', quantity: 4 }, { id: 'SENS-001', quantity: 1 }]));
    expect(t).toContain('format: "json"');
    expect(await text('plan_bom', { description: 'arm' })).toContain('format: "csv"');
  });

  it('unknown prompt, unknown argument and missing argument are -32602 naming the fix', async () => {
    await expect(mcp.client.getPrompt({ name: 'nope', arguments: {} })).rejects.toThrow(/Unknown prompt "nope"; the prompts are select_actuator, plan_bom, check_mounting/);
    await expect(mcp.client.getPrompt({ name: 'check_mounting', arguments: { a: 'ACT-001', b: 'ACT-002', c: 'x' } })).rejects.toThrow(/unknown argument "c"/);
    await expect(mcp.client.getPrompt({ name: 'plan_bom', arguments: {} })).rejects.toThrow(/"description" is required/);
    await expect(mcp.client.complete({ ref: { type: 'ref/prompt', name: 'plan_bom' }, argument: { name: 'zzz', value: '' } })).rejects.toThrow(/no argument "zzz"/);
  });
});
