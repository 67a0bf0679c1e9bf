/** The method itself: the TRL table as written, null where nothing maps, breakdowns that add up, and byte-identical output. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { adoptionIndex, modelTokens } from '../../src/domain/analytics/adoption.js';
import { buildIntelligence, referenceYear } from '../../src/domain/analytics/document.js';
import { momentumFor } from '../../src/domain/analytics/momentum.js';
import { MomentumMethod, TrlTable } from '../../src/domain/analytics/tables.js';
import { trlFor, trlLevel } from '../../src/domain/analytics/trl.js';
import { analyticsSpecFields, recordScores } from '../../src/domain/analytics/spec-fields.js';
import type { SpecFieldDef } from '../../src/domain/specs/fields.js';
import { readAnalyticsTables, readOssBomLines } from '../../src/store/analytics-files.js';
import { readCatalogueData } from '../../src/store/catalogue-data.js';
import { makeEntity } from '../support/factory.js';

const DATA = path.resolve(import.meta.dirname, '../../data');
const rawTrl = JSON.parse(fs.readFileSync(path.join(DATA, 'analytics/trl.json'), 'utf8'));
const rawMom = JSON.parse(fs.readFileSync(path.join(DATA, 'analytics/momentum.json'), 'utf8'));
const trl = TrlTable.parse(rawTrl);
const momentum = MomentumMethod.parse(rawMom);
const catalogue = readCatalogueData(DATA);

describe('TRL mapping', () => {
  it('every status of the table maps to the TRL the table gives, for components, software and specifications', () => {
    expect(rawTrl.statuses.length).toBeGreaterThan(5);
    for (const row of rawTrl.statuses as { status: string; trl: number | null }[]) {
      for (const kind of ['component', 'software', 'specification']) {
        const r = trlFor({ status: row.status, entity_kind: kind, year: 2024 }, trl, 2026);
        expect(r.trl, `${row.status}/${kind}`).toBe(row.trl);
        if (row.trl !== null) expect(r.level).toBe(rawTrl.levels[String(row.trl)].name);
        expect(r.basis).toContain(row.status);
      }
    }
  });

  it('every status that occurs in the catalogue is in the table (none falls through as unknown by omission)', () => {
    const seen = new Set(catalogue.entities.map((e) => e.status).filter((s): s is string => s !== null));
    const table = new Set((rawTrl.statuses as { status: string }[]).map((s) => s.status));
    expect([...seen].filter((s) => !table.has(s))).toEqual([]);
  });

  it('each level cites a definition and the sources are named with URLs', () => {
    for (let l = 1; l <= 9; l++) expect(rawTrl.levels[String(l)].definition.length).toBeGreaterThan(30);
    expect(rawTrl.meta.sources.map((s: { url: string }) => new URL(s.url).hostname).sort()).toEqual(['ec.europa.eu', 'www.nasa.gov']);
  });

  it('no status, an unmapped status, or a non-technology kind gives trl null with the reason', () => {
    expect(trlFor({ status: null, entity_kind: 'component', year: 2026 }, trl, 2026)).toMatchObject({ trl: null, level: null });
    expect(trlFor({ status: '', entity_kind: 'component', year: null }, trl, 2026).trl).toBeNull();
    const odd = trlFor({ status: 'sold_out_forever', entity_kind: 'component', year: null }, trl, 2026);
    expect(odd.trl).toBeNull();
    expect(odd.basis).toContain('not in the TRL mapping table');
    const report = trlFor({ status: 'production', entity_kind: 'market_intelligence', year: 2026 }, trl, 2026);
    expect(report.trl).toBeNull();
    expect(report.basis).toContain('market_intelligence');
  });

  it('a declared year after the reference year caps 8 and 9 at the table cap, never raises anything', () => {
    const future = trlFor({ status: 'production', entity_kind: 'component', year: 2030 }, trl, 2026);
    expect(future).toMatchObject({ trl: rawTrl.date_rule.cap_trl, capped_by_date: true });
    expect(trlFor({ status: 'research', entity_kind: 'component', year: 2030 }, trl, 2026).trl).toBe(3);
    expect(trlFor({ status: 'production', entity_kind: 'component', year: 2026 }, trl, 2026).trl).toBe(9);
  });

  it('in the shipped catalogue, a record without status has trl null', () => {
    const intel = buildIntelligence({ entities: catalogue.entities, categories: catalogue.categories, meta: catalogue.meta, oss: readOssBomLines(DATA), ...readAnalyticsTables(DATA) });
    const noStatus = catalogue.entities.filter((e) => e.status === null);
    expect(noStatus.length).toBeGreaterThan(0);
    for (const e of noStatus) expect(intel.entities.get(e.id)!.trl.trl).toBeNull();
  });

  it("the spec layer's trl and momentum fields read, record by record, the document's values (without the document)", () => {
    const input = { entities: catalogue.entities, categories: catalogue.categories, meta: catalogue.meta, oss: readOssBomLines(DATA), ...readAnalyticsTables(DATA) };
    const intel = buildIntelligence(input);
    let adoptionBuilt = 0;
    const [trlField, momentumField] = analyticsSpecFields(recordScores(input, referenceYear(input.meta.imported_at), () => (adoptionBuilt++, intel.adoption)));
    const env = {} as Parameters<SpecFieldDef['read']>[1];
    for (const e of catalogue.entities) trlField!.read(e, env);
    expect(adoptionBuilt).toBe(0); // TRL needs no adoption
    let known = 0;
    for (const e of catalogue.entities) {
      const a = intel.entities.get(e.id)!;
      expect(trlLevel(e, trl, intel.referenceYear)).toBe(a.trl.trl);
      const t = trlField!.read(e, env).specs;
      const m = momentumField!.read(e, env).specs;
      expect(t.map((s) => [s.value, s.notation])).toEqual(a.trl.trl === null ? [] : [[a.trl.trl, `status ${a.trl.status}`]]);
      expect(m.map((s) => [s.value, s.notation])).toEqual(a.momentum.momentum === null ? [] : [[a.momentum.momentum, `momentum ${a.momentum.momentum} (${a.momentum.colour})`]]);
      if (a.trl.trl !== null) known++;
    }
    expect(known).toBeGreaterThan(0);
  });
});

describe('momentum', () => {
  const base = { entity_kind: 'component', year: 2025, ros_support: true, source_tier: 'A' as const, source_urls: ['https://a.example', 'https://b.example'] };
  const used = { robots: ['R1', 'R2'], quantity: 7, quantity_unstated: 0, lines: ['OSS-LIVE-1'], tokens: ['xm540'] };

  it('a breakdown sums exactly to the score, for every record of the shipped catalogue', () => {
    const intel = buildIntelligence({ entities: catalogue.entities, categories: catalogue.categories, meta: catalogue.meta, oss: readOssBomLines(DATA), ...readAnalyticsTables(DATA) });
    let scored = 0;
    for (const a of intel.entities.values()) {
      const m = a.momentum;
      const tenths = m.signals.reduce((s, x) => s + Math.round(x.contribution * 10), 0);
      if (m.momentum === null) {
        expect(tenths).toBe(0);
        expect(m.reason).toBeTruthy();
        continue;
      }
      scored++;
      expect(tenths, a.id).toBe(Math.round(m.momentum * 10));
      expect(m.momentum).toBeGreaterThanOrEqual(0);
      expect(m.momentum).toBeLessThanOrEqual(100);
      const w = m.signals.filter((s) => s.measured).reduce((s, x) => s + x.effective_weight, 0);
      expect(w).toBeCloseTo(1, 5);
    }
    expect(scored).toBeGreaterThan(50);
  });

  it('every measured signal shows its value and weight; the score follows the stated formula', () => {
    const r = momentumFor(base, used, momentum, 2026);
    // recency 1-(1/5)=0.8, adoption 1, ros 1, tier A 1, breadth 1: all weights present
    const expected = 100 * (rawMom.signals.recency.weight * 0.8 + rawMom.signals.adoption.weight + rawMom.signals.ros_support.weight + rawMom.signals.source_tier.weight + rawMom.signals.source_breadth.weight);
    expect(r.momentum).toBe(Math.round(expected * 10) / 10);
    expect(r.signals.map((s) => [s.signal, s.weight])).toEqual(Object.entries(rawMom.signals).map(([k, v]) => [k, (v as { weight: number }).weight]));
    expect(r.signals.find((s) => s.signal === 'recency')!.value).toBe(2025);
    expect(r.signals.find((s) => s.signal === 'adoption')!.value).toMatchObject({ robot_count: 2, quantity: 7 });
    expect(r.colour).toBe('green');
  });

  it('unmeasured signals are left out and the rest rescaled, never counted as zero', () => {
    const r = momentumFor({ ...base, ros_support: null }, used, momentum, 2026);
    const ros = r.signals.find((s) => s.signal === 'ros_support')!;
    expect(ros).toMatchObject({ measured: false, score: null, effective_weight: 0, contribution: 0 });
    const w = 1 - rawMom.signals.ros_support.weight;
    const expected = (100 * (rawMom.signals.recency.weight * 0.8 + rawMom.signals.adoption.weight + rawMom.signals.source_tier.weight + rawMom.signals.source_breadth.weight)) / w;
    expect(r.momentum).toBe(Math.round(expected * 10) / 10);
  });

  it('too few signals: no year and no open-source use -> momentum null with the reason; reports and organisations -> null', () => {
    const none = momentumFor({ ...base, year: null }, { ...used, robots: [] }, momentum, 2026);
    expect(none).toMatchObject({ momentum: null, colour: null });
    expect(none.reason).toMatch(/Too few signals/);
    const report = momentumFor({ ...base, entity_kind: 'market_intelligence' }, null, momentum, 2026);
    expect(report.momentum).toBeNull();
    expect(report.reason).toContain('market_intelligence');
    // software has no BOM adoption: the year alone is enough movement
    const sw = momentumFor({ ...base, entity_kind: 'software' }, null, momentum, 2026);
    expect(sw.momentum).not.toBeNull();
    expect(sw.signals.find((s) => s.signal === 'adoption')!.measured).toBe(false);
  });

  it('colours follow the stated thresholds', () => {
    const c = (tier: 'A' | 'B' | 'C', year: number) => momentumFor({ ...base, ros_support: false, source_tier: tier, year, source_urls: [] }, { ...used, robots: [] }, momentum, 2026);
    for (const r of [c('A', 2026), c('C', 2020), c('B', 2024), c('C', 2026)]) {
      const m = r.momentum!;
      expect(r.colour).toBe(m >= rawMom.colours.green ? 'green' : m >= rawMom.colours.yellow ? 'yellow' : 'red');
    }
    expect(c('C', 2018).colour).toBe('red');
  });
});

describe('adoption matching', () => {
  it('model tokens need a letter and a digit and 4+ characters; unit words and brand names never match', () => {
    expect(modelTokens({ name: 'Rockchip RK3588 48V 100W', name_en: 'Rockchip RK3588' })).toEqual(['rk3588']);
    const lines = [
      { id: 'L1', robot: 'Bot A', item: 'RK3588 / Orange Pi 5 PLUS', manufacturer_part: null, quantity: 1 },
      { id: 'L2', robot: 'Bot B', item: 'Rockchip board', manufacturer_part: 'RK3588S', quantity: 2 },
      { id: 'L3', robot: 'Bot B', item: 'board', manufacturer_part: 'rk3588', quantity: null },
    ];
    const idx = adoptionIndex([{ id: 'C1', name: 'Rockchip RK3588', name_en: 'Rockchip RK3588', entity_kind: 'component' }], lines, ['component']);
    expect(idx.get('C1')).toMatchObject({ robots: ['Bot A', 'Bot B'], quantity: 1, quantity_unstated: 1, lines: ['L1', 'L3'] });
    expect(adoptionIndex([{ id: 'S1', name: 'RK3588 SDK', name_en: '', entity_kind: 'software' }], lines, ['component']).has('S1')).toBe(false);
  });
});

describe('determinism', () => {
  it('the same data gives byte-identical documents (whole and per category), built twice', () => {
    const build = () => buildIntelligence({ entities: readCatalogueData(DATA).entities, categories: catalogue.categories, meta: catalogue.meta, oss: readOssBomLines(DATA), ...readAnalyticsTables(DATA) });
    const a = build();
    const b = build();
    expect(JSON.stringify(b.document)).toBe(JSON.stringify(a.document));
    for (const [slug, d] of a.byCategory) expect(JSON.stringify(b.byCategory.get(slug))).toBe(JSON.stringify(d));
  });

  it('the document is immutable once built', () => {
    const intel = buildIntelligence({ entities: [makeEntity({ id: 'X-1', status: 'production', year: 2026 })], categories: [{ slug: 'actuators', name: 'Actuators', spec_name: null }], meta: { ...catalogue.meta }, oss: { generated_at: null, robots: [], attribution: null, lines: [] }, ...readAnalyticsTables(DATA) });
    expect(Object.isFrozen(intel.document)).toBe(true);
    expect(() => {
      (intel.document as { meta: { version: string } }).meta.version = 'x';
    }).toThrow();
  });
});
