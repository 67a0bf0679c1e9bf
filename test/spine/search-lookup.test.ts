/** Search and lookup rules of the spec, through an in-memory MCP client (and the domain). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import type { Deps } from '../../src/deps.js';
import { makeEntity, sampleEntities } from '../support/factory.js';
import { testDeps } from '../support/deps.js';
import { call, errorBody, memoryClient } from '../support/mcp.js';

type Hit = { id: string; relevance_score: number; matched_fields: string[]; detail_url: string } & Record<string, unknown>;
type SearchOut = { data: Hit[]; next_cursor: string | null; meta: Record<string, unknown> };

let deps: Deps;
let client: Client;
let close: () => Promise<void>;

beforeAll(async () => {
  deps = testDeps();
  ({ client, close } = await memoryClient(deps));
});
afterAll(async () => {
  await close();
  deps.close();
});

const search = async (args: Record<string, unknown>) => {
  const r = await call(client, 'search_parts', args);
  expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
  return r.structuredContent as SearchOut;
};

describe('search_parts', () => {
  it('combines terms with AND', async () => {
    const one = await search({ q: 'servo' });
    expect(one.data.length).toBeGreaterThan(1);
    const both = await search({ q: 'servo acme' });
    expect(both.data.map((h) => h.id)).toEqual(['ACT-001']);
    const none = await search({ q: 'servo nonexistentterm' });
    expect(none.data).toEqual([]);
    expect(none.meta.total).toBe(0);
  });

  it('matches case-insensitively, whole words or word prefixes, never fuzzy', async () => {
    expect((await search({ q: 'ALPHA' })).data.map((h) => h.id)).toEqual(['ACT-001']);
    expect((await search({ q: 'alp' })).data.map((h) => h.id)).toEqual(['ACT-001']);
    expect((await search({ q: 'alpah' })).data).toEqual([]); // a typo does not match
    expect((await search({ q: 'lpha' })).data).toEqual([]); // inside a word does not match
  });

  it('ranks by field weight: id > name > manufacturer > type > application/interface > description', async () => {
    const r = await search({ q: 'servo' });
    expect(r.data.map((h) => [h.id, h.matched_fields[0]])).toEqual([
      ['SERVO-1', 'id'],
      ['ACT-001', 'name'],
      ['ACT-002', 'manufacturer'],
      ['ACT-003', 'application_interface'],
      ['ACT-004', 'description'],
    ]);
    const scores = r.data.map((h) => h.relevance_score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(new Set(scores).size).toBe(scores.length);
  });

  it('type outranks application/interface', async () => {
    const r = await search({ q: 'joint' });
    // ACT-002 has type joint_motor and name "Beta Joint" (name wins); ACT-003 type harmonic_joint.
    expect(r.data[0].id).toBe('ACT-002');
    expect(r.data[0].matched_fields).toContain('name');
    expect(r.data.find((h) => h.id === 'ACT-003')?.matched_fields).toContain('type');
  });

  it('gives every hit relevance_score, matched_fields and detail_url', async () => {
    const r = await search({ q: 'orin' });
    expect(r.data).toHaveLength(1);
    const h = r.data[0];
    expect(h.relevance_score).toBe(16);
    expect(h.matched_fields).toEqual(['name']);
    expect(h.detail_url).toMatch(/\/api\/entity\/CHIP-001$/);
  });

  it('excludes quarantined entries by default and counts them in meta.quarantined_excluded', async () => {
    const r = await search({ q: 'servo' });
    expect(r.data.map((h) => h.id)).not.toContain('ACT-010');
    expect(r.meta.quarantined_excluded).toBe(1);
    const withQ = await search({ q: 'servo', include_quarantine: true });
    expect(withQ.data.map((h) => h.id)).toContain('ACT-010');
    expect(withQ.meta.quarantined_excluded).toBe(0);
  });

  it('filters by category, by slug or spec name', async () => {
    expect((await search({ q: 'servo', category: 'sensors' })).data.map((h) => h.id)).toEqual(['SERVO-1']);
    expect((await search({ q: 'servo', category: 'SENSORS' })).data.map((h) => h.id)).toEqual(['SERVO-1']);
    expect((await search({ q: 'ethercat', category: 'protocols' })).data.map((h) => h.id)).toEqual(['PROT-001']);
  });

  it('rejects an unknown category with the list of valid ones, never an empty result', async () => {
    const r = await call(client, 'search_parts', { q: 'servo', category: 'motors' });
    const body = errorBody(r);
    expect(body.code).toBe('unknown_category');
    expect(body.field).toBe('category');
    expect(body.valid_categories).toEqual(['actuators', 'sensors', 'chips', 'protocols', 'robot_ai_models']);
  });

  it('requires q', async () => {
    for (const args of [{}, { q: '' }, { q: '  ,, ' }]) {
      const body = errorBody(await call(client, 'search_parts', args));
      expect(body.code).toBe('invalid_input');
      expect(body.field).toBe('q');
    }
  });

  it('never matches or returns paid fields', async () => {
    // CHIP-001 has "secretcompat" only in its paid compatibility list; ACT-001 a paid price.
    expect((await search({ q: 'secretcompat' })).data).toEqual([]);
    expect((await search({ q: 'usd' })).data).toEqual([]);
    const hit = (await search({ q: 'orin' })).data[0];
    for (const f of ['price', 'compatibility', 'confidence', 'sources', 'compliance', 'localization_ratio', 'deep']) expect(hit).not.toHaveProperty(f);
  });
});

describe('search_parts limits', () => {
  let big: Deps;
  let c: Client;
  let closeBig: () => Promise<void>;
  beforeAll(async () => {
    const many = Array.from({ length: 130 }, (_, i) => makeEntity({ id: `BULK-${String(i).padStart(3, '0')}`, name: `Widget ${i}`, type: 'widget' }));
    big = testDeps(many);
    ({ client: c, close: closeBig } = await memoryClient(big));
  });
  afterAll(async () => {
    await closeBig();
    big.close();
  });

  it('defaults to 20 hits and pages with next_cursor', async () => {
    const r = (await call(c, 'search_parts', { q: 'widget' })).structuredContent as SearchOut;
    expect(r.data).toHaveLength(20);
    expect(r.meta.limit).toBe(20);
    expect(r.meta.total).toBe(130);
    expect(r.next_cursor).not.toBeNull();
    const seen = new Set(r.data.map((h) => h.id));
    let cursor = r.next_cursor;
    while (cursor) {
      const page = (await call(c, 'search_parts', { q: 'widget', cursor })).structuredContent as SearchOut;
      page.data.forEach((h) => seen.add(h.id));
      cursor = page.next_cursor;
    }
    expect(seen.size).toBe(130);
  });

  it('clamps limit above 100 to 100 and says so in meta', async () => {
    const r = (await call(c, 'search_parts', { q: 'widget', limit: 500 })).structuredContent as SearchOut;
    expect(r.data).toHaveLength(100);
    expect(r.meta).toMatchObject({ limit: 100, limit_clamped: true });
    const exact = (await call(c, 'search_parts', { q: 'widget', limit: 100 })).structuredContent as SearchOut;
    expect(exact.meta).toMatchObject({ limit: 100, limit_clamped: false });
  });

  it('rejects limit below 1 or not an integer, naming the field', async () => {
    for (const limit of [0, -3, 2.5, 'ten']) {
      const body = errorBody(await call(c, 'search_parts', { q: 'widget', limit }));
      expect(body).toMatchObject({ code: 'invalid_input', field: 'limit' });
    }
  });

  it('rejects a forged cursor', async () => {
    const body = errorBody(await call(c, 'search_parts', { q: 'widget', cursor: 'not-a-cursor' }));
    expect(body).toMatchObject({ code: 'invalid_input', field: 'cursor' });
  });
});

describe('get_part', () => {
  it('looks up case-insensitively and returns free fields, locked_fields and no paid values', async () => {
    const r = await call(client, 'get_part', { id: 'act-001' });
    const out = r.structuredContent as { entity: Record<string, unknown>; locked_fields: string[]; quarantine_hint: string | null };
    expect(out.entity.id).toBe('ACT-001');
    expect(out.locked_fields).toEqual(['price', 'compatibility', 'confidence']);
    expect(out.quarantine_hint).toBeNull();
    expect(out.entity).not.toHaveProperty('deep');
    expect(JSON.stringify(out)).not.toContain('120 USD');
  });

  it('gives a quarantine hint naming the reason and the canonical entry', async () => {
    const out = (await call(client, 'get_part', { id: 'ACT-010' })).structuredContent as { quarantine_hint: string };
    expect(out.quarantine_hint).toContain('placeholder_id');
    expect(out.quarantine_hint).toContain('ACT-001');
  });

  it('answers a miss with not_found and same-prefix suggestions, nearest first', async () => {
    const body = errorBody(await call(client, 'get_part', { id: 'ACT-011' }));
    expect(body.code).toBe('not_found');
    expect(body.did_you_mean).toEqual(['ACT-010', 'ACT-004', 'ACT-003', 'ACT-002', 'ACT-001']);
    const typo = errorBody(await call(client, 'get_part', { id: 'ACT-00X' }));
    expect((typo.did_you_mean as string[]).slice(0, 4)).toEqual(['ACT-001', 'ACT-002', 'ACT-003', 'ACT-004']);
    const other = errorBody(await call(client, 'get_part', { id: 'NOPE-1' }));
    expect(other.did_you_mean).toEqual([]);
  });
});

describe('list_parts and get_catalogue_stats', () => {
  it('lists one category with summary fields, quarantined left out and counted', async () => {
    const r = (await call(client, 'list_parts', { category: 'actuators' })).structuredContent as { count: number; data: Hit[]; meta: Record<string, unknown> };
    expect(r.count).toBe(4);
    expect(r.data.map((d) => d.id)).toEqual(['ACT-001', 'ACT-002', 'ACT-003', 'ACT-004']);
    expect(r.meta.quarantined_excluded).toBe(1);
    expect(r.data[0]).not.toHaveProperty('declared');
    expect(r.data[0]).not.toHaveProperty('price');
  });

  it('reports counts by category', async () => {
    const r = (await call(client, 'get_catalogue_stats')).structuredContent as { total: number; quarantined: number; categories: { slug: string; count: number }[] };
    expect(r.total).toBe(sampleEntities().length);
    expect(r.quarantined).toBe(1);
    expect(r.categories.find((c) => c.slug === 'actuators')?.count).toBe(5);
  });
});

describe('store unavailable', () => {
  it('answers store_unavailable, never an empty result', async () => {
    const d = testDeps();
    const { client: c, close: cl } = await memoryClient(d);
    d.close(); // the store can no longer be read
    for (const [tool, args] of [
      ['search_parts', { q: 'servo' }],
      ['search_parts', { q: 'zzzz-nothing' }],
      ['get_part', { id: 'ACT-001' }],
      ['list_parts', {}],
    ] as const) {
      const body = errorBody(await call(c, tool, args));
      expect(body.code, tool).toBe('store_unavailable');
    }
    await cl();
  });
});
