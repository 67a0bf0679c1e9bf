/**
 * The analytics method tables shipped in data/analytics/ (trl.json, momentum.json), as zod
 * schemas. Parsed once at start; a malformed table fails start-up with the file and the path.
 */
import { z } from 'zod';

const Level = z.object({ name: z.string().min(1), definition: z.string().min(1) }).strict();

export const TrlTable = z
  .object({
    meta: z
      .object({
        name: z.string(),
        version: z.string(),
        description: z.string(),
        license: z.string(),
        sources: z.array(z.object({ name: z.string(), url: z.string().url() }).strict()).min(1),
        principle: z.string(),
      })
      .strict(),
    levels: z.object(Object.fromEntries(['1', '2', '3', '4', '5', '6', '7', '8', '9'].map((k) => [k, Level])) as Record<string, typeof Level>).strict(),
    not_technology_kinds: z.object({ kinds: z.array(z.string()), reason: z.string() }).strict(),
    statuses: z
      .array(z.object({ status: z.string().min(1), trl: z.number().int().min(1).max(9).nullable(), reading: z.string().min(1) }).strict())
      .refine((a) => new Set(a.map((s) => s.status)).size === a.length, 'each status appears once'),
    date_rule: z.object({ cap_trl: z.number().int().min(1).max(9), rule: z.string() }).strict(),
  })
  .strict();
export type TrlTable = z.infer<typeof TrlTable>;

const SignalBase = { weight: z.number().min(0).max(1), measures: z.string(), score: z.string(), absent_when: z.string() };

export const MomentumMethod = z
  .object({
    meta: z.object({ name: z.string(), version: z.string(), description: z.string(), license: z.string() }).strict(),
    signals: z
      .object({
        recency: z.object({ ...SignalBase, window_years: z.number().int().positive() }).strict(),
        adoption: z.object({ ...SignalBase, full_at_robots: z.number().int().positive(), applies_to_kinds: z.array(z.string()) }).strict(),
        ros_support: z.object(SignalBase).strict(),
        source_tier: z.object({ ...SignalBase, tiers: z.object({ A: z.number(), B: z.number(), C: z.number() }).strict() }).strict(),
        source_breadth: z.object({ ...SignalBase, full_at_urls: z.number().int().positive() }).strict(),
      })
      .strict()
      .refine((s) => Math.abs(Object.values(s).reduce((a, x) => a + x.weight, 0) - 1) < 1e-9, 'signal weights sum to 1'),
    not_applicable_kinds: z.object({ kinds: z.array(z.string()), reason: z.string() }).strict(),
    minimum: z.object({ movement_signals: z.array(z.enum(['recency', 'adoption'])), rule: z.string() }).strict(),
    colours: z
      .object({ green: z.number(), yellow: z.number(), rule: z.string() })
      .strict()
      .refine((c) => c.yellow < c.green, 'yellow threshold below green'),
    rounding: z.string(),
  })
  .strict();
export type MomentumMethod = z.infer<typeof MomentumMethod>;

export const SIGNAL_NAMES = ['recency', 'adoption', 'ros_support', 'source_tier', 'source_breadth'] as const;
export type SignalName = (typeof SIGNAL_NAMES)[number];
