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
  .describe('high: every field read exactly; medium: a field missing or inexact (see skipped)');
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
    code: z.enum(SKIP_CODES).describe('Stable reason code'),
    scope: z.enum(['input', 'table', 'row', 'joint', 'value']).describe('What was skipped'),
    line: z.number().int().nullable().describe('1-based line in the input, when known'),
    reason: z.string().describe('Human-readable reason'),
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
  .describe('<limit> attributes as written (URDF units); absent when not numeric');

export const JointMimic = z
  .object({
    joint: z.string().nullable().describe('Joint followed, as written; null when missing'),
    multiplier: NumText.nullable().describe('<mimic multiplier> as written; null when absent (URDF default 1)'),
    offset: NumText.nullable().describe('<mimic offset> as written; null when absent (URDF default 0)'),
  })
  .strict()
  .describe('position = multiplier * followed + offset; not an actuator');
export type JointMimic = z.infer<typeof JointMimic>;

/** How DOF are counted; stated on every result that carries a DOF. */
export const DOF_CONVENTION =
  'actuated DOF = number of revolute, continuous and prismatic joints without a <mimic> element (a mimic joint follows another joint and is not an actuator). ' +
  'fixed joints add nothing. floating and planar joints are not in the actuated DOF; they are reported apart because tools differ: ' +
  'yourdfpy (URDF.num_dofs) counts a non-mimic floating joint as 6 and a planar joint as 2 and adds them to its DOF; ' +
  'MoveIt models a floating joint with 7 variables (x, y, z and a quaternion) for 6 DOF and a planar joint with 3 variables (x, y, theta), and mimic joints are not active.';

export const MimicLink = z
  .object({
    joint: z.string().describe('The mimic joint'),
    joint_type: z.enum(URDF_JOINT_TYPES),
    line: z.number().int(),
    follows: z.string().nullable().describe('The joint it follows, as written'),
    follows_defined: z.boolean().describe('Whether the followed joint is defined in the file'),
    multiplier: NumText.nullable().describe('As written; null when absent (URDF default 1)'),
    offset: NumText.nullable().describe('As written; null when absent (URDF default 0)'),
  })
  .strict();

export const DofSummary = z
  .object({
    actuated_dof: z.number().int().describe('revolute + continuous + prismatic joints without <mimic>'),
    convention: z.string(),
    one_dof_joints: z.number().int().describe('revolute + continuous + prismatic joints, mimic ones included'),
    mimic: z.array(MimicLink).describe('Mimic joints (not in actuated_dof)'),
    floating: z
      .object({
        count: z.number().int(),
        yourdfpy_dof: z.number().int().describe('6 per non-mimic floating joint (yourdfpy URDF.num_dofs)'),
        moveit_variables: z.number().int().describe('7 per floating joint (MoveIt)'),
      })
      .strict(),
    planar: z
      .object({
        count: z.number().int(),
        yourdfpy_dof: z.number().int().describe('2 per non-mimic planar joint (yourdfpy URDF.num_dofs)'),
        moveit_variables: z.number().int().describe('3 per planar joint (MoveIt PlanarJointModel: x, y, theta)'),
      })
      .strict(),
    yourdfpy_num_dofs: z.number().int().describe('yourdfpy URDF.num_dofs: actuated_dof + 6/floating + 2/planar'),
  })
  .strict()
  .describe(DOF_CONVENTION);
export type DofSummary = z.infer<typeof DofSummary>;

export const JointRecord = z
  .object({
    record_type: z.literal('urdf_joint'),
    extractor: z.literal('urdf'),
    confidence: Confidence,
    line: z.number().int().describe('Line of the <joint> tag (in file, for a package)'),
    file: z.string().optional().describe('Packages: the file the <joint> is written in'),
    joint_name: z.string(),
    joint_type: z.enum(URDF_JOINT_TYPES),
    parent_link: z.string().nullable(),
    child_link: z.string().nullable(),
    axis: z.string().nullable().describe('<axis xyz> as written'),
    limits: JointLimits,
    child_link_mass: NumText.nullable().describe('Child link\'s <mass>, as written (kg); null when absent'),
    mimic: JointMimic.nullable().describe('The joint\'s <mimic> element; null when the joint has none'),
    actuated: z.boolean().describe('Counts toward actuated DOF'),
  })
  .strict();
export type JointRecord = z.infer<typeof JointRecord>;

