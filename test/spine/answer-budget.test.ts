/**
 * The answer budget (issue 40): every tool answer is at most 200,000 characters of JSON at its
 * largest valid inputs, reached by design (grouping and pages), and every SSE event of a stateful
 * session stays within 1 MiB (the Python SDK's default line limit).
 */
import fs from 'node:fs';
import path from 'node:path';
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

/**
 * A 2 MiB URDF (the documented maximum document text): a serial chain of revolute joints, each
 * child link with a mass, padded to just under 2 MiB with a comment.
 */
function maxUrdf(): string {
  const cap = 2 * MIB;
  const head = '<?xml version="1.0"?>\n<robot name="max_chain">\n<link name="l0"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>\n';
  const tail = '</robot>\n';
  const parts: string[] = [head];
  let size = head.length + tail.length;
  for (let i = 1; ; i++) {
    const piece =
      `<link name="l${i}"><inertial><origin xyz="0 0 0.05"/><mass value="0.5"/><inertia ixx="0.001" iyy="0.001" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial></link>\n` +
      `<joint name="j${i}" type="revolute"><parent link="l${i - 1}"/><child link="l${i}"/><origin xyz="0 0 0.1"/><axis xyz="0 1 0"/><limit lower="-1.5" upper="1.5" effort="10" velocity="2"/></joint>\n`;
    if (size + piece.length > cap - 64) break;
    parts.push(piece);
    size += piece.length;
  }
  parts.push(`<!-- ${'x'.repeat(cap - size - 16)} -->\n`, tail);
  const text = parts.join('');
  expect(Buffer.byteLength(text)).toBeLessThanOrEqual(cap);
  expect(Buffer.byteLength(text)).toBeGreaterThan(cap - 256);
  return text;
}

