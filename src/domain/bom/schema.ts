/**
 * Request and result shapes of the BOM export (spec: "BOM item and result", "POST /api/bom/export").
 * The same zod schemas feed the MCP tool, the REST route and the OpenAPI document.
 *
 * The item limit is NOT expressed as `.max()` on `items`: a schema bound would surface as a 400
 * validation error before the handler runs, while the product contract says 413. Adapters call
 * `parseBomExportRequest` (or `assertBomSize`) which throws DomainError('payload_too_large').
 */
import { z } from 'zod';
import { DomainError, invalidInput } from '../shared/errors.js';

/** At most this many items in one export or check (product.md: 413 beyond). */
export const BOM_MAX_ITEMS = 500;
/**
 * Largest unit price accepted. Far above any real part, and small enough that a line total
 * (x 1,000,000) and a 500-line total stay finite, exactly representable-in-range JSON numbers.
 */
export const BOM_MAX_UNIT_PRICE = 1e12;

export const BOM_FORMATS = ['csv', 'json'] as const;
export type BomFormat = (typeof BOM_FORMATS)[number];

export const BomItem = z
  .object({
    id: z.string().trim().min(1).max(200).describe('Part id: a catalogue id (matched case-insensitively) or your own id for a part not in the catalogue'),
    name: z.string().max(500).optional().describe('Display name, copied verbatim into the BOM'),
    category: z.string().max(200).optional().describe('Category, e.g. actuators, sensors, controllers, structural'),
    manufacturer: z.string().max(500).optional().describe('Manufacturer name; used to suggest its official store when one is registered'),
    specs: z.string().max(2000).optional().describe('Free-text specification, copied verbatim'),
    supplier: z.string().max(500).optional().describe('Your own supplier for this line, copied verbatim'),
    price: z
      .number()
      .min(0)
      .max(BOM_MAX_UNIT_PRICE)
      .nullable()
      .optional()
      .describe('Unit price in the BOM currency (see `currency`). Omit when unknown: the line is then excluded from the total and flagged'),
    quantity: z.number().int().min(1).max(1_000_000).describe('How many of this part (integer, at least 1)'),
  })
  .describe('One BOM line as the caller sends it');
export type BomItem = z.infer<typeof BomItem>;

export const BomExportRequest = z.object({
  items: z
    .array(BomItem)
    .min(1)
    .describe(`The parts, one entry per line (1 to ${BOM_MAX_ITEMS} items; more is refused with payload_too_large / 413)`),
  project_name: z.string().max(200).optional().describe('Project name written into the BOM metadata'),
  format: z.enum(BOM_FORMATS).default('csv').describe('csv (default) or json'),
  include_suppliers: z.boolean().default(true).describe('Add supplier suggestions (official stores and distributors from the registry) to each line'),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'an ISO 4217 code such as CNY, USD, EUR')
    .optional()
    .describe('ISO 4217 code of the item prices. Optional: when omitted the BOM states the currency as not given'),
  add_required: z
    .boolean()
    .default(false)
    .describe('Also list the bridges (check_bom bridge_required) and flange adapter plates (flange_adapter) the set needs, as suggested_lines: marked as suggestions, never priced, not in the total'),
});
export type BomExportRequest = z.infer<typeof BomExportRequest>;
export type BomExportRequestInput = z.input<typeof BomExportRequest>;

/** Throws payload_too_large (413) when more than BOM_MAX_ITEMS items are sent. */
export function assertBomSize(items: unknown, field = 'items'): void {
  if (Array.isArray(items) && items.length > BOM_MAX_ITEMS) {
    throw new DomainError('payload_too_large', `${field}: at most ${BOM_MAX_ITEMS} items per request, got ${items.length}`, {
      field,
      limit: BOM_MAX_ITEMS,
      received: items.length,
    });
  }
}

/** The first zod issue as an invalid_input error naming its field path (e.g. "items.3.quantity"). */
export function zodToDomainError(err: z.ZodError, prefix = ''): DomainError {
  const issue = err.issues[0];
  const path = [prefix, ...(issue?.path ?? []).map(String)].filter(Boolean).join('.') || 'body';
  return invalidInput(path, issue?.message ?? 'invalid');
}