export const Price = z
  .object({
    column: z.string().describe('Column header as written'),
    as_written: z.string().describe('The cell as written (markup removed)'),
    currency_label: z.string().nullable().describe('Currency or region label in the header, as written'),
    symbol: z.string().nullable().describe('Currency symbol or code in the cell, as written (e.g. "$", "€", "￥")'),
    currency: z.string().nullable().describe('ISO 4217 when header, symbol or document name exactly one; else null (never guessed)'),
    currency_source: z.enum(['header', 'cell', 'header_and_cell', 'document']).nullable(),
    amount: z.string().nullable().describe('Plain decimal; null when the cell is not a plain amount'),
    product_of: z
      .object({ amount: z.string(), factor: z.string() })
      .strict()
      .nullable()
      .describe('A cell written as a product ("¥10.8*4"): its factors; amount stays null'),
    basis_evidence: z
      .string()
      .nullable()
      .describe('Why read as a line total when the header does not say so; null when it does'),
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
    line: z.number().int().describe('Line of the row in the input'),
    table: z.number().int().describe('1-based ordinal of the BOM table in the input'),
    section: z.string().nullable().describe('Nearest Markdown heading above the table, as written'),
    row_number: z.string().nullable().describe('The row\'s own number column ("No."), as written'),
    part_number: z.string().nullable(),
    item: z.string().describe('Item name as written, markup removed'),
    quantity: z.number().int().nullable().describe('Quantity when the cell is a plain integer, else null'),
    quantity_as_written: z.string().nullable(),
    quantity_source: z.enum(['column', 'item_prefix']).nullable().describe('Its own column, or a prefix in the item ("2x ..."); null when none'),
    item_as_written: z.string().nullable().describe('Item cell before its quantity prefix was removed; else null'),
    unit_prices: z.array(Price),
    line_totals: z.array(Price),
    manufacturer: z.string().nullable(),
    manufacturer_part: z.string().nullable(),
    supplier: z.string().nullable(),
    supplier_part: z.string().nullable(),
    links: z.array(Link),
    other_columns: z.record(z.string(), z.string()).describe('Other non-empty cells by column header, as written'),
  })
  .strict();
export type BomItemRecord = z.infer<typeof BomItemRecord>;

export const ExtractedRecord = z.discriminatedUnion('record_type', [JointRecord, BomItemRecord]);
export type ExtractedRecord = z.infer<typeof ExtractedRecord>;

export const ExtractionCounts = z
  .object({
    records: z.number().int(),
    skipped: z.number().int(),
    joints_by_type: z.record(z.string(), z.number().int()).optional().describe('urdf: joint definitions by type attribute'),
    dof: z.number().int().optional().describe('urdf: actuated DOF (see dof_detail)'),
    dof_detail: DofSummary.optional().describe('urdf: DOF convention, mimic, floating and planar joints'),
    joint_references: z.number().int().optional().describe('urdf: <joint> references in transmission/gazebo/ros2_control'),
    links: z.number().int().optional().describe('urdf: <link> definitions'),
    tables: z.number().int().optional().describe('bom: tables found'),
    bom_tables: z.number().int().optional().describe('bom: tables read as BOM tables'),
    rows: z.number().int().optional().describe('bom: data rows in BOM tables'),
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
  .describe('The input was xacro, expanded by this project\'s expander before extraction');
export type XacroInfo = z.infer<typeof XacroInfo>;

export const MassSummary = z
  .object({
    root_link: z.string().nullable().describe('null unless exactly one'),
    root_link_mass: NumText.nullable(),
    total: z.number().nullable().describe('kg from the root (all links without one root); null when no mass'),
    links_with_mass: z.number().int(),
    links_without_mass: z.array(z.string()),
    subtrees: z.array(z.object({ joint: z.string(), child_link: z.string(), mass: z.number() }).strict()),
  })
  .strict()
  .describe('urdf: root link, total and subtree masses (kg)');
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
    referenced_files: z.array(ReferencedFile).describe('Meshes and textures named; listed, not needed'),
  })
  .strict()
  .describe('Packages (files + entry)');
export type PackageInfo = z.infer<typeof PackageInfo>;

export const BomTableInfo = z
  .object({
    table: z.number().int(),
    line: z.number().int(),
    section: z.string().nullable(),
    columns: z.array(z.object({ header: z.string(), read_as: z.string() }).strict()),
    ignored_columns: z.array(z.string()).describe('Not interpreted (cells kept in other_columns)'),
    document_currency: z.string().nullable(),
  })
  .strict();
export type BomTableInfo = z.infer<typeof BomTableInfo>;

export const ExtractionResult = z
  .object({
    kind: z.enum(EXTRACTOR_KINDS).nullable().describe('Extractor used; null when auto-detection recognised nothing'),
    package: PackageInfo.optional(),
    xacro: XacroInfo.optional().describe('Present when the input was xacro and was expanded'),
    robot_name: z.string().nullable().describe('urdf: <robot name> as written'),
    records: z.array(ExtractedRecord),
    counts: ExtractionCounts,
    mass: MassSummary.optional(),
    bom_tables: z.array(BomTableInfo).optional().describe('bom: columns of each BOM table as read'),
    skipped: z.array(Skipped).describe('First 200 skipped items with reasons'),
  })
  .strict();
export type ExtractionResult = z.infer<typeof ExtractionResult>;
