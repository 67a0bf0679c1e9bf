/**
 * find_where_used on the shipped layer (real catalogue, data/oss) through the in-memory MCP client
 * and REST; expectations read from the source files in ../shared/robots independently.
 * Matching and manufacturer rules on small synthetic lines.
 */
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../src/deps.js';
import { entityMatcher, lineManufacturer, runMatch, textMatcher, tokensOf, whereUsed, type LayerBomLine, type WhereUsedLayer } from '../../src/domain/oss/where-used.js';
import { nameMatcher } from '../../src/domain/catalogue/names.js';
import { realDeps } from '../support/deps.js';
import { call, errorBody, openSurfaces } from '../support/mcp.js';
import { robotsPresent, robotText } from './helpers.js';

type Line = { source_id: string; line: number; item: string; quantity: number | null; quantity_source: string | null; unit_prices: { as_written: string; currency: string | null; amount: string | null }[]; line_totals: { as_written: string; amount: string | null; basis_evidence: string | null }[]; manufacturer: { name: string; evidence: string } | null; matched_fields: string[] };
type Out = { robots: { robot: string; sources: string[]; bom_lines: Line[]; urdf_mentions: { source_id: string; kind: string; name: string; links: string[] }[] }[]; counts: Record<string, number>; manufacturers: { name: string; evidence: string[] }[]; notes: string[]; entity: unknown };

/** Line numbers and cells of the pipe-table rows of a source file that contain `needle` (independent of the extractor). */
function rowsWith(file: string, needle: RegExp): { line: number; cells: string[] }[] {
  return robotText(file)
    .split(/\r?\n/)
    .map((text, i) => ({ line: i + 1, text }))
    .filter((r) => r.text.trim().startsWith('|') && needle.test(r.text))
    .map((r) => ({ line: r.line, cells: r.text.split('|').slice(1, -1).map((c) => c.trim()) }));
}

let deps: Deps;
let client: Client;
let close: () => Promise<void>;
const srv = { url: '' };
beforeAll(async () => {
  deps = realDeps();
  ({ client, url: srv.url, close } = await openSurfaces(deps));
});
afterAll(async () => {
  await close();
  deps.close();
});

const where = async (args: Record<string, unknown>) => {
  const r = await call(client, 'find_where_used', args);
  expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
  return r.structuredContent as Out;
};

