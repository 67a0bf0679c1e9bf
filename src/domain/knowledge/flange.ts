/**
 * ISO 9409-1 flange registry and rulings (spec: "Flange ruling dataset", rules 1-6).
 *
 * Rules, as implemented:
 * 1. Same designation on both sides -> `identity`, adapter_required false, adapter_available false,
 *    fastener_note null, blocking_dims [].
 * 2. PCD or bolt count differs -> `adapter_required`, adapter_available true, blocking_dims lists
 *    every differing dimension among pcd_mm and bolt_count (in that order).
 * 3. A thread difference alone does not block: two different designations with equal pcd_mm and
 *    bolt_count are `direct` (no adapter; the fastener note names both threads). None of the nine
 *    registered designations share a bolt pattern, so `direct` occurs 0 times in the dataset.
 *    `thread` never appears in blocking_dims.
 * 4. Geometry comes from the registry's pcd_mm and bolt_count only; the letter-number in a label is
 *    never read (a registry row whose label says "A80" but records pcd 63 is ruled on 63).
 * 5. A designation that is not registered -> `unknown` with a reason, even when its label looks
 *    parseable ("ISO9409-1-A50-4-M8"); there is no fallback to the label.
 * 6. The dataset covers registered designations only (9 x 9 ordered pairs).
 *
 * Designation matching: the source's documented join rule (joinKey). Case, whitespace (including
 * none) and Unicode dash variants are ignored, and the "A" before the size segment is dropped, so
 * "iso 9409-1-a50-4-m6" and "ISO 9409-1-50-4-M6" (the form the UR5e manual and Robotiq's coupling
 * list use) both find the row ISO9409-1-A50-4-M6, which lists both forms in `aliases` with their
 * evidence. The key only finds a row; a form that finds none stays unregistered (unknown), however
 * parseable its label looks.
 */
import { z } from 'zod';
import { SOURCE_TIERS } from '../catalogue/entity.js';
import { DataEvidence } from './evidence.js';
import { PARSE_ONCE } from '../shared/parse-once.js';

export const FLANGE_SCHEMA_ID = 'negative_compat/v1';

// ---------------------------------------------------------------------------------------------
// Registry
// ---------------------------------------------------------------------------------------------

export const FlangeDesignation = z
  .object({
    designation: z.string().min(1).describe('The registered designation, e.g. ISO9409-1-A50-4-M6'),
    pcd_mm: z.number().positive().describe('Bolt pitch circle diameter, mm'),
    bolt_count: z.number().int().positive().describe('Number of bolt holes'),
    thread: z.string().regex(/^M\d+(?:\.\d+)?$/).describe('Metric thread, e.g. M6'),
    source_tier: z.enum(SOURCE_TIERS).describe('Source tier of the geometry'),
    source_url: z.string().url().nullable().optional().describe('Where the geometry was recorded'),
    is_canonical_iso: z.boolean().optional().describe('Whether the bolt pattern is a step of the ISO 9409-1 canonical ladder, as the source records it'),
    is_canonical_iso_evidence: DataEvidence.optional(),
    aliases: z
      .array(z.object({ form: z.string().min(1), evidence: DataEvidence }).strict())
      .optional()
      .describe('Other written forms in use for this designation, each with the source record that lists it'),
  })
  .strict();
export type FlangeDesignation = z.infer<typeof FlangeDesignation>;

export const FlangeRegistryFile = z
  .object({
    meta: z
      .object({
        name: z.string(),
        description: z.string(),
        license: z.string(),
        attribution: z.string(),
        source: z.string(),
        source_repository: z.string().optional(),
        geometry_basis: z.string().optional(),
        join_rule: z.object({ rule: z.string(), evidence: DataEvidence }).strict().optional(),
        aliases_basis: z.string().optional(),
      })
      .strict(),
    designations: z.array(FlangeDesignation).min(1),
  })
  .strict();
export type FlangeRegistryFile = z.infer<typeof FlangeRegistryFile>;

export interface FlangeRegistry {
  meta: FlangeRegistryFile['meta'];
  /** In file order. */
  designations: readonly FlangeDesignation[];
  /** Normalised written form -> row. */
  readonly byKey: ReadonlyMap<string, FlangeDesignation>;
}

/** Lexical normalisation for lookup only: NFKC, Unicode dashes -> '-', no whitespace, upper case. */
export function normalizeDesignation(s: string): string {
  return s
    .normalize('NFKC')
    .replace(/[\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]/g, '-')
    .replace(/\s+/g, '')
    .toUpperCase();
}

/**
 * The join key of the documented join rule (registry meta.join_rule, from the source's
 * designations_in_use.join_rule): the lexical normalisation above, then the "A" before the size
 * segment dropped ("ISO9409-1-A50-4-M6" and "ISO 9409-1-50-4-M6" share a key). Used to find a
 * registry row only; the geometry always comes from the row.
 */
