/**
 * zod schemas mirroring the parser's public result types (types.ts, convert.ts) field for field,
 * for tool output schemas. The compile-time checks at the bottom fail the build when a schema
 * and its TypeScript type drift apart.
 */
import { z } from 'zod';
import type { Assert, Equals } from '../shared/type-checks.js';
import type { ConvertResult, ConvertedNumber, PairComparison } from './convert.js';
import { QUANTITIES, type AppliedConversion, type Condition, type ParsedParameter, type Qualifier, type Rating, type SiValue } from './types.js';
import type { Dimension } from './units.js';

const DIMENSIONS = [
  'torque',
  'angular_speed',
  'data_rate',
  'mass',
  'voltage',
  'angle',
  'length',
  'force',
  'relative',
  'encoder_bits',
  'encoder_counts',
] as const satisfies readonly Dimension[];
const RATINGS = ['rated', 'continuous', 'peak', 'stall', 'nominal'] as const satisfies readonly Rating[];
const QUALIFIERS = ['up_to', 'at_most', 'below', 'at_least', 'above', 'approximately', 'plus_minus'] as const satisfies readonly Qualifier[];

export const LevelSchema = z.enum(['A', 'B', 'C', 'D']).describe('A direct, B converted, C same vendor, D no');

export const ConditionSchema = z.object({
  voltage_v: z.number().nullable(),
  rating: z.enum(RATINGS).nullable(),
  measuring_end: z.enum(['output', 'motor']).nullable(),
  load: z.string().nullable(),
  temperature_c: z.number().nullable(),
  current: z.enum(['DC', 'AC']).nullable(),
  accuracy_kind: z.enum(['repeatability', 'absolute']).nullable(),
});

export const AppliedConversionSchema = z.object({
  from: z.string(),
  to: z.string(),
  formula: z.string(),
  computation: z.string(),
  exact: z.literal(true),
  inverse: z.boolean().describe('Source unit inverse of target'),
  spec_conversion: z.boolean(),
  note: z.string().nullable(),
});

export const SiValueSchema = z.object({
  unit: z.string(),
  value: z.number().nullable(),
  exact: z.string().nullable(),
  range: z
    .object({ min: z.number(), max: z.number(), exact_min: z.string().nullable(), exact_max: z.string().nullable() })
    .nullable(),
});

export const ParsedParameterSchema = z.object({
  input: z.string(),
  recognized: z.boolean(),
  quantity: z.enum(QUANTITIES).nullable(),
  dimension: z.enum(DIMENSIONS).nullable(),
  dialect: z.string(),
  notation: z.string(),
  declared: z
    .object({ value: z.string().nullable(), min: z.string().nullable(), max: z.string().nullable(), unit: z.string() })
    .nullable(),
  qualifier: z.enum(QUALIFIERS).nullable(),
  si: SiValueSchema.nullable(),
  conversion: AppliedConversionSchema.nullable(),
  condition: ConditionSchema,
  comparability: z.object({ level: LevelSchema, reason: z.string(), missing_conditions: z.array(z.string()) }),
  notes: z.array(z.string()),
});

export const ConvertedNumberSchema = z.object({
  value: z.number(),
  exact: z.string().nullable(),
  fraction: z.string().nullable(),
});

export const ConvertOkSchema = z.object({
  ok: z.literal(true),
  parsed: ParsedParameterSchema,
  to: z.string(),
  value: z.number().nullable(),
  exact: z.string().nullable(),
  fraction: z.string().nullable(),
  range: z.object({ min: ConvertedNumberSchema, max: ConvertedNumberSchema }).nullable(),
  formulas: z.array(z.string()),
  text: z.string(),
  notes: z.array(z.string()),
});

export const ConvertFailSchema = z.object({
  ok: z.literal(false),
  parsed: ParsedParameterSchema,
  to: z.string(),
  reason: z.enum(['unrecognized', 'different_quantity', 'unsupported_target']),
  message: z.string(),
  notes: z.array(z.string()),
});

export const ConvertResultSchema = z.discriminatedUnion('ok', [ConvertOkSchema, ConvertFailSchema]);

export const PairComparisonSchema = z.object({
  level: LevelSchema,
  reason: z.string(),
  a: ParsedParameterSchema,
  b: ParsedParameterSchema,
  unit_axis: z.object({ level: z.enum(['A', 'B', 'D']), reason: z.string() }),
  condition_axis: z.object({
    level: z.enum(['A', 'C', 'D']),
    missing_a: z.array(z.string()),
    missing_b: z.array(z.string()),
    differing: z.array(z.string()),
    reason: z.string(),
  }),
  si_relation: z.enum(['a_greater', 'b_greater', 'equal', 'ranges_overlap']).nullable(),
  ordering_note: z.string().nullable(),
});

// ------------------------------------------------------------------------------------------
// Compile-time checks: each schema's type is exactly the domain type.


export type SchemaChecks = [
  Assert<Equals<z.infer<typeof ConditionSchema>, Condition>>,
  Assert<Equals<z.infer<typeof AppliedConversionSchema>, AppliedConversion>>,
  Assert<Equals<z.infer<typeof SiValueSchema>, SiValue>>,
  Assert<Equals<z.infer<typeof ParsedParameterSchema>, ParsedParameter>>,
  Assert<Equals<z.infer<typeof ConvertedNumberSchema>, ConvertedNumber>>,
  Assert<Equals<z.infer<typeof ConvertResultSchema>, ConvertResult>>,
  Assert<Equals<z.infer<typeof PairComparisonSchema>, PairComparison>>,
  Assert<Equals<(typeof DIMENSIONS)[number], Dimension>>,
  Assert<Equals<(typeof RATINGS)[number], Rating>>,
  Assert<Equals<(typeof QUALIFIERS)[number], Qualifier>>,
];
