/** get_analytics, the intelligence resource, the picture and get_part's analytics on every surface: in-memory MCP, REST, MCP over HTTP, stdio. */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import fs from 'node:fs';
import os from 'node:os';
import type { Deps } from '../../src/deps.js';
import { structuredFromText } from '../../src/tools/text.js';
import { realDeps } from '../support/deps.js';
import { call, errorBody, openSurfaces } from '../support/mcp.js';

type Doc = {
  meta: { category: string | null; counts: { entities: number } };
  categories: Record<string, unknown>;
  top_signals: { id: string; category: string }[];
  maturity_distribution: Record<string, number>;
  cross_domain_insights: { id: string; by_category: Record<string, number> }[];
};

let deps: Deps;
let client: Client;
let url: string;
let close: () => Promise<void>;
let whole: Doc;

beforeAll(async () => {
  deps = realDeps();
  ({ client, url, close } = await openSurfaces(deps));
  const r = await call(client, 'get_analytics');
  expect(r.isError).toBeFalsy();
  whole = r.structuredContent as Doc;
});
afterAll(async () => {
  await close();
});

describe('in-memory MCP', () => {
  it('the whole document, with its JSON in the text block', async () => {
    const r = await call(client, 'get_analytics');
    expect(structuredFromText((r.content as { text: string }[])[0]!.text)).toEqual(r.structuredContent);
    expect(whole.meta.category).toBeNull();
    expect(Object.keys(whole.categories)).toContain('actuators');
  });

  it('one category by slug or spec name: only its records', async () => {
    const chips = (await call(client, 'get_analytics', { category: 'chips' })).structuredContent as Doc;
    expect(chips.meta.category).toBe('chips');
    expect(Object.keys(chips.categories)).toEqual(['chips']);
    expect(chips.meta.counts.entities).toBe((whole.categories.chips as { count: number }).count);
    expect(chips.top_signals.length).toBeGreaterThan(0);
    for (const t of chips.top_signals) expect(t.category).toBe('chips');
    for (const i of chips.cross_domain_insights) expect(i.by_category.chips).toBeGreaterThan(0);
    expect(chips.maturity_distribution.total).toBe(chips.meta.counts.entities);
    const rfm = (await call(client, 'get_analytics', { category: 'Robot foundation models' })).structuredContent as Doc;
    expect(rfm.meta.category).toBe('robot_ai_models');
  });

  it('bad input names the field', async () => {
    const unknown = errorBody(await call(client, 'get_analytics', { category: 'warp drives' }));
    expect(unknown).toMatchObject({ code: 'unknown_category', field: 'category' });
    expect(unknown.valid_categories).toContain('actuators');
    expect(errorBody(await call(client, 'get_analytics', { category: '' }))).toMatchObject({ code: 'invalid_input', field: 'category' });
    expect(errorBody(await call(client, 'get_analytics', { category: 42 }))).toMatchObject({ code: 'invalid_input', field: 'category' });
  });

  it('the resource serves the same document; the picture is listed as a resource', async () => {
    const res = await client.readResource({ uri: 'robotparts://datasets/intelligence' });
    expect(JSON.parse((res.contents[0] as { text: string }).text)).toEqual(whole);
    const list = await client.listResources();
    expect(list.resources.map((r) => r.uri)).toEqual(expect.arrayContaining(['robotparts://datasets/intelligence', 'robotparts://charts/intelligence']));
    const svg = await client.readResource({ uri: 'robotparts://charts/intelligence' });
    expect(svg.contents[0]).toMatchObject({ mimeType: 'image/svg+xml' });
    const text = (svg.contents[0] as { text: string }).text;
    expect(text.startsWith('<svg')).toBe(true);
    expect(await (await fetch(`${url}/api/intelligence.svg`)).text()).toBe(text);
  });

  it('get_part carries TRL and momentum with their basis', async () => {
    const prod = (await deps.catalogue.all()).find((e) => e.status === 'production' && e.entity_kind === 'component' && !e.quarantine)!;
    const r = (await call(client, 'get_part', { id: prod.id.toLowerCase() })).structuredContent as { analytics: { trl: { trl: number; basis: string }; momentum: { signals: unknown[] }; method: string } };
    expect(r.analytics.trl.trl).toBe(9);
    expect(r.analytics.trl.basis).toContain('production');
    expect(r.analytics.momentum.signals).toHaveLength(5);
    const none = (await deps.catalogue.all()).find((e) => e.status === null && e.year === null && e.entity_kind === 'component')!;
    const n = (await call(client, 'get_part', { id: none.id })).structuredContent as { analytics: { trl: { trl: null; basis: string }; momentum: { momentum: null; reason: string } } };
    expect(n.analytics.trl.trl).toBeNull();
    expect(n.analytics.trl.basis).toMatch(/No lifecycle status/);
    // an open-source-layer record: no status, no year -> both unknown, by the same method
    const ossId = (await deps.catalogue.idsWithPrefix('OSS-LIVE-', 1))[0]!;
    const o = (await call(client, 'get_part', { id: ossId })).structuredContent as { analytics: { trl: { trl: null }; momentum: { momentum: null; reason: string } } };
    expect(o.analytics.trl.trl).toBeNull();
    expect(o.analytics.momentum.momentum).toBeNull();
  });
});

