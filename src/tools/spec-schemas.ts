/** Schema pieces of the spec layer shared by search_parts, list_spec_fields, compare_parts and find_alternatives. */
import { z } from 'zod';
import { WHERE_OPS } from '../domain/specs/where.js';

export const WhereClauseSchema = z
  .object({
    field: z.string().describe('e.g. "torque_rated", "bus"'),
    op: z.string().describe(`One of ${WHERE_OPS.join(' ')}`),
    value: z
      .union([z.string(), z.number(), z.array(z.union([z.string(), z.number()]))])
      .describe('With unit ("30 N·m"), a name, or a list for in'),
  })
  .strict();

export const WhereArg = z
  .union([z.array(WhereClauseSchema).max(20), z.string().max(2000)])
  .describe(
    'AND: [{field, op, value}] or "torque_rated>=30 N·m; bus in CAN|EtherCAT"',
  );

export const SortArg = z.string().max(100).describe('Numeric field; "-field" descending (undeclared last)');

export const CompactSpecSchema = z
  .object({
    value: z.number().optional(),
    min: z.number().optional(),
    max: z.number().optional(),
    values: z.array(z.string()).optional(),
    unit: z.string().nullable(),
    notation: z.string(),
    rating: z.string().optional(),
    qualifier: z.string().optional(),
    level: z.string(),
  })
  .strict();

export const FilterMetaSchema = z
  .object({
    field: z.string(),
    op: z.string(),
    value: z.unknown(),
    applied: z.array(z.string()),
    matched: z.number().int(),
    unknown_excluded: z.number().int(),
    failed: z.number().int(),
    not_applicable: z.number().int(),
    applies_to: z.array(z.string()),
    near_misses: z.array(z.object({ id: z.string(), declared: z.string(), reason: z.string() }).strict()),
  })
  .strict();

export const SortMetaSchema = z.object({ field: z.string(), order: z.enum(['asc', 'desc']), undeclared_last: z.number().int() }).strict();
