/**
 * Issue 44, names: makers the data writes in Chinese and model codes a public source attributes to
 * a maker (data/manufacturers.json, evidence from ../shared/evidence/makers.md), maker names written
 * in several words, accessories of a model, zero-hit suggestions. Through the in-memory MCP client
 * on the shipped data; expected lines are read from the robot files in ../shared/robots.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import type { Deps } from '../../src/deps.js';
import { realDeps } from '../support/deps.js';
import { call, memoryClient } from '../support/mcp.js';
import { accessoryOf, robotsUsingEntity, whereUsed, type LayerBomLine } from '../../src/domain/oss/where-used.js';
import { nameMatcher } from '../../src/domain/catalogue/names.js';
import { parseManufacturers } from '../../src/domain/specs/manufacturers.js';

const DATA = path.resolve(import.meta.dirname, '../../data');
const SHARED = path.resolve(import.meta.dirname, '../../../shared');
const present = fs.existsSync(path.join(SHARED, 'evidence/makers.md')) && fs.existsSync(path.join(SHARED, 'robots/bom'));
const makersMd = present ? fs.readFileSync(path.join(SHARED, 'evidence/makers.md'), 'utf8') : '';
const manufacturers = JSON.parse(fs.readFileSync(path.join(DATA, 'manufacturers.json'), 'utf8'));
type E = { id: string; name: string; name_en: string; manufacturer: string | null; quarantine: boolean };
const entities = (JSON.parse(fs.readFileSync(path.join(DATA, 'catalogue/entities.json'), 'utf8')) as { entities: E[] }).entities;

type Line = { source_id: string; line: number; item: string; quantity: number | null };
type WU = { counts: { bom_lines: number; urdf_mentions: number }; robots: { robot: string; bom_lines: Line[] }[]; notes: string[]; elsewhere?: { where: string; count: number; call: { tool: string; arguments: { q: string } }; note: string }[] };

let deps: Deps;
let client: Client;
let close: () => Promise<void>;
beforeAll(async () => {
  deps = realDeps();
  ({ client, close } = await memoryClient(deps));
});
afterAll(async () => {
  await close();
  deps.close();
});
const where = async (q: string) => {
  const r = await call(client, 'find_where_used', { q });
  expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
  return r.structuredContent as WU;
};
const lines = (o: WU) => o.robots.flatMap((r) => r.bom_lines.map((b) => `${b.source_id}:${b.line}:${b.quantity}`));

/** Rows of roboto_origin's BOM whose item cell writes "DM <family number>", read from the file (not the extractor). */
function dmRows(code?: string): string[] {
  const text = fs.readFileSync(path.join(SHARED, 'robots/bom/roboto_origin_BOM_EN.md'), 'utf8');
  // The model numbers makers.md attributes to Damiao (J4340P-2EC -> 4340P).
  const codes = [...makersMd.split('\n').find((l) => l.startsWith('| Damiao / 达妙'))!.matchAll(/J(\d{4,5}[A-Z]?)-2EC/g)].map((m) => m[1]);
  const out: string[] = [];
  text.split('\n').forEach((l, i) => {
    const cells = l.split('|').map((c) => c.trim());
    const m = /^DM (\d{4,5}[A-Z]?)\b/.exec(cells[3] ?? '');
    if (m && codes.includes(m[1]) && (code === undefined || m[1] === code)) out.push(`ROBOTO_ORIGIN_BOM:${i + 1}:${Number(cells[7])}`);
  });
  return out;
}

