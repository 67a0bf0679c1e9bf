/**
 * Issue 41, links in answers: with the base URL known (over HTTP, and a configured public URL on
 * stdio), search hits, get_part (and its used_in robots), compare_parts, find_alternatives, where-used robots, plate designs
 * and plate pointers carry page_url, the HTML page a person opens; detail_url stays the JSON API's.
 * Each page_url, from REST and from MCP, is followed with fetch as a browser asks (200, the page
 * names the id); one is opened in Chromium. Over stdio with no public URL there is no page_url and
 * the summary line says how to get links. Expected URLs are written here from the page routes.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import type { Client } from '@modelcontextprotocol/client';
import { realDeps } from '../support/deps.js';
import { memoryClient, openSurfaces } from '../support/mcp.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PLATE_A = 'ISO9409-1-A50-4-M6';
const PLATE_B = 'ISO9409-1-A31.5-4-M5';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The answers of the six tools, by the same arguments on either surface. */
const CALLS: [string, string, Record<string, unknown>][] = [
  ['search_parts', '/api/search?q=ACT-017', { q: 'ACT-017' }],
  ['get_part', '/api/entity/ACT-017', { id: 'ACT-017' }],
  ['compare_parts', '/api/compare?ids=ACT-001&ids=ACT-002', { ids: ['ACT-001', 'ACT-002'] }],
  ['find_alternatives', '/api/parts/ACT-001/alternatives', { id: 'ACT-001' }],
  ['find_where_used', '/api/where-used?q=STS3215', { q: 'STS3215' }],
  ['design_adapter_plate', `/api/adapter-plate?a=${PLATE_A}&b=${PLATE_B}`, { a: PLATE_A, b: PLATE_B }],
  ['rule_flange', `/api/flange/rule?a=${PLATE_A}&b=${PLATE_B}`, { a: PLATE_A, b: PLATE_B }],
];

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
/** The plate page for the pair: both sides chosen in its form, and the drawing of the design. */
const PLATE_SHOWS = [`<option value="${PLATE_A}" selected>`, `<option value="${PLATE_B}" selected>`, 'id="plate-summary"'];

/** [page_url, HTML the page must hold] of an answer, with the URL the page routes give for it. */
function links(tool: string, o: Json, base: string): { url: unknown; want: string; shows: string | string[] }[] {
  const part = (id: string) => `${base}/parts/${encodeURIComponent(id)}`;
  const plate = `${base}/plates?a=${encodeURIComponent(PLATE_A)}&b=${encodeURIComponent(PLATE_B)}`;
  switch (tool) {
    case 'search_parts':
      expect(o.data[0].detail_url).toBe(`${base}/api/entity/ACT-017`); // the spec's meaning, unchanged
      return o.data.map((h: Json) => ({ url: h.page_url, want: part(h.id), shows: h.id }));
    case 'get_part':
      return [{ url: o.page_url, want: part(o.entity.id), shows: o.entity.id }];
    case 'compare_parts':
      return o.parts.map((p: Json) => ({ url: p.page_url, want: part(p.id), shows: p.id }));
    case 'find_alternatives':
      expect(o.alternatives.length).toBeGreaterThan(0);
      return [{ url: o.part.page_url, want: part(o.part.id), shows: o.part.id }, ...o.alternatives.slice(0, 3).map((a: Json) => ({ url: a.page_url, want: part(a.id), shows: a.id }))];
    case 'find_where_used':
      expect(o.robots.length).toBeGreaterThan(0);
      return o.robots.map((r: Json) => ({ url: r.page_url, want: `${base}/robots/${r.robot.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}`, shows: esc(r.robot) }));
    case 'design_adapter_plate':
      return [{ url: o.page_url, want: plate, shows: PLATE_SHOWS }];
    case 'rule_flange':
      expect(o.ruling.verdict).toBe('adapter_required');
      return [{ url: o.adapter_plate.page_url, want: plate, shows: PLATE_SHOWS }];
  }
  throw new Error(tool);
}

