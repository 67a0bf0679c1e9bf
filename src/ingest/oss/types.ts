/**
 * Shapes of what the open-source-layer extractors return. Every value is the file's own text
 * (trimmed, markup removed) or exactly derived from it; a value that does not read exactly is
 * left out and reported in `skipped`, never guessed.
 */
import { z } from 'zod';

export const EXTRACTOR_KINDS = ['urdf', 'bom_md', 'bom_csv'] as const;
export type ExtractorKind = (typeof EXTRACTOR_KINDS)[number];

/** URDF joint types (ROS URDF specification). Anything else is skipped, never coerced. */
export const URDF_JOINT_TYPES = ['revolute', 'continuous', 'prismatic', 'fixed', 'floating', 'planar'] as const;
/** Joint types that add a degree of freedom driven by one actuator (the DOF count sums these). */
export const ACTUATED_JOINT_TYPES = ['revolute', 'continuous', 'prismatic'] as const;

export const Confidence = z
  .enum(['high', 'medium'])
  .describe('medium: a field missing or inexact');
export type Confidence = z.infer<typeof Confidence>;

export const SKIP_CODES = [
  'input_empty',
  'not_recognised',
  'comment_unterminated',
  'tag_malformed',
  'joint_no_name',
  'joint_no_type',
  'joint_unknown_type',
  'joint_duplicate_name',
  'element_repeated',
  'value_not_numeric',
  'table_not_bom',
  'row_summary',
  'row_no_item',
  'quantity_not_integer',
  'price_not_plain',
  'currency_undetermined',
  'record_limit',
  'total_mismatch',
] as const;
export type SkipCode = (typeof SKIP_CODES)[number];

export const Skipped = z
  .object({
    code: z.enum(SKIP_CODES),
    scope: z.enum(['input', 'table', 'row', 'joint', 'value']),
    line: z.number().int().nullable(),
    reason: z.string(),
  })
  .strict();
export type Skipped = z.infer<typeof Skipped>;

/** Decimal text as written, e.g. "-1.0472", "1e-9". */
const NumText = z.string();

export const JointLimits = z
  .object({
    lower: NumText.optional(),
    upper: NumText.optional(),
    effort: NumText.optional(),
    velocity: NumText.optional(),
  })
  .strict()
  .describe('As written (URDF units)');

export const JointMimic = z
  .object({
    joint: z.string().nullable(),
    multiplier: NumText.nullable().describe('null: absent (default 1)'),
    offset: NumText.nullable().describe('null: absent (default 0)'),
  })
  .strict()
  ;
export type JointMimic = z.infer<typeof JointMimic>;

/** How DOF are counted; stated on every result that carries a DOF. */
export const DOF_CONVENTION =
  'actuated DOF = number of revolute, continuous and prismatic joints without a <mimic> element (a mimic joint follows another joint and is not an actuator). ' +
  'fixed joints add nothing. floating and planar joints are not in the actuated DOF; they are reported apart because tools differ: ' +
  'yourdfpy (URDF.num_dofs) counts a non-mimic floating joint as 6 and a planar joint as 2 and adds them to its DOF; ' +
  'MoveIt models a floating joint with 7 variables (x, y, z and a quaternion) for 6 DOF and a planar joint with 3 variables (x, y, theta), and mimic joints are not active.';

export const MimicLink = z
  .object({
    joint: z.string(),
    joint_type: z.enum(URDF_JOINT_TYPES),
    line: z.number().int(),
    follows: z.string().nullable(),
    follows_defined: z.boolean(),
    multiplier: NumText.nullable().describe('null: absent (default 1)'),
    offset: NumText.nullable().describe('null: absent (default 0)'),
  })
  .strict();

export const DofSummary = z
  .object({
    actuated_dof: z.number().int(),
    convention: z.string(),
    one_dof_joints: z.number().int().describe('Mimic ones included'),
    mimic: z.array(MimicLink),
    floating: z
      .object({
        count: z.number().int(),
        yourdfpy_dof: z.number().int(),
        moveit_variables: z.number().int(),
      })
      .strict(),
    planar: z
      .object({
        count: z.number().int(),
        yourdfpy_dof: z.number().int(),
        moveit_variables: z.number().int(),
      })
      .strict(),
    yourdfpy_num_dofs: z.number().int(),
  })
  .strict()
  .describe(DOF_CONVENTION);
export type DofSummary = z.infer<typeof DofSummary>;

export const JointRecord = z
  .object({
    record_type: z.literal('urdf_joint'),
    extractor: z.literal('urdf'),
    confidence: Confidence,
    line: z.number().int(),
    file: z.string().optional(),
    joint_name: z.string(),
    joint_type: z.enum(URDF_JOINT_TYPES),
    parent_link: z.string().nullable(),
    child_link: z.string().nullable(),
    axis: z.string().nullable().describe('<axis xyz> as written'),
    limits: JointLimits,
    child_link_mass: NumText.nullable().describe('kg, as written'),
    mimic: JointMimic.nullable(),
    actuated: z.boolean().describe('Counts toward actuated DOF'),
  })
  .strict();
export type JointRecord = z.infer<typeof JointRecord>;