describe.skipIf(!robotsPresent)('acceptance on the shipped layer', () => {
  it('STS3215: LeKiwi and SO-ARM100 BOM lines with quantities and prices as written, and the SO-101 URDF meshes; no manufacturer named', async () => {
    const o = await where({ q: 'STS3215' });
    expect(o.robots.map((r) => r.robot)).toEqual(['LeKiwi', 'SO-ARM100 / SO-101']);
    const lekiwi = o.robots[0].bom_lines;
    // Every LeKiwi row that writes STS3215 in its text or links, and no other.
    const expected = rowsWith('bom/lekiwi_BOM.md', /STS3215/i);
    expect(lekiwi.map((l) => l.line)).toEqual(expected.map((r) => r.line));
    expect(lekiwi.map((l) => l.quantity)).toEqual(expected.map((r) => Number(r.cells[1])));
    expect(lekiwi.map((l) => l.unit_prices[0].as_written)).toEqual(expected.map((r) => r.cells[2]));
    const so = o.robots[1];
    expect(so.sources).toEqual(['SO_ARM100_BOM', 'SO101']);
    const soRows = rowsWith('bom/so_arm100_README_bom.md', /STS3215/i);
    expect(so.bom_lines.map((l) => [l.line, l.quantity])).toEqual(soRows.map((r) => [r.line, Number(r.cells[1])]));
    expect(so.urdf_mentions.map((m) => m.name).sort()).toEqual(['sts3215', 'sts3215_03a_no_horn_v1.stl', 'sts3215_03a_v1.stl']);
    // Feetech (data/manufacturers.json) is named only where the row itself writes it; the other lines name none, and the answer says so.
    const lines = o.robots.flatMap((r) => r.bom_lines);
    expect(lines.filter((l) => l.manufacturer !== null).map((l) => l.item)).toEqual(lines.filter((l) => /feetech/i.test(l.item)).map((l) => l.item));
    expect(o.manufacturers.map((m) => m.name)).toEqual(lines.some((l) => /feetech/i.test(l.item)) ? ['Feetech'] : []);
    expect(o.notes.join(' ')).toContain('none is guessed');
  });

  it('DM 4340P: roboto_origin Atom01, 14 at 949 CNY; "DM" names no manufacturer', async () => {
    const o = await where({ q: 'DM 4340P' });
    const [row] = rowsWith('bom/roboto_origin_BOM_EN.md', /DM 4340P/);
    expect(o.robots).toHaveLength(1);
    expect(o.robots[0].robot).toBe('roboto_origin Atom01');
    const [l] = o.robots[0].bom_lines;
    expect([l.line, l.quantity, l.unit_prices[0].amount, l.unit_prices[0].currency]).toEqual([row.line, Number(row.cells[6]), row.cells[7], 'CNY']);
    expect(l.manufacturer).toBeNull();
    expect(o.manufacturers).toEqual([]);
    // Written without the space, the same line.
    expect((await where({ q: 'dm4340p' })).robots[0].bom_lines.map((x) => x.line)).toEqual([row.line]);
  });

  it('Dynamixel XL430: Koch follower arm, 2 from the "2x" name prefix, $100 as a line total; ROBOTIS from its vendor link', async () => {
    const o = await where({ q: 'Dynamixel XL430' });
    const [row] = rowsWith('bom/koch_low_cost_robot_README.md', /Dynamixel XL430/);
    expect(o.robots.map((r) => r.robot)).toEqual(['Koch low-cost robot arm']);
    const [l] = o.robots[0].bom_lines;
    expect(l.line).toBe(row.line);
    expect(l.item).toBe(row.cells[0].replace(/^\d+x\s+/, ''));
    expect([l.quantity, l.quantity_source]).toEqual([Number(/^(\d+)x/.exec(row.cells[0])![1]), 'item_prefix']);
    expect(l.unit_prices).toEqual([]);
    expect(l.line_totals[0]).toMatchObject({ as_written: row.cells[1], amount: row.cells[1].replace('$', '') });
    expect(l.line_totals[0].basis_evidence).toContain('stated total');
    expect(l.manufacturer!.name).toBe('ROBOTIS');
    expect(l.manufacturer!.evidence).toContain('robotis.us');
    // The idler wheel row says XL430 but not Dynamixel: not a match.
    expect(o.robots[0].bom_lines).toHaveLength(1);
  });

  it('by catalogue id: matched on the model number; get_part carries used_in; a name without a model number links nothing', async () => {
    const chip = deps.ossLayer.bom.find((b) => /RK3588/.test(b.item));
    expect(chip).toBeDefined();
    const hits = (await deps.catalogue.list({ includeQuarantine: true, limit: 10_000 })).items.filter((e) => /RK3588/.test(e.name));
    expect(hits.length).toBeGreaterThan(0);
    const o = await where({ id: hits[0].id });
    expect(o.robots.flatMap((r) => r.bom_lines.map((b) => b.line))).toContain(chip!.line);
    const part = (await call(client, 'get_part', { id: hits[0].id })).structuredContent as { used_in: { robots: { robot: string }[]; matched_on: string[] } | null };
    expect(part.used_in!.robots.map((r) => r.robot)).toContain(chip!.robot);
    expect(part.used_in!.matched_on).toContain('RK3588');
    const none = (await call(client, 'get_part', { id: 'ACT-001' })).structuredContent as { used_in: unknown };
    expect(none.used_in).toBeNull();
  });

  it('by catalogue id without a model number: nothing linked, but the lines naming it are counted with the call that shows them', async () => {
    const [row] = rowsWith('bom/lekiwi_BOM.md', /Raspberry Pi 5/);
    expect(row).toBeDefined();
    const o = (await where({ id: 'CHIP-003' })) as Out & { elsewhere?: { where: string; count: number; call: { tool: string; arguments: { q: string } } }[] };
    expect(o.counts.bom_lines + o.counts.urdf_mentions).toBe(0);
    expect(o.notes.join(' ')).toContain('no model number');
    const [hint] = o.elsewhere!;
    expect(hint).toMatchObject({ where: 'open_source_layer', call: { tool: 'find_where_used', arguments: { q: 'Raspberry Pi 5' } } });
    const followed = await where(hint.call.arguments);
    expect(hint.count).toBe(followed.counts.bom_lines + followed.counts.urdf_mentions);
    expect(followed.robots.flatMap((r) => r.bom_lines.filter((b) => b.source_id.length > 0).map((b) => b.line))).toContain(row.line);
  });

  it('REST twin: GET /api/where-used?q= and ?id=; bad input names the field', async () => {
    const r = await fetch(`${srv.url}/api/where-used?q=${encodeURIComponent('DM 4340P')}`);
    expect(r.status).toBe(200);
    expect(((await r.json()) as Out).counts).toMatchObject({ robots: 1, bom_lines: 1 });
    const both = await fetch(`${srv.url}/api/where-used?q=x&id=ACT-001`);
    expect(both.status).toBe(400);
    expect(((await both.json()) as { field: string }).field).toBe('q');
    const none = await fetch(`${srv.url}/api/where-used`);
    expect(none.status).toBe(400);
    const missing = await fetch(`${srv.url}/api/where-used?id=ACT-999999`);
    expect(missing.status).toBe(404);
  });

  it('MCP errors: neither or both arguments', async () => {
    expect(errorBody(await call(client, 'find_where_used', {}))).toMatchObject({ code: 'invalid_input', field: 'q' });
    expect(errorBody(await call(client, 'find_where_used', { q: 'STS3215', id: 'ACT-001' }))).toMatchObject({ code: 'invalid_input', field: 'q' });
  });
});