describe.skipIf(!present)('makers named in Chinese and model codes, with public evidence', () => {
  it('every public_source piece of evidence cites a page listed in ../shared/evidence/makers.md; every Damiao model code is one it lists', () => {
    const urls = (manufacturers.companies as { canonical: string; aliases: { evidence: { kind: string; source_urls?: string[] } }[]; models?: { code: string; evidence: { kind: string; source_urls?: string[] } }[] }[]).flatMap((c) => [
      ...c.aliases.map((a) => a.evidence),
      ...(c.models ?? []).map((m) => m.evidence),
    ]);
    const cited = urls.filter((e) => e.kind === 'public_source');
    expect(cited.length).toBeGreaterThan(10);
    for (const e of cited) {
      expect(e.source_urls!.length).toBeGreaterThan(0);
      for (const u of e.source_urls!) expect(makersMd).toContain(u);
    }
    const damiao = manufacturers.companies.find((c: { canonical: string }) => c.canonical === 'Damiao');
    const row = makersMd.split('\n').find((l) => l.startsWith('| Damiao / 达妙'))!;
    for (const m of damiao.models) expect(row).toContain(m.code);
  });

  it('"Damiao" and "达妙" reach roboto_origin\'s DM 4340P (x14) and DM 10010L (x9) lines, with the source pages in the answer', async () => {
    const want = dmRows();
    expect(want.map((l) => l.split(':')[2])).toEqual(['14', '9']);
    for (const q of ['Damiao', '达妙', 'damiao']) {
      const o = await where(q);
      expect(lines(o)).toEqual(want);
      expect(o.notes[0]).toMatch(/names Damiao/);
      expect(o.notes[0]).toContain('https://wiki.seeedstudio.com/damiao_series/');
      expect(o.notes[0]).toContain('J4340P-2EC');
    }
    // The alias's own evidence is in the answer too.
    expect((await where('达妙')).notes[0]).toContain('https://wiki.seeedstudio.com/cn/damiao_series/');
  });

  it('"DM-J4340P", "J4340P-2EC" and "DM 4340P" reach the one DM 4340P line; "DM 4340" (the J4340) does not', async () => {
    const want = dmRows('4340P');
    expect(want).toHaveLength(1);
    for (const q of ['DM-J4340P', 'J4340P-2EC', 'DM-J4340P-2EC', 'DM 4340P']) {
      const o = await where(q);
      expect(lines(o), q).toEqual(want);
      expect(o.notes[0]).toContain('model J4340P-2EC');
    }
    const o = await where('DM 4340');
    expect(lines(o).filter((l) => want.includes(l))).toEqual([]);
  });

  it('"飞特" reaches the lines "Feetech" reaches, citing the Chinese Feetech page', async () => {
    const en = await where('Feetech');
    const zh = await where('飞特');
    expect(lines(en).length).toBeGreaterThan(0);
    expect(lines(zh)).toEqual(lines(en));
    expect(zh.notes[0]).toMatch(/names Feetech/);
    expect(zh.notes[0]).toContain('https://wiki.seeedstudio.com/cn/feetech_servo/');
  });

  it('"宇树科技" names Unitree: search_parts offers Unitree\'s other names with the records they find and the evidence (ACTUATOR-abc123)', async () => {
    const wu = await where('宇树科技');
    expect(wu.notes[0]).toMatch(/names Unitree/);
    expect(wu.notes[0]).toContain('ACTUATOR-abc123');
    const o = (await call(client, 'search_parts', { q: '宇树科技' })).structuredContent as { meta: { total: number; elsewhere?: WU['elsewhere'] } };
    // Only a quarantined record writes 宇树科技 (inside its registered name).
    expect(entities.filter((e) => !e.quarantine && `${e.name} ${e.name_en} ${e.manufacturer}`.includes('宇树科技'))).toEqual([]);
    expect(o.meta.total).toBe(0);
    const hint = o.meta.elsewhere!.find((e) => e.where === 'other_name' && e.call.arguments.q === 'Unitree')!;
    expect(hint.note).toContain('ACTUATOR-abc123');
    const unitree = (await call(client, 'search_parts', hint.call.arguments)).structuredContent as { meta: { total: number }; data: { id: string }[] };
    expect(unitree.meta.total).toBe(hint.count);
    expect(unitree.meta.total).toBe(entities.filter((e) => !e.quarantine && /\bunitree\b/i.test(`${e.name} ${e.name_en} ${e.manufacturer}`)).length);
  });

  it('a hyphenated maker name is one name: "T-Motor" finds T-Motor\'s records (aliases and brands), not records holding "t" and "motor"', async () => {
    const forms = ['T-Motor', 'T-Motor (X-TEAM)', 'CubeMars'];
    const o = (await call(client, 'search_parts', { q: 'T-Motor', limit: 100 })).structuredContent as { data: { id: string; manufacturer: string | null }[]; meta: { total: number; terms: string[] } };
    expect(o.meta.terms).toEqual(['t-motor']);
    for (const h of o.data) expect(forms).toContain(h.manufacturer);
    // Every live record that writes "T-Motor" in its name or maker and is made by it (other fields may write it too).
    const want = entities.filter((e) => !e.quarantine && forms.includes(e.manufacturer ?? '') && /t-motor/i.test(`${e.name} ${e.name_en} ${e.manufacturer}`)).map((e) => e.id);
    expect(want.length).toBeGreaterThan(0);
    for (const id of want) expect(o.data.map((h) => h.id)).toContain(id);
    // A record of another maker holding the words "t" and "motor" apart is left out.
    const words = entities.filter((e) => !e.quarantine && !forms.includes(e.manufacturer ?? '') && /\bmotor\b/i.test(`${e.name} ${e.name_en}`) && /\bt\b/i.test(`${e.name} ${e.name_en} ${e.manufacturer}`));
    for (const e of words) expect(o.data.map((h) => h.id)).not.toContain(e.id);
  });

  it('a zero-hit name is offered names, not a generic word inside it: "MyActuator" is not offered "actuator"', async () => {
    const o = (await call(client, 'search_parts', { q: 'MyActuator' })).structuredContent as { meta: { total: number; elsewhere?: WU['elsewhere'] } };
    expect(o.meta.total).toBe(0);
    expect((o.meta.elsewhere ?? []).filter((e) => e.where === 'close_spelling')).toEqual([]);
    const wu = await where('MyActuator');
    expect((wu.elsewhere ?? []).filter((e) => e.where === 'close_spelling')).toEqual([]);
    // A misspelling is still offered its word.
    const typo = (await call(client, 'search_parts', { q: 'dynamxel' })).structuredContent as { meta: { elsewhere?: WU['elsewhere'] } };
    expect(typo.meta.elsewhere!.find((e) => e.where === 'close_spelling')!.call.arguments.q).toBe('dynamixel');
  });

  it('where-used "XL430": the XL430-W250 line first, the "XL430 Idler Wheel" last and labelled an accessory', async () => {
    const text = fs.readFileSync(path.join(SHARED, 'robots/bom/koch_low_cost_robot_README.md'), 'utf8').split('\n');
    const model = text.findIndex((l) => /^\|\s*\dx Dynamixel XL430-W250/.test(l)) + 1;
    const idler = text.findIndex((l) => /^\|\s*XL430 Idler Wheel/.test(l)) + 1;
    const o = await where('XL430');
    const koch = o.robots.find((r) => r.robot.startsWith('Koch'))!;
    expect(koch.bom_lines.map((b) => b.line)).toEqual([model, idler]);
    expect(o.notes.join(' ')).toContain(`line ${idler} ("XL430 Idler Wheel") is an accessory for the model ("idler wheel")`);
  });
});

