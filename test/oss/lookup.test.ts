/**
 * Open-source-layer ids (OSS-LIVE-...) resolve wherever a part id is accepted: get_part (MCP, REST,
 * resource), did_you_mean, check_compatibility, check_bom, export_bom, screen_part. Catalogue
 * listings, search and counts stay the RoboParts catalogue only. Real data: data/catalogue and
 * data/oss/oss_components.json as shipped.
 */
import type { Client } from '@modelcontextprotocol/client';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeps, type Deps } from '../../src/deps.js';
import type { BomCheckResult } from '../../src/domain/bom/check.js';
import { toFree } from '../../src/domain/catalogue/entity.js';
import { getPart } from '../../src/domain/catalogue/parts.js';
import { readOssDocument } from '../../src/ingest/oss/layer.js';
import { ossToStored, type OssRecord } from '../../src/ingest/oss/records.js';
import { silentLogger } from '../../src/log.js';
import { bearer, newKey, post } from '../bom-e2e/helpers.js';
import { realDeps, testConfig } from '../support/deps.js';
import { catalogueData, makeEntity, sampleEntities } from '../support/factory.js';
import { call, errorBody, memoryClient, openSurfaces } from '../support/mcp.js';
import { ROOT } from './helpers.js';

const DATA = path.join(ROOT, 'data');
const doc = readOssDocument(DATA)!;
const committed = JSON.parse(fs.readFileSync(path.join(DATA, 'catalogue/entities.json'), 'utf8')) as {
  entities: { id: string; category: string; quarantine: boolean }[];
};
const source = (id: string) => doc.meta.sources.find((s) => s.id === id)!;
const pick = (f: (r: OssRecord) => boolean) => {
  const r = doc.data.find(f);
  if (!r) throw new Error('record not in data/oss/oss_components.json');
  return r;
};
// A BOM line (entity_kind component), a second BOM line of the same file, and a URDF joint (entity_kind robot_joint).
const servo = pick((r) => r.source_id === 'SO_ARM100_BOM' && r.name === 'STS3215 Servo 7.4V, 1/345 gear (C001)');
const board = pick((r) => r.source_id === 'SO_ARM100_BOM' && r.name === 'Motor Control Board');
const joint = pick((r) => r.source_id === 'SO101' && r.joint_name === 'shoulder_pan');

/** The id with its last hex digit changed so that it names no record. */
function nearMiss(id: string): string {
  const ids = new Set(doc.data.map((r) => r.id));
  for (const c of '0123456789ABCDEF') {
    const cand = id.slice(0, -1) + c;
    if (!ids.has(cand)) return cand;
  }
  throw new Error('no near miss');
}

type Json = Record<string, any>;

let deps: Deps;
let client: Client;
let url: string;
let close: () => Promise<void>;
beforeAll(async () => {
  deps = realDeps();
  ({ client, url, close } = await openSurfaces(deps));
});
afterAll(async () => {
  await close();
});

const get = async (p: string) => {
  const r = await fetch(url + p);
  return { status: r.status, body: (await r.json()) as Json };
};

describe('the records under test are what the test says', () => {
  it('BOM lines are components, the joint a robot_joint; licences from the sources', () => {
    expect([servo.category, servo.entity_kind, board.entity_kind]).toEqual(['bom_items', 'component', 'component']);
    expect([joint.category, joint.entity_kind]).toEqual(['urdf_joints', 'robot_joint']);
    expect(source('SO_ARM100_BOM').license).toBe('Apache-2.0');
    expect(source('SO101').license).toBe('Apache-2.0');
    expect(committed.entities.some((e) => /^oss-/i.test(e.id))).toBe(false);
  });
});

