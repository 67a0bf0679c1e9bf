/** extract_robot_parts through the in-memory MCP client and REST; the oss-layer dataset as resource and REST path. */
import type { Client } from '@modelcontextprotocol/client';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../src/deps.js';
import { MAX_INPUT_BYTES } from '../../src/ingest/oss/index.js';
import { OssDocument } from '../../src/ingest/oss/layer.js';
import { DomainError } from '../../src/domain/shared/errors.js';
import { ossLayerDataset } from '../../src/resources/oss-layer.js';
import { testDeps } from '../support/deps.js';
import { call, errorBody, openSurfaces } from '../support/mcp.js';
import { fixtureText, ROOT } from './helpers.js';

let deps: Deps;
let client: Client;
let close: () => Promise<void>;
const srv = { url: '' };
beforeAll(async () => {
  // The shipped data/ folder (config default) serves the dataset; the catalogue is synthetic.
  deps = testDeps(undefined, { dataDir: path.join(ROOT, 'data') });
  ({ client, url: srv.url, close } = await openSurfaces(deps));
});
afterAll(async () => {
  await close();
});

type Out = { kind: string; detected: boolean; robot_name: string | null; records: Record<string, unknown>[]; counts: Record<string, unknown>; skipped: { code: string }[]; limits: Record<string, number> };

describe('extract_robot_parts over MCP', () => {
  it('URDF text, auto-detected: joints with counts by type and DOF', async () => {
    const r = await call(client, 'extract_robot_parts', { content: fixtureText('exporter-style.urdf') });
    expect(r.isError).toBeFalsy();
    const o = r.structuredContent as Out;
    expect(o.kind).toBe('urdf');
    expect(o.detected).toBe(true);
    expect(o.robot_name).toBe('fixture_bot');
    expect(o.counts).toMatchObject({ records: 5, joints_by_type: { revolute: 2, continuous: 1, prismatic: 1, fixed: 1 }, dof: 4 });
    expect(o.skipped.map((s) => s.code)).toEqual(['value_not_numeric', 'joint_no_type', 'joint_unknown_type']);
    expect(o.limits).toEqual({ max_input_bytes: MAX_INPUT_BYTES, max_records: 10_000, max_skipped_listed: 200 });
    // One-line summary, then the compact JSON of the structured result (src/tools/text.ts).
    expect((r.content as { text: string }[])[0].text).toBe(`urdf: 5 record(s) (2 revolute, 1 continuous, 1 prismatic, 1 fixed; dof 4; total mass 3.251 kg); 3 skipped. Lint: 7 error(s), 3 warning(s).\n${JSON.stringify(r.structuredContent)}`);
  });

  it('Markdown BOM with an explicit kind', async () => {
    const o = (await call(client, 'extract_robot_parts', { content: fixtureText('bom-tables.md'), kind: 'bom_md' })).structuredContent as Out;
    expect([o.kind, o.detected, o.counts.records, o.counts.bom_tables]).toEqual(['bom_md', false, 6, 2]);
    expect(o.records[0]).toMatchObject({ item: 'Joint motor A (48V)', quantity: 12, unit_prices: [{ currency: 'CNY', amount: '1200' }] });
  });

  it('bad input: clear errors naming the field, and the server keeps serving', async () => {
    const missing = errorBody(await call(client, 'extract_robot_parts', {}));
    expect(missing).toMatchObject({ code: 'invalid_input', field: 'content' });
    const kind = errorBody(await call(client, 'extract_robot_parts', { content: 'x', kind: 'pdf' }));
    expect(kind).toMatchObject({ code: 'invalid_input', field: 'kind' });
    const prose = errorBody(await call(client, 'extract_robot_parts', { content: 'just prose, nothing to extract' }));
    expect(prose).toMatchObject({ code: 'invalid_input', field: 'content' });
    expect(String(prose.error)).toContain('pass kind');
    const big = errorBody(await call(client, 'extract_robot_parts', { content: 'a'.repeat(MAX_INPUT_BYTES + 1) }));
    expect(big).toMatchObject({ code: 'payload_too_large', field: 'content', limit_bytes: MAX_INPUT_BYTES });
    const ok = await call(client, 'extract_robot_parts', { content: 'Item\tQty\nBolt M3\t10\n' });
    expect((ok.structuredContent as Out).records).toMatchObject([{ extractor: 'bom_csv', item: 'Bolt M3', quantity: 10 }]);
  });

  it('is listed as free, read-only and idempotent', async () => {
    const { tools } = await client.listTools();
    const t = tools.find((x) => x.name === 'extract_robot_parts')!;
    expect(t.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    expect(Object.keys(t.inputSchema.properties ?? {})).toEqual(['content', 'kind', 'files', 'entry', 'args', 'cursor']);
  });
});

describe('extract_robot_parts pages its records (answer budget)', () => {
  it('a 1,500-joint chain: pages within 120,000 characters of records, joined in order they are every joint once; mass subtrees follow their page', async () => {
    const n = 1500;
    const body = Array.from({ length: n }, (_, i) =>
      `<link name="l${i + 1}"><inertial><mass value="0.5"/><inertia ixx="0.001" iyy="0.001" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial></link>` +
      `<joint name="j${i + 1}" type="revolute"><parent link="l${i}"/><child link="l${i + 1}"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="5" velocity="1"/></joint>`,
    ).join('\n');
    const content = `<robot name="chain"><link name="l0"/>\n${body}\n</robot>\n`;
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const r = await call(client, 'extract_robot_parts', { content, ...(cursor ? { cursor } : {}) });
      expect(r.isError, JSON.stringify(r.content).slice(0, 300)).toBeFalsy();
      const o = r.structuredContent as Out & { next_cursor: string | null; mass: { subtrees: { joint: string }[] } };
      pages += 1;
      expect(o.counts.records).toBe(n);
      expect(JSON.stringify(o.records).length).toBeLessThanOrEqual(120_000 + o.records.length);
      const page = o.records.map((x) => x.joint_name as string);
      expect(o.mass.subtrees.map((t) => t.joint).sort()).toEqual([...page].sort());
      names.push(...page);
      cursor = o.next_cursor ?? undefined;
      if (cursor) expect((r.content[0] as { text: string }).text.split('\n')[0]).toContain(`more with cursor=${cursor}`);
    } while (cursor);
    expect(pages).toBeGreaterThan(1);
    expect(names).toEqual(Array.from({ length: n }, (_, i) => `j${i + 1}`));
    const bad = await call(client, 'extract_robot_parts', { content, cursor: 'eyJvIjo5OTk5fQ' });
    expect(errorBody(bad)).toMatchObject({ code: 'invalid_input' });
    expect(JSON.stringify(bad.content)).toMatch(/cursor/);
  }, 120_000);
});

