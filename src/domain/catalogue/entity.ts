/**
 * The catalogue record, shared by the importer, the store, the tools and REST.
 *
 * A stored record is the free-tier fields plus a `deep` object holding the paid fields.
 * Free responses are built by `toFree()`, which drops `deep` entirely, so a free response
 * cannot carry a paid value by accident.
 */
import { z } from 'zod';

export const SOURCE_TIERS = ['A', 'B', 'C'] as const;

/** Vendor-declared parameter strings, verbatim (numbers kept as their decimal text). */
export const DECLARED_KEYS = [
  'torque',
  'peak_torque',
  'speed',
  'weight',
  'voltage',
  'position_resolution',
  'backlash',
  'accuracy',
  'reduction_ratio',
  'power',
  'current',
  'load_capacity',
  'grip_force',
  'ip_rating',
  'dof',
  'range',
  'latency',
  'tdp',
  'ai_perf',
  'memory',
  'parameters',
] as const;
export type DeclaredKey = (typeof DECLARED_KEYS)[number];

export const DeclaredParams = z
  .object(Object.fromEntries(DECLARED_KEYS.map((k) => [k, z.string().optional()])) as Record<DeclaredKey, z.ZodOptional<z.ZodString>>)
  .strict()
  ;
export type DeclaredParams = z.infer<typeof DeclaredParams>;

export const MechanicalInterface = z
  .object({
    status: z.enum(['declared', 'partial', 'not_declared', 'n_a']),
    mount_type: z.string().nullable(),
    flange: z.string().nullable().describe('When exactly one is declared, else null'),
    flanges: z
      .array(z.string())
      .optional(),
  })
  .strict();

/**
 * Where each filled communication / parameter field was read upstream: field name ("protocol",
 * "interface", "interfaces", "voltage", "torque", "declared.<key>") -> the upstream paths it came
 * from ("interfaces", "specs.bus", "specs.rated_torque", "key_specs.重量"), in the order read.
 * Catalogue records always carry it; open-source-layer records do not.
 */
export const Provenance = z
  .record(z.string(), z.array(z.string()).min(1))
  ;
export type Provenance = z.infer<typeof Provenance>;

/** Paid (deep) fields. Never part of a free response. */
export const DeepFields = z
  .object({
    price: z.string().nullable(),
    compatibility: z.array(z.string()),
    confidence: z.number().min(0).max(1).nullable(),
    sources: z.array(
      z
        .object({
          source_type: z.string().nullable(),
          credibility: z.string().nullable(),
          url: z.string().nullable(),
          collected_at: z.string().nullable(),
        })
        .strict(),
    ),
    compliance: z.record(z.string(), z.string()),
    localization_ratio: z.string().nullable(),
  })
  .strict();
export type DeepFields = z.infer<typeof DeepFields>;

export const PAID_FIELDS = ['price', 'compatibility', 'confidence', 'sources', 'compliance', 'localization_ratio'] as const;

export const FreeEntity = z
  .object({
    id: z.string().min(1),
    name: z.string(),
    name_en: z.string(),
    category: z.string(),
    entity_kind: z.string(),
    manufacturer: z.string().nullable(),
    type: z.string().nullable(),
    protocol: z.string().describe('"N/A": undeclared'),
    interface: z.string().describe('"N/A": undeclared'),
    interfaces: z.array(z.string()),
    voltage: z.string().describe('"<min>~<max>V" when exact, else "N/A"'),
    weight: z.string().describe('"<n>g" when exact, else "N/A"'),
    torque: z.string().describe('"<n> Nm" when exact, else ""'),
    ros_support: z.boolean().nullable().describe('null: undeclared'),
    applications: z.array(z.string()),
    price_range: z.string().nullable(),
    standard: z.string().nullable(),
    status: z.string().nullable(),
    year: z.number().int().nullable(),
    source_urls: z.array(z.string()),
    source_tier: z.enum(SOURCE_TIERS),
    source_robot: z.string().nullable(),
    source_license: z.string().nullable(),
    oss: z.boolean(),
    mechanical_interface: MechanicalInterface,
    declared: DeclaredParams,
    provenance: Provenance.optional(),
    description: z.string(),
    quarantine: z.boolean(),
    quarantine_reason: z.string().nullable(),
    duplicate_of: z.string().nullable(),
  })
  .strict();
export type FreeEntity = z.infer<typeof FreeEntity>;

export const StoredEntity = FreeEntity.extend({ deep: DeepFields }).strict();
export type StoredEntity = z.infer<typeof StoredEntity>;

/** The full record with paid fields merged at top level (deep access). */
export const DeepEntity = FreeEntity.extend(DeepFields.shape).strict();
export type DeepEntity = z.infer<typeof DeepEntity>;

/** Summary fields used by listings and search hits. */
export const SUMMARY_FIELDS = [
  'id',
  'name',
  'name_en',
  'category',
  'manufacturer',
  'type',
  'protocol',
  'interface',
  'voltage',
  'weight',
  'torque',
  'ros_support',
  'price_range',
  'source_tier',
  'quarantine',
] as const satisfies readonly (keyof FreeEntity)[];

export const SummaryEntity = FreeEntity.pick(
  Object.fromEntries(SUMMARY_FIELDS.map((k) => [k, true])) as { [K in (typeof SUMMARY_FIELDS)[number]]: true },
);
export type SummaryEntity = z.infer<typeof SummaryEntity>;

export function toFree(e: StoredEntity): FreeEntity {
  const { deep: _deep, ...free } = e;
  return free;
}

export function toSummary(e: StoredEntity | FreeEntity): SummaryEntity {
  const out: Record<string, unknown> = {};
  for (const k of SUMMARY_FIELDS) out[k] = e[k];
  return out as SummaryEntity;
}

export function toDeep(e: StoredEntity): DeepEntity {
  const { deep, ...free } = e;
  return { ...free, ...deep };
}

/** Id prefix for did_you_mean: everything before the last '-' separated segment. */
export function idPrefix(id: string): string {
  const i = id.lastIndexOf('-');
  return i > 0 ? id.slice(0, i) : id;
}
