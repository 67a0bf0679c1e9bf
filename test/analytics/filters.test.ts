/** trl and momentum as spec-layer filter fields: matches recomputed from the analytics of each record; unknown values never match. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import type { Deps } from '../../src/deps.js';
import { realDeps } from '../support/deps.js';
import { call, errorBody, openSurfaces } from '../support/mcp.js';

type Out = { data: { id: string }[]; meta: { total?: number; filters: { matched?: number; unknown_excluded?: number }[] } };

let deps: Deps;
let client: Client;
let url: string;
let close: () => Promise<void>;
beforeAll(async () => {
  deps = realDeps();
  ({ client, url, close } = await openSurfaces(deps));
});
afterAll(async () => close());

describe('where filters on trl and momentum', () => {
  it('trl >= 8 returns exactly the clean records whose analytics TRL is 8 or 9 (unknown never matches)', async () => {
    // expected from get_part's per-record analytics, record by record
    const clean = (await deps.catalogue.all()).filter((e) => !e.quarantine);
    const expected: string[] = [];
    for (const e of clean) {
      const a = (await call(client, 'get_part', { id: e.id })).structuredContent as { analytics: { trl: { trl: number | null } } };
      if (a.analytics.trl.trl !== null && a.analytics.trl.trl >= 8) expected.push(e.id);
    }
    expect(expected.length).toBeGreaterThan(10);
    const r = await call(client, 'search_parts', { where: [{ field: 'trl', op: '>=', value: '8' }], limit: 100 });
    expect(r.isError).toBeFalsy();
    const got: string[] = [];
    let o = r.structuredContent as Out & { next_cursor?: string | null };
    got.push(...o.data.map((d) => d.id));
    while (o.next_cursor) {
      o = (await call(client, 'search_parts', { where: [{ field: 'trl', op: '>=', value: '8' }], limit: 100, cursor: o.next_cursor })).structuredContent as typeof o;
      got.push(...o.data.map((d) => d.id));
    }
    expect(got.sort()).toEqual(expected.sort());
  });

  it('momentum over REST (compact form), and a bad value names the field', async () => {
    const res = await fetch(`${url}/api/search?${new URLSearchParams({ where: 'momentum>=70', limit: '100' })}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Out;
    expect(body.data.length).toBeGreaterThan(0);
    for (const d of body.data) {
      const a = (await call(client, 'get_part', { id: d.id })).structuredContent as { analytics: { momentum: { momentum: number | null } } };
      expect(a.analytics.momentum.momentum).toBeGreaterThanOrEqual(70);
    }
    const bad = errorBody(await call(client, 'search_parts', { where: [{ field: 'trl', op: '>=', value: 'high' }] }));
    expect(bad.code).toBe('invalid_input');
    expect(String(bad.field)).toMatch(/where/);
  });

  it('list_spec_fields lists trl and momentum', async () => {
    const r = (await call(client, 'list_spec_fields')).structuredContent as { fields: { name: string }[] };
    expect(r.fields.map((f) => f.name)).toEqual(expect.arrayContaining(['trl', 'momentum']));
  });
});