describe('get_part', () => {
  it('MCP, lower-case id: the record with oss true, its source licence and URL; meta names the source, not RoboParts', async () => {
    const r = await call(client, 'get_part', { id: servo.id.toLowerCase() });
    expect(r.isError).toBeFalsy();
    const o = r.structuredContent as Json;
    expect(o.entity).toEqual(toFree(ossToStored(servo)));
    expect(o.entity).toMatchObject({ id: servo.id, oss: true, source_license: 'Apache-2.0', source_urls: [source('SO_ARM100_BOM').url] });
    expect(o.locked_fields).toEqual([]);
    expect(o.quarantine_hint).toBeNull();
    expect(o.meta).toEqual({
      license: 'Apache-2.0',
      attribution: `Open-source robot compatibility layer: extracted from ${source('SO_ARM100_BOM').url} (Apache-2.0)`,
    });
  });

  it('REST /api/entity/:id and the parts resource resolve a joint id in any case', async () => {
    const r = await get(`/api/entity/${encodeURIComponent(joint.id.toLowerCase())}`);
    expect(r.status).toBe(200);
    expect(r.body.entity).toMatchObject({ id: joint.id, category: 'urdf_joints', entity_kind: 'robot_joint', oss: true, source_urls: [source('SO101').url] });
    const res = await client.readResource({ uri: `robotparts://parts/${joint.id.toLowerCase()}` });
    const body = JSON.parse((res.contents[0] as { text: string }).text) as Json;
    expect(body.entity.id).toBe(joint.id);
    expect(body.meta.license).toBe('Apache-2.0');
  });

  it('a catalogue id keeps the RoboParts licence and attribution', async () => {
    const o = (await call(client, 'get_part', { id: 'ACT-001' })).structuredContent as Json;
    expect(o.meta).toEqual({ license: 'CC BY 4.0', attribution: 'Data: RoboParts (https://roboparts.cc), CC BY 4.0' });
  });

  it('a near-miss OSS id: not_found with the record first in did_you_mean', async () => {
    const miss = nearMiss(servo.id);
    const e = errorBody(await call(client, 'get_part', { id: miss.toLowerCase() }));
    expect(e.code).toBe('not_found');
    const dym = e.did_you_mean as string[];
    expect(dym[0]).toBe(servo.id);
    expect(dym).toHaveLength(5);
    for (const id of dym) expect(id).toMatch(/^OSS-LIVE-[0-9A-F]{10}$/);
  });
});

describe('check_compatibility', () => {
  it('an OSS BOM line against a catalogue part answers: applicable, every dimension unknown (no voltage, bus, flange or software declared)', async () => {
    const r = await call(client, 'check_compatibility', { a: servo.id.toLowerCase(), b: 'ACT-001' });
    expect(r.isError).toBeFalsy();
    const o = r.structuredContent as Json;
    expect(o.applicable).toBe(true);
    expect(o.a).toMatchObject({ id: servo.id, category: 'bom_items', entity_kind: 'component', applicable: true });
    expect(o.verdict).toBe('unknown');
    expect(Object.fromEntries(Object.entries(o.dimensions as Json).map(([k, d]) => [k, (d as Json).verdict]))).toEqual({
      mechanical: 'unknown',
      electrical: 'unknown',
      communication: 'unknown',
      software: 'unknown',
    });
    expect(o.dimensions.electrical.reason).toBe('a declares no voltage.');
  });

  it('an OSS joint: applicable false, the reason naming entity_kind robot_joint (REST GET)', async () => {
    const r = await get(`/api/compatibility?a=${encodeURIComponent(joint.id)}&b=ACT-001`);
    expect(r.status).toBe(200);
    expect(r.body.applicable).toBe(false);
    expect(r.body.reason).toBe(
      `Compatibility applies to physical components only. ${joint.id} is a robot_joint record (entity_kind "robot_joint"), not a physical component.`,
    );
  });

  it('two OSS ids: no not_found', async () => {
    const r = await call(client, 'check_compatibility', { a: servo.id, b: board.id.toLowerCase() });
    expect(r.isError).toBeFalsy();
    expect((r.structuredContent as Json).b.id).toBe(board.id);
  });
});

