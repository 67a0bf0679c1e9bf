import { z } from 'zod';
import { defineTool, READ_ONLY } from './define.js';

export const getCatalogueStatsTool = defineTool({
  name: 'get_catalogue_stats',
  title: 'Catalogue statistics',
  description: 'Entities per category (with its spec name), quarantined count, dataset version and licence.',
  inputSchema: z.object({}),
  outputSchema: z.object({
    total: z.number().int(),
    quarantined: z.number().int(),
    categories: z.array(z.object({ slug: z.string(), name: z.string(), spec_name: z.string().nullable(), count: z.number().int() })),
    dataset_version: z.string(),
    snapshot_commit: z.string().nullable(),
    license: z.string(),
    attribution: z.string(),
    source: z.string(),
  }),
  annotations: READ_ONLY,
  // A function of the catalogue snapshot (and category): the pages ask it on every search view.
  cacheable: true,
  rest: [{ method: 'GET', path: '/api/stats', summary: 'Catalogue counts' }],
  handler: async (_input, ctx) => {
    const [cats, meta, all, clean] = await Promise.all([
      ctx.deps.catalogue.categories(),
      ctx.deps.catalogue.meta(),
      ctx.deps.catalogue.list({ includeQuarantine: true, limit: 0 }),
      ctx.deps.catalogue.list({ includeQuarantine: false, limit: 0 }),
    ]);
    return {
      total: all.total,
      quarantined: all.total - clean.total,
      categories: cats,
      dataset_version: meta.dataset_version,
      snapshot_commit: meta.snapshot_commit,
      license: meta.license,
      attribution: meta.attribution,
      source: meta.source,
    };
  },
  text: (o) =>
    `${o.total} entities (${o.quarantined} quarantined) in ${o.categories.length} categories, dataset ${o.dataset_version}: ` +
    `${o.categories.map((c) => `${c.slug} ${c.count}`).join(', ')}.`,
});
