/**
 * Issue 26, items 1-3 and 9 on the shipped data, through the in-memory MCP client: names (aliases,
 * families, zero-hit hints), CJK search, fields by meaning, product identity, encoder counts and
 * SDK strings. Expected values are recounted from data/ and ../shared/robots in the test.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { realDeps } from '../support/deps.js';
import { call, errorBody, memoryClient } from '../support/mcp.js';
import type { Deps } from '../../src/deps.js';
import { splitPieces } from '../../src/domain/compatibility/buses.js';
import { screenEntity } from '../../src/domain/knowledge/redlines.js';

const DATA = path.resolve(import.meta.dirname, '../../data');
const ROBOTS = path.resolve(import.meta.dirname, '../../../shared/robots');
type E = { id: string; name: string; name_en: string; manufacturer: string | null; quarantine: boolean; category: string; type: string | null; declared: Record<string, string | undefined> };
const entities = (JSON.parse(fs.readFileSync(path.join(DATA, 'catalogue/entities.json'), 'utf8')) as { entities: E[] }).entities;
const byId = new Map(entities.map((e) => [e.id, e]));
type FileSpec = { field: string; notation: string; qualifier: string | null };
const specsFile = JSON.parse(fs.readFileSync(path.join(DATA, 'catalogue/specs.json'), 'utf8')) as { entities: { id: string; specs: FileSpec[]; unread: { field: string; notation: string }[]; same_as: { id: string }[] }[] };
const fileById = new Map(specsFile.entities.map((e) => [e.id, e]));
const manufacturersRaw = JSON.parse(fs.readFileSync(path.join(DATA, 'manufacturers.json'), 'utf8')) as {
  companies: { canonical: string; families: { name: string; evidence: { kind: string; id?: string; source_url?: string; line?: number; text?: string } }[] }[];
};

let deps: Deps;
let client: Client;
let close: () => Promise<void>;
beforeAll(async () => {
  deps = realDeps();
  ({ client, close } = await memoryClient(deps));
});
afterAll(async () => close());

const sc = async <T>(name: string, args: Record<string, unknown>) => (await call(client, name, args)).structuredContent as T;
type Elsewhere = { where: string; count: number; call: { tool: string; arguments: Record<string, unknown> }; note: string }[];
type WU = { counts: { bom_lines: number; urdf_mentions: number }; robots: { robot: string; bom_lines: { item: string; source_id: string; line: number }[] }[]; notes: string[]; elsewhere?: Elsewhere };

describe('names: one resolution layer', () => {
  it('"feetech" and "sts3215" in search_parts find no catalogue record and point to find_where_used, whose lines are there', async () => {
    for (const q of ['feetech', 'sts3215']) {
      expect(entities.some((e) => `${e.name} ${e.name_en} ${e.manufacturer ?? ''}`.toLowerCase().includes(q))).toBe(false);
      const o = await sc<{ meta: { total: number; elsewhere?: Elsewhere } }>('search_parts', { q });
      expect(o.meta.total).toBe(0);
      const hint = o.meta.elsewhere?.find((e) => e.where === 'open_source_layer');
      expect(hint?.call).toEqual({ tool: 'find_where_used', arguments: { q } });
      const wu = await sc<WU>('find_where_used', hint!.call.arguments);
      expect(wu.counts.bom_lines + wu.counts.urdf_mentions).toBe(hint!.count);
    }
  });

  it('"Feetech" reaches every STS3215 line of the robot BOMs through its STS family (counted in the files)', async () => {
    const lines: string[] = [];
    for (const [file, id] of [['bom/so_arm100_README_bom.md', 'SO_ARM100_BOM'], ['bom/lekiwi_BOM.md', 'LEKIWI_BOM']] as const) {
      fs.readFileSync(path.join(ROBOTS, file), 'utf8').split('\n').forEach((l, i) => {
        const item = l.split('|')[1] ?? '';
        if (/^\|/.test(l) && /\b(STS3215|Feetech)\b/i.test(item)) lines.push(`${id}:${i + 1}`);
      });
    }
    const wu = await sc<WU>('find_where_used', { q: 'Feetech' });
    const got = wu.robots.flatMap((r) => r.bom_lines.map((b) => `${b.source_id}:${b.line}`));
    for (const l of lines) expect(got).toContain(l);
    expect(wu.notes[0]).toMatch(/names Feetech/);
  });

  it('every family carries evidence that checks against the catalogue or the open-source layer', async () => {
    const families = manufacturersRaw.companies.flatMap((c) => c.families.map((f) => ({ c: c.canonical, f })));
    expect(families.length).toBeGreaterThan(0);
    for (const { c, f } of families) {
      if (f.evidence.kind === 'record') {
        const e = byId.get(f.evidence.id!)!;
        expect(`${e.name} ${e.name_en}`.toLowerCase()).toContain(f.name.toLowerCase());
        expect(e.manufacturer?.toLowerCase()).toContain(c.toLowerCase());
      } else {
        expect(f.evidence.kind).toBe('oss_line');
        const o = await sc<{ entity: { name: string; source_urls: string[] } }>('get_part', { id: f.evidence.id! });
        const item = fs.readFileSync(path.join(ROBOTS, 'bom/so_arm100_README_bom.md'), 'utf8').split('\n')[f.evidence.line! - 1]!;
        expect(item).toContain(f.evidence.text!.split(' ')[0]!);
        expect(item).toMatch(new RegExp(`${c}-${f.name}`, 'i')); // the row's vendor link names both
        expect(o.entity.name).toContain(f.name);
      }
    }
  });

  // Damiao / 达妙 (issue 44): public evidence now names them; test/specs/maker-names.test.ts.

  it('a close spelling and a company\'s other name are offered with the call that finds them', async () => {
    const o = await sc<{ meta: { total: number; elsewhere?: Elsewhere } }>('search_parts', { q: 'dynamxel' });
    expect(o.meta.total).toBe(0);
    const hint = o.meta.elsewhere!.find((e) => e.where === 'close_spelling')!;
    expect(hint.call.arguments.q).toBe('dynamixel');
    expect((await sc<{ meta: { total: number } }>('search_parts', hint.call.arguments)).meta.total).toBe(hint.count);
    // get_part's did-you-mean reads a company name through the same table: "CubeMars" lists its records.
    const miss = errorBody(await call(client, 'get_part', { id: 'CubeMars' })) as { did_you_mean: string[] };
    expect(miss.did_you_mean.length).toBeGreaterThan(0);
    for (const id of miss.did_you_mean) expect(['CubeMars', 'T-Motor', 'T-Motor (X-TEAM)']).toContain(byId.get(id)!.manufacturer);
  });
});

describe('CJK terms inside names', () => {
  it('q=谐波 finds every record whose name contains 谐波 (counted from entities.json)', async () => {
    const want = entities.filter((e) => `${e.name} ${e.name_en}`.includes('谐波')).map((e) => e.id);
    expect(want.length).toBeGreaterThanOrEqual(12);
    const o = await sc<{ data: { id: string }[]; meta: { total: number } }>('search_parts', { q: '谐波', include_quarantine: true, limit: 100 });
    const got = o.data.map((h) => h.id);
    for (const id of want) expect(got, id).toContain(id);
  });

  it('a term inside a Latin+CJK word and a Latin term keep their matches', async () => {
    const o = await sc<{ data: { id: string; matched_fields: string[] }[] }>('search_parts', { q: '减速器', include_quarantine: true, limit: 100 });
    const want = entities.filter((e) => `${e.name} ${e.name_en}`.includes('减速器')).map((e) => e.id);
    for (const id of want) expect(o.data.map((h) => h.id)).toContain(id);
    const latin = await sc<{ data: { id: string }[] }>('search_parts', { q: 'leaderdrive', include_quarantine: true, limit: 100 });
    expect(latin.data.length).toBe(entities.filter((e) => /leaderdrive/i.test(`${e.id} ${e.name} ${e.name_en} ${e.manufacturer ?? ''}`)).length);
  });
});

type Filter = { field: string; matched: number; unknown_excluded: number; failed: number; not_applicable: number; applies_to: string[]; near_misses: { id: string; declared: string; reason: string }[] };

describe('fields by meaning', () => {
  it('no sensor in torque_rated >= 30 N·m; the Robotiq FT 300-S\'s 30 N·m is its torque_range', async () => {
    expect(byId.get('SENS-855')!.declared.torque).toBe('30 N·m');
    const o = await sc<{ data: { id: string }[]; meta: { filters: Filter[] } }>('search_parts', { where: 'torque_rated>=30 N·m', limit: 100 });
    for (const h of o.data) expect(byId.get(h.id)!.category).not.toBe('sensors');
    expect(o.data.map((h) => h.id)).not.toContain('SENS-855');
    const r = await sc<{ data: { id: string }[] }>('search_parts', { where: 'torque_range>=30 N·m', limit: 100 });
    expect(r.data.map((h) => h.id)).toContain('SENS-855');
  });

  it('unknowns are counted within the categories the field applies to; declared-but-unread values are near misses (ACT-020)', async () => {
    const o = await sc<{ meta: { filters: Filter[] } }>('search_parts', { where: 'torque_rated>=30 N·m', limit: 1 });
    const f = o.meta.filters[0]!;
    const declares = (id: string) => !!fileById.get(id)?.specs.some((s) => s.field === 'torque_rated') || !!fileById.get(id)?.unread.some((u) => u.field === 'torque_rated');
    const cats = [...new Set(entities.filter((e) => declares(e.id)).map((e) => e.category))].sort();
    expect(f.applies_to).toEqual(cats);
    const live = entities.filter((e) => !e.quarantine);
    const inCats = live.filter((e) => cats.includes(e.category));
    const hasRead = (id: string) => !!fileById.get(id)?.specs.some((s) => s.field === 'torque_rated' && s.qualifier === null);
    expect(f.not_applicable).toBe(live.length - inCats.length);
    expect(f.unknown_excluded).toBe(inCats.filter((e) => !hasRead(e.id)).length);
    expect(f.matched + f.failed + f.unknown_excluded + f.not_applicable).toBe(live.length);
    expect(f.near_misses.length).toBeLessThanOrEqual(5);
    expect(f.near_misses).toContainEqual(expect.objectContaining({ id: 'ACT-020', declared: byId.get('ACT-020')!.declared.torque }));
    const tools = (await client.listTools()).tools;
    expect(tools.find((t) => t.name === 'search_parts')!.description).toMatch(/failed \(declared, read, outside\)/);
  });
});

type Product = { same_as: { id: string }[]; versions: { id: string; relation: string; evidence: string }[]; conflicts: { field: string; values: { id: string; notation: string; source: string }[] }[] };

describe('product identity', () => {
  it('the five wrong same_as links are gone', async () => {
    const wrong = [
      ['ACT-3275', 'ACT-tmotor-ak80-9-v2'],
      ['ACT-016', 'ACT-tmotor-ak80-9-v2'],
      ['ACT-015', 'ACT-cubemars-gl40-v2'],
      ['ACT-first-a301', 'ACT-first-a301-v2'],
      ['ACTUATOR-efg123', 'ACTUATOR-V2W3X4'],
    ];
    for (const [a, b] of wrong) {
      for (const [x, y] of [[a, b], [b, a]]) {
        const o = await sc<{ product: Product }>('get_part', { id: x });
        expect(o.product.same_as.map((l) => l.id), `${x} -> ${y}`).not.toContain(y);
        expect(fileById.get(x!)?.same_as.map((l) => l.id) ?? []).not.toContain(y);
      }
    }
  });

  it('the three upgrades are shown as newer versions in get_part and find_alternatives', async () => {
    for (const [base, v2] of [['ACT-3275', 'ACT-tmotor-ak80-9-v2'], ['ACT-015', 'ACT-cubemars-gl40-v2'], ['ACT-first-a301', 'ACT-first-a301-v2']]) {
      expect(byId.get(v2!)!.name_en).toMatch(/ v2$/);
      const o = await sc<{ product: Product }>('get_part', { id: base });
      expect(o.product.versions).toContainEqual(expect.objectContaining({ id: v2, relation: 'newer_version' }));
      const n = await sc<{ product: Product }>('get_part', { id: v2 });
      expect(n.product.versions).toContainEqual(expect.objectContaining({ id: base, relation: 'older_version' }));
      const alt = await sc<{ part: Product; alternatives: { id: string; version?: string }[] }>('find_alternatives', { id: base, limit: 1 });
      expect(alt.alternatives).toContainEqual(expect.objectContaining({ id: v2, version: 'newer' }));
    }
  });

  it('values that differ between records of one product are listed with both sources (ACT-016 vs ACT-3275 torque)', async () => {
    const o = await sc<{ product: Product }>('get_part', { id: 'ACT-016' });
    expect(o.product.same_as.map((l) => l.id)).toContain('ACT-3275');
    const c = o.product.conflicts.find((x) => x.field === 'torque_rated')!;
    expect(c.values).toEqual([
      { id: 'ACT-016', notation: byId.get('ACT-016')!.declared.torque, source: 'declared.torque' },
      { id: 'ACT-3275', notation: byId.get('ACT-3275')!.declared.torque, source: 'declared.torque' },
    ]);
  });
});

describe('encoder counts and SDK strings', () => {
  it('"ROS2/Orbbec SDK" is two items; a slash run naming one SDK stays one', () => {
    expect(splitPieces(deps.specs.buses, 'ROS2/Orbbec SDK')).toEqual(['ROS2', 'Orbbec SDK']);
    expect(splitPieces(deps.specs.buses, 'Linux SDK/ROS/ROS2/MuJoCo')).toEqual(['Linux SDK', 'ROS', 'ROS2', 'MuJoCo']);
    expect(splitPieces(deps.specs.buses, 'C/C++ SDK')).toEqual(['C/C++ SDK']);
  });

  it('a bare "4096" resolution is never given a unit: RL-06 says it is not read and what counts would make it (12 bit)', async () => {
    const e = (await deps.catalogue.get('ACT-001'))!;
    expect(e.declared.position_resolution).toBe('4096');
    const rl = screenEntity(e).red_lines.find((r) => r.id === 'RL-06')!;
    expect(rl.inputs.find((i) => i.field === 'position_resolution')!.dialect).toBe('bare_number');
    expect(rl.reason).toMatch(/not read/);
    expect(rl.reason).toContain(`${Math.log2(4096)} bit`);
    expect(fileById.get('ACT-001')!.specs.some((s) => s.field === 'encoder_resolution')).toBe(false);
  });
});