describe('matching and manufacturer rules (synthetic lines)', () => {
  const line = (item: string, links: string[] = [], extra: Partial<LayerBomLine> = {}): LayerBomLine => ({
    record_id: `R-${item}`, source_id: 'SYN', robot: 'Synthetic bot', source_url: 'https://example.com/bom.md', license: 'MIT', line: 1, section: null,
    item, item_as_written: null, part_number: null, manufacturer: null, manufacturer_part: null, supplier_part: null,
    quantity: 1, quantity_as_written: '1', quantity_source: 'column', unit_prices: [], line_totals: [], links: links.map((url) => ({ label: null, url })), ...extra,
  });
  const layer = (bom: LayerBomLine[]): WhereUsedLayer => ({
    bom, urdf: [], manufacturers: [{ name: 'ROBOTIS', canonical: 'ROBOTIS', source: 'test' }, { name: 'FIRST', canonical: 'FIRST', source: 'test' }, { name: 'T-Motor', canonical: 'T-Motor', source: 'test' }],
  });

  it('a model number ends on a token or letter/digit boundary', () => {
    expect(runMatch(tokensOf('Dynamixel XL430-W250'), 'XL430')).toBe(true);
    expect(runMatch(tokensOf('Servo XL4300'), 'XL430')).toBe(false);
    expect(runMatch(tokensOf('DM 4340P (48V)'), 'DM4340P')).toBe(true);
    expect(runMatch(tokensOf('DM 4340'), 'DM4340P')).toBe(false);
  });

  it('"DM" alone names no manufacturer; a marketplace link is no evidence; a maker\'s own site is', () => {
    const l = layer([line('DM 4340P', ['https://item.taobao.com/item.htm?id=1']), line('DM-J4310', ['https://www.alibaba.com/product/ROBOTIS-x.html'])]);
    const o = whereUsed(l, textMatcher('DM'));
    expect(o.counts.bom_lines).toBe(2);
    expect(o.manufacturers).toEqual([]);
    expect(lineManufacturer(line('Servo', ['https://www.robotis.us/x']), l.manufacturers)!.name).toBe('ROBOTIS');
    expect(lineManufacturer(line('T-Motor MN5008 KV170'), l.manufacturers)!.evidence).toContain('item text');
    // Short capitals only in their own capitals: "first stage" is not FIRST.
    expect(lineManufacturer(line('Timing belt first stage'), l.manufacturers)).toBeNull();
    expect(lineManufacturer(line('Bolt', [], { manufacturer: 'Acme' }), l.manufacturers)).toEqual({ name: 'Acme', evidence: 'the row\'s manufacturer column says "Acme"' });
  });
});

describe('only the lines holding a needle are asked (Matcher.needles)', () => {
  it('gives the same answer as asking every line, for every word, pair of words, fragment and catalogue name of the shipped layer', async () => {
    const layer = deps.ossLayer;
    const full = (m: ReturnType<typeof textMatcher>, q: string) => whereUsed(layer, { ...m, needles: undefined }, { q });
    // Queries from the layer's own texts (each word, neighbouring pairs, fragments), the
    // catalogue's names and model codes, company names with their other forms, and misses.
    const texts = [...layer.bom.flatMap((b) => [b.item, b.part_number ?? '', b.manufacturer ?? '', ...b.links.map((k) => k.url)]), ...layer.urdf.flatMap((s) => s.mentions.map((m) => m.name))];
    const queries = new Set<string>(['xyzzyplonk', 'orin nano', 'M3 x 8', '']);
    for (const t of texts) {
      const words = tokensOf(t);
      words.forEach((w, i) => {
        queries.add(w);
        if (i > 0) queries.add(`${words[i - 1]} ${w}`);
        if (w.length > 4) queries.add(w.slice(1, -1));
      });
    }
    for (const e of (await deps.catalogue.all()).slice(0, 300)) queries.add(e.name);
    let matched = 0;
    for (const q of queries) {
      const m = textMatcher(q);
      const got = whereUsed(layer, m, { q });
      expect(got, q).toEqual(full(m, q));
      if (got.counts.bom_lines + got.counts.urdf_mentions > 0) matched++;
      const e = entityMatcher(q);
      expect(whereUsed(layer, e), `entity ${q}`).toEqual(whereUsed(layer, { ...e, needles: undefined }));
    }
    for (const company of ['ROBOTIS', 'Unitree', 'Feetech', 'Damiao', 'DJI', 'T-Motor']) {
      const { matcher } = nameMatcher(deps.specs.manufacturers, company);
      expect(whereUsed(layer, matcher, { q: company }), company).toEqual(whereUsed(layer, { ...matcher, needles: undefined }, { q: company }));
    }
    // The comparison covered real matches, not only misses.
    expect(matched).toBeGreaterThan(200);
  });
});
