/**
 * The intelligence document (spec: meta, categories, top_signals, maturity_distribution,
 * cross_domain_insights, predictions), computed from the catalogue, the open-source layer and
 * the method tables. Pure and deterministic: the same inputs give the same JSON, byte for byte
 * (no clock; the reference year is the catalogue snapshot's own date).
 */
import type { StoredEntity } from '../catalogue/entity.js';
import { deepFreeze } from '../shared/freeze.js';
import { adoptionIndex, type Adoption, type BomLine } from './adoption.js';
import { computeInsights, type Insight } from './insights.js';
import { momentumFor, type Colour, type MomentumResult, type SignalEntry } from './momentum.js';
import { SIGNAL_NAMES, type MomentumMethod, type TrlTable } from './tables.js';
import { trlFor, type TrlResult } from './trl.js';

export const INTELLIGENCE_VERSION = '1';
export const TOP_SIGNALS = 10;
export const MOMENTUM_BANDS = ['0-20', '20-40', '40-60', '60-80', '80-100'] as const;

export interface OssInput {
  generated_at: string | null;
  robots: string[];
  attribution: string | null;
  lines: BomLine[];
}

export interface IntelligenceInput {
  entities: readonly StoredEntity[];
  categories: readonly { slug: string; name: string; spec_name: string | null }[];
  meta: { dataset_version: string; imported_at: string | null; license: string; attribution: string };
  oss: OssInput;
  trl: TrlTable;
  momentum: MomentumMethod;
}

export interface EntityAnalytics {
  id: string;
  trl: TrlResult;
  momentum: MomentumResult;
}

export interface PredictionRule {
  min_consecutive_years: number;
  min_records_per_year: number;
}
export const PREDICTION_RULE: PredictionRule = { min_consecutive_years: 3, min_records_per_year: 3 };

/** Mean of the values rounded to 2 decimals; null when there are none. */
export function mean2(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  return Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 100) / 100;
}

export function momentumBand(m: number): (typeof MOMENTUM_BANDS)[number] {
  return MOMENTUM_BANDS[Math.min(4, Math.floor(m / 20))]!;
}

export function referenceYear(importedAt: string | null): number | null {
  if (!importedAt) return null;
  const m = /^(\d{4})-/.exec(importedAt);
  return m ? Number(m[1]) : null;
}

/** A record in the statistics: its TRL, momentum and colour (the breakdowns are computed when shown). */
interface Scored {
  e: StoredEntity;
  trl: number | null;
  momentum: number | null;
  colour: Colour | null;
}

function trlStats(rows: readonly Scored[]) {
  const known = rows.map((r) => r.trl).filter((t): t is number => t !== null);
  const distribution: Record<string, number> = {};
  for (let l = 1; l <= 9; l++) distribution[String(l)] = known.filter((t) => t === l).length;
  return { known: known.length, unknown: rows.length - known.length, mean: mean2(known), distribution };
}

function momentumStats(rows: readonly Scored[]) {
  const known = rows.map((r) => r.momentum).filter((m): m is number => m !== null);
  const distribution: Record<string, number> = Object.fromEntries(MOMENTUM_BANDS.map((b) => [b, 0]));
  for (const m of known) distribution[momentumBand(m)]! += 1;
  return { known: known.length, unknown: rows.length - known.length, mean: mean2(known), distribution };
}

function signalStats(rows: readonly Scored[]) {
  const out: Record<Colour | 'none', number> = { green: 0, yellow: 0, red: 0, none: 0 };
  for (const r of rows) out[r.colour ?? 'none'] += 1;
  return out;
}

function topSignals(rows: readonly Scored[], table: EntityAnalyticsTable) {
  return rows
    .filter((r) => r.momentum !== null)
    .sort((x, y) => y.momentum! - x.momentum! || (x.e.id < y.e.id ? -1 : x.e.id > y.e.id ? 1 : 0))
    .slice(0, TOP_SIGNALS)
    .map((r, i) => ({
      rank: i + 1,
      id: r.e.id,
      name: r.e.name_en,
      category: r.e.category,
      trl: r.trl,
      momentum: r.momentum!,
      colour: r.colour!,
      signals: table.get(r.e.id)!.momentum.signals.map(breakdownEntry),
    }));
}

function breakdownEntry(s: SignalEntry) {
  return { signal: s.signal, value: s.value, score: s.score, weight: s.weight, effective_weight: s.effective_weight, contribution: s.contribution };
}

