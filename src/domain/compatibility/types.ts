/** Result shapes of the compatibility engine (zod, so tools and REST can reuse them as output schemas). */
import { z } from 'zod';
import { FlangeRuling } from '../knowledge/flange.js';
import { PlatePointer } from '../plates/schema.js';

export const VERDICTS = ['compatible', 'adapter_required', 'incompatible', 'unknown'] as const;
export const Verdict = z.enum(VERDICTS);
export type Verdict = z.infer<typeof Verdict>;

export const DIMENSIONS = ['mechanical', 'electrical', 'communication', 'software'] as const;
export type Dimension = (typeof DIMENSIONS)[number];

export const EvidenceValue = z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.string())]);
export type EvidenceValue = z.infer<typeof EvidenceValue>;

export const Evidence = z
  .object({
    side: z.enum(['a', 'b']),
    field: z.string(),
    value: EvidenceValue,
    source: z
      .array(z.string())
      .optional(),
  })
  .strict();
export type Evidence = z.infer<typeof Evidence>;

const dimensionBase = {
  verdict: Verdict,
  reason: z.string(),
  evidence: z.array(Evidence),
  conditions: z.array(z.string()).describe('Unchecked conditions'),
  adapters: z.array(z.string()),
};

export const VoltRange = z.object({ min: z.number(), max: z.number() }).strict();
export type VoltRange = z.infer<typeof VoltRange>;

export const MechanicalResult = z
  .object({
    ...dimensionBase,
    detail: z
      .object({
        flange_a: z.string().nullable(),
        flange_b: z.string().nullable(),
        ruling: FlangeRuling.nullable(),
        adapter_plate: PlatePointer.nullable(),
      })
      .strict(),
  })
  .strict();
export type MechanicalResult = z.infer<typeof MechanicalResult>;

export const VOLTAGE_RELATIONS = ['equal', 'a_contains_b', 'b_contains_a', 'overlap', 'disjoint'] as const;
export const ElectricalResult = z
  .object({
    ...dimensionBase,
    detail: z
      .object({
        range_a: VoltRange.nullable().describe('V; null: not exact'),
        range_b: VoltRange.nullable(),
        relation: z.enum(VOLTAGE_RELATIONS).nullable(),
        common_range: VoltRange.nullable(),
      })
      .strict(),
  })
  .strict();
export type ElectricalResult = z.infer<typeof ElectricalResult>;

export const BusLink = z
  .object({
    bus_a: z.string(),
    bus_b: z.string(),
    verdict: z.enum(['compatible', 'adapter_required']),
    via: z.string().nullable(),
    condition: z.string().nullable(),
    bridge: z
      .object({ id: z.string(), kind: z.enum(['product', 'standard_adapter']), evidence: z.string() })
      .optional(),
  })
  .strict();
export type BusLink = z.infer<typeof BusLink>;

export const RoleReadingSchema = z
  .object({
    role: z.enum(['host', 'bus_master', 'actuator', 'sensor', 'power', 'passive']).nullable(),
    source: z.enum(['declared', 'inferred', 'none']),
    basis: z.string(),
  })
  .strict();

export const CommunicationResult = z
  .object({
    ...dimensionBase,
    detail: z
      .object({
        buses_a: z.array(z.string()),
        buses_b: z.array(z.string()),
        protocols_a: z.array(z.string()),
        protocols_b: z.array(z.string()),
        shared_buses: z.array(z.string()),
        links: z.array(BusLink).describe('Best first'),
        missing: z.array(z.string()),
        roles: z.object({ a: RoleReadingSchema, b: RoleReadingSchema }).strict(),
        unrecognized_a: z.array(z.string()),
        unrecognized_b: z.array(z.string()),
      })
      .strict(),
  })
  .strict();
export type CommunicationResult = z.infer<typeof CommunicationResult>;

export const RosDeclaration = z
  .object({
    supported: z.boolean().nullable().describe('null: undeclared'),
    generations: z.array(z.enum(['ros1', 'ros2'])),
  })
  .strict();
export type RosDeclaration = z.infer<typeof RosDeclaration>;

export const SoftwareResult = z
  .object({
    ...dimensionBase,
    detail: z
      .object({
        ros_a: RosDeclaration,
        ros_b: RosDeclaration,
        sdks_a: z.array(z.string()),
        sdks_b: z.array(z.string()),
        shared_sdks: z.array(z.string()),
      })
      .strict(),
  })
  .strict();
export type SoftwareResult = z.infer<typeof SoftwareResult>;

export const SideSummary = z
  .object({
    id: z.string(),
    name: z.string(),
    manufacturer: z.string().nullable(),
    category: z.string(),
    entity_kind: z.string(),
    quarantine: z.boolean(),
    applicable: z.boolean(),
    not_applicable_reason: z.string().nullable(),
  })
  .strict();
export type SideSummary = z.infer<typeof SideSummary>;

export const CompatibilityResult = z
  .object({
    applicable: z.boolean().describe('false: not a physical component'),
    verdict: Verdict.nullable().describe('Worst dimension; null when not applicable'),
    reason: z.string(),
    a: SideSummary,
    b: SideSummary,
    dimensions: z
      .object({
        mechanical: MechanicalResult,
        electrical: ElectricalResult,
        communication: CommunicationResult,
        software: SoftwareResult,
      })
      .strict()
      .nullable(),
    summary: z
      .object({
        compatible: z.array(z.enum(DIMENSIONS)),
        adapter_required: z.array(z.enum(DIMENSIONS)),
        incompatible: z.array(z.enum(DIMENSIONS)),
        unknown: z.array(z.enum(DIMENSIONS)),
      })
      .strict()
      .nullable(),
    warnings: z.array(z.string()),
    basis: z.string(),
  })
  .strict();
export type CompatibilityResult = z.infer<typeof CompatibilityResult>;

/** Evidence helper; with the record, the field's upstream source path(s) are attached. */
export const ev = (
  side: 'a' | 'b',
  field: string,
  value: EvidenceValue | undefined,
  record?: { provenance?: Record<string, string[]> | undefined },
): Evidence => {
  const source = record?.provenance?.[field];
  return { side, field, value: value === undefined ? null : value, ...(source ? { source: [...source] } : {}) };
};