/** Size check first (413), then validation (400, naming the field). */
export function parseBomExportRequest(raw: unknown): BomExportRequest {
  if (raw && typeof raw === 'object') assertBomSize((raw as { items?: unknown }).items);
  const r = BomExportRequest.safeParse(raw);
  if (!r.success) throw zodToDomainError(r.error);
  return r.data;
}

// ---------------------------------------------------------------- result

export const PRICE_SOURCES_DOC =
  '"item": the unit price the caller sent; "catalogue:<field>": a unit price read from that catalogue field; "none": no price anywhere (line excluded from the total)';

export const SupplierSuggestion = z.object({
  name: z.string(),
  url: z.string(),
  kind: z.string().describe('manufacturer (official store), distributor, marketplace, print_service, printer_maker or tool_maker'),
  basis: z.enum(['manufacturer', 'keyword', 'category']).describe('What matched: the manufacturer (official store), a keyword, or only the category'),
  matched: z.string().describe('The registry key that matched'),
});
export type SupplierSuggestion = z.infer<typeof SupplierSuggestion>;

export const LineSuppliers = z.object({
  official_stores: z.array(SupplierSuggestion),
  distributors: z.array(SupplierSuggestion).describe('Channels matched by keyword or category: general channels, not confirmed stockists of this part'),
  notes: z.array(z.string()),
});
export type LineSuppliers = z.infer<typeof LineSuppliers>;

export const BomLine = z.object({
  line: z.number().int().describe('1-based line number'),
  id: z.string(),
  name: z.string().nullable().describe('As sent; else the catalogue name of the part (see filled_from_catalogue)'),
  category: z.string().nullable().describe('As sent; else the catalogue category'),
  manufacturer: z.string().nullable().describe('As sent; else the catalogue manufacturer'),
  filled_from_catalogue: z.array(z.enum(['name', 'category', 'manufacturer'])).describe('Fields the caller left out, filled from the catalogue record'),
  specs: z.string().nullable(),
  supplier: z.string().nullable(),
  price: z.number().nullable().describe('The unit price the caller sent (null when none)'),
  quantity: z.number().int(),
  unit_price: z.number().nullable().describe('Unit price used for the line total'),
  unit_price_text: z.string().nullable().describe('The same, as exact decimal text'),
  line_total: z.number().nullable(),
  line_total_text: z.string().nullable().describe('unit_price × quantity, exact decimal text'),
  price_source: z.string().describe(PRICE_SOURCES_DOC),
  price_note: z.string().nullable(),
  catalogue: z.object({
    found: z.boolean(),
    id: z.string().nullable().describe('Canonical catalogue id when found'),
    quarantine: z.boolean().nullable(),
    price_range: z.string().nullable().describe('The catalogue price_range verbatim, for reference only: not a unit price, unit not stated upstream'),
  }),
  suppliers: LineSuppliers.optional().describe('Present when include_suppliers is true'),
  print_suggestions: z.array(z.string()).describe('Ids of print_suggestions entries that concern this line'),
});
export type BomLine = z.infer<typeof BomLine>;

export const BoltPattern = z.object({
  designation: z.string(),
  pcd_mm: z.number(),
  bolt_count: z.number().int(),
  thread: z.string(),
  clearance_hole_mm: z.number().nullable().describe('ISO 273 medium-series clearance hole for the thread, null when the thread is not in the table'),
});

export const MaterialAdvice = z.object({
  recommended: z.string(),
  alternative: z.string(),
  avoid: z.string(),
  reason: z.string(),
});

export const LoadCheck = z.object({
  status: z.enum(['within_rule_of_thumb', 'beyond_printed', 'unknown']),
  declared_torque_nm: z.number().nullable().describe('Highest declared torque among the parts concerned'),
  printed_limit_nm: z.number().nullable().describe('Rule-of-thumb torque limit of the printed part, see rule'),
  evidence: z.array(z.string()),
  rule: z.string().describe('The engineering rule of thumb applied, labelled as such'),
});