describe('REST', () => {
  it('POST /api/oss/extract takes {content, kind}', async () => {
    const post = (body: unknown) => fetch(`${srv.url}/api/oss/extract`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const r = await post({ content: '| Item | Qty |\n|---|---|\n| Motor | 2 |\n' });
    expect(r.status).toBe(200);
    expect(((await r.json()) as Out).records).toMatchObject([{ item: 'Motor', quantity: 2 }]);
    const bad = await post({ kind: 'urdf' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { field: string }).field).toBe('content');
    const unknown = await post({ content: 'nothing here' });
    expect(unknown.status).toBe(400);
  });

  it('GET /api/oss_components.json serves the committed dataset', async () => {
    const r = await fetch(`${srv.url}/api/oss_components.json`);
    expect(r.status).toBe(200);
    const doc = OssDocument.parse(await r.json());
    expect(doc).toEqual(OssDocument.parse(JSON.parse(fs.readFileSync(path.join(ROOT, 'data/oss/oss_components.json'), 'utf8'))));
  });

  it('without the dataset file the dataset answers store_unavailable (503)', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'oss-empty-'));
    try {
      const err = await ossLayerDataset.build({ ...deps, config: { ...deps.config, dataDir: empty } }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DomainError);
      expect([(err as DomainError).code, (err as DomainError).status]).toEqual(['store_unavailable', 503]);
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('oss-layer resource', () => {
  it('robotparts://datasets/oss-layer is listed; it is the index of robots and source files, each with its record count', async () => {
    const list = await client.listResources();
    expect(list.resources.map((r) => r.uri)).toContain('robotparts://datasets/oss-layer');
    const res = await client.readResource({ uri: 'robotparts://datasets/oss-layer' });
    const index = JSON.parse((res.contents[0] as { text: string }).text) as { meta: { total_entities: number }; robots: { sources: { records: number }[] }[] };
    expect(index.robots.flatMap((r) => r.sources).reduce((n, s) => n + s.records, 0)).toBe(index.meta.total_entities);
  });
});