describe('accessories of a model (synthetic lines)', () => {
  const line = (item: string, n: number): LayerBomLine => ({
    record_id: `R${n}`, source_id: 'S', robot: 'R', source_url: 'https://example.org/bom.md', license: 'MIT', line: n, section: null, item, item_as_written: null,
    part_number: null, manufacturer: null, manufacturer_part: null, supplier_part: null, quantity: 1, quantity_as_written: '1', quantity_source: 'column', unit_prices: [], line_totals: [], links: [],
  });
  it('an accessory word after the model code labels the line; before it, or none, does not', () => {
    expect(accessoryOf('XL430 Idler Wheel', ['XL430'])).toBe('idler wheel');
    expect(accessoryOf('Dynamixel XL430-W250', ['XL430'])).toBeNull();
    expect(accessoryOf('Wheel for XL430', ['XL430'])).toBeNull();
    expect(accessoryOf('XL430 Idler Wheel', [])).toBeNull();
  });
  it('get_part used_in counts the model\'s own lines only', () => {
    const layer = { bom: [line('2x Dynamixel XL430-W250', 1), line('XL430 Idler Wheel', 2)], urdf: [], manufacturers: [] };
    const u = robotsUsingEntity(layer, { name: 'Dynamixel XL430', manufacturer: null });
    expect(u?.robots[0].quantities.map((q) => q.line)).toEqual([1]);
    const onlyAccessory = robotsUsingEntity({ ...layer, bom: [line('XL430 Idler Wheel', 2)] }, { name: 'XL430', manufacturer: null });
    expect(onlyAccessory).toBeNull();
  });
  it('a model form matches whole tokens only: "DM 4340" is not "DM 4340P"', () => {
    const table = parseManufacturers({
      meta: { name: 't', description: 't', license: 't', basis: 't' },
      placeholders: [],
      companies: [{ canonical: 'M', aliases: [], brands: [], families: [], models: [{ code: 'J4340-2EC', forms: ['DM 4340'], evidence: { kind: 'written_form', note: 'test-written' } }] }],
    });
    const layer = { bom: [line('DM 4340P (48V)', 1), line('DM 4340 (24V)', 2), line('DM4340', 3)], urdf: [], manufacturers: [] };
    const r = whereUsed(layer, nameMatcher(table, 'J4340-2EC').matcher, { q: 'J4340-2EC' });
    expect(r.robots[0].bom_lines.map((b) => b.line)).toEqual([2, 3]);
  });
});