describe('check_bom and export_bom', () => {
  const items = [
    { id: servo.id, quantity: 6 },
    { id: board.id.toLowerCase(), quantity: 1 },
    { id: joint.id, quantity: 1 },
    { id: 'ACT-001', quantity: 1 },
  ];

  it('check_bom (REST): every OSS id found with its canonical id; the joint left out as not a component', async () => {
    const r = await post(`${url}/api/bom/check`, { items });
    expect(r.status).toBe(200);
    const o = r.json as unknown as BomCheckResult;
    expect(o.parts.map((p) => [p.id, p.found, p.catalogue_id, p.category])).toEqual([
      [servo.id, true, servo.id, 'bom_items'],
      [board.id.toLowerCase(), true, board.id, 'bom_items'],
      [joint.id, true, joint.id, 'urdf_joints'],
      ['ACT-001', true, 'ACT-001', 'actuators'],
    ]);
    expect(o.summary.by_kind.not_in_catalogue).toBeUndefined();
    const na = o.findings.filter((f) => f.kind === 'not_applicable');
    expect(na.map((f) => f.parts.map((p) => p.id))).toEqual([[joint.id]]);
    const volts = o.findings.find((f) => f.kind === 'unknown_dimension' && f.dimension === 'electrical')!;
    expect(volts.parts.map((p) => p.id)).toEqual([servo.id, board.id]);
  });

  it('check_bom (MCP) agrees', async () => {
    const o = (await call(client, 'check_bom', { items })).structuredContent as unknown as BomCheckResult;
    expect(o.parts.every((p) => p.found)).toBe(true);
  });

  it('export_bom (REST, JSON): OSS lines found in the catalogue column, with their canonical id', async () => {
    const key = await newKey(deps, 'oss-lookup');
    const r = await post(`${url}/api/bom/export`, { items, format: 'json' }, bearer(key));
    expect(r.status).toBe(200);
    const lines = (r.json as Json).items as Json[];
    expect(lines.map((l) => [l.id, l.catalogue])).toEqual([
      [servo.id, { found: true, id: servo.id, quarantine: false, price_range: null }],
      [board.id.toLowerCase(), { found: true, id: board.id, quarantine: false, price_range: null }],
      [joint.id, { found: true, id: joint.id, quarantine: false, price_range: null }],
      ['ACT-001', expect.objectContaining({ found: true, id: 'ACT-001' })],
    ]);
  });

  it('screen_part on an OSS id: every red line cannot be evaluated (nothing declared)', async () => {
    const o = (await call(client, 'screen_part', { id: servo.id.toLowerCase() })).structuredContent as Json;
    expect(o.id).toBe(servo.id);
    expect(o.summary).toEqual({ fires: 0, does_not_fire: 0, cannot_evaluate: 6 });
    expect(o.meta.license).toBe('Apache-2.0');
  });
});

describe('the catalogue stays the catalogue', () => {
  it('/api/stats and /api/entities.json counts equal data/catalogue/entities.json; no layer category', async () => {
    const s = (await get('/api/stats')).body;
    expect(s.total).toBe(committed.entities.length);
    expect(s.quarantined).toBe(committed.entities.filter((e) => e.quarantine).length);
    const slugs = (s.categories as { slug: string }[]).map((c) => c.slug);
    expect(slugs).not.toContain('bom_items');
    expect(slugs).not.toContain('urdf_joints');
    const list = (await get('/api/entities.json')).body;
    expect(list.count).toBe(committed.entities.filter((e) => !e.quarantine).length);
    expect((list.data as { id: string }[]).some((e) => /^oss-/i.test(e.id))).toBe(false);
  });

  it('search and all() do not return layer records', async () => {
    const hits = (await get('/api/search?q=servo&limit=100')).body.data as { id: string }[];
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.some((h) => /^oss-/i.test(h.id))).toBe(false);
    expect((await deps.catalogue.all()).length).toBe(committed.entities.length);
  });
});