export const Price = z
  .object({
    column: z.string(),
    as_written: z.string(),
    currency_label: z.string().nullable(),
    symbol: z.string().nullable(),
    currency: z.string().nullable().describe('ISO 4217 when certain, else null'),
    currency_source: z.enum(['header', 'cell', 'header_and_cell', 'document']).nullable(),
    amount: z.string().nullable().describe('Plain decimal; else null'),
    product_of: z
      .object({ amount: z.string(), factor: z.string() })
      .strict()
      .nullable()
      .describe('Factors of a cell like "¥10.8*4"'),
    basis_evidence: z
      .string()
      .nullable(),
  })
  .strict();
export type Price = z.infer<typeof Price>;

export const Link = z.object({ column: z.string(), label: z.string().nullable(), url: z.string() }).strict();
export type Link = z.infer<typeof Link>;

export const BomItemRecord = z
  .object({
    record_type: z.literal('bom_item'),
    extractor: z.enum(['bom_md', 'bom_csv']),
    confidence: Confidence,
    line: z.number().int(),
    table: z.number().int().describe('1-based'),
    section: z.string().nullable(),
    row_number: z.string().nullable(),
    part_number: z.string().nullable(),
    item: z.string(),
    quantity: z.number().int().nullable(),
    quantity_as_written: z.string().nullable(),
    quantity_source: z.enum(['column', 'item_prefix']).nullable(),
    item_as_written: z.string().nullable(),
    unit_prices: z.array(Price),
    line_totals: z.array(Price),
    manufacturer: z.string().nullable(),
    manufacturer_part: z.string().nullable(),
    supplier: z.string().nullable(),
    supplier_part: z.string().nullable(),
    links: z.array(Link),
    other_columns: z.record(z.string(), z.string()),
    notes: z.array(z.string()).optional(),
  })
  .strict();
export type BomItemRecord = z.infer<typeof BomItemRecord>;

export const ExtractedRecord = z.discriminatedUnion('record_type', [JointRecord, BomItemRecord]);
export type ExtractedRecord = z.infer<typeof ExtractedRecord>;

export const ExtractionCounts = z
  .object({
    records: z.number().int(),
    skipped: z.number().int(),
    joints_by_type: z.record(z.string(), z.number().int()).optional().describe('urdf'),
    dof: z.number().int().optional().describe('urdf'),
    dof_detail: DofSummary.optional().describe('urdf'),
    joint_references: z.number().int().optional().describe('urdf: references, not definitions'),
    links: z.number().int().optional().describe('urdf: <link> definitions'),
    tables: z.number().int().optional().describe('bom: tables found'),
    bom_tables: z.number().int().optional().describe('bom'),
    rows: z.number().int().optional().describe('bom'),
  })
  .strict();
export type ExtractionCounts = z.infer<typeof ExtractionCounts>;

export const XacroInfo = z
  .object({
    expanded: z.literal(true),
    properties: z.number().int(),
    macros: z.number().int(),
    macro_calls: z.number().int(),
    args: z.array(z.object({ name: z.string(), value: z.string(), source: z.enum(['default', 'passed']) }).strict()),
    includes: z.number().int(),
    note: z.string(),
  })
  .strict()
  .describe('Present for expanded xacro');
export type XacroInfo = z.infer<typeof XacroInfo>;

export const MassSummary = z
  .object({
    root_link: z.string().nullable().describe('null unless exactly one'),
    root_link_mass: NumText.nullable(),
    total: z.number().nullable().describe('kg; null when no mass'),
    links_with_mass: z.number().int(),
    links_without_mass: z.array(z.string()),
    subtrees: z.array(z.object({ joint: z.string(), child_link: z.string(), mass: z.number() }).strict()),
  })
  .strict()
  .describe('urdf, kg');
export type MassSummary = z.infer<typeof MassSummary>;

export const ReferencedFile = z
  .object({
    uri: z.string(),
    path: z.string().nullable(),
    present: z.boolean().describe('Among the files sent'),
  })
  .strict();

export const PackageInfo = z
  .object({
    name: z.string().nullable().describe('ROS package of the entry'),
    entry: z.string(),
    packages: z.array(z.object({ name: z.string(), folder: z.string() }).strict()),
    files_read: z.array(z.string()),
    files_unused: z.number().int(),
    referenced_files: z.array(ReferencedFile).describe('Not needed'),
  })
  .strict()
  ;
export type PackageInfo = z.infer<typeof PackageInfo>;

export const BomTableInfo = z
  .object({
    table: z.number().int(),
    line: z.number().int(),
    section: z.string().nullable(),
    columns: z.array(z.object({ header: z.string(), read_as: z.string() }).strict()),
    ignored_columns: z.array(z.string()),
    document_currency: z.string().nullable(),
    totals: z.array(z.object({ currency: z.string(), amount: z.string(), lines: z.number().int() }).strict()).optional(),
    unpriced_lines: z.number().int().optional(),
  })
  .strict();
export type BomTableInfo = z.infer<typeof BomTableInfo>;

export const ExtractionResult = z
  .object({
    kind: z.enum(EXTRACTOR_KINDS).nullable().describe('null: nothing recognised'),
    package: PackageInfo.optional(),
    xacro: XacroInfo.optional(),
    robot_name: z.string().nullable().describe('urdf'),
    records: z.array(ExtractedRecord),
    counts: ExtractionCounts,
    mass: MassSummary.optional(),
    bom_tables: z.array(BomTableInfo).optional().describe('bom'),
    skipped: z.array(Skipped).describe('First 200'),
  })
  .strict();
export type ExtractionResult = z.infer<typeof ExtractionResult>;
