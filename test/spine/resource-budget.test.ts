/**
 * Size budgets an agent can rely on: every resource read of the shipped data, every page of every
 * paged resource included, is at most 80,000 characters, and the pages together hold exactly the
 * records of the whole document (read here from the shipped files, not through the server).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../src/deps.js';
import { realDeps } from '../support/deps.js';
import { memoryClient } from '../support/mcp.js';

const BUDGET = 80_000;
const DATA = path.resolve(import.meta.dirname, '../../data');
const oss = JSON.parse(readFileSync(path.join(DATA, 'oss/oss_components.json'), 'utf8')) as {
  meta: { total_entities: number; sources: { id: string; robot: string }[] };
  data: { id: string; source_id: string }[];
};

describe('resource size budgets (shipped data)', () => {
  let deps: Deps;
  let mcp: Awaited<ReturnType<typeof memoryClient>>;
  const sizes = new Map<string, number>();
  beforeAll(async () => {
    deps = realDeps();
    mcp = await memoryClient(deps);
  });
  afterAll(async () => {
    await mcp.close();
    deps.close();
  });

  async function read(uri: string): Promise<Record<string, unknown>> {
    const r = await mcp.client.readResource({ uri });
    const text = (r.contents[0] as { text: string }).text;
    sizes.set(uri, text.length);
    expect(text.length, uri).toBeLessThanOrEqual(BUDGET);
    return r.contents[0].mimeType === 'application/json' ? (JSON.parse(text) as Record<string, unknown>) : {};
  }

  /** Every page of a paged resource, following next_uri; the records of all pages. */
  async function allPages(uri: string): Promise<{ pages: number; data: { id: string }[] }> {
    const data: { id: string }[] = [];
    let next: string | null = uri;
    let pages = 0;
    while (next) {
      const body = await read(next);
      pages += 1;
      expect(body.page).toBe(pages);
      data.push(...(body.data as { id: string }[]));
      next = body.next_uri as string | null;
      expect(pages).toBeLessThanOrEqual(body.pages as number);
    }
    return { pages, data };
  }

  it('every listed resource reads within the budget', async () => {
    const { resources } = await mcp.client.listResources();
    expect(resources.length).toBeGreaterThan(5);
    for (const r of resources) {
      if (r.uri.startsWith('robotparts://catalogue/')) await allPages(r.uri);
      else await read(r.uri);
    }
  });

  it('a category is paged: its pages hold every record of the category once, in id order', async () => {
    const { resources } = await mcp.client.listResources();
    let paged = 0;
    for (const r of resources.filter((x) => x.uri.startsWith('robotparts://catalogue/'))) {
      const first = await read(r.uri);
      const all = await allPages(r.uri);
      if (all.pages > 1) paged += 1;
      expect(all.data.length).toBe(first.count);
      const ids = all.data.map((d) => d.id);
      expect(new Set(ids).size).toBe(ids.length);
    }
    expect(paged).toBeGreaterThan(0); // the shipped actuators list is over one read
    await expect(mcp.client.readResource({ uri: 'robotparts://catalogue/actuators/page/999' })).rejects.toThrow(/no page 999/);
  });

  it('the open-source layer: an index, one resource per robot and per source file, pages that add up to the whole document', async () => {
    const index = (await read('robotparts://datasets/oss-layer')) as { robots: { id: string; uri: string; sources: { id: string; uri: string; records: number }[] }[] };
    const robotNames = new Set(oss.meta.sources.map((s) => s.robot));
    expect(index.robots).toHaveLength(robotNames.size);
    const seen: string[] = [];
    for (const robot of index.robots) {
      const body = (await read(robot.uri)) as { sources: { id: string; uri: string; records: number }[] };
      expect(body.sources).toEqual(robot.sources);
      for (const s of body.sources) {
        const all = await allPages(s.uri);
        const expected = oss.data.filter((d) => d.source_id === s.id).map((d) => d.id);
        expect(all.data.map((d) => d.id)).toEqual(expected);
        expect(s.records).toBe(expected.length);
        seen.push(...expected);
      }
    }
    expect(seen.sort()).toEqual(oss.data.map((d) => d.id).sort());
    expect(seen).toHaveLength(oss.meta.total_entities);
  });

  it('robot and source names complete; an unknown one is not found, naming the known ones', async () => {
    const robot = oss.meta.sources[0].robot.toLowerCase().slice(0, 3);
    const c = await mcp.client.complete({ ref: { type: 'ref/resource', uri: 'robotparts://oss/robots/{robot}' }, argument: { name: 'robot', value: robot } });
    expect(c.completion.values.length).toBeGreaterThan(0);
    const s = await mcp.client.complete({ ref: { type: 'ref/resource', uri: 'robotparts://oss/sources/{source}' }, argument: { name: 'source', value: '' } });
    expect(s.completion.values).toEqual(oss.meta.sources.map((x) => x.id));
    await expect(mcp.client.readResource({ uri: 'robotparts://oss/robots/nope' })).rejects.toThrow(/No robot "nope".*the robots are/);
    await expect(mcp.client.readResource({ uri: 'robotparts://oss/sources/NOPE' })).rejects.toThrow(/No source "NOPE"/);
  });

  afterAll(() => {
    const largest = [...sizes].sort((a, b) => b[1] - a[1]).slice(0, 5);
    console.log(`resource reads: ${sizes.size}; largest: ${largest.map(([u, n]) => `${u} ${n}`).join(', ')}`);
  });
});
