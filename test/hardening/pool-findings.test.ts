/**
 * Regression tests for finding N1 of the second attack run (issue 23): CPU-heavy calls ran on
 * the event loop (a lint blocked /healthz for a minute). Now they run in the worker pool
 * (src/jobs/pool.ts) under per-job limits. Real server on loopback, the real MCP client over
 * HTTP and the real stdio binary; no timing assertions (the order of answers and the codes).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { Config } from '../../src/config.js';
import { errorBody } from '../support/mcp.js';
import { startTestServer } from '../support/http.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * A valid but heavy URDF (about 1.3 MB): a chain of `n` revolute joints, none with <limit>, so
 * every joint is an error finding. Any lint reads all of it and answers thousands of findings.
 */
function heavyUrdf(n = 12_000): string {
  const parts = ['<?xml version="1.0"?>\n<robot name="heavy">\n<link name="l0"/>\n'];
  for (let i = 1; i <= n; i++) parts.push(`<link name="l${i}"/>\n<joint name="j${i}" type="revolute"><parent link="l${i - 1}"/><child link="l${i}"/><axis xyz="0 0 1"/></joint>\n`);
  parts.push('</robot>\n');
  return parts.join('');
}
const HEAVY = heavyUrdf();

type Server = Awaited<ReturnType<typeof startTestServer>>;
let server: Server | null = null;
afterEach(async () => {
  await server?.stop();
  server = null;
});

async function start(overrides: Partial<Config>): Promise<Server> {
  server = await startTestServer(undefined, overrides);
  return server;
}

const lint = (url: string, content: string) =>
  fetch(`${url}/api/oss/lint`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ content }) });

interface Health {
  status: string;
  pool?: { busy: number; queued: number; completed: number; timeouts: number; workers_replaced: number; rejected_queue_full: number };
}
const health = async (url: string) => (await (await fetch(`${url}/healthz`)).json()) as Health;

/** Polls /healthz until `until` holds for an answer; fails when `stop()` turns true first. */
async function healthUntil(url: string, until: (h: Health) => boolean, stop: () => boolean): Promise<Health> {
  for (;;) {
    const h = await health(url);
    if (until(h)) return h;
    if (stop()) throw new Error(`/healthz never showed the awaited state before the work ended (last: ${JSON.stringify(h)})`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('finding N1: heavy calls run off the event loop, under per-job limits', () => {
  it('finding N1: /healthz answers while heavy lints run (one worker, three lints of 1.3 MB)', { timeout: 240_000 }, async () => {
    const { url } = await start({ poolSize: 1, poolQueue: 4, jobTimeMs: 200_000 });
    let settled = 0;
    const lints = [0, 1, 2].map(() => lint(url, HEAVY).then(async (r) => ((settled += 1), { status: r.status, body: (await r.json()) as { summary?: { errors: number } } })));
    // Answered while the worker holds a lint and the others wait: the event loop is free.
    const during = await healthUntil(url, (h) => (h.pool?.busy ?? 0) === 1 && settled === 0, () => settled > 0);
    expect(during.status).toBe('ok');
    expect(settled).toBe(0);
    const answers = await Promise.all(lints);
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.body.summary?.errors).toBeGreaterThanOrEqual(12_000); // every joint lacks <limit>
    }
    expect((await health(url)).pool?.completed).toBe(3);
  });

  it('finding N1: a job over the time limit is refused with limit_exceeded naming the limit; the worker is replaced', { timeout: 120_000 }, async () => {
    const { url } = await start({ poolSize: 1, jobTimeMs: 1 });
    const res = await lint(url, HEAVY);
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ code: 'limit_exceeded', limit: 'time_ms', limit_value: 1, setting: 'ROBOT_PARTS_JOB_TIME_MS' });
    const h = await health(url);
    expect(h.pool).toMatchObject({ timeouts: 1, workers_replaced: 1, busy: 0 });
  });
});

describe('worker pool limits on every surface', () => {
  it('a full queue answers 503 with Retry-After (REST) and overloaded with retry_after (MCP over HTTP)', { timeout: 240_000 }, async () => {
    const { url } = await start({ poolSize: 1, poolQueue: 0, jobTimeMs: 200_000 });
    let done = false;
    const first = lint(url, HEAVY).then((r) => ((done = true), r.status));
    await healthUntil(url, (h) => (h.pool?.busy ?? 0) + (h.pool?.queued ?? 0) === 1, () => done);
    const refused = await lint(url, '<robot name="r"><link name="a"/></robot>');
    expect(refused.status).toBe(503);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);
    expect(await refused.json()).toMatchObject({ code: 'overloaded', retry_after: retryAfter, pool_size: 1, queue_limit: 0 });

    const client = new Client({ name: 'pool-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
    try {
      const r = (await client.callTool({ name: 'extract_robot_parts', arguments: { content: '<robot name="r"><link name="a"/></robot>' } })) as CallToolResult;
      expect(done).toBe(false);
      expect(errorBody(r)).toMatchObject({ code: 'overloaded', pool_size: 1 });
      expect(typeof errorBody(r).retry_after).toBe('number');
    } finally {
      await client.close();
    }
    expect(await first).toBe(200);
    const after = await lint(url, '<robot name="r"><link name="a"/></robot>');
    expect(after.status).toBe(200);
    expect((await health(url)).pool?.rejected_queue_full).toBe(2);
  });

  it('an answer over the output limit is refused with limit_exceeded naming output_bytes', { timeout: 120_000 }, async () => {
    const { url } = await start({ poolSize: 1, jobOutputBytes: 4096 });
    const res = await lint(url, heavyUrdf(200));
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ code: 'limit_exceeded', limit: 'output_bytes', limit_value: 4096, setting: 'ROBOT_PARTS_JOB_OUTPUT_BYTES' });
    // A small answer still passes.
    expect((await lint(url, '<robot name="r"><link name="a"/></robot>')).status).toBe(200);
  });

  it.skipIf(!fs.existsSync(path.join(ROOT, 'dist/cli.js')))('stdio: the same pool and limits (limit_exceeded as an error result; stdout stays the protocol)', { timeout: 120_000 }, async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-pool-'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.join(ROOT, 'dist/cli.js'), '--db', path.join(tmp, 'db.sqlite'), '--job-output-bytes', '4096'],
      stderr: 'pipe',
    });
    const client = new Client({ name: 'pool-stdio', version: '1.0.0' });
    await client.connect(transport);
    try {
      const small = (await client.callTool({ name: 'lint_urdf', arguments: { content: '<robot name="r"><link name="a"/></robot>' } })) as CallToolResult;
      expect(small.isError).toBeFalsy();
      expect((small.structuredContent as { summary: { links: number } }).summary.links).toBe(1);
      const big = (await client.callTool({ name: 'lint_urdf', arguments: { content: heavyUrdf(200) } })) as CallToolResult;
      expect(errorBody(big)).toMatchObject({ code: 'limit_exceeded', limit: 'output_bytes', limit_value: 4096 });
    } finally {
      await client.close();
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
