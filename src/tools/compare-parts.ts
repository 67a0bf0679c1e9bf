import { z } from 'zod';
import { CustomPart } from '../domain/bom/custom.js';
import { COMPARE_MAX, COMPARE_MIN, comparePartsById } from '../domain/specs/service.js';
import { NO_LINKS_NOTE } from '../domain/shared/page-urls.js';
import { partsContext } from './context.js';
import { defineTool, READ_ONLY } from './define.js';
import { ATTRIBUTION, EntityId, LICENSE, PageUrl } from './schemas.js';
import { CompactSpecSchema } from './spec-schemas.js';

export const SameAsSchema = z
  .object({ id: z.string(), rule: z.enum(['duplicate_of', 'same_name', 'brand_model']), evidence: z.string() })
  .strict();

const ProductFields = {
  same_as: z.array(SameAsSchema),
  versions: z
    .array(z.object({ id: z.string(), relation: z.enum(['newer_version', 'older_version']), evidence: z.string() }).strict()),
  conflicts: z
    .array(z.object({ field: z.string(), values: z.array(z.object({ id: z.string(), notation: z.string(), source: z.string() }).strict()) }).strict())

};

export const ProductSchema = z.object(ProductFields).strict();

export const PartRefSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    category: z.string(),
    manufacturer: z.string().nullable(),
    manufacturer_canonical: z.string().nullable(),
    quarantine_hint: z.string().nullable(),
    page_url: PageUrl,
    ...ProductFields,
  })
  .strict();

export const comparePartsTool = defineTool({
  name: 'compare_parts',
  errors: ['not_found'],
  title: 'Compare parts side by side',
  description:
    `${COMPARE_MIN}-${COMPARE_MAX} parts (yours too: source user) on normalised spec fields. A row is ranked (1 = highest) only if every pair ` +
    'reads exactly at level A or B, same conditions; else why not. Undeclared never matches. Sets: common values; one product: same_product.',
  inputSchema: z.object({
    ids: z
      .array(z.union([z.string().min(1).max(200), z.object({ custom: CustomPart }).strict()]))
      .min(COMPARE_MIN)
      .max(COMPARE_MAX)
      .describe('Entity ids, or your parts as {custom} (check_bom\'s)'),
  }),
  outputSchema: z.object({
    parts: z.array(PartRefSchema.extend({ source: z.enum(['catalogue', 'user']) })),
    rows: z.array(
      z
        .object({
          field: z.string(),
          unit: z.string().nullable(),
          cells: z.array(z.object({ id: z.string(), spec: CompactSpecSchema.nullable(), note: z.string().nullable() }).strict()),
          comparable: z.boolean(),
          level: z.string().nullable().describe('Worst pair; null for set fields'),
          reason: z.string(),
          ranking: z.array(z.object({ id: z.string(), rank: z.number().int() }).strict()).nullable(),
          common_values: z.array(z.string()).optional(),
        })
        .strict(),
    ),
    same_product: z.array(z.array(z.string())),
    meta: z.object({ license: z.string(), attribution: z.string() }),
  }),
  annotations: READ_ONLY,
  cacheable: true,
  rest: [
    { method: 'POST', path: '/api/compare', summary: 'Compare 2-10 parts side by side ({ids: [...]})' },
    { method: 'GET', path: '/api/compare', summary: 'Compare 2-10 parts side by side (?ids=A&ids=B)' },
  ],
  handler: async ({ ids }, ctx) => ({ ...(await comparePartsById(partsContext(ctx), ids, ctx.deps.knowledge)), meta: { license: LICENSE, attribution: ATTRIBUTION } }),
  text: (o) =>
    `${o.parts.length} parts${o.parts.some((p) => p.source === 'user') ? ` (${o.parts.filter((p) => p.source === 'user').length} user-declared)` : ''} on ${o.rows.length} fields: ${o.rows.filter((r) => r.comparable).length} comparable rows, ${o.rows.filter((r) => !r.comparable).length} not comparable` +
    `${o.same_product.length ? `; same product: ${o.same_product.map((p) => p.join('=')).join(', ')}` : ''}.${o.parts.some((p) => p.source !== 'user' && p.page_url === undefined) ? ` ${NO_LINKS_NOTE}` : ''}`,
});
