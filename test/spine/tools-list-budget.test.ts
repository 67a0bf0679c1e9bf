/**
 * tools/list stays small enough for an agent's context, and the shared form of the output schemas
 * (a repeated subtree written once under $defs, referenced with a local $ref) is read by both
 * TypeScript SDK clients: each validates the structured answers of real calls against it.
 */
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../src/deps.js';
import { realDeps } from '../support/deps.js';
import { startRealServer } from '../support/http.js';
import { memoryClient } from '../support/mcp.js';

/** Characters of the tools/list result. The goal of issue 26 is 100,000 (not met: 136,288 with design_adapter_plate, the package inputs and the product links); this keeps it from growing unnoticed. */
const TOOLS_LIST_BUDGET = 140_000;

/** Calls whose answers exercise the shared ($defs) parts of the output schemas. */
const CALLS: { name: string; arguments: Record<string, unknown> }[] = [
  { name: 'rule_flange', arguments: { a: 'ISO9409-1-A50-4-M6', b: 'ISO9409-1-A63-4-M6' } },
  { name: 'check_compatibility', arguments: { a: 'ACT-001', b: 'ACT-002' } },
  { name: 'convert_parameter', arguments: { value: '15 kgf·cm', compare_with: '1.2 N·m' } },
  { name: 'list_parts', arguments: { category: 'actuators', limit: 3 } },
  { name: 'find_where_used', arguments: { q: 'STS3215' } },
  { name: 'get_analytics', arguments: { category: 'actuators' } },
];

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
