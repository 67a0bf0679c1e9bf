/**
 * Metric fastener dimensions and plate rules (data/plate/fasteners.json): clearance holes
 * (ISO 273 medium), tap drills (ISO 2306), socket-head cap screw heads (ISO 4762) with their
 * counterbores (DIN 974-2), hexagon nuts (ISO 4032). Each column names its standard in the file.
 */
import { z } from 'zod';
import { PARSE_ONCE } from '../shared/parse-once.js';

const mm = z.number().positive();

export const ThreadRow = z
  .object({
    pitch_mm: mm,
    clearance_medium_mm: mm,
    tap_drill_mm: mm,
    head_diameter_max_mm: mm,
    head_height_max_mm: mm,
    counterbore_diameter_mm: mm,
    nut_width_across_flats_mm: mm,
    nut_height_max_mm: mm,
  })
  .strict();
export type ThreadRow = z.infer<typeof ThreadRow>;
export type ThreadColumn = keyof ThreadRow;

export const FastenerFile = z
  .object({
    meta: z
      .object({
        name: z.string(),
        schema: z.literal('plate_fasteners/v1'),
        description: z.string(),
        authored_by: z.string(),
        license: z.string(),
        columns: z.record(z.string(), z.object({ standard: z.string(), meaning: z.string() }).strict()),
      })
      .strict(),
    threads: z.record(z.string().regex(/^M\d+(?:\.\d+)?$/), ThreadRow),
    rules: z
      .object({
        status: z.string(),
        counterbore_depth_allowance_mm: z.number().nonnegative(),
        counterbore_depth_rule: z.string(),
        web_under_head_per_bolt_diameter: z.number().positive(),
        web_under_head_rule: z.string(),
        thread_engagement_per_bolt_diameter: z.number().positive(),
        thread_engagement_rule: z.string(),
        nut_pocket_across_flats_allowance_mm: z.number().nonnegative(),
        nut_pocket_depth_allowance_mm: z.number().nonnegative(),
        nut_pocket_rule: z.string(),
        thickness_step_mm: z.number().positive(),
        thickness_rule: z.string(),
        angle_step_deg: z.number().positive(),
        angle_rule: z.string(),
      })
      .strict(),
  })
  .strict()
  .superRefine((f, ctx) => {
    for (const col of Object.keys(ThreadRow.shape)) {
      if (!f.meta.columns[col]) ctx.addIssue({ code: 'custom', path: ['meta', 'columns', col], message: 'every column names its standard' });
    }
    for (const [t, r] of Object.entries(f.threads)) {
      const d = Number(t.slice(1));
      if (!(r.tap_drill_mm < d && d < r.clearance_medium_mm && r.clearance_medium_mm < r.counterbore_diameter_mm && r.head_diameter_max_mm < r.counterbore_diameter_mm)) {
        ctx.addIssue({ code: 'custom', path: ['threads', t], message: 'expected tap drill < d < clearance < counterbore and head < counterbore' });
      }
    }
  });
export type FastenerTable = z.infer<typeof FastenerFile>;

export function parseFastenerTable(json: unknown): FastenerTable {
  return FastenerFile.parse(json, PARSE_ONCE);
}

export const FASTENER_FILE = 'data/plate/fasteners.json';