export const StructuralPrintSuggestion = z.object({
  id: z.string(),
  kind: z.literal('structural_part'),
  lines: z.array(z.number().int()),
  part_ids: z.array(z.string()),
  reason: z.string(),
  material: MaterialAdvice,
  min_wall_mm: z.number(),
  rule_of_thumb: z.string(),
  print_services: z.array(SupplierSuggestion).optional(),
});

export const AdapterPlateSuggestion = z.object({
  id: z.string(),
  kind: z.literal('adapter_plate'),
  side_a: BoltPattern,
  side_b: BoltPattern,
  blocking_dims: z.array(z.string()),
  parts_a: z.array(z.object({ line: z.number().int(), id: z.string() })).describe('BOM lines carrying the side_a flange'),
  parts_b: z.array(z.object({ line: z.number().int(), id: z.string() })).describe('BOM lines carrying the side_b flange'),
  material: MaterialAdvice,
  min_thickness_mm: z.number(),
  min_outer_diameter_mm: z.number(),
  clock_patterns: z.boolean().describe('True when the two hole circles are so close that the patterns must be rotated against each other so holes do not overlap'),
  clocking_deg: z.number().nullable().describe('Rotation of pattern b against pattern a that keeps holes apart, when clocking is needed and possible'),
  patterns_fit: z.boolean().describe('False when the holes of the two patterns overlap at any rotation: a single flat plate does not work'),
  load: LoadCheck,
  warnings: z.array(z.string()),
  rule_of_thumb: z.string(),
  print_services: z.array(SupplierSuggestion).optional(),
});

export const PrintSuggestion = z.discriminatedUnion('kind', [StructuralPrintSuggestion, AdapterPlateSuggestion]);
export type PrintSuggestion = z.infer<typeof PrintSuggestion>;
export type StructuralPrintSuggestion = z.infer<typeof StructuralPrintSuggestion>;
export type AdapterPlateSuggestion = z.infer<typeof AdapterPlateSuggestion>;

export const BomMetadata = z.object({
  project_name: z.string().nullable(),
  total_cost: z.number().describe('Sum of the priced line totals (nearest JSON number; total_cost_text is exact)'),
  total_cost_text: z.string().describe('The exact decimal total'),
  total_items: z.number().int().describe('Number of BOM lines'),
  total_quantity: z.number().int().describe('Sum of quantities over all lines'),
  currency: z.string().nullable().describe('ISO 4217 code given with the request; null when not given (prices are then in whatever unit the caller used)'),
  created_at: z.string(),
  priced_lines: z.number().int(),
  unpriced_lines: z.array(z.number().int()).describe('Line numbers with no price, excluded from total_cost'),
  total_is_partial: z.boolean().describe('True when some lines have no price'),
  price_basis: z.string(),
  attribution: z.string(),
});
export type BomMetadata = z.infer<typeof BomMetadata>;

export const SuggestedLine = z.object({
  kind: z.enum(['bridge', 'adapter_plate']).describe('bridge: a bus bridge check_bom requires; adapter_plate: a plate between two flange patterns'),
  name: z.string().describe('What to add, as check_bom names it (a bridge product or standard adapter; the two flange designations of a plate)'),
  quantity: z.number().int().describe('One per finding: one bridge per host and bridge, one plate design per designation pair'),
  for_lines: z.array(z.number().int()).describe('BOM lines the finding concerns'),
  reason: z.string().describe("check_bom's message for the finding"),
  source: z.string().describe('The check_bom finding kind this line comes from'),
  print_suggestion: z.string().nullable().describe('The print_suggestions id of the plate (adapter_plate), else null'),
  price: z.null().describe('Never priced: a suggestion, not in the total'),
});
export type SuggestedLine = z.infer<typeof SuggestedLine>;

export const BomDocument = z.object({
  metadata: BomMetadata,
  items: z.array(BomLine),
  print_suggestions: z.array(PrintSuggestion),
  suggested_lines: z
    .array(SuggestedLine)
    .describe('With add_required: what check_bom says the set still needs (bridges, adapter plates), as unpriced suggestions; empty otherwise'),
});
export type BomDocument = z.infer<typeof BomDocument>;
