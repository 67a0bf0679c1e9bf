/**
 * zod schemas mirroring the red-line screening result types (redlines.ts) field for field, for
 * tool output schemas. The compile-time checks at the bottom fail the build on drift.
 */
import { z } from 'zod';
import type { Assert, Equals } from '../shared/type-checks.js';
import { DECLARED_KEYS } from '../catalogue/entity.js';
import { RED_LINE_IDS, type RedLineInput, type RedLineResult, type RedLineStatus, type ScreeningResult } from './redlines.js';

const STATUSES = ['fires', 'does_not_fire', 'cannot_evaluate'] as const satisfies readonly RedLineStatus[];

export const RedLineInputSchema = z.object({
  field: z.enum(DECLARED_KEYS),
  declared: z.string().nullable(),
  dialect: z.string(),
});

export const RedLineResultSchema = z.object({
  id: z.enum(RED_LINE_IDS),
  name: z.string(),
  status: z.enum(STATUSES).describe('cannot_evaluate: a value missing or unreadable'),
  severity: z.enum(['review', 'not_credible', 'instantaneous']).nullable(),
  threshold: z.string(),
  inputs: z.array(RedLineInputSchema),
  numbers: z.record(z.string(), z.union([z.number(), z.string(), z.null()])),
  missing: z.array(z.enum(DECLARED_KEYS)),
  reason: z.string(),
  ask_vendor: z.array(z.string()),
});

export const ScreeningResultSchema = z.object({
  id: z.string(),
  name: z.string(),
  summary: z.object({ fires: z.number().int(), does_not_fire: z.number().int(), cannot_evaluate: z.number().int() }),
  red_lines: z.array(RedLineResultSchema),
  note: z.string(),
});


export type RedLineSchemaChecks = [
  Assert<Equals<z.infer<typeof RedLineInputSchema>, RedLineInput>>,
  Assert<Equals<z.infer<typeof RedLineResultSchema>, RedLineResult>>,
  Assert<Equals<z.infer<typeof ScreeningResultSchema>, ScreeningResult>>,
  Assert<Equals<(typeof STATUSES)[number], RedLineStatus>>,
];
