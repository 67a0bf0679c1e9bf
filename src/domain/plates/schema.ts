/** Answer shapes of the adapter-plate designer (zod, reused as the tool's output schema). */
import { z } from 'zod';
import { FlangeRulingRecord } from '../knowledge/flange.js';

export const PLATE_HOLE_OPTIONS = ['tapped', 'nut'] as const;
export type PlateHoleOption = (typeof PLATE_HOLE_OPTIONS)[number];

export const PLATE_FORMATS = ['json', 'stl', '3mf', 'scad'] as const;
export type PlateFormat = (typeof PLATE_FORMATS)[number];

/** Where a value comes from: indices into the design's `sources` (each source listed once, issue 40). */
export const SourceIds = z.array(z.number().int().nonnegative());

export const FEATURE_KINDS = ['clearance_hole', 'counterbore', 'tap_drill_hole', 'nut_pocket'] as const;

/** A feature: face a at z = 0, face b at z = thickness; a hexagon's diameter is corner to corner. */
export const PlateFeature = z
  .object({
    id: z.string(),
    kind: z.enum(FEATURE_KINDS),
    side: z.enum(['a', 'b']),
    hole: z.number().int().positive(),
    shape: z.enum(['circle', 'hexagon']),
    diameter_mm: z.number().positive(),
    across_flats_mm: z.number().positive().nullable(),
    rotation_deg: z.number().nullable(),
    depth_mm: z.number().positive(),
    from_face: z.enum(['a', 'b']),
    z_min_mm: z.number(),
    z_max_mm: z.number(),
    x_mm: z.number(),
    y_mm: z.number(),
    pitch_circle_diameter_mm: z.number().positive(),
    rule: z.string(),
    source_ids: SourceIds,
  })
  .strict();
export type PlateFeature = z.infer<typeof PlateFeature>;

export const PlateSide = z
  .object({
    designation: z.string(),
    pcd_mm: z.number(),
    bolt_count: z.number().int(),
    thread: z.string(),
    role: z.string(),
    from_part: z.string().nullable(),
    source_ids: SourceIds,
  })
  .strict();

export const ThicknessTerm = z.object({ name: z.string(), value_mm: z.number(), rule: z.string(), source_ids: SourceIds }).strict();

export const PlateFile = z
  .object({
    format: z.enum(PLATE_FORMATS),
    name: z.string(),
    media_type: z.string(),
    uri: z.string(),
    url: z.string().nullable(),
  })
  .strict();
export type PlateFile = z.infer<typeof PlateFile>;

export const PlateDesign = z
  .object({
    id: z.string(),
    units: z.literal('mm'),
    b_holes: z.enum(PLATE_HOLE_OPTIONS),
    side_a: PlateSide,
    side_b: PlateSide,
    outline: z
      .object({ shape: z.literal('disc'), diameter_mm: z.number(), thickness_mm: z.number(), rule: z.string(), source_ids: SourceIds })
      .strict(),
    thickness: z
      .object({
        value_mm: z.number(),
        required_mm: z.number(),
        override_mm: z.number().nullable(),
        terms: z.array(ThicknessTerm),
        rule: z.string(),
      })
      .strict(),
    angular_offset: z
      .object({
        side_b_deg: z.number(),
        min_web_mm: z.number(),
        required_web_mm: z.number(),
        rule: z.string(),
      })
      .strict(),
    grown: z
      .object({ from_thickness_mm: z.number(), to_thickness_mm: z.number(), reason: z.string() })
      .nullable(),
    centre_bore: z.null(),
    centre_bore_note: z.string(),
    features: z.array(PlateFeature),
    volume_mm3: z.number(),
    warnings: z.array(z.string()),
    sources: z.array(z.string()).describe('Each source once; source_ids index it'),
  })
  .strict();
export type PlateDesign = z.infer<typeof PlateDesign>;

export const PlateAnswer = z
  .object({
    plate_needed: z.boolean(),
    reason: z.string(),
    page_url: z.string().optional(),
    ruling: FlangeRulingRecord,
    design: PlateDesign.nullable(),
    files: z.array(PlateFile),
    not_load_rated: z.string(),
    material: z.object({ recommended: z.string(), alternative: z.string(), avoid: z.string(), reason: z.string(), source: z.string() }).strict(),
  })
  .strict();
export type PlateAnswer = z.infer<typeof PlateAnswer>;

/** Where the plate for an adapter_required pair is (pointer put in rulings and compatibility answers). */
export const PlatePointer = z
  .object({
    tool: z.literal('design_adapter_plate'),
    arguments: z.object({ a: z.string(), b: z.string() }).strict(),
    uri: z.string(),
    url: z.string().nullable(),
    page_url: z.string().optional(),
  })
  .strict()
  ;
export type PlatePointer = z.infer<typeof PlatePointer>;