function maturity(rows: readonly Scored[]) {
  const t = trlStats(rows);
  return { ...t.distribution, unknown: t.unknown, total: rows.length };
}

function predictions(byCat: ReadonlyMap<string, readonly Scored[]>, categories: readonly string[], refYear: number | null) {
  const rule = PREDICTION_RULE;
  const evidence: Record<string, Record<string, number>> = {};
  const statements: Record<string, unknown> = {};
  for (const c of categories) {
    const dated = (byCat.get(c) ?? []).filter((r) => r.e.year !== null);
    if (dated.length === 0) continue;
    const byYear = new Map<number, Scored[]>();
    for (const r of dated) {
      const list = byYear.get(r.e.year!);
      if (list) list.push(r);
      else byYear.set(r.e.year!, [r]);
    }
    const years = [...byYear.keys()].sort((a, b) => a - b);
    evidence[c] = Object.fromEntries(years.map((y) => [String(y), byYear.get(y)!.length]));
    // Longest run of consecutive years each with enough records (first one on ties).
    let best: number[] = [];
    let run: number[] = [];
    for (const y of years) {
      if (byYear.get(y)!.length < rule.min_records_per_year) {
        run = [];
        continue;
      }
      run = run.length > 0 && run[run.length - 1] === y - 1 ? [...run, y] : [y];
      if (run.length > best.length) best = run;
    }
    if (best.length < rule.min_consecutive_years) continue;
    const xs = best;
    const ys = xs.map((y) => byYear.get(y)!.length);
    const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
    const my = ys.reduce((a, b) => a + b, 0) / ys.length;
    const slope = xs.reduce((a, x, i) => a + (x - mx) * (ys[i]! - my), 0) / xs.reduce((a, x) => a + (x - mx) ** 2, 0);
    const s2 = Math.round(slope * 100) / 100;
    statements[`${c}_dated_records_${xs[0]}_${xs[xs.length - 1]}`] = {
      category: c,
      statement: `Catalogued ${c} records by declared release year ${xs[0]}-${xs[xs.length - 1]}: ${ys.join(', ')} (least-squares change ${s2} records per year, ${s2 > 0 ? 'rising' : s2 < 0 ? 'falling' : 'flat'}).`,
      years: Object.fromEntries(xs.map((y, i) => [String(y), ys[i]])),
      slope_per_year: s2,
      entity_ids: xs.flatMap((y) => byYear.get(y)!.map((r) => r.e.id)).sort(),
    };
  }
  const found = Object.keys(statements).length;
  return {
    statements,
    rule:
      `A trend statement is made for a category only when its records (in scope) declare release years in at least ${rule.min_consecutive_years} consecutive years ` +
      `with at least ${rule.min_records_per_year} records each; it states the counts per year and their least-squares slope over that run, nothing beyond it. No forecast is made.`,
    note:
      found === 0
        ? `The data supports no trend statement: no category has dated records in ${rule.min_consecutive_years} consecutive years with ${rule.min_records_per_year} or more records each (declared years per category are in evidence). ` +
          'Counts by declared year also show when the catalogue was compiled, not only when products appeared.'
        : 'Counts by declared year show what the catalogue holds, which also reflects when it was compiled; they are not market volumes.',
    reference_year: refYear,
    evidence,
  };
}

export interface Headline {
  trl: number | null;
  status: string | null;
  momentum: number | null;
  colour: Colour | null;
}

/** Records analysed on demand and kept (most recently asked for). */
const ENTITY_CACHE = 2_000;

/**
 * Per-record analytics of every catalogue record, by exact id, as a read-only map. A record's
 * TRL and momentum breakdown is computed when asked for (pure, from the record, its adoption and
 * the tables) and kept in a bounded cache: holding every breakdown of a large catalogue costs
 * far more memory than computing one.
 */
export class EntityAnalyticsTable implements ReadonlyMap<string, EntityAnalytics> {
  private readonly byId: ReadonlyMap<string, StoredEntity>;
  /** Every record's headline values, computed once (statistics, spec-layer fields). */
  private readonly headlines = new Map<string, Headline>();
  private readonly cache = new Map<string, EntityAnalytics>();