describe('page_url in answers opens the page it names (issue 41)', () => {
  let surfaces: Awaited<ReturnType<typeof openSurfaces>>;
  const followed = new Map<string, number>();

  beforeAll(async () => {
    surfaces = await openSurfaces(realDeps());
  }, 60_000);
  afterAll(async () => {
    await surfaces?.close();
  });

  /** GET as a browser: a 200 HTML page holding `shows`. */
  async function open(url: string, shows: string | string[]): Promise<void> {
    const res = await fetch(url, { headers: { accept: 'text/html' } });
    const body = await res.text();
    expect(res.status, url).toBe(200);
    expect(res.headers.get('content-type'), url).toMatch(/^text\/html/);
    for (const x of [shows].flat()) expect(body, url).toContain(x);
    followed.set(url, res.status);
  }

  for (const [tool, route, args] of CALLS) {
    it(`${tool}: page_url over REST and MCP is the page's URL, and the page opens (200, names it)`, async () => {
      const rest = (await (await fetch(surfaces.url + route)).json()) as Json;
      const mcp = (await surfaces.client.callTool({ name: tool, arguments: args })) as { structuredContent: Json; content: { text: string }[] };
      for (const o of [rest, mcp.structuredContent]) {
        const ls = links(tool, o, surfaces.url);
        expect(ls.length).toBeGreaterThan(0);
        for (const l of ls) {
          expect(l.url).toBe(l.want);
          await open(l.url as string, l.shows);
        }
      }
      expect(mcp.content[0]!.text.split('\n')[0]).not.toContain('--public-url');
    }, 120_000);
  }

  it("get_part used_in: each robot's page_url over REST and MCP is the robot's page, and it opens (200, names the robot)", async () => {
    // A catalogue part some open-source robot uses: among the RK3588 hits, the first whose used_in names a robot.
    const hits = ((await (await fetch(`${surfaces.url}/api/search?q=RK3588`)).json()) as Json).data as Json[];
    let id: string | null = null;
    for (const h of hits) if (((await (await fetch(`${surfaces.url}/api/entity/${encodeURIComponent(h.id)}`)).json()) as Json).used_in) id ??= h.id;
    expect(id).not.toBeNull();
    const rest = (await (await fetch(`${surfaces.url}/api/entity/${encodeURIComponent(id!)}`)).json()) as Json;
    const mcp = ((await surfaces.client.callTool({ name: 'get_part', arguments: { id } })) as { structuredContent: Json }).structuredContent;
    for (const o of [rest, mcp]) {
      expect(o.used_in.robots.length).toBeGreaterThan(0);
      for (const r of o.used_in.robots as Json[]) {
        expect(r.page_url).toBe(`${surfaces.url}/robots/${r.robot.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}`);
        await open(r.page_url, esc(r.robot));
      }
    }
  }, 120_000);

  it('a part page whose flange needs an adapter links the plate page with its side chosen, and a plate to each registered flange it mates only through one', async () => {
    // Independently of the ruling code: from the registry file, the patterns (PCD, bolt count) that differ from GRIP-001's A50 flange.
    const reg = JSON.parse(fs.readFileSync(new URL('../../data/flange/designations.json', import.meta.url), 'utf8')) as { designations: { designation: string; pcd_mm: number; bolt_count: number }[] };
    const own = reg.designations.find((d) => d.designation === 'ISO9409-1-A50-4-M6')!;
    const mates = reg.designations.filter((d) => d.pcd_mm !== own.pcd_mm || d.bolt_count !== own.bolt_count).map((d) => d.designation);
    expect(mates.length).toBeGreaterThan(3);
    const body = await (await fetch(`${surfaces.url}/parts/GRIP-001`, { headers: { accept: 'text/html' } })).text();
    const hrefs = [...body.matchAll(/<a class="plate-link" href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
    const q = (a: string, b?: string) => `/plates?a=${encodeURIComponent(a)}${b ? `&b=${encodeURIComponent(b)}` : ''}`;
    expect(hrefs).toEqual([q(own.designation), ...mates.map((m) => q(own.designation, m))]);
    // The one-sided link: the form with side a chosen; each pair: the drawn plate.
    await open(surfaces.url + hrefs[0]!, [`<option value="${own.designation}" selected>`, '<select id="b" name="b">']);
    for (const h of hrefs.slice(1)) await open(surfaces.url + h, 'id="plate-summary"');
    // A part that declares no flange has no such section.
    expect(await (await fetch(`${surfaces.url}/parts/ACT-017`, { headers: { accept: 'text/html' } })).text()).not.toContain('plate-link');
  }, 120_000);

  it.skipIf(!fs.existsSync(CHROMIUM))('a page_url from get_part opens the part page in Chromium', async () => {
    const o = (await (await fetch(`${surfaces.url}/api/entity/ACT-017`)).json()) as Json;
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--no-first-run', '--disable-background-networking', '--disable-component-update'] });
    try {
      const page = await browser.newPage();
      const resp = await page.goto(o.page_url as string, { waitUntil: 'load' });
      expect(resp?.status()).toBe(200);
      expect(await page.textContent('h1')).toContain(o.entity.name);
      expect(await page.textContent('h1')).toContain('ACT-017');
    } finally {
      await browser.close();
    }
  }, 120_000);
});

describe('over stdio (issue 41)', () => {
  async function stdioClient(overrides: Parameters<typeof realDeps>[0]): Promise<{ client: Client; close: () => Promise<void> }> {
    const deps = realDeps(overrides);
    const mem = await memoryClient(deps, { server: { surface: 'mcp-stdio' } });
    return { client: mem.client, close: async () => { await mem.close(); deps.close(); } };
  }

  it('without a public URL: no page_url or detail_url, and the summary line says how to get links', async () => {
    const s = await stdioClient({});
    try {
      for (const [tool, , args] of CALLS.slice(0, 6)) {
        const r = (await s.client.callTool({ name: tool, arguments: args })) as { structuredContent: Json; content: { text: string }[] };
        expect(JSON.stringify(r.structuredContent), tool).not.toContain('page_url');
        expect(r.content[0]!.text.split('\n')[0], tool).toContain('--public-url <url> or ROBOT_PARTS_PUBLIC_URL');
      }
      // A part with used_in: its robots carry no page_url either.
      const hits = ((await s.client.callTool({ name: 'search_parts', arguments: { q: 'RK3588' } })) as { structuredContent: Json }).structuredContent.data as Json[];
      const used = [];
      for (const h of hits) used.push(((await s.client.callTool({ name: 'get_part', arguments: { id: h.id } })) as { structuredContent: Json }).structuredContent.used_in);
      const robots = used.filter(Boolean).flatMap((u: Json) => u.robots as Json[]);
      expect(robots.length).toBeGreaterThan(0);
      for (const r of robots) expect(r).not.toHaveProperty('page_url');
    } finally {
      await s.close();
    }
  }, 120_000);

  it('with a public URL configured: page_url under it', async () => {
    const s = await stdioClient({ publicBaseUrl: 'https://parts.example.org/', publicUrlConfigured: true });
    try {
      const r = (await s.client.callTool({ name: 'get_part', arguments: { id: 'ACT-017' } })) as { structuredContent: Json; content: { text: string }[] };
      expect(r.structuredContent.page_url).toBe('https://parts.example.org/parts/ACT-017');
      expect(r.content[0]!.text.split('\n')[0]).not.toContain('--public-url');
      const w = (await s.client.callTool({ name: 'find_where_used', arguments: { q: 'STS3215' } })) as { structuredContent: Json };
      for (const x of w.structuredContent.robots as Json[]) expect(x.page_url).toMatch(/^https:\/\/parts\.example\.org\/robots\/[a-z0-9-]+$/);
    } finally {
      await s.close();
    }
  }, 120_000);
});
