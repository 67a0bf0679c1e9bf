import { z } from 'zod';
import { ALTERNATIVES_DEFAULT, ALTERNATIVES_MAX, alternativesOf } from '../domain/specs/service.js';
import { PartRefSchema } from './compare-parts.js';
import { NO_LINKS_NOTE } from '../domain/shared/page-urls.js';
import { partsContext } from './context.js';
import { defineTool, READ_ONLY } from './define.js';
import { ATTRIBUTION, EntityId, LICENSE, PageUrl } from './schemas.js';
import { FilterMetaSchema, WhereArg } from './spec-schemas.js';

export const findAlternativesTool = defineTool({
  name: 'find_alternatives',
  errors: ['not_found'],
  title: 'Find alternative parts',
  description:
    'Same-category parts of other products (same type first) ranked by closeness of declared specs, with reasons. ' +
    'Never the same product (part.same_as); versions are, marked. must: where-form constraints.',
  inputSchema: z.object({
    id: EntityId,
    limit: z.number().int().min(1).max(ALTERNATIVES_MAX).optional().describe(`Default ${ALTERNATIVES_DEFAULT}, at most ${ALTERNATIVES_MAX}`),
    must: WhereArg.optional(),
  }),
  outputSchema: z.object({
    part: PartRefSchema,
    alternatives: z.array(
      z
        .object({
          id: z.string(),
          name: z.string(),
          manufacturer: z.string().nullable(),
          page_url: PageUrl,
          score: z.number().describe('Closeness 0-1, +0.1 same type'),
          same_type: z.boolean(),
          same_manufacturer: z.boolean(),
          reasons: z.array(z.string()),
          not_compared: z.array(z.string()).describe('Scored 0'),
          version: z.enum(['newer', 'older']).optional(),
        })
        .strict(),
    ),
    considered: z.number().int(),
    compared_fields: z.array(z.string()),
    must: z.array(FilterMetaSchema),
    meta: z.object({ limit: z.number().int(), license: z.string(), attribution: z.string() }),
  }),
  annotations: READ_ONLY,
  cacheable: true,
  rest: [{ method: 'GET', path: '/api/parts/:id/alternatives', summary: 'Alternatives to one part, ranked by spec closeness (must=<where text>)' }],
  handler: async (input, ctx) => {
    const r = await alternativesOf(partsContext(ctx), input);
    return {
      part: r.part,
      alternatives: r.alternatives.map((a) => {
        const v = r.part.versions.find((x) => x.id === a.id);
        const out = { id: a.id, name: a.name, manufacturer: a.manufacturer, ...(a.page_url === undefined ? {} : { page_url: a.page_url }), score: a.score, same_type: a.same_type, same_manufacturer: a.same_manufacturer, reasons: a.reasons, not_compared: a.not_compared };
        return v ? { ...out, version: v.relation === 'newer_version' ? ('newer' as const) : ('older' as const) } : out;
      }),
      considered: r.considered,
      compared_fields: r.compared_fields,
      must: r.must,
      meta: { limit: r.limit, license: LICENSE, attribution: ATTRIBUTION },
    };
  },
  text: (o) =>
    `${o.alternatives.length} alternative(s) to ${o.part.id} of ${o.considered} considered${o.part.same_as.length ? `; same product (not offered): ${o.part.same_as.map((s) => s.id).join(', ')}` : ''}` +
    `${o.part.versions.length ? `; versions: ${o.part.versions.map((v) => `${v.id} (${v.relation === 'newer_version' ? 'newer' : 'older'})`).join(', ')}` : ''}.${o.part.page_url === undefined ? ` ${NO_LINKS_NOTE}` : ''}`,
});
