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
import { CustomPart, oneOfIdOrCustom } from './custom.js';

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
    id: z.string().trim().min(1).max(200).optional(),
    custom: CustomPart.optional(),
    name: z.string().max(500).optional().describe('Copied verbatim'),
    category: z.string().max(200).optional(),
    manufacturer: z.string().max(500).optional().describe('Suggests its official store'),
    specs: z.string().max(2000).optional().describe('Copied verbatim'),
    supplier: z.string().max(500).optional().describe('Copied verbatim'),
    price: z
      .number()
      .min(0)
      .max(BOM_MAX_UNIT_PRICE)
      .nullable()
      .optional()
      .describe('Unit price in `currency`; omit when unknown'),
    quantity: z.number().int().min(1).max(1_000_000),
  })
  .superRefine((v, ctx) => {
    oneOfIdOrCustom(v, ctx);
    if (!v.custom) return;
    if (v.price !== undefined) ctx.addIssue({ code: 'custom', path: ['price'], message: 'a custom part takes its price inside custom: custom.price {amount, currency}' });
    if (v.name !== undefined) ctx.addIssue({ code: 'custom', path: ['name'], message: 'a custom part takes its name inside custom (custom.name)' });
  });
export type BomItem = z.infer<typeof BomItem>;

export const BomExportRequest = z.object({
  items: z
    .array(BomItem)
    .min(1)
    .describe(`One per line (≤${BOM_MAX_ITEMS})`),
  project_name: z.string().max(200).optional().describe('Written into the metadata'),
  format: z.enum(BOM_FORMATS).default('csv').describe('csv (default) or json'),
  include_suppliers: z.boolean().default(true).describe('Supplier suggestions per line'),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'an ISO 4217 code such as CNY, USD, EUR')
    .optional()
    .describe('ISO 4217 code of `price` (custom: its own)'),
  add_required: z
    .boolean()
    .default(false)
    .describe('Add the parts check_bom requires, unpriced'),
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

export const PRICE_SOURCES_DOC = 'item (sent), catalogue:<field>, or none (not in total)';

/** A price an open-source BOM line states, for reference only: never a unit price, never in a total. */
export const ReferencePrice = z.object({
  amount: z.string(),
  currency: z.string().nullable(),
  robot: z.string(),
  file: z.string(),
  line: z.number().int(),
});
export type ReferencePrice = z.infer<typeof ReferencePrice>;

/** The open-source BOM prices of one catalogue part (the caller reads them from the layer). */
export const PartReferences = z.object({
  id: z.string(),
  prices: z.array(ReferencePrice).describe('At most 5 of total'),
  total: z.number().int(),
});
export type PartReferences = z.infer<typeof PartReferences>;

export const SupplierSuggestion = z.object({
  name: z.string(),
  url: z.string(),
  kind: z.string().describe('Store kind'),
  basis: z.enum(['manufacturer', 'keyword', 'category']),
  matched: z.string(),
});
export type SupplierSuggestion = z.infer<typeof SupplierSuggestion>;

export const LineSuppliers = z.object({
  official_stores: z.array(SupplierSuggestion),
  distributors: z.array(SupplierSuggestion).describe('Not confirmed stockists'),
  notes: z.array(z.string()),
});
export type LineSuppliers = z.infer<typeof LineSuppliers>;

export const BomLine = z.object({
  line: z.number().int(),
  id: z.string(),
  source: z.enum(['catalogue', 'user', 'not_found']),
  currency: z.string().nullable(),
  name: z.string().nullable(),
  category: z.string().nullable(),
  manufacturer: z.string().nullable(),
  filled_from_catalogue: z.array(z.enum(['name', 'category', 'manufacturer'])),
  specs: z.string().nullable(),
  supplier: z.string().nullable(),
  price: z.number().nullable(),
  quantity: z.number().int(),
  unit_price: z.number().nullable(),
  unit_price_text: z.string().nullable(),
  line_total: z.number().nullable(),
  line_total_text: z.string().nullable(),
  price_source: z.string().describe(PRICE_SOURCES_DOC),
  price_note: z.string().nullable(),
  catalogue: z.object({
    found: z.boolean(),
    id: z.string().nullable(),
    quarantine: z.boolean().nullable(),
    price_range: z.string().nullable().describe('Range, currency not stated; never in totals'),
  }),
  suppliers: LineSuppliers.optional(),
  print_suggestions: z.array(z.string()),
});
export type BomLine = z.infer<typeof BomLine>;

export const BoltPattern = z.object({
  designation: z.string(),
  pcd_mm: z.number(),
  bolt_count: z.number().int(),
  thread: z.string(),
  clearance_hole_mm: z.number().nullable().describe('ISO 273 medium'),
});

export const MaterialAdvice = z.object({
  recommended: z.string(),
  alternative: z.string(),
  avoid: z.string(),
  reason: z.string(),
});

export const LoadCheck = z.object({
  status: z.enum(['within_rule_of_thumb', 'beyond_printed', 'unknown']),
  declared_torque_nm: z.number().nullable(),
  printed_limit_nm: z.number().nullable().describe('Rule of thumb'),
  evidence: z.array(z.string()),
  rule: z.string(),
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
  parts_a: z.array(z.object({ line: z.number().int(), id: z.string() })),
  parts_b: z.array(z.object({ line: z.number().int(), id: z.string() })),
  material: MaterialAdvice,
  min_thickness_mm: z.number(),
  min_outer_diameter_mm: z.number(),
  clock_patterns: z.boolean(),
  clocking_deg: z.number().nullable(),
  patterns_fit: z.boolean().describe('false: no flat plate works'),
  load: LoadCheck,
  warnings: z.array(z.string()),
  rule_of_thumb: z.string(),
  print_services: z.array(SupplierSuggestion).optional(),
});

export const PrintSuggestion = z.discriminatedUnion('kind', [StructuralPrintSuggestion, AdapterPlateSuggestion]);
export type PrintSuggestion = z.infer<typeof PrintSuggestion>;
export type StructuralPrintSuggestion = z.infer<typeof StructuralPrintSuggestion>;
export type AdapterPlateSuggestion = z.infer<typeof AdapterPlateSuggestion>;

export const CurrencyTotal = z.object({
  currency: z.string().nullable(),
  total: z.number(),
  total_text: z.string(),
  lines: z.array(z.number().int()),
});

export const BomMetadata = z.object({
  project_name: z.string().nullable(),
  total_cost: z.number().nullable().describe('null: none or mixed currencies'),
  total_cost_text: z.string().nullable(),
  totals_by_currency: z.array(CurrencyTotal),
  total_items: z.number().int(),
  total_quantity: z.number().int(),
  currency: z.string().nullable(),
  created_at: z.string(),
  priced_lines: z.number().int(),
  unpriced_lines: z.array(z.number().int()),
  total_is_partial: z.boolean(),
  price_basis: z.string(),
  attribution: z.string(),
});
export type BomMetadata = z.infer<typeof BomMetadata>;

export const SuggestedLine = z.object({
  kind: z.enum(['bridge', 'adapter_plate']),
  name: z.string(),
  quantity: z.number().int().describe('One per finding'),
  for_lines: z.array(z.number().int()),
  reason: z.string(),
  source: z.string(),
  print_suggestion: z.string().nullable(),
  price: z.null().describe('Never priced'),
});
export type SuggestedLine = z.infer<typeof SuggestedLine>;

export const BomDocument = z.object({
  metadata: BomMetadata,
  items: z.array(BomLine),
  print_suggestions: z.array(PrintSuggestion),
  reference_prices: z.array(PartReferences).describe('Open-source BOM prices, not in totals'),
  suggested_lines: z
    .array(SuggestedLine)
    .describe('add_required: unpriced'),
});
export type BomDocument = z.infer<typeof BomDocument>;