describe('store closed', () => {
  it('an OSS id answers store_unavailable, never not_found (get_part, check_bom, check_compatibility)', async () => {
    const d = realDeps();
    const mem = await memoryClient(d);
    try {
      d.close();
      expect(errorBody(await call(mem.client, 'get_part', { id: servo.id })).code).toBe('store_unavailable');
      expect(errorBody(await call(mem.client, 'check_bom', { items: [{ id: servo.id }] })).code).toBe('store_unavailable');
      expect(errorBody(await call(mem.client, 'check_compatibility', { a: servo.id, b: joint.id })).code).toBe('store_unavailable');
    } finally {
      await mem.close();
    }
  });
});

describe('buildDeps and the layer file', () => {
  const tmp: string[] = [];
  afterAll(() => {
    for (const d of tmp) fs.rmSync(d, { recursive: true, force: true });
  });
  /** A data dir linking every shipped entry except oss/, plus what `oss` says. */
  function dataDirWith(oss: string | null): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oss-lookup-'));
    tmp.push(dir);
    for (const e of fs.readdirSync(DATA)) if (e !== 'oss') fs.symlinkSync(path.join(DATA, e), path.join(dir, e));
    if (oss !== null) {
      fs.mkdirSync(path.join(dir, 'oss'));
      fs.writeFileSync(path.join(dir, 'oss', 'oss_components.json'), oss);
    }
    return dir;
  }

  it('ossEntities given explicitly: resolvable by id and prefix, never listed or counted', async () => {
    const d = buildDeps(testConfig(), { log: silentLogger, catalogueData: catalogueData(sampleEntities()), ossEntities: [ossToStored(joint)] });
    try {
      expect((await d.catalogue.get(joint.id.toLowerCase()))?.id).toBe(joint.id);
      expect((await d.catalogue.getMany(['act-001', joint.id.toLowerCase(), 'nope'])).map((e) => e.id)).toEqual(['ACT-001', joint.id]);
      expect(await d.catalogue.idsWithPrefix('oss-', 10)).toEqual([joint.id]);
      expect(await d.catalogue.get(servo.id)).toBeNull(); // only what was given
      expect((await d.catalogue.list({ includeQuarantine: true })).total).toBe(sampleEntities().length);
      expect((await d.catalogue.all()).length).toBe(sampleEntities().length);
      expect((await d.catalogue.categories()).map((c) => c.slug)).not.toContain('urdf_joints');
    } finally {
      d.close();
    }
  });

  it('no layer file: no OSS records and no error; the id is simply not found', async () => {
    const d = buildDeps(testConfig({ dataDir: dataDirWith(null) }), { log: silentLogger });
    try {
      expect(await d.catalogue.get(servo.id)).toBeNull();
      await expect(getPart({ catalogue: d.catalogue, index: d.index, specs: d.specs, baseUrl: 'http://x' }, servo.id)).rejects.toMatchObject({ code: 'not_found' });
      expect((await d.catalogue.get('ACT-001'))?.id).toBe('ACT-001');
    } finally {
      d.close();
    }
  });

  it('an invalid layer file fails start-up, naming the file', () => {
    const dir = dataDirWith(JSON.stringify({ meta: {}, data: [] }));
    expect(() => buildDeps(testConfig({ dataDir: dir }), { log: silentLogger })).toThrow(/^data\/oss\/oss_components\.json is invalid: /);
  });

  it('an OSS id equal to a catalogue id, or a catalogue id with the OSS- prefix, fails start-up', () => {
    const clash = { ...ossToStored(joint), id: 'act-001' };
    expect(() => buildDeps(testConfig(), { log: silentLogger, catalogueData: catalogueData(sampleEntities()), ossEntities: [clash] })).toThrow(
      'data/oss/oss_components.json: id act-001 is already used by another record',
    );
    const twice = [ossToStored(joint), ossToStored(joint)];
    expect(() => buildDeps(testConfig(), { log: silentLogger, catalogueData: catalogueData([]), ossEntities: twice })).toThrow(`id ${joint.id} is already used`);
    expect(() => buildDeps(testConfig(), { log: silentLogger, catalogueData: catalogueData([makeEntity({ id: 'OSS-X-001' })]), ossEntities: [] })).toThrow(
      'id OSS-X-001 uses the prefix OSS-',
    );
  });
});
