/**
 * The extract and lint routes accept the documented 2 MiB of content on every surface (REST, MCP
 * over HTTP, stdio binary) and refuse more with 413 / payload_too_large naming the limit; other
 * routes keep the general body limit.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { startHttpServer, type RunningServer } from '../../src/http/app.js';
import type { Deps } from '../../src/deps.js';
import { testDeps } from '../support/deps.js';
import { errorBody } from '../support/mcp.js';
import { ROOT } from './helpers.js';

const MIB = 1024 * 1024;
const LIMIT = 2 * MIB;

/** A synthetic URDF of about `bytes` bytes of UTF-8: a chain of revolute joints. */
function bigUrdf(bytes: number): { text: string; joints: number } {
  const head = '<?xml version="1.0"?>\n<robot name="big">\n<link name="l0"/>\n';
  const tail = '</robot>\n';
  const unit = (i: number) =>
    `<link name="l${i + 1}"/>\n<joint name="j${i}" type="revolute"><parent link="l${i}"/><child link="l${i + 1}"/><origin xyz="0 0 0.05" rpy="0 0 0"/><axis xyz="0 0 1"/><dynamics damping="0.1" friction="0.01"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>\n`;
  let body = '';
  let i = 0;
  while (head.length + body.length + tail.length + unit(i).length <= bytes) body += unit(i++);
  let text = head + body + tail;
  text = text.replace('</robot>', `<!--${' '.repeat(bytes - Buffer.byteLength(text) - 7 > 0 ? bytes - Buffer.byteLength(text) - 7 : 0)}-->\n</robot>`);
  return { text, joints: i };
}

const small = bigUrdf(Math.floor(1.9 * MIB));
const large = bigUrdf(Math.floor(2.1 * MIB));

let deps: Deps;
let srv: RunningServer;
beforeAll(async () => {
  deps = testDeps(undefined, { dataDir: path.join(ROOT, 'data') });
  srv = await startHttpServer(deps);
});
afterAll(async () => {
  await srv.close();
  deps.close();
});

describe('sizes', () => {
  it('the fixtures are 1.9 MiB and 2.1 MiB of UTF-8', () => {
    expect(Math.abs(Buffer.byteLength(small.text) - 1.9 * MIB)).toBeLessThan(16);
    expect(Math.abs(Buffer.byteLength(large.text) - 2.1 * MIB)).toBeLessThan(16);
    expect(deps.config.bodyLimitBytes).toBeLessThan(Buffer.byteLength(small.text)); // the general limit alone would refuse it
  });
});

describe('REST', () => {
  const post = (p: string, body: unknown) => fetch(`${srv.url}${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('POST /api/oss/extract: 1.9 MiB accepted, every joint read', async () => {
    const r = await post('/api/oss/extract', { content: small.text });
    expect(r.status).toBe(200);
    const o = (await r.json()) as { counts: { joints_by_type: Record<string, number> } };
    expect(o.counts.joints_by_type).toEqual({ revolute: small.joints });
  });

  it('POST /api/oss/extract and /api/oss/lint: 2.1 MiB refused, 413 payload_too_large naming the 2 MiB limit', async () => {
    for (const p of ['/api/oss/extract', '/api/oss/lint']) {
      const r = await post(p, { content: large.text });
      expect(r.status).toBe(413);
      expect(await r.json()).toMatchObject({ code: 'payload_too_large', field: 'content', limit_bytes: LIMIT });
    }
  });

  it('POST /api/oss/lint: 1.9 MiB accepted', async () => {
    const r = await post('/api/oss/lint', { content: small.text });
    expect(r.status).toBe(200);
    expect(((await r.json()) as { summary: { joints: number } }).summary.joints).toBe(small.joints);
  });

});

describe('MCP over HTTP', () => {
  it('1.9 MiB accepted; 2.1 MiB refused with payload_too_large naming the limit; another tool above the general limit gets 413', async () => {
    expect(small.joints).toBeLessThan(10_000); // under the record limit: every joint is a record
    const client = new Client({ name: 'body-limit', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`)));
    try {
      const ok = (await client.callTool({ name: 'extract_robot_parts', arguments: { content: small.text } })) as CallToolResult;
      expect(ok.isError).toBeFalsy();
      expect((ok.structuredContent as { counts: { dof: number } }).counts.dof).toBe(small.joints);
      const big = (await client.callTool({ name: 'extract_robot_parts', arguments: { content: large.text } })) as CallToolResult;
      expect(errorBody(big)).toMatchObject({ code: 'payload_too_large', field: 'content', limit_bytes: LIMIT });
      const other = await client.callTool({ name: 'get_part', arguments: { id: 'x'.repeat(deps.config.bodyLimitBytes) } }).catch((e: Error) => e);
      expect(other).toBeInstanceOf(Error);
      expect(String((other as Error).message)).toMatch(/413|exceeds/);
    } finally {
      await client.close();
    }
  });
});

describe.skipIf(!fs.existsSync(path.join(ROOT, 'dist/cli.js')))('stdio binary', () => {
  it('1.9 MiB accepted; 2.1 MiB refused with payload_too_large', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-body-'));
    const transport = new StdioClientTransport({ command: process.execPath, args: [path.join(ROOT, 'dist/cli.js'), '--db', path.join(tmp, 'db.sqlite')], stderr: 'pipe' });
    const client = new Client({ name: 'body-limit-stdio', version: '1.0.0' });
    await client.connect(transport);
    try {
      const ok = (await client.callTool({ name: 'extract_robot_parts', arguments: { content: small.text } })) as CallToolResult;
      expect(ok.isError).toBeFalsy();
      expect((ok.structuredContent as { counts: { dof: number } }).counts.dof).toBe(small.joints);
      const big = (await client.callTool({ name: 'lint_urdf', arguments: { content: large.text } })) as CallToolResult;
      expect(errorBody(big)).toMatchObject({ code: 'payload_too_large', field: 'content', limit_bytes: LIMIT });
    } finally {
      await client.close();
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});

// Last: a refused oversized body may leave its keep-alive connection closed under the client.
describe('other routes', () => {
  it('keep the general limit', async () => {
    const r = await fetch(`${srv.url}/api/bom/check`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items: [], pad: 'x'.repeat(deps.config.bodyLimitBytes) }) });
    expect(r.status).toBe(413);
    expect(await r.json()).toMatchObject({ code: 'payload_too_large', limit_bytes: deps.config.bodyLimitBytes });
  });
});
