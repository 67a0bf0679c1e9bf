/**
 * list_spec_fields, compare_parts and find_alternatives through the in-memory MCP client and REST,
 * on the shipped catalogue; expected values recounted from data/ in the test.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { MANUFACTURER_PLACEHOLDERS } from '../../src/ingest/catalogue/normalise.js';
import { realDeps } from '../support/deps.js';
import { call, errorBody, openSurfaces } from '../support/mcp.js';
import type { Deps } from '../../src/deps.js';

const DATA = path.resolve(import.meta.dirname, '../../data');
type E = { id: string; name: string; name_en: string; manufacturer: string | null; quarantine: boolean; category: string; type: string | null; source_urls: string[]; declared: Record<string, string | undefined> };
const entities = (JSON.parse(fs.readFileSync(path.join(DATA, 'catalogue/entities.json'), 'utf8')) as { entities: E[] }).entities;
const byId = new Map(entities.map((e) => [e.id, e]));
type FileSpec = { field: string; notation: string; values: string[] | null; value: number | null; min: number | null; max: number | null; qualifier: string | null };
type FileEntry = { id: string; specs: FileSpec[]; unread: { field: string }[]; same_as: { id: string; rule: string; evidence: string }[] };
const specsFile = JSON.parse(fs.readFileSync(path.join(DATA, 'catalogue/specs.json'), 'utf8')) as { meta: { fields: { name: string }[] }; entities: FileEntry[] };
const fileById = new Map(specsFile.entities.map((e) => [e.id, e]));

let deps: Deps;
let client: Client;
let url: string;
let close: () => Promise<void>;
beforeAll(async () => {
  deps = realDeps();
  ({ client, url, close } = await openSurfaces(deps));
});
afterAll(async () => close());

type Facet = { name: string; declared: number; read: number; by_category: Record<string, number>; min: number | null; max: number | null; values: { value: string; count: number }[] | null };

describe('list_spec_fields', () => {
  it('counts equal a recount from data/ (specs.json + quarantine marks in entities.json), whole and per category', async () => {
    for (const category of [undefined, 'actuators', 'reducers']) {
      const r = await call(client, 'list_spec_fields', category ? { category } : {});
      const o = r.structuredContent as { records: number; fields: Facet[] };
      const pool = entities.filter((e) => !e.quarantine && (!category || e.category === category));
      expect(o.records).toBe(pool.length);
      // trl and momentum rows come from the analytics at start (test/analytics/filters.test.ts), not from the import
      expect(o.fields.map((f) => f.name)).toEqual([...specsFile.meta.fields.map((f) => f.name), 'trl', 'momentum']);
      for (const f of o.fields.filter((x) => x.name !== 'trl' && x.name !== 'momentum')) {
        let declared = 0;
        let read = 0;
        const byCat: Record<string, number> = {};
        const values = new Map<string, number>();
        for (const e of pool) {
          const fe = fileById.get(e.id);
          const specs = fe?.specs.filter((s) => s.field === f.name) ?? [];
          if (specs.length || fe?.unread.some((u) => u.field === f.name)) declared++;
          if (specs.length) {
            read++;
            byCat[e.category] = (byCat[e.category] ?? 0) + 1;
            for (const v of new Set(specs.flatMap((s) => s.values ?? []))) values.set(v, (values.get(v) ?? 0) + 1);
          }
        }
        expect([f.name, f.declared, f.read]).toEqual([f.name, declared, read]);
        expect(f.by_category).toEqual(byCat);
        if (f.values) expect(Object.fromEntries(f.values.map((v) => [v.value, v.count]))).toEqual(Object.fromEntries(values));
      }
    }
  });

  it('bus values include EtherCAT and CAN with their counts; unknown category is refused', async () => {
    const o = (await call(client, 'list_spec_fields', {})).structuredContent as { fields: Facet[] };
    const bus = o.fields.find((f) => f.name === 'bus')!;
    expect(bus.values!.map((v) => v.value)).toEqual(expect.arrayContaining(['CAN', 'EtherCAT', 'CAN FD']));
    expect(errorBody(await call(client, 'list_spec_fields', { category: 'nope' }))).toMatchObject({ code: 'unknown_category' });
  });

  it('the layer the server builds at start equals data/catalogue/specs.json (built at import)', () => {
    for (const row of deps.specs.rows) {
      const fe = fileById.get(row.id);
      const imported = row.specs.specs.filter((s) => !s.source.startsWith('analytics.')); // trl / momentum rows: see test/analytics/filters.test.ts
      expect(JSON.parse(JSON.stringify(imported))).toEqual(fe?.specs ?? []);
      expect(JSON.parse(JSON.stringify(deps.specs.sameAsOf(row.id)))).toEqual(fe?.same_as ?? []);
    }
  });

  it('REST twin GET /api/spec_fields', async () => {
    const res = await fetch(`${url}/api/spec_fields?category=actuators`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { category: string }).category).toBe('actuators');
  });
});

type Row = { field: string; comparable: boolean; level: string | null; reason: string; ranking: { id: string; rank: number }[] | null; cells: { id: string; spec: { notation: string; value?: number } | null; note: string | null }[] };

describe('compare_parts', () => {
  const reducers = ['REDUCER-HD-25', 'REDUCER-HD-32', 'REDUCER-GH-25'];
  it('three strain-wave reducers: gear ratio compared (all 100:1, tied), bare torque / mass / backlash shown unread with the reason', async () => {
    for (const id of reducers) expect(byId.get(id)!.type).toBe('harmonic_gear');
    const o = (await call(client, 'compare_parts', { ids: reducers })).structuredContent as { rows: Row[]; parts: { id: string }[] };
    expect(o.parts.map((p) => p.id)).toEqual(reducers);
    const ratio = o.rows.find((r) => r.field === 'gear_ratio')!;
    expect(ratio.comparable).toBe(true);
    expect(ratio.cells.map((c) => c.spec?.value)).toEqual(reducers.map((id) => Number(byId.get(id)!.declared.reduction_ratio)));
    expect(ratio.ranking!.map((x) => x.rank)).toEqual([1, 1, 1]);
    for (const f of ['torque_rated', 'mass', 'backlash']) {
      const row = o.rows.find((r) => r.field === f)!;
      expect(row.comparable).toBe(false);
      expect(row.ranking).toBeNull();
      for (const c of row.cells) expect(c.note).toMatch(/not read: bare number/);
    }
  });

  it('a peak-vs-rated pair is not comparable and says so; two rated values rank only at level A/B', async () => {
    const withPeak = entities.find((e) => e.declared.peak_torque && !e.quarantine)!;
    const ratedOnly = entities.find((e) => e.declared.torque === '17 Nm' && !e.declared.peak_torque && !e.quarantine)!;
    const o = (await call(client, 'compare_parts', { ids: [withPeak.id, ratedOnly.id] })).structuredContent as { rows: Row[] };
    const row0 = o.rows.find((r) => r.field === 'torque_peak')!;
    expect(row0.comparable).toBe(false);
    expect(row0.reason).toMatch(/peak vs rated/);
    expect(row0.cells[1].note).toMatch(/rated torque only/);
    // Two peak values: same rating, but the parser's pair level is C (conditions missing): not ranked.
    const peaks = entities.filter((e) => e.declared.peak_torque && !e.quarantine).map((e) => e.id).slice(0, 2);
    const p = (await call(client, 'compare_parts', { ids: peaks })).structuredContent as { rows: Row[] };
    const row = p.rows.find((r) => r.field === 'torque_peak')!;
    expect(row.level).toMatch(/^[CD]$/);
    expect(row.comparable).toBe(false);
    expect(row.reason).toMatch(/not comparable/);
  });

  it('bad ids: too few, too many, duplicated, unknown (with did_you_mean); REST twins', async () => {
    expect(errorBody(await call(client, 'compare_parts', { ids: ['ACT-016'] }))).toMatchObject({ code: 'invalid_input', field: 'ids' });
    expect(errorBody(await call(client, 'compare_parts', { ids: Array.from({ length: 11 }, () => 'ACT-016') }))).toMatchObject({ code: 'invalid_input', field: 'ids' });
    expect(errorBody(await call(client, 'compare_parts', { ids: ['ACT-016', 'act-016'] }))).toMatchObject({ code: 'invalid_input', field: 'ids.1' });
    expect(errorBody(await call(client, 'compare_parts', { ids: ['ACT-016', 'ACT-99999'] }))).toMatchObject({ code: 'not_found', field: 'ids.1' });
    const post = await fetch(`${url}/api/compare`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ids: reducers }) });
    expect(post.status).toBe(200);
    const get = await fetch(`${url}/api/compare?ids=REDUCER-HD-25&ids=REDUCER-GH-25`);
    expect(((await get.json()) as { parts: unknown[] }).parts).toHaveLength(2);
  });
});

describe('same_as and find_alternatives', () => {
  const ak809 = entities.filter((e) => /\bAK80-9\b/.test(e.name_en)).map((e) => e.id).sort();

  it('the AK80-9 under CubeMars and T-Motor (X-TEAM) are one product; the T-Motor AK80-9 v2 is a newer version of both, offered and marked', async () => {
    expect(ak809).toHaveLength(3);
    const v2 = ak809.filter((x) => /v2$/i.test(byId.get(x)!.name_en));
    const base = ak809.filter((x) => !v2.includes(x));
    expect([v2.length, base.length]).toEqual([1, 2]);
    for (const id of base) {
      const o = (await call(client, 'find_alternatives', { id, limit: 1 })).structuredContent as {
        part: { same_as: { id: string; evidence: string }[]; versions: { id: string; relation: string }[] };
        alternatives: { id: string; version?: string }[];
      };
      expect(o.part.same_as.map((l) => l.id)).toEqual(base.filter((x) => x !== id));
      for (const l of o.part.same_as) expect(l.evidence.length).toBeGreaterThan(20);
      expect(o.part.versions).toEqual([expect.objectContaining({ id: v2[0], relation: 'newer_version' })]);
      // Never hidden: shown even when it does not rank within the limit.
      expect(o.alternatives.find((a) => a.id === v2[0])?.version).toBe('newer');
      expect(o.alternatives.map((a) => a.id)).not.toContain(base.find((x) => x !== id));
    }
  });

  it('never returns a same_as record (every linked record in the shipped data), nor itself, nor another category', async () => {
    for (const fe of specsFile.entities.filter((x) => x.same_as.length > 0 && !byId.get(x.id)!.quarantine)) {
      const o = (await call(client, 'find_alternatives', { id: fe.id, limit: 50 })).structuredContent as { alternatives: { id: string }[] };
      const linked = new Set([fe.id, ...fe.same_as.map((l) => l.id)]);
      for (const a of o.alternatives) {
        expect(linked.has(a.id), `${fe.id} -> ${a.id}`).toBe(false);
        expect(byId.get(a.id)!.category).toBe(byId.get(fe.id)!.category);
        expect(byId.get(a.id)!.quarantine).toBe(false);
      }
    }
  });

  it('duplicate_of marks become same_as links', () => {
    for (const e of entities.filter((x) => (x as unknown as { duplicate_of: string | null }).duplicate_of)) {
      const dup = (e as unknown as { duplicate_of: string }).duplicate_of;
      expect(fileById.get(e.id)!.same_as.map((l) => l.id)).toContain(dup);
    }
  });

  it('must: hard constraints in the where form (undeclared never passes); bad must names must.N', async () => {
    const o = (await call(client, 'find_alternatives', { id: 'ACT-016', must: 'bus in EtherCAT', limit: 50 })).structuredContent as { alternatives: { id: string }[]; must: { unknown_excluded: number }[] };
    expect(o.alternatives.length).toBeGreaterThan(0);
    for (const a of o.alternatives) expect(fileById.get(a.id)!.specs.find((s) => s.field === 'bus')!.values).toContain('EtherCAT');
    expect(o.must[0].unknown_excluded).toBeGreaterThan(0);
    expect(errorBody(await call(client, 'find_alternatives', { id: 'ACT-016', must: [{ field: 'torq', op: '>', value: '1 Nm' }] }))).toMatchObject({ code: 'invalid_input', field: 'must.0.field' });
    const res = await fetch(`${url}/api/parts/ACT-016/alternatives?${new URLSearchParams({ must: 'torque_rated>=10 N·m', limit: '3' })}`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { alternatives: unknown[] }).alternatives.length).toBeLessThanOrEqual(3);
  });
});

describe('manufacturers (data/manufacturers.json)', () => {
  const m = JSON.parse(fs.readFileSync(path.join(DATA, 'manufacturers.json'), 'utf8')) as {
    placeholders: string[];
    companies: { canonical: string; aliases: { name: string; evidence: Record<string, unknown> }[]; brands: { name: string; evidence: Record<string, unknown> }[] }[];
  };
  const host = (u: string) => new URL(u).hostname.replace(/^www\./, '');
  const text = (id: string) => { const e = byId.get(id)!; return `${e.name} | ${e.name_en} | ${e.manufacturer ?? ''}`.toLowerCase(); };

  it('every alias and brand is written on a catalogue record and carries evidence that checks against the records', () => {
    for (const c of m.companies) {
      for (const a of [...c.aliases, ...c.brands]) {
        const ev = a.evidence as { kind: string; id?: string; ids?: string[]; host?: string; models?: string[]; source_urls?: string[] };
        // Written on a record, inside a record's text (宇树科技 in 杭州宇树科技有限公司), or named by public pages (test/specs/maker-names.test.ts checks those).
        if (ev.kind === 'public_source') expect(ev.source_urls!.length, a.name).toBeGreaterThan(0);
        else expect(entities.some((e) => e.manufacturer === a.name) || (ev.kind === 'record' && text(ev.id!).includes(a.name.toLowerCase())), a.name).toBe(true);
        if (ev.kind === 'record') expect(text(ev.id!)).toContain(a.name.toLowerCase().slice(0, 2));
        if (ev.kind === 'vendor_listing') for (const id of ev.ids!) expect(byId.get(id)!.source_urls.map(host)).toContain(ev.host);
        if (ev.kind === 'written_form') expect(a.name.toLowerCase().replace(/[^a-z0-9]/g, '')).toBe(c.canonical.toLowerCase().replace(/[^a-z0-9]/g, ''));
        if (ev.kind === 'shared_model') for (const id of ev.ids!) expect(ev.models!.some((mo) => text(id).includes(mo.toLowerCase()))).toBe(true);
      }
    }
  });

  it('placeholders name no manufacturer: none is left on a record, and the importer reads them as absent', () => {
    for (const p of m.placeholders) {
      expect(MANUFACTURER_PLACEHOLDERS.has(p.toLowerCase())).toBe(true);
      expect(entities.filter((e) => e.manufacturer !== null && e.manufacturer.toLowerCase() === p.toLowerCase())).toEqual([]);
    }
  });
});

describe('data/README.md', () => {
  it('its spec-layer count table equals the import report (REPORT.md, regenerated by data:import)', () => {
    const rows = (text: string) => text.split('\n').filter((l) => /^\| (torque_rated|torque_peak|torque_range|force_range|speed|voltage|mass|encoder_resolution|backlash|gear_ratio|ip_rating|payload|load_force|grip_force|dof|data_rate|bus|protocol|ros) \| [a-z_]+ \|/.test(l));
    const report = rows(fs.readFileSync(path.join(DATA, 'catalogue/REPORT.md'), 'utf8'));
    expect(report.length).toBe(specsFile.meta.fields.length);
    expect(rows(fs.readFileSync(path.join(DATA, 'README.md'), 'utf8'))).toEqual(report);
  });
});

describe('fields on listings', () => {
  it('list_parts returns only the requested summary fields (id always); paid fields need deep=true', async () => {
    const o = (await call(client, 'list_parts', { category: 'reducers', fields: ['name', 'manufacturer'] })).structuredContent as { data: Record<string, unknown>[]; count: number };
    expect(o.data).toHaveLength(entities.filter((e) => e.category === 'reducers' && !e.quarantine).length);
    for (const r of o.data) expect(Object.keys(r).sort()).toEqual(['id', 'manufacturer', 'name']);
    expect(errorBody(await call(client, 'list_parts', { fields: ['price'] }))).toMatchObject({ code: 'invalid_input', field: 'fields' });
    expect(errorBody(await call(client, 'list_parts', { fields: ['nope'] }))).toMatchObject({ code: 'invalid_input', field: 'fields.0' });
  });
});
