import { z } from 'zod';
import { FreeEntity, PAID_FIELDS } from '../domain/catalogue/entity.js';
import { getPart } from '../domain/catalogue/parts.js';
import { entityAnalytics } from '../domain/analytics/index.js';
import { EntityAnalyticsSchema } from '../domain/analytics/schema.js';
import { NO_LINKS_NOTE } from '../domain/shared/page-urls.js';
import { partsContext } from './context.js';
import { defineTool, READ_ONLY } from './define.js';
import { EntityId, PageUrl, recordMeta } from './schemas.js';
import { CompactSpecSchema } from './spec-schemas.js';
import { ProductSchema } from './compare-parts.js';

export const getPartTool = defineTool({
  name: 'get_part',
  errors: ['not_found'],
  title: 'Get one robot part',
  description:
    'One entity by id: free fields, vendor strings verbatim, locked_fields (paid: list_parts deep=true), ' +
    'used_in (open-source robots), product (same_as, versions, conflicts). Miss: did_you_mean.',
  inputSchema: z.object({ id: EntityId }),
  outputSchema: z.object({
    entity: FreeEntity,
    page_url: PageUrl,
    locked_fields: z.array(z.enum(PAID_FIELDS)),
    quarantine_hint: z.string().nullable(),
    used_in: z
      .object({
        robots: z.array(
          z
            .object({
              robot: z.string(),
              page_url: PageUrl,
              sources: z.array(z.string()),
              bom_lines: z.number().int(),
              quantities: z.array(z.object({ source_id: z.string(), line: z.number().int(), quantity: z.number().int().nullable(), quantity_as_written: z.string().nullable() }).strict()),
              urdf_mentions: z.number().int(),
            })
            .strict(),
        ),
        matched_on: z.array(z.string()),
      })
      .strict()
      .nullable(),
    specs: z
      .array(CompactSpecSchema.extend({ field: z.string(), source: z.string(), evidence: z.array(z.string()).nullable() }).strict()),
    unread_specs: z.array(z.object({ field: z.string(), source: z.string(), notation: z.string(), reason: z.string() }).strict()),
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
  text: (o) =>
    `${o.entity.id}: ${o.entity.name_en || o.entity.name}${o.entity.manufacturer ? ` by ${o.entity.manufacturer}` : ''} (${o.entity.category})` +
    `${o.quarantine_hint ? '; QUARANTINED' : ''}; ${o.specs.length} specs read, ${o.unread_specs.length} unread` +
    `${o.used_in ? `; used in ${o.used_in.robots.length} open-source robot(s)` : ''}${o.product.versions.length ? `; ${o.product.versions.length} other version(s)` : ''}.${o.page_url === undefined ? ` ${NO_LINKS_NOTE}` : ''}`,
});