export function joinKey(s: string): string {
  return normalizeDesignation(s).replace(/^ISO9409-1-A(?=\d)/, 'ISO9409-1-');
}

/** Validates a registry document; throws on invalid shape or on two rows sharing a written form. */
export function parseFlangeRegistry(raw: unknown): FlangeRegistry {
  const file = FlangeRegistryFile.parse(raw, PARSE_ONCE);
  const byKey = new Map<string, FlangeDesignation>();
  for (const row of file.designations) {
    for (const form of [row.designation, ...(row.aliases ?? []).map((a) => a.form)]) {
      const key = joinKey(form);
      const prev = byKey.get(key);
      if (prev && prev !== row) {
        throw new Error(`flange registry: "${form}" of ${row.designation} collides with ${prev.designation}`);
      }
      byKey.set(key, row);
    }
  }
  return { meta: file.meta, designations: file.designations, byKey };
}


/** The registered row for a written designation, or null. Never parses the label. */
export function lookupFlange(registry: FlangeRegistry, designation: string): FlangeDesignation | null {
  return registry.byKey.get(joinKey(designation)) ?? null;
}

// ---------------------------------------------------------------------------------------------
// Rulings
// ---------------------------------------------------------------------------------------------

export const BLOCKING_DIMS = ['pcd_mm', 'bolt_count'] as const;
export type BlockingDim = (typeof BLOCKING_DIMS)[number];

export const FlangeSide = z
  .object({
    pcd_mm: z.number(),
    bolt_count: z.number().int(),
    thread: z.string(),
  })
  .strict();
export type FlangeSide = z.infer<typeof FlangeSide>;

/** A ruling between two registered designations: the dataset record of the spec. */
export const FlangeRulingRecord = z
  .object({
    pair: z.tuple([z.string(), z.string()]),
    side_a: FlangeSide,
    side_b: FlangeSide,
    verdict: z.enum(['identity', 'direct', 'adapter_required']),
    reason: z.string(),
    adapter_required: z.boolean(),
    adapter_available: z.boolean(),
    fastener_note: z.string().nullable(),
    blocking_dims: z.array(z.enum(BLOCKING_DIMS)),
  })
  .strict();
export type FlangeRulingRecord = z.infer<typeof FlangeRulingRecord>;

/** The answer when either side is not registered (rule 5): no geometry is inferred. */
export const FlangeUnknownRuling = z
  .object({
    pair: z.tuple([z.string(), z.string()]),
    side_a: FlangeSide.nullable().describe('null: unregistered'),
    side_b: FlangeSide.nullable().describe('null: unregistered'),
    verdict: z.literal('unknown'),
    reason: z.string(),
    adapter_required: z.null(),
    adapter_available: z.null(),
    fastener_note: z.null(),
    blocking_dims: z.array(z.enum(BLOCKING_DIMS)).length(0),
    unregistered: z.array(z.string()).min(1),
  })
  .strict();
export type FlangeUnknownRuling = z.infer<typeof FlangeUnknownRuling>;

export const FlangeRuling = z.union([FlangeRulingRecord, FlangeUnknownRuling]);
export type FlangeRuling = FlangeRulingRecord | FlangeUnknownRuling;

const mm = (n: number) => `${n} mm`;
const pattern = (d: FlangeDesignation) => `${d.bolt_count}×${d.thread} on PCD ${mm(d.pcd_mm)}`;
const side = (d: FlangeDesignation): FlangeSide => ({ pcd_mm: d.pcd_mm, bolt_count: d.bolt_count, thread: d.thread });

/** Ruling between two registered rows (rules 1-4). */
export function ruleRegistered(a: FlangeDesignation, b: FlangeDesignation): FlangeRulingRecord {
  const base = { pair: [a.designation, b.designation] as [string, string], side_a: side(a), side_b: side(b) };
  if (a === b || normalizeDesignation(a.designation) === normalizeDesignation(b.designation)) {
    return {
      ...base,
      verdict: 'identity',
      reason: 'Same designation on both sides: the bolt patterns are identical.',
      adapter_required: false,
      adapter_available: false,
      fastener_note: null,
      blocking_dims: [],
    };
  }
  const blocking: BlockingDim[] = [];
  if (a.pcd_mm !== b.pcd_mm) blocking.push('pcd_mm');
  if (a.bolt_count !== b.bolt_count) blocking.push('bolt_count');
  if (blocking.length === 0) {
    const sameThread = a.thread === b.thread;
    return {
      ...base,
      verdict: 'direct',
      reason: sameThread
        ? `Different designations with the same bolt pattern (${pattern(a)}): the holes line up.`
        : `PCD (${mm(a.pcd_mm)}) and bolt count (${a.bolt_count}) match; only the thread differs (${a.thread} vs ${b.thread}), which does not block.`,
      adapter_required: false,
      adapter_available: false,
      fastener_note: sameThread
        ? `Fasten with ${a.thread} bolts.`
        : `The holes line up; use bolts that fit the threaded side (${a.thread} on side a, ${b.thread} on side b).`,
      blocking_dims: [],
    };
  }
  const parts: string[] = [];
  if (blocking.includes('pcd_mm')) parts.push(`PCD differs (${mm(a.pcd_mm)} vs ${mm(b.pcd_mm)})`);
  if (blocking.includes('bolt_count')) parts.push(`bolt count differs (${a.bolt_count} vs ${b.bolt_count})`);
  const cause = parts.join(' and ');
  return {
    ...base,
    verdict: 'adapter_required',
    reason: `${cause.charAt(0).toUpperCase()}${cause.slice(1)}: the bolt holes do not line up, so an adapter plate is required.`,
    adapter_required: true,
    adapter_available: true,
    fastener_note: `Adapter plate drilled to each side's own pattern: side a ${pattern(a)}, side b ${pattern(b)}.`,
    blocking_dims: blocking,
  };
}

