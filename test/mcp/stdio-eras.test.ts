/** The real binary over stdio in both eras (v2 client), and its answers to lines that are not a message. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { Client, ProtocolError, type CallToolResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { eraOptions } from '../support/mcp.js';

const root = path.resolve(import.meta.dirname, '../..');
const bin = path.join(root, 'dist/cli.js');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-stdio-eras-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe.each(['legacy', 'modern'] as const)('stdio binary, %s era', (era) => {
  it('lists, calls, reads, completes; a missing resource is -32602 with data.uri', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [bin, '--db', path.join(tmp, `${era}.db`)], stderr: 'pipe' });
    const client = new Client({ name: `stdio-${era}`, version: '1.0.0' }, eraOptions(era) as never);
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('export_bom');
      const r = (await client.callTool({ name: 'get_catalogue_stats', arguments: {} })) as CallToolResult;
      expect((r.structuredContent as { license: string }).license).toBe('CC BY 4.0');
      const ds = await client.readResource({ uri: 'robotparts://datasets/flange-rulings' });
      expect(ds.contents[0].mimeType).toBe('application/json');
      const uri = 'robotparts://parts/NO-SUCH-PART';
      const err = await client.readResource({ uri }).then(
        () => null,
        (e: unknown) => e as ProtocolError,
      );
      expect(err).toBeInstanceOf(ProtocolError);
      expect(err?.code).toBe(-32602);
      expect(err?.data).toEqual({ uri });
      const { prompts } = await client.listPrompts();
      expect(prompts.map((p) => p.name)).toEqual(['select_actuator', 'plan_bom', 'check_mounting']);
      const c = await client.complete({ ref: { type: 'ref/prompt', name: 'plan_bom' }, argument: { name: 'format', value: 'c' } });
      expect(c.completion).toEqual({ values: ['csv'], total: 1, hasMore: false });
    } finally {
      await client.close();
    }
  });
});

/** Writes lines to a fresh stdio server and collects the JSON lines it answers. */
async function exchange(lines: string[], expected: number): Promise<Record<string, unknown>[]> {
  const child = spawn(process.execPath, [bin, '--db', path.join(tmp, 'raw.db')], { stdio: ['pipe', 'pipe', 'ignore'] });
  const out: Record<string, unknown>[] = [];
  let buf = '';
  const done = new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`only ${out.length} answers: ${JSON.stringify(out)}`)), 30_000);
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      let nl;
      while ((nl = buf.indexOf('\n')) !== -1) {
        out.push(JSON.parse(buf.slice(0, nl)) as Record<string, unknown>);
        buf = buf.slice(nl + 1);
      }
      if (out.length >= expected) {
        clearTimeout(t);
        resolve();
      }
    });
  });
  for (const l of lines) child.stdin.write(l + '\n');
  try {
    await done;
  } finally {
    child.kill();
  }
  return out;
}

describe('stdio answers what is not a message with a JSON-RPC error', () => {
  it('a malformed line, a batch and a non-message, then still serves the session', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
    const out = await exchange(
      ['{not json', JSON.stringify([{ jsonrpc: '2.0', id: 9, method: 'ping' }]), JSON.stringify({ hello: 'world', id: 4 }), JSON.stringify(init)],
      4,
    );
    expect(out[0]).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringContaining('not valid JSON') } });
    expect(out[1]).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('batches are not supported') } });
    expect(out[2]).toMatchObject({ jsonrpc: '2.0', id: 4, error: { code: -32600 } });
    expect(out[3]).toMatchObject({ jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-11-25', serverInfo: { name: 'robot-parts-mcp' } } });
  });
});
