import { z } from 'zod';
import { FreeEntity, PAID_FIELDS } from '../domain/catalogue/entity.js';
import { getPart } from '../domain/catalogue/parts.js';
import { entityAnalytics } from '../domain/analytics/index.js';
import { EntityAnalyticsSchema } from '../domain/analytics/schema.js';
import { partsContext } from './context.js';
import { defineTool, READ_ONLY } from './define.js';
import { EntityId, recordMeta } from './schemas.js';
import { CompactSpecSchema } from './spec-schemas.js';
import { ProductSchema } from './compare-parts.js';

export const getPartTool = defineTool({
  name: 'get_part',
  errors: ['not_found'],
  title: 'Get one robot part',
  description:
    'Look up one catalogue entity by id (case-insensitive). Returns its free-tier fields, including vendor-declared parameter strings verbatim in `declared`, ' +
    'the names of paid fields that hold data (locked_fields; list_parts with deep=true and an API key returns them), and a quarantine hint when the entry is flagged. ' +
    'used_in lists the open-source robots whose BOM or URDF names its model number (find_where_used gives the lines). product: same_as, versions, conflicts. On a miss the error lists did_you_mean ids with the same prefix.',
  inputSchema: z.object({ id: EntityId }),
  outputSchema: z.object({
    entity: FreeEntity,
    locked_fields: z.array(z.enum(PAID_FIELDS)).describe('Paid fields that hold data for this entity'),
    quarantine_hint: z.string().nullable(),
    used_in: z
      .object({
        robots: z.array(
          z
            .object({
              robot: z.string(),
              sources: z.array(z.string()),
              bom_lines: z.number().int(),
              quantities: z.array(z.object({ source_id: z.string(), line: z.number().int(), quantity: z.number().int().nullable(), quantity_as_written: z.string().nullable() }).strict()),
              urdf_mentions: z.number().int(),
            })
            .strict(),
        ),
        matched_on: z.array(z.string()).describe('Model numbers of this record matched in the layer'),
      })
      .strict()
      .nullable()
      .describe('Open-source robots whose BOM lines or URDF parts name this record\'s model number (find_where_used with this id gives lines, prices and evidence); null when none'),
    specs: z
      .array(CompactSpecSchema.extend({ field: z.string(), source: z.string().describe('Record field the value was read from (declared.torque, protocol, ...)'), evidence: z.array(z.string()).nullable().describe('Upstream path(s) of that field (provenance); null when not recorded') }).strict())
      .describe('Normalised specs (list_spec_fields names): notation as written, SI unit, comparability level A-D, and the evidence of where the value came from'),
    unread_specs: z.array(z.object({ field: z.string(), source: z.string(), notation: z.string(), reason: z.string() }).strict()).describe('Declared values the spec layer could not read, with why'),
    product: ProductSchema,
    analytics: EntityAnalyticsSchema,
    meta: z.object({ license: z.string(), attribution: z.string() }),
  }),
  annotations: READ_ONLY,
  cacheable: true,
  rest: [{ method: 'GET', path: '/api/entity/:id', summary: 'One entity, free-tier fields' }],
  handler: async ({ id }, ctx) => {
    const r = await getPart(partsContext(ctx), id);
    const { trl, momentum } = entityAnalytics(ctx.deps.analytics, r.entity);
    return { ...r, locked_fields: r.locked_fields as (typeof PAID_FIELDS)[number][], analytics: { trl, momentum, method: 'get_analytics meta.method' }, meta: recordMeta(r.entity) };
  },
});