  constructor(
    entities: readonly StoredEntity[],
    private readonly adoption: ReadonlyMap<string, Adoption>,
    private readonly trl: TrlTable,
    private readonly method: MomentumMethod,
    private readonly refYear: number | null,
  ) {
    this.byId = new Map(entities.map((e) => [e.id, e]));
    for (const e of entities) {
      const a = analyseEntity(e, adoption.get(e.id) ?? null, trl, method, refYear);
      this.headlines.set(e.id, { trl: a.trl.trl, status: a.trl.status, momentum: a.momentum.momentum, colour: a.momentum.colour });
    }
  }

  /** TRL, declared status, momentum and colour of a record (without the breakdowns). */
  headline(id: string): Headline | undefined {
    return this.headlines.get(id);
  }

  get size(): number {
    return this.byId.size;
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  get(id: string): EntityAnalytics | undefined {
    const hit = this.cache.get(id);
    if (hit) return hit;
    const e = this.byId.get(id);
    if (!e) return undefined;
    const a = deepFreeze({ id, ...analyseEntity(e, this.adoption.get(id) ?? null, this.trl, this.method, this.refYear) });
    if (this.cache.size >= ENTITY_CACHE) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(id, a);
    return a;
  }

  *keys(): MapIterator<string> {
    yield* this.byId.keys();
  }

  *values(): MapIterator<EntityAnalytics> {
    for (const id of this.byId.keys()) yield this.get(id)!;
  }

  *entries(): MapIterator<[string, EntityAnalytics]> {
    for (const id of this.byId.keys()) yield [id, this.get(id)!];
  }

  [Symbol.iterator](): MapIterator<[string, EntityAnalytics]> {
    return this.entries();
  }

  forEach(fn: (value: EntityAnalytics, key: string, map: ReadonlyMap<string, EntityAnalytics>) => void): void {
    for (const [k, v] of this.entries()) fn(v, k, this);
  }
}

export interface Intelligence {
  /** Per-record analytics for every catalogue record (quarantined included), by exact id (computed when read). */
  entities: EntityAnalyticsTable;
  /** The whole document. */
  document: Record<string, unknown>;
  /** The document for one category (slug), computed the same way over that category's records. */
  byCategory: ReadonlyMap<string, Record<string, unknown>>;
  adoption: ReadonlyMap<string, Adoption>;
  referenceYear: number | null;
  categories: readonly { slug: string; name: string; spec_name: string | null }[];
  tables: { trl: TrlTable; momentum: MomentumMethod };
}


export function analyseEntity(
  e: Pick<StoredEntity, 'status' | 'entity_kind' | 'year' | 'ros_support' | 'source_tier' | 'source_urls'>,
  adoption: Adoption | null,
  trl: TrlTable,
  method: MomentumMethod,
  refYear: number | null,
): Omit<EntityAnalytics, 'id'> {
  return { trl: trlFor(e, trl, refYear), momentum: momentumFor(e, adoption, method, refYear) };
}

/** Adoption of the input's records in the open-source layer's BOM lines (what momentum's adoption signal reads). */
export function adoptionOf(input: Pick<IntelligenceInput, 'entities' | 'oss' | 'momentum'>): Map<string, Adoption> {
  return adoptionIndex(input.entities, input.oss.lines, input.momentum.signals.adoption.applies_to_kinds);
}

/** `adoption`: adoptionOf(input) when already made (the spec layer's momentum field shares it). */
export function buildIntelligence(input: IntelligenceInput, adoption: ReadonlyMap<string, Adoption> = adoptionOf(input)): Intelligence {
  const refYear = referenceYear(input.meta.imported_at);
  const entities = new EntityAnalyticsTable(input.entities, adoption, input.trl, input.momentum, refYear);
  const scored: Scored[] = [];
  for (const e of input.entities) {
    if (e.quarantine) continue;
    const h = entities.headline(e.id)!;
    scored.push({ e, trl: h.trl, momentum: h.momentum, colour: h.colour });
  }
  const quarantined = { total: 0, by: new Map<string, number>() };
  for (const e of input.entities) {
    if (!e.quarantine) continue;
    quarantined.total++;
    quarantined.by.set(e.category, (quarantined.by.get(e.category) ?? 0) + 1);
  }
  const groupByCategory = (rows: readonly Scored[]) => {
    const m = new Map<string, Scored[]>();
    for (const r of rows) {
      const l = m.get(r.e.category);
      if (l) l.push(r);
      else m.set(r.e.category, [r]);
    }
    return m;
  };
  const insights = computeInsights(
    scored.map((s) => s.e),
    adoption,
  );

  const meta = (rows: readonly Scored[], category: string | null) => {
    const t = trlStats(rows);
    const m = momentumStats(rows);
    return {
      name: 'Robot parts intelligence: technology readiness and momentum',
      version: INTELLIGENCE_VERSION,
      category,
      method: {
        summary:
          'Every figure is computed from the shipped data (data/catalogue, data/oss) by the rules below; nothing is typed in. ' +
          'Statistics cover the catalogue records that are not quarantined; per-record values (get_part) exist for every record.',
        scope: 'Statistics are over catalogue records with quarantine = false (counts.quarantined_excluded says how many were left out).',
        trl: {
          table: 'data/analytics/trl.json',
          version: input.trl.meta.version,
          principle: input.trl.meta.principle,
          sources: input.trl.meta.sources,
          mapping: Object.fromEntries(input.trl.statuses.map((s) => [s.status, s.trl])),
          not_technology_kinds: input.trl.not_technology_kinds.kinds,
          date_rule: input.trl.date_rule.rule,
          levels: Object.fromEntries(Object.entries(input.trl.levels).map(([k, v]) => [k, v.name])),
        },
        momentum: {
          table: 'data/analytics/momentum.json',
          version: input.momentum.meta.version,
          formula: input.momentum.meta.description,
          weights: Object.fromEntries(SIGNAL_NAMES.map((n) => [n, input.momentum.signals[n].weight])),
          scores: Object.fromEntries(SIGNAL_NAMES.map((n) => [n, input.momentum.signals[n].score])),
          minimum: input.momentum.minimum.rule,
          not_applicable_kinds: input.momentum.not_applicable_kinds.kinds,
          colours: input.momentum.colours.rule,
          rounding: input.momentum.rounding,
        },
        adoption_matching:
          "A component's model tokens are the words of its name and English name with at least 4 characters containing both a letter and a digit, unit-like words (48v, 100w) excluded; " +
          'a BOM line of the open-source layer names the component when one of its tokens is a word of the line item or manufacturer part number. Robots are counted once each.',
        means: 'Means are over the records that have the value, rounded to 2 decimals; momentum bands are [0,20), [20,40), [40,60), [60,80), [80,100].',
      },
      generated_from: {
        catalogue_dataset_version: input.meta.dataset_version,
        catalogue_date: input.meta.imported_at,
        reference_year: refYear,
        oss_layer_generated_at: input.oss.generated_at,
        oss_robots: input.oss.robots,
        oss_bom_lines: input.oss.lines.length,
      },
      counts: {
        entities: rows.length,
        quarantined_excluded: category === null ? quarantined.total : (quarantined.by.get(category) ?? 0),
        with_trl: t.known,
        trl_unknown: t.unknown,
        with_momentum: m.known,
        momentum_unknown: m.unknown,
      },
      license: input.meta.license,
      attribution: [input.meta.attribution, ...(input.oss.attribution ? [input.oss.attribution] : [])].join('; '),
    };
  };

  const docFor = (rows: readonly Scored[], cats: readonly { slug: string; name: string; spec_name: string | null }[], category: string | null) => {
    const byCat = groupByCategory(rows);
    return {
      meta: meta(rows, category),
      categories: Object.fromEntries(
        cats.map((c) => {
          const cr = byCat.get(c.slug) ?? [];
          return [c.slug, { name: c.name, spec_name: c.spec_name, count: cr.length, trl: trlStats(cr), momentum: momentumStats(cr), signals: signalStats(cr) }];
        }),
      ),
      top_signals: topSignals(rows, entities),
      maturity_distribution: maturity(rows),
      cross_domain_insights: category === null ? insights : insights.filter((i) => (i.by_category[category] ?? 0) > 0),
      predictions: predictions(
        byCat,
        cats.map((c) => c.slug),
        refYear,
      ),
    };
  };

  const document = docFor(scored, input.categories, null);
  const byCategory = new Map<string, Record<string, unknown>>();
  const scoredByCategory = groupByCategory(scored);
  for (const c of input.categories) byCategory.set(c.slug, docFor(scoredByCategory.get(c.slug) ?? [], [c], c.slug));
  deepFreeze(document);
  for (const d of byCategory.values()) deepFreeze(d);
  return {
    entities,
    document,
    byCategory,
    adoption,
    referenceYear: refYear,
    categories: input.categories.map((c) => ({ slug: c.slug, name: c.name, spec_name: c.spec_name })),
    tables: { trl: input.trl, momentum: input.momentum },
  };
}

export type { Insight };
