/** zod schemas of the intelligence document and of one record's analytics (tool output schemas). */
import { z } from 'zod';

const Int = z.number().int().min(0);
const Trl = z.number().int().min(1).max(9);
const Momentum = z.number().min(0).max(100);
const ColourEnum = z.enum(['green', 'yellow', 'red']);

export const SignalBreakdown = z
  .object({
    signal: z.enum(['recency', 'adoption', 'ros_support', 'source_tier', 'source_breadth']),
    value: z.unknown(),
    score: z.number().min(0).max(1).nullable(),
    weight: z.number(),
    effective_weight: z.number().describe('0 when unmeasured'),
    contribution: z.number().describe('Sums to momentum'),
  })
  .strict();

export const EntitySignal = SignalBreakdown.extend({ measured: z.boolean(), note: z.string() }).strict();

export const EntityAnalyticsSchema = z
  .object({
    trl: z
      .object({
        trl: Trl.nullable().describe('null: unknown'),
        level: z.string().nullable(),
        basis: z.string(),
        status: z.string().nullable(),
        entity_kind: z.string(),
        year: z.number().int().nullable(),
        capped_by_date: z.boolean(),
      })
      .strict(),
    momentum: z
      .object({
        momentum: Momentum.nullable().describe('0-100; null: too few signals'),
        colour: ColourEnum.nullable(),
        reason: z.string().nullable(),
        signals: z.array(EntitySignal),
      })
      .strict(),
    method: z.string(),
  })
  .strict()
  ;

const Stats = z
  .object({
    known: Int,
    unknown: Int,
    mean: z.number().nullable(),
    distribution: z.record(z.string(), Int),
  })
  .strict();

const CategoryStats = z
  .object({
    name: z.string(),
    spec_name: z.string().nullable(),
    count: Int,
    trl: Stats,
    momentum: Stats,
    signals: z.object({ green: Int, yellow: Int, red: Int, none: Int }).strict(),
  })
  .strict();

export const IntelligenceDocument = z
  .object({
    meta: z
      .object({
        name: z.string(),
        version: z.string(),
        category: z.string().nullable().describe('null: whole catalogue'),
        method: z.record(z.string(), z.unknown()),
        generated_from: z.record(z.string(), z.unknown()),
        counts: z.object({ entities: Int, quarantined_excluded: Int, with_trl: Int, trl_unknown: Int, with_momentum: Int, momentum_unknown: Int }).strict(),
        license: z.string(),
        attribution: z.string(),
      })
      .strict(),
    categories: z.record(z.string(), CategoryStats),
    top_signals: z.array(
      z
        .object({
          rank: z.number().int().min(1),
          id: z.string(),
          name: z.string(),
          category: z.string(),
          trl: Trl.nullable(),
          momentum: Momentum,
          colour: ColourEnum,
          signals: z.array(SignalBreakdown),
        })
        .strict(),
    ),
    maturity_distribution: z.record(z.string(), Int),
    cross_domain_insights: z.array(
      z
        .object({
          id: z.string(),
          statement: z.string(),
          figure: z.number(),
          by_category: z.record(z.string(), Int),
          query: z.string(),
          entity_ids: z.array(z.string()),
        })
        .strict(),
    ),
    predictions: z
      .object({
        statements: z.record(z.string(), z.unknown()),
        rule: z.string(),
        note: z.string(),
        reference_year: z.number().int().nullable(),
        evidence: z.record(z.string(), z.record(z.string(), Int)),
      })
      .strict(),
  })
  .strict();