/** Ruling for two written designations (rules 1-5). Unregistered -> `unknown`, never a guess. */
export function ruleFlange(registry: FlangeRegistry, a: string, b: string): FlangeRuling {
  const ra = lookupFlange(registry, a);
  const rb = lookupFlange(registry, b);
  if (ra && rb) return ruleRegistered(ra, rb);
  const unregistered = [ra ? null : a.trim(), rb ? null : b.trim()].filter((x): x is string => x !== null);
  const quoted = unregistered.map((u) => `"${u}"`).join(' and ');
  return {
    pair: [ra ? ra.designation : a.trim(), rb ? rb.designation : b.trim()],
    side_a: ra ? side(ra) : null,
    side_b: rb ? side(rb) : null,
    verdict: 'unknown',
    reason:
      `${quoted} ${unregistered.length === 1 ? 'is not a registered flange designation' : 'are not registered flange designations'}. ` +
      `Rulings rest on registered pitch circle diameter and bolt count only; geometry is never read from a label. ` +
      `Registered: ${registry.designations.map((d) => d.designation).join(', ')}.`,
    adapter_required: null,
    adapter_available: null,
    fastener_note: null,
    blocking_dims: [],
    unregistered,
  };
}

// ---------------------------------------------------------------------------------------------
// Dataset (negative_compat/v1)
// ---------------------------------------------------------------------------------------------

export const FlangeRulingsDataset = z
  .object({
    meta: z
      .object({
        schema: z.literal(FLANGE_SCHEMA_ID),
        name: z.string(),
        description: z.string(),
        generated_at: z.string(),
        license: z.string(),
        attribution: z.string(),
        source: z.string(),
        geometry_basis: z.string(),
        coverage_note: z.string(),
        counts: z
          .object({
            designations: z.number().int(),
            rulings: z.number().int(),
            identity: z.number().int(),
            direct: z.number().int(),
            adapter_required: z.number().int(),
          })
          .strict(),
        source_tier_summary: z.record(z.string(), z.number().int()),
        designations: z.array(z.object({ designation: z.string(), pcd_mm: z.number(), bolt_count: z.number().int(), thread: z.string() }).strict()),
      })
      .strict(),
    rulings: z.array(FlangeRulingRecord),
  })
  .strict();
export type FlangeRulingsDataset = z.infer<typeof FlangeRulingsDataset>;

/** All ordered pairs of registered designations (registry order x registry order) with computed counts. */
export function buildFlangeRulings(registry: FlangeRegistry, generatedAt: Date | string): FlangeRulingsDataset {
  const rows = registry.designations;
  const rulings: FlangeRulingRecord[] = [];
  for (const a of rows) for (const b of rows) rulings.push(ruleRegistered(a, b));
  const count = (v: FlangeRulingRecord['verdict']) => rulings.filter((r) => r.verdict === v).length;
  const tiers: Record<string, number> = {};
  for (const r of rows) tiers[r.source_tier] = (tiers[r.source_tier] ?? 0) + 1;
  return {
    meta: {
      schema: FLANGE_SCHEMA_ID,
      name: 'Flange ruling dataset',
      description:
        'Rulings on whether two registered ISO 9409-1 flanges bolt together directly or need an adapter plate, for every ordered pair of registered designations.',
      generated_at: typeof generatedAt === 'string' ? generatedAt : generatedAt.toISOString(),
      license: registry.meta.license,
      attribution: registry.meta.attribution,
      source: registry.meta.source,
      geometry_basis:
        'Two flanges mate only when pitch circle diameter and bolt count both match; a different thread alone does not block (bolts that fit suffice). Geometry is taken from the registry, never from the designation label.',
      coverage_note:
        'Covers the registered designations only, not every flange on the market. A designation that is not registered is ruled unknown; it is never guessed from its label.',
      counts: {
        designations: rows.length,
        rulings: rulings.length,
        identity: count('identity'),
        direct: count('direct'),
        adapter_required: count('adapter_required'),
      },
      source_tier_summary: tiers,
      designations: rows.map((r) => ({ designation: r.designation, ...side(r) })),
    },
    rulings,
  };
}
