/**
 * The answer budget (issue 40): every tool answer is at most 200,000 characters of JSON at its
 * largest valid inputs, reached by design (grouping and pages), and every SSE event of a stateful
 * session stays within 1 MiB (the Python SDK's default line limit).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../src/deps.js';
import { BOM_MAX_ITEMS } from '../../src/domain/bom/index.js';
import { TOOLS } from '../../src/tools/index.js';
import { realDeps } from '../support/deps.js';
import { memoryClient } from '../support/mcp.js';
import { startRealServer } from '../support/http.js';

const BUDGET = 200_000;
/** Arguments a tool needs beside its limit (the broadest query). */
const EXTRA: Record<string, Record<string, unknown>> = { search_parts: { q: 'a' } };
const MIB = 1024 * 1024;

/** The JSON of a tool result's text block (after its one summary line) and the summary. */
function split(text: string): { summary: string; json: string } {
  const nl = text.indexOf('\n');
  return { summary: text.slice(0, nl), json: text.slice(nl + 1) };
}

describe('answer budget', () => {
  let deps: Deps;
  let mcp: Awaited<ReturnType<typeof memoryClient>>;
  let ids: string[];
  beforeAll(async () => {
    deps = realDeps({ jobTimeMs: 600_000 });
    mcp = await memoryClient(deps);
    ids = (await deps.catalogue.list({ includeQuarantine: true, limit: 100_000 })).items.map((e) => e.id);
    expect(ids.length).toBeGreaterThanOrEqual(BOM_MAX_ITEMS);
  }, 120_000);
  afterAll(async () => {
    await mcp.close();
    deps.close();
  });

  async function call(name: string, args: Record<string, unknown>) {
    const r = await mcp.client.callTool({ name, arguments: args });
    const text = (r.content as { type: string; text: string }[]).find((b) => b.type === 'text')!.text;
    expect(r.isError, `${name}: ${text.slice(0, 300)}`).not.toBe(true);
    const { summary, json } = split(text);
    expect(json.length, name).toBeLessThanOrEqual(BUDGET);
    expect(JSON.stringify(r.structuredContent).length, name).toBeLessThanOrEqual(BUDGET);
    return { summary, out: JSON.parse(json) as Record<string, unknown> };
  }

  it('check_bom with 500 distinct parts: grouped findings, every page within the budget, the first and last pages', async () => {
    const items = ids.slice(0, BOM_MAX_ITEMS).map((id) => ({ id }));
    const first = await call('check_bom', { items });
    const summary = first.out.summary as { errors: number; warnings: number; infos: number; by_kind: Record<string, number> };
    const groups = first.out.finding_groups as { kind: string; findings: number; parts: number }[];
    const total = summary.errors + summary.warnings + summary.infos;
    expect(groups.reduce((n, g) => n + g.findings, 0)).toBe(total);
    expect(first.summary).toMatch(/^(\d+ error\(s\)|No errors)/);
    // The last page (every page's tiling is checked on the domain result in test/bom/check-page.test.ts).
    const pages = first.out.pages as number;
    expect(pages).toBeGreaterThan(1);
    expect(first.out.next_cursor).toBe('1');
    const last = await call('check_bom', { items, cursor: String(pages - 1) });
    expect(last.out.next_cursor).toBeNull();
    // A cursor that names no page is refused, naming the field.
    const bad = await mcp.client.callTool({ name: 'check_bom', arguments: { items, cursor: '999' } });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toMatch(/cursor/);
  }, 600_000);

  it('every tool with a limit argument answers within the budget at its maximum', async () => {
    const { tools } = await mcp.client.listTools();
    let checked = 0;
    for (const t of tools) {
      const props = (t.inputSchema as { properties?: Record<string, { type?: string; maximum?: number }>; required?: string[] }).properties ?? {};
      const required = (t.inputSchema as { required?: string[] }).required ?? [];
      const limit = props.limit;
      if (!limit || limit.maximum === undefined || required.length > 0) continue;
      const def = TOOLS.find((x) => x.name === t.name)!;
      if (def.access?.key === 'required') continue;
      await call(t.name, { ...(EXTRA[t.name] ?? {}), limit: limit.maximum });
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
  }, 600_000);
});

describe('SSE events within 1 MiB', () => {
  it('the largest check_bom answer over a stateful session is one event under 1 MiB', async () => {
    const srv = await startRealServer({ jobTimeMs: 600_000 });
    try {
      const ids = (await srv.deps.catalogue.list({ includeQuarantine: true, limit: 100_000 })).items.map((e) => e.id).slice(0, BOM_MAX_ITEMS);
      const H = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const init = await fetch(`${srv.url}/mcp`, { method: 'POST', headers: H, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }) });
      const sid = init.headers.get('mcp-session-id')!;
      await init.text();
      const on = { ...H, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
      await (await fetch(`${srv.url}/mcp`, { method: 'POST', headers: on, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();
      const r = await fetch(`${srv.url}/mcp`, { method: 'POST', headers: on, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'check_bom', arguments: { items: ids.map((id) => ({ id })) } } }) });
      const body = Buffer.from(await r.arrayBuffer());
      const events = body.toString('utf8').split(/\n\n/).filter((e) => e.trim() !== '');
      const answer = events.find((e) => e.includes('"id":2'))!;
      expect(answer).toBeDefined();
      expect(JSON.parse(answer.slice(answer.indexOf('data: ') + 6)).result.isError).not.toBe(true);
      for (const e of events) expect(Buffer.byteLength(e, 'utf8')).toBeLessThanOrEqual(MIB);
    } finally {
      await srv.stop();
    }
  }, 600_000);
});