describe('REST', () => {
  it('GET /api/intelligence.json is the same document, byte-identical on every call', async () => {
    const a = await fetch(`${url}/api/intelligence.json`);
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toMatch(/application\/json/);
    const text = await a.text();
    expect(JSON.parse(text)).toEqual(whole);
    expect(await (await fetch(`${url}/api/intelligence.json`)).text()).toBe(text);
  });

  it('?category= and its errors', async () => {
    const chips = await (await fetch(`${url}/api/intelligence.json?category=chips`)).json();
    expect(chips).toEqual((await call(client, 'get_analytics', { category: 'chips' })).structuredContent);
    const bad = await fetch(`${url}/api/intelligence.json?category=nope`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'unknown_category', field: 'category' });
  });

  it('GET /api/intelligence.svg draws the picture; ?category= narrows it; errors name the field', async () => {
    const r = await fetch(`${url}/api/intelligence.svg`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    const svg = await r.text();
    expect(svg).toMatch(/^<svg[^>]+xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain('>TRL 9<');
    const act = await (await fetch(`${url}/api/intelligence.svg?category=actuators`)).text();
    expect(act).toContain('(category actuators)');
    expect(act).not.toContain('Chips (n=');
    const bad = await fetch(`${url}/api/intelligence.svg?category=nope`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'unknown_category', field: 'category' });
    const empty = await fetch(`${url}/api/intelligence.svg?category=`);
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ code: 'invalid_input', field: 'category' });
  });

  it('GET /api/entity/{id} carries analytics; /openapi.json lists the path once', async () => {
    const e = await (await fetch(`${url}/api/entity/${encodeURIComponent(whole.top_signals[0]!.id)}`)).json();
    expect(e.analytics.momentum.momentum).toBeGreaterThan(0);
    const spec = await (await fetch(`${url}/openapi.json`)).json();
    expect(Object.keys(spec.paths)).toContain('/api/intelligence.json');
  });
});

describe('MCP over HTTP', () => {
  it('get_analytics and the resource', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`));
    const c = new Client({ name: 'analytics-http', version: '1.0.0' });
    await c.connect(transport);
    try {
      const r = (await c.callTool({ name: 'get_analytics', arguments: { category: 'protocols' } })) as CallToolResult;
      expect(r.structuredContent).toEqual((await call(client, 'get_analytics', { category: 'protocols' })).structuredContent);
      const res = await c.readResource({ uri: 'robotparts://datasets/intelligence' });
      expect(JSON.parse((res.contents[0] as { text: string }).text)).toEqual(whole);
      const svg = await c.readResource({ uri: 'robotparts://charts/intelligence' });
      expect((svg.contents[0] as { text: string }).text).toContain('>TRL 1<');
    } finally {
      await c.close();
    }
  });
});

describe('stdio binary', () => {
  it('get_analytics, the resource and the picture', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-analytics-'));
    const bin = path.resolve(import.meta.dirname, '../../dist/cli.js');
    const transport = new StdioClientTransport({ command: process.execPath, args: [bin, '--db', path.join(tmp, 'a.db')], stderr: 'pipe' });
    const c = new Client({ name: 'analytics-stdio', version: '1.0.0' });
    await c.connect(transport);
    try {
      const r = (await c.callTool({ name: 'get_analytics', arguments: {} })) as CallToolResult;
      expect(r.structuredContent).toEqual(whole);
      const bad = (await c.callTool({ name: 'get_analytics', arguments: { category: 'nope' } })) as CallToolResult;
      expect(bad.isError).toBe(true);
      const res = await c.readResource({ uri: 'robotparts://datasets/intelligence' });
      expect(JSON.parse((res.contents[0] as { text: string }).text)).toEqual(whole);
      const svg = await c.readResource({ uri: 'robotparts://charts/intelligence' });
      expect((svg.contents[0] as { text: string }).text).toBe(await (await fetch(`${url}/api/intelligence.svg`)).text());
    } finally {
      await c.close();
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
