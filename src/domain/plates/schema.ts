/** Answer shapes of the adapter-plate designer (zod, reused as the tool's output schema). */
import { z } from 'zod';
import { FlangeRulingRecord } from '../flange.js';

export const PLATE_HOLE_OPTIONS = ['tapped', 'nut'] as const;
export type PlateHoleOption = (typeof PLATE_HOLE_OPTIONS)[number];

export const PLATE_FORMATS = ['json', 'stl', '3mf', 'scad'] as const;
export type PlateFormat = (typeof PLATE_FORMATS)[number];

export const FEATURE_KINDS = ['clearance_hole', 'counterbore', 'tap_drill_hole', 'nut_pocket'] as const;

export const PlateFeature = z
  .object({
    id: z.string().describe('Feature id, e.g. "a1.counterbore" (side, hole number, kind)'),
    kind: z.enum(FEATURE_KINDS),
    side: z.enum(['a', 'b']).describe('Whose bolt pattern the feature belongs to'),
    hole: z.number().int().positive().describe('Hole number on its pitch circle, 1 = first'),
    shape: z.enum(['circle', 'hexagon']),
    diameter_mm: z.number().positive().describe('Circle diameter; for a hexagon the corner-to-corner (circumscribed) diameter'),
    across_flats_mm: z.number().positive().nullable().describe('Hexagon only: width across flats'),
    rotation_deg: z.number().nullable().describe('Hexagon only: angle of one corner from +x'),
    depth_mm: z.number().positive(),
    from_face: z.enum(['a', 'b']).describe('Face the feature is cut from: face a at z = 0 (bears on side a\'s part), face b at z = thickness'),
    z_min_mm: z.number(),
    z_max_mm: z.number(),
    x_mm: z.number(),
    y_mm: z.number(),
    pitch_circle_diameter_mm: z.number().positive(),
    rule: z.string().describe('Why this size'),
    source: z.array(z.string()).describe('Where each number comes from (file and record, standard)'),
  })
  .strict();
export type PlateFeature = z.infer<typeof PlateFeature>;

export const PlateSide = z
  .object({
    designation: z.string(),
    pcd_mm: z.number(),
    bolt_count: z.number().int(),
    thread: z.string(),
    role: z.string().describe('How this side is fastened to the plate'),
    from_part: z.string().nullable().describe('The catalogue part whose declared flange this is, when parts were given'),
    source: z.array(z.string()),
  })
  .strict();

export const ThicknessTerm = z.object({ name: z.string(), value_mm: z.number(), rule: z.string(), source: z.array(z.string()) }).strict();

export const PlateFile = z
  .object({
    format: z.enum(PLATE_FORMATS),
    name: z.string().describe('File name'),
    media_type: z.string(),
    uri: z.string().describe('MCP resource URI (resources/read)'),
    url: z.string().nullable().describe('REST URL of the same file; null when no public URL is known'),
  })
  .strict();
export type PlateFile = z.infer<typeof PlateFile>;

export const PlateDesign = z
  .object({
    id: z.string().describe('Stable id of this design (pair, hole option, thickness override)'),
    units: z.literal('mm'),
    b_holes: z.enum(PLATE_HOLE_OPTIONS),
    side_a: PlateSide,
    side_b: PlateSide,
    outline: z
      .object({ shape: z.literal('disc'), diameter_mm: z.number(), thickness_mm: z.number(), rule: z.string(), source: z.array(z.string()) })
      .strict(),
    thickness: z
      .object({
        value_mm: z.number(),
        required_mm: z.number().describe('What the thickness rule asks for'),
        override_mm: z.number().nullable(),
        terms: z.array(ThicknessTerm),
        rule: z.string(),
      })
      .strict(),
    angular_offset: z
      .object({
        side_b_deg: z.number().describe("Side b's pattern turned by this angle against side a's (side a's first hole on +x)"),
        min_web_mm: z.number().describe('Least material left between a feature of side a and one of side b at this angle'),
        required_web_mm: z.number(),
        rule: z.string(),
      })
      .strict(),
    grown: z
      .object({ from_thickness_mm: z.number(), to_thickness_mm: z.number(), reason: z.string() })
      .nullable()
      .describe('Set when no angle left the required web at the rule thickness and the plate was made thicker'),
    centre_bore: z.null().describe('No centre bore or spigot: see centre_bore_note'),
    centre_bore_note: z.string(),
    features: z.array(PlateFeature),
    volume_mm3: z.number().describe('Analytic volume: disc minus every feature (true circles and hexagons)'),
    warnings: z.array(z.string()),
  })
  .strict();
export type PlateDesign = z.infer<typeof PlateDesign>;

export const PlateAnswer = z
  .object({
    plate_needed: z.boolean(),
    reason: z.string(),
    ruling: FlangeRulingRecord,
    design: PlateDesign.nullable().describe('null when no plate is needed'),
    files: z.array(PlateFile).describe('The design as JSON, binary STL, 3MF and OpenSCAD source; empty when no plate is needed'),
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
    uri: z.string().describe('MCP resource with the plate design (JSON); .stl, .3mf and .scad beside it'),
    url: z.string().nullable().describe('REST: GET /api/adapter-plate for this pair'),
  })
  .strict()
  .describe('The adapter plate for this pair: call design_adapter_plate, read the resource or GET the URL');
export type PlatePointer = z.infer<typeof PlatePointer>;