/** A 2 MiB Markdown BOM table (the documented maximum document text): as many lines as fit. */
function maxBom(): string {
  const cap = 2 * MIB;
  const lines = ['| Item | Qty | Price | Link |', '|---|---|---|---|'];
  let size = lines.join('\n').length + 1;
  for (let i = 1; ; i++) {
    const l = `| Servo motor model SM-${i} | ${1 + (i % 7)} | $${(10 + (i % 90)).toFixed(2)} | https://example.com/p/${i} |`;
    if (size + l.length + 1 > cap) break;
    lines.push(l);
    size += l.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

interface Env {
  key: string;
  /** Catalogue ids, the largest records (by their JSON) first. */
  largest: string[];
  /** Every id (catalogue and quarantine), in catalogue order. */
  ids: string[];
  designations: string[];
  urdf: string;
  /** The largest real URDF of ../shared/robots. */
  duck: string;
}

/**
 * Each tool's largest documented inputs (one or more calls). Every registry tool must have an
 * entry: a new tool without one fails the test below.
 */
const MAX_INPUTS: Record<string, (e: Env) => Record<string, unknown>[]> = {
  search_parts: () => [{ q: 'a', limit: 100_000, include_quarantine: true }],
  get_part: (e) => [{ id: e.largest[0] }],
  list_parts: (e) => [{ limit: 100_000, include_quarantine: true, deep: true, api_key: e.key }],
  get_catalogue_stats: () => [{}],
  list_spec_fields: () => [{}],
  compare_parts: (e) => [{ ids: e.largest.slice(0, 10) }],
  find_alternatives: (e) => [{ id: e.largest[0], limit: 50 }],
  check_compatibility: (e) => [{ a: e.largest[0], b: e.largest[1] }],
  rule_flange: (e) => [{ a: e.designations[0], b: e.designations[e.designations.length - 1] }],
  design_adapter_plate: () => [{ a: 'ISO9409-1-A50-4-M6', b: 'ISO9409-1-A63-6-M6', b_holes: 'nut' }],
  convert_parameter: () => [{ value: '15 kgf·cm', to: 'Nm', compare_with: '1.5 N·m' }],
  screen_part: (e) => [{ id: e.largest[0] }],
  check_bom: (e) => [{ items: e.ids.slice(0, BOM_MAX_ITEMS).map((id) => ({ id, quantity: 2 })) }],
  export_bom: (e) => {
    const items = e.largest.slice(0, BOM_MAX_ITEMS).map((id, i) => ({ id, quantity: 1 + (i % 5), price: 10 + i }));
    return [
      { items, format: 'json', include_suppliers: true, add_required: true, project_name: 'p'.repeat(200), api_key: e.key },
      { items, format: 'csv', include_suppliers: true, add_required: true, api_key: e.key },
    ];
  },
  extract_robot_parts: (e) => [{ content: e.urdf }, { content: maxBom() }],
  find_where_used: () => [{ q: 'STS3215' }],
  lint_urdf: (e) => [{ content: e.urdf }],
  // At most 40 joints, 20 poses, 50 payloads, 4,096 samples; the largest shipped-with-tests URDF
  // (a 2 MiB chain with 40 of its joints selected goes over the job's 256 MiB heap: refused, bounded).
  size_actuators: (e) => {
    const joints = [...e.duck.matchAll(/<joint name="([^"]+)" type="(?:revolute|continuous|prismatic)"/g)].map((m) => m[1]!).slice(0, 40);
    const links = [...e.duck.matchAll(/<link name="([^"]+)"/g)].map((m) => m[1]!);
    const poses = Array.from({ length: 20 }, (_, p) => Object.fromEntries(joints.map((j, i) => [j, ((p + i) % 7) / 10 - 0.3])));
    const payloads = Array.from({ length: 50 }, (_, i) => ({ link: links[i % links.length]!, mass_kg: 0.1 + i / 100 }));
    return [{ content: e.duck, joints, poses, payloads, samples: 4096 }];
  },
  get_analytics: () => [{}],
  register_key: () => [{ email: `budget-${process.pid}@example.com` }],
  get_balance: (e) => [{ api_key: e.key }],
  create_payment: (e) => [{ plan: 'lifetime', api_key: e.key, email: `budget-all-${process.pid}@example.com` }],
  get_payment_status: () => [{ order_id: 'ORD-00000000' }],
};

describe('every registry tool at its largest inputs over a stateful MCP session', () => {
  let srv: Awaited<ReturnType<typeof startRealServer>>;
  let env: Env;
  let on: Record<string, string>;
  let next = 10;
  beforeAll(async () => {
    srv = await startRealServer({ jobTimeMs: 600_000 });
    const deps = srv.deps;
    const all = (await deps.catalogue.list({ includeQuarantine: true, limit: 100_000 })).items.map((e) => e.id);
    const records = await deps.catalogue.getMany(all);
    const largest = records.map((r) => ({ id: r.id, n: JSON.stringify(r).length })).sort((a, b) => b.n - a.n || (a.id < b.id ? -1 : 1)).map((r) => r.id);
    env = {
      key: (await deps.accounts.register(`budget-all-${process.pid}@example.com`)).api_key,
      largest,
      ids: all,
      designations: deps.knowledge.flanges.designations.map((d) => d.designation),
      urdf: maxUrdf(),
      duck: fs.readFileSync(path.resolve(import.meta.dirname, '../../../shared/robots/urdf/open_duck_mini_v2_robot.urdf'), 'utf8'),
    };
    const H = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const init = await fetch(`${srv.url}/mcp`, { method: 'POST', headers: H, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }) });
    on = { ...H, 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' };
    await init.text();
    await (await fetch(`${srv.url}/mcp`, { method: 'POST', headers: on, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();
  }, 120_000);
  afterAll(async () => {
    await srv?.stop();
  });

  it('every tool in the registry has a largest-inputs case', () => {
    expect(Object.keys(MAX_INPUTS).sort()).toEqual(TOOLS.map((t) => t.name).sort());
  });

  // One case per registry tool (a tool without a MAX_INPUTS entry fails here too).
  it.each(TOOLS.map((t) => t.name))('%s: every answer within the budget (text JSON and structuredContent) and every SSE event within 1 MiB', async (name) => {
    const cases = MAX_INPUTS[name];
    expect(cases, `${name} has no largest-inputs case in MAX_INPUTS`).toBeDefined();
    const pending = [...cases!(env)];
    let pages = 0;
    for (let args = pending.shift(); args !== undefined; args = pending.shift()) {
      expect(++pages, `${name}: pages`).toBeLessThanOrEqual(50);
      const id = next++;
      const { _depth: _, ...sent } = args as Record<string, unknown> & { _depth?: number };
      const r = await fetch(`${srv.url}/mcp`, { method: 'POST', headers: on, body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: sent } }) });
      const body = Buffer.from(await r.arrayBuffer()).toString('utf8');
      const events = body.split(/\n\n/).filter((e) => e.trim() !== '');
      const largestEvent = Math.max(...events.map((e) => Buffer.byteLength(e, 'utf8')));
      const data = events.map((e) => e.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trimStart()).join('\n')).filter((d) => d !== '');
      const answer = data.map((d) => JSON.parse(d) as { id?: number; result?: CallResult }).find((m) => m.id === id);
      expect(answer?.result, `${name}: no answer in ${body.slice(0, 300)}`).toBeDefined();
      const result = answer!.result!;
      const text = result.content.find((b) => b.type === 'text')!.text!;
      // Errors are answers too (get_payment_status of an unknown order); everything else must succeed.
      if (name !== 'get_payment_status') expect(result.isError, `${name}: ${text.slice(0, 300)}`).not.toBe(true);
      const { json } = result.isError ? { json: text } : split(text);
      console.log(`${name}: text ${text.length}, structuredContent ${JSON.stringify(result.structuredContent ?? null).length}, largest event ${largestEvent} bytes`);
      expect(largestEvent, `${name}: an SSE event`).toBeLessThanOrEqual(MIB);
      expect(json.length, `${name}: the text block's JSON`).toBeLessThanOrEqual(BUDGET);
      expect(JSON.stringify(result.structuredContent ?? null).length, `${name}: structuredContent`).toBeLessThanOrEqual(BUDGET);
      // A paged answer: its next two pages too (every page is cut by the same rule; check_bom's are
      // walked in the first describe, extract_robot_parts' joined in test/oss/tool.test.ts).
      const more = (result.structuredContent as { next_cursor?: string | null } | undefined)?.next_cursor;
      const depth = ((args as { _depth?: number })._depth ?? 0) + 1;
      if (more && name !== 'check_bom' && depth < 3) pending.push({ ...args, cursor: more, _depth: depth });
    }
  }, 900_000);
});

type CallResult = { isError?: boolean; content: { type: string; text?: string }[]; structuredContent?: unknown };
