/** The new tools and where filters through the real binary over stdio (SDK stdio client). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

const root = path.resolve(import.meta.dirname, '../..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-specs-stdio-'));
let client: Client;

async function callText(name: string, args: Record<string, unknown>): Promise<{ r: CallToolResult; json: Record<string, unknown> }> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (r.content[0] as { text: string }).text;
  // What a host that forwards only text sees: the summary line, then the whole result.
  const json = JSON.parse(text.slice(text.indexOf('\n') + 1)) as Record<string, unknown>;
  return { r, json };
}

beforeAll(async () => {
  const env = { ...process.env } as Record<string, string>;
  delete env.ROBOT_PARTS_PUBLIC_URL;
  const transport = new StdioClientTransport({ command: process.execPath, args: [path.join(root, 'dist/cli.js'), '--db', path.join(tmp, 'x.db')], stderr: 'pipe', env });
  client = new Client({ name: 'specs-stdio', version: '1.0.0' });
  await client.connect(transport);
});
afterAll(async () => {
  await client.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('spec tools over stdio', () => {
  it('search_parts with where: hits without detail_url (no server is listening), text = the structured result', async () => {
    const { r, json } = await callText('search_parts', { where: 'torque_rated>=30 N·m; voltage covers 48 V; bus in EtherCAT|CAN' });
    expect(r.isError).toBeFalsy();
    expect(json).toEqual(r.structuredContent);
    const data = json.data as Record<string, unknown>[];
    expect(data.length).toBeGreaterThan(0);
    for (const h of data) expect(h.detail_url).toBeUndefined();
  });

  it('list_spec_fields, compare_parts and find_alternatives answer', async () => {
    const f = await callText('list_spec_fields', { category: 'reducers' });
    expect((f.json.fields as { name: string }[]).map((x) => x.name)).toContain('gear_ratio');
    const c = await callText('compare_parts', { ids: ['REDUCER-HD-25', 'REDUCER-GH-25'] });
    expect((c.json.rows as { field: string; comparable: boolean }[]).find((x) => x.field === 'gear_ratio')?.comparable).toBe(true);
    const a = await callText('find_alternatives', { id: 'ACT-016', limit: 3 });
    expect((a.json.part as { same_as: { id: string }[] }).same_as.map((l) => l.id)).toContain('ACT-3275');
    expect((a.json.alternatives as unknown[]).length).toBe(3);
    const bad = (await client.callTool({ name: 'find_alternatives', arguments: { id: 'ACT-016', limt: 3 } })) as CallToolResult;
    expect(bad.isError).toBe(true);
    expect((bad.content[0] as { text: string }).text).toMatch(/^invalid_input: limt: unknown argument \(did you mean "limit"\?\)/);
  });
});
