/**
 * Every figure of the intelligence document, recomputed here from the files in data/ by this
 * test's own code (not the production builders) and compared with what get_analytics serves.
 * The rules implemented here are the ones the document states in meta.method and the tables
 * in data/analytics/; if production and this reading of the rules disagree, the test fails.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import type { Deps } from '../../src/deps.js';
import { realDeps } from '../support/deps.js';
import { call, memoryClient } from '../support/mcp.js';

const DATA = path.resolve(import.meta.dirname, '../../data');
const read = (rel: string) => JSON.parse(fs.readFileSync(path.join(DATA, rel), 'utf8'));

type Rec = {
  id: string;
  name: string;
  name_en: string;
  category: string;
  entity_kind: string;
  manufacturer: string | null;
  protocol: string;
  interface: string;
  interfaces: string[];
  ros_support: boolean | null;
  status: string | null;
  year: number | null;
  source_tier: 'A' | 'B' | 'C';
  source_urls: string[];
  quarantine: boolean;
};

const catalogue = read('catalogue/entities.json') as { meta: { dataset_version: string; imported_at: string; attribution: string; license: string }; entities: Rec[] };
const categories = (read('catalogue/categories.json') as { categories: { slug: string; name: string; spec_name: string | null }[] }).categories;
const trlTable = read('analytics/trl.json');
const mom = read('analytics/momentum.json');
const oss = read('oss/oss_components.json') as { meta: { generated_at: string; sources: { robot: string }[] }; data: { id: string; source_robot: string | null; extracted?: { record_type?: string; item?: string; manufacturer_part?: string | null; quantity?: number | null } }[] };

const refYear = Number(catalogue.meta.imported_at.slice(0, 4));
const inScope = catalogue.entities.filter((e) => !e.quarantine);

// --- TRL, as the table says -----------------------------------------------------------------------
const statusTrl = new Map<string, number | null>(trlTable.statuses.map((s: { status: string; trl: number | null }) => [s.status, s.trl]));
function expectedTrl(e: Rec): number | null {
  if (trlTable.not_technology_kinds.kinds.includes(e.entity_kind)) return null;
  if (!e.status || !statusTrl.has(e.status)) return null;
  const t = statusTrl.get(e.status)!;
  if (t === null) return null;
  if (e.year !== null && e.year > refYear && t > trlTable.date_rule.cap_trl) return trlTable.date_rule.cap_trl;
  return t;
}

// --- adoption, as meta.method.adoption_matching says ----------------------------------------------------
const lowerWords = (s: string | null | undefined) => (s ?? '').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
const unitLike = (w: string) => /^[0-9.]+(v|w|kw|mw|mm|cm|nm|kg|g|ah|mah|hz|khz|mhz|ghz|tops|bits?|gb|mb|tb|rpm)$/.test(w);
const tokensOf = (e: Rec) => [...new Set([...lowerWords(e.name), ...lowerWords(e.name_en)])].filter((w) => w.length > 3 && /[\p{L}]/u.test(w) && /[0-9]/.test(w) && !unitLike(w));
const bom = oss.data.filter((r) => r.extracted?.record_type === 'bom_item' && r.source_robot && r.extracted.item);
function robotsUsing(e: Rec): { robots: Set<string>; quantity: number } {
  const robots = new Set<string>();
  let quantity = 0;
  const tokens = tokensOf(e);
  for (const line of bom) {
    const ws = new Set([...lowerWords(line.extracted!.item), ...lowerWords(line.extracted!.manufacturer_part)]);
    if (tokens.some((t) => ws.has(t))) {
      robots.add(line.source_robot!);
      quantity += line.extracted!.quantity ?? 0;
    }
  }
  return { robots, quantity };
}

// --- momentum, as momentum.json says ----------------------------------------------------------------
function expectedMomentum(e: Rec): { momentum: number | null; contributions: Record<string, number> } {
  const sig = mom.signals;
  if (mom.not_applicable_kinds.kinds.includes(e.entity_kind)) return { momentum: null, contributions: {} };
  const scores: Record<string, number> = {};
  if (e.year !== null) scores.recency = Math.max(0, Math.min(1, 1 - (refYear - e.year) / sig.recency.window_years));
  let robots = 0;
  if (sig.adoption.applies_to_kinds.includes(e.entity_kind)) {
    robots = robotsUsing(e).robots.size;
    scores.adoption = Math.min(robots, sig.adoption.full_at_robots) / sig.adoption.full_at_robots;
  }
  if (e.ros_support !== null) scores.ros_support = e.ros_support ? 1 : 0;
  scores.source_tier = sig.source_tier.tiers[e.source_tier];
  scores.source_breadth = Math.min(e.source_urls.length, sig.source_breadth.full_at_urls) / sig.source_breadth.full_at_urls;
  if (e.year === null && robots === 0) return { momentum: null, contributions: {} };
  const total = Object.keys(scores).reduce((a, k) => a + sig[k].weight, 0);
  const raw = Object.fromEntries(Object.entries(scores).map(([k, s]) => [k, (100 * sig[k].weight * s) / total]));
  const momentum = Math.round(Object.values(raw).reduce((a, b) => a + b, 0) * 10) / 10;
  return { momentum, contributions: raw };
}

const colour = (m: number) => (m >= mom.colours.green ? 'green' : m >= mom.colours.yellow ? 'yellow' : 'red');
const mean = (xs: number[]) => (xs.length ? Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 100) / 100 : null);
const band = (m: number) => ['0-20', '20-40', '40-60', '60-80', '80-100'][Math.min(4, Math.floor(m / 20))]!;

let deps: Deps;
let client: Client;
let close: () => Promise<void>;
let doc: any; // eslint-disable-line @typescript-eslint/no-explicit-any

beforeAll(async () => {
  deps = realDeps();
  ({ client, close } = await memoryClient(deps));
  const r = await call(client, 'get_analytics');
  expect(r.isError).toBeFalsy();
  doc = r.structuredContent;
});
afterAll(async () => {
  await close();
  deps.close();
});

describe('the intelligence document, recomputed from data/', () => {
  it('has the spec top-level keys', () => {
    expect(Object.keys(doc)).toEqual(['meta', 'categories', 'top_signals', 'maturity_distribution', 'cross_domain_insights', 'predictions']);
  });

  it('meta: counts, sources, licence and attribution', () => {
    const withTrl = inScope.filter((e) => expectedTrl(e) !== null).length;
    const withMom = inScope.filter((e) => expectedMomentum(e).momentum !== null).length;
    expect(doc.meta.counts).toEqual({
      entities: inScope.length,
      quarantined_excluded: catalogue.entities.length - inScope.length,
      with_trl: withTrl,
      trl_unknown: inScope.length - withTrl,
      with_momentum: withMom,
      momentum_unknown: inScope.length - withMom,
    });
    expect(doc.meta.generated_from).toEqual({
      catalogue_dataset_version: catalogue.meta.dataset_version,
      catalogue_date: catalogue.meta.imported_at,
      reference_year: refYear,
      oss_layer_generated_at: oss.meta.generated_at,
      oss_robots: [...new Set(oss.meta.sources.map((s) => s.robot))].sort(),
      oss_bom_lines: bom.length,
    });
    expect(doc.meta.license).toBe('CC BY 4.0');
    expect(doc.meta.attribution).toContain(catalogue.meta.attribution);
    expect(doc.meta.method.trl.mapping).toEqual(Object.fromEntries(statusTrl));
    expect(doc.meta.method.momentum.weights).toEqual(Object.fromEntries(Object.entries(mom.signals).map(([k, v]) => [k, (v as { weight: number }).weight])));
  });

  it('maturity_distribution', () => {
    const expected: Record<string, number> = {};
    for (let l = 1; l <= 9; l++) expected[String(l)] = inScope.filter((e) => expectedTrl(e) === l).length;
    expected.unknown = inScope.filter((e) => expectedTrl(e) === null).length;
    expected.total = inScope.length;
    expect(doc.maturity_distribution).toEqual(expected);
  });

  it('categories: counts, TRL and momentum means and distributions, colours', () => {
    expect(Object.keys(doc.categories)).toEqual(categories.map((c) => c.slug));
    for (const c of categories) {
      const rows = inScope.filter((e) => e.category === c.slug);
      const trls = rows.map(expectedTrl).filter((t): t is number => t !== null);
      const moms = rows.map((e) => expectedMomentum(e).momentum).filter((m): m is number => m !== null);
      const got = doc.categories[c.slug];
      expect(got.count, c.slug).toBe(rows.length);
      expect(got.name).toBe(c.name);
      expect(got.trl.known).toBe(trls.length);
      expect(got.trl.unknown).toBe(rows.length - trls.length);
      expect(got.trl.mean).toBe(mean(trls));
      for (let l = 1; l <= 9; l++) expect(got.trl.distribution[String(l)], `${c.slug} TRL ${l}`).toBe(trls.filter((t) => t === l).length);
      expect(got.momentum.known).toBe(moms.length);
      expect(got.momentum.unknown).toBe(rows.length - moms.length);
      expect(got.momentum.mean, c.slug).toBe(mean(moms));
      for (const b of ['0-20', '20-40', '40-60', '60-80', '80-100']) expect(got.momentum.distribution[b]).toBe(moms.filter((m) => band(m) === b).length);
      expect(got.signals).toEqual({
        green: moms.filter((m) => colour(m) === 'green').length,
        yellow: moms.filter((m) => colour(m) === 'yellow').length,
        red: moms.filter((m) => colour(m) === 'red').length,
        none: rows.length - moms.length,
      });
    }
  });

  it('top_signals: the ten highest momentum (ties by id) with their breakdown', () => {
    const ranked = inScope
      .map((e) => ({ e, m: expectedMomentum(e) }))
      .filter((x) => x.m.momentum !== null)
      .sort((a, b) => b.m.momentum! - a.m.momentum! || (a.e.id < b.e.id ? -1 : 1))
      .slice(0, 10);
    expect(doc.top_signals.map((t: { id: string }) => t.id)).toEqual(ranked.map((x) => x.e.id));
    for (const [i, t] of (doc.top_signals as { id: string; rank: number; momentum: number; trl: number | null; colour: string; category: string; signals: { signal: string; contribution: number }[] }[]).entries()) {
      const x = ranked[i]!;
      expect(t.rank).toBe(i + 1);
      expect(t.momentum).toBe(x.m.momentum);
      expect(t.trl).toBe(expectedTrl(x.e));
      expect(t.colour).toBe(colour(x.m.momentum!));
      expect(t.category).toBe(x.e.category);
      for (const s of t.signals) expect(Math.abs(s.contribution - (x.m.contributions[s.signal] ?? 0)), `${t.id} ${s.signal}`).toBeLessThanOrEqual(0.1);
      expect(Math.round(t.signals.reduce((a, s) => a + s.contribution * 10, 0))).toBe(Math.round(t.momentum * 10));
    }
  });

  it('cross_domain_insights: figures, categories and ids re-run from their stated queries', () => {
    const bus = ['actuators', 'chips', 'protocols'];
    const busRecords = inScope.filter((e) => bus.includes(e.category));
    const fields = (e: Rec) => [e.protocol, e.interface, ...e.interfaces, ...(e.category === 'protocols' ? [e.name_en] : [])];
    const isCan = (f: string) => lowerWords(f).some((w, i, ws) => w === 'can' || w === 'canopen' || w === 'canfd' || (w === 'can' && ws[i + 1] === 'fd'));
    const byCat = (rs: Rec[], cats: string[]) => Object.fromEntries(cats.map((c) => [c, rs.filter((r) => r.category === c).length]));
    const ids = (rs: Rec[]) => rs.map((r) => r.id).sort();
    const get = (id: string) => doc.cross_domain_insights.find((i: { id: string }) => i.id === id);

    const ros = busRecords.filter((e) => e.ros_support === true);
    expect(get('ros_declared_across_layers')).toMatchObject({ figure: ros.length, by_category: byCat(ros, bus), entity_ids: ids(ros) });

    const can = busRecords.filter((e) => fields(e).some(isCan));
    expect(get('can_declared_across_layers')).toMatchObject({ figure: can.length, by_category: byCat(can, bus), entity_ids: ids(can) });

    const ecat = busRecords.filter((e) => fields(e).some((f) => f.toLowerCase().includes('ethercat')));
    expect(get('ethercat_declared_across_layers')).toMatchObject({ figure: ecat.length, by_category: byCat(ecat, bus), entity_ids: ids(ecat) });

    const groups = new Map<string, Rec[]>();
    for (const e of inScope) if (e.manufacturer && e.manufacturer.trim()) groups.set(e.manufacturer.trim().toLowerCase(), [...(groups.get(e.manufacturer.trim().toLowerCase()) ?? []), e]);
    const multi = [...groups.values()].filter((g) => new Set(g.map((e) => e.category)).size > 1);
    const multiRecs = multi.flat();
    expect(get('manufacturers_in_several_categories')).toMatchObject({
      figure: multi.length,
      by_category: byCat(multiRecs, [...new Set(multiRecs.map((e) => e.category))].sort()),
      entity_ids: ids(multiRecs),
    });

    const used = inScope.filter((e) => mom.signals.adoption.applies_to_kinds.includes(e.entity_kind) && robotsUsing(e).robots.size > 0);
    expect(get('components_in_open_source_robot_boms')).toMatchObject({ figure: used.length, entity_ids: ids(used) });
    expect(doc.cross_domain_insights).toHaveLength(5);
    for (const i of doc.cross_domain_insights) {
      expect(i.statement).toContain(String(i.figure));
      expect(i.query.length).toBeGreaterThan(20);
    }
  });

  it('predictions: only trend statements the stated rule finds in the dated records', () => {
    const evidence: Record<string, Record<string, number>> = {};
    const runs: Record<string, number[]> = {};
    for (const c of categories) {
      const dated = inScope.filter((e) => e.category === c.slug && e.year !== null);
      if (!dated.length) continue;
      const counts: Record<string, number> = {};
      for (const e of dated) counts[String(e.year)] = (counts[String(e.year)] ?? 0) + 1;
      evidence[c.slug] = counts;
      // consecutive years with >= 3 records each; a run of 3+ years qualifies
      const good = Object.keys(counts).map(Number).filter((y) => counts[String(y)]! >= 3);
      const longest = good.reduce<number[][]>((acc, y) => {
        const last = acc[acc.length - 1];
        if (last && last[last.length - 1] === y - 1) last.push(y);
        else acc.push([y]);
        return acc;
      }, []).sort((a, b) => b.length - a.length)[0];
      if (longest && longest.length >= 3) runs[c.slug] = longest;
    }
    expect(doc.predictions.evidence).toEqual(evidence);
    expect(Object.values(doc.predictions.statements).map((s) => (s as { category: string }).category).sort()).toEqual(Object.keys(runs).sort());
    if (Object.keys(runs).length === 0) expect(doc.predictions.note).toMatch(/supports no trend statement/);
  });

  it('get_part carries the same TRL and momentum for every record, quarantined included', async () => {
    for (const e of catalogue.entities.filter((_, i) => i % 7 === 0)) {
      const r = await call(client, 'get_part', { id: e.id });
      const a = (r.structuredContent as { analytics: { trl: { trl: number | null }; momentum: { momentum: number | null } } }).analytics;
      expect(a.trl.trl, e.id).toBe(expectedTrl(e));
      expect(a.momentum.momentum, e.id).toBe(expectedMomentum(e).momentum);
    }
  });
});
