/** The real binary over stdio, spawned by the SDK's stdio client. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { CallToolResult } from '@modelcontextprotocol/client';

const root = path.resolve(import.meta.dirname, '../..');
const bin = path.join(root, 'dist/cli.js');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-stdio-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('stdio binary', () => {
  it('speaks MCP on stdout, logs on stderr, creates its database', async () => {
    const db = path.join(tmp, 'sub', 'stdio.db');
    const transport = new StdioClientTransport({ command: process.execPath, args: [bin, '--db', db], stderr: 'pipe', env: { ...process.env, ROBOT_PARTS_LOG_LEVEL: 'info' } as Record<string, string> });
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    await client.connect(transport); // any non-protocol byte on stdout would break this handshake
    const tools = await client.listTools();
    expect(tools.tools.length).toBeGreaterThanOrEqual(4);
    const r = (await client.callTool({ name: 'get_catalogue_stats', arguments: {} })) as CallToolResult;
    expect(r.isError).toBeFalsy();
    expect((r.structuredContent as { license: string }).license).toBe('CC BY 4.0');
    await client.close();
    expect(fs.existsSync(db)).toBe(true);
    expect(stderr).toContain('"msg":"stdio server ready"');
  });

  it('--help on every command, and a clear error for unknown flags', () => {
    const main = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
    expect(main.status).toBe(0);
    expect(main.stdout).toContain('robot-parts-mcp serve');
    const serve = spawnSync(process.execPath, [bin, 'serve', '--help'], { encoding: 'utf8' });
    expect(serve.status).toBe(0);
    expect(serve.stdout).toContain('--stateless');
    const bad = spawnSync(process.execPath, [bin, 'serve', '--port', 'abc'], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--port must be a non-negative integer');
    const unknown = spawnSync(process.execPath, [bin, '--nope'], { encoding: 'utf8' });
    expect(unknown.status).toBe(2);
  });
});

describe('serve binary', () => {
  it('serves REST on a free port and shuts down on SIGTERM', async () => {
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--db', path.join(tmp, 'serve.db')], { stdio: ['ignore', 'pipe', 'pipe'] });
    const url = await new Promise<string>((resolve, reject) => {
      let buf = '';
      const t = setTimeout(() => reject(new Error(`no listening line: ${buf}`)), 20_000);
      child.stderr.on('data', (d: Buffer) => {
        buf += d.toString();
        const m = /"msg":"listening","url":"([^"]+)"/.exec(buf);
        if (m) {
          clearTimeout(t);
          resolve(m[1]);
        }
      });
    });
    const r = await fetch(`${url}/api/search?q=servo`);
    expect(r.status).toBe(200);
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });
});
