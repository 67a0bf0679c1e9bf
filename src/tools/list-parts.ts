import { z } from 'zod';
import { toSummary } from '../domain/entity.js';
import { listParts, LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX } from '../domain/parts.js';
import { partsContext } from './context.js';
import { defineTool, READ_ONLY } from './define.js';
import { ATTRIBUTION, Category, Cursor, decodeCursor, encodeCursor, LICENSE, NextCursor, Summary } from './schemas.js';

const listRoute = (path: string, category: string) => ({
  method: 'GET' as const,
  path,
  fixed: { category },
  defaults: { limit: LIST_LIMIT_MAX },
  summary: `List of ${category}`,
});

export const listPartsTool = defineTool({
  name: 'list_parts',
  title: 'List robot parts',
  description:
    'List catalogue entities, all or one category, with summary fields, in id order, paged by cursor. ' +
    'Quarantined entries are left out unless include_quarantine is true. Use search_parts to find parts by keyword.',
  inputSchema: z.object({
    category: Category.optional(),
    include_quarantine: z.boolean().optional().describe('Include quarantined entries (default false)'),
    limit: z.number().int().min(1).optional().describe(`Entities per page, default ${LIST_LIMIT_DEFAULT}; above ${LIST_LIMIT_MAX} clamped`),
    cursor: Cursor.optional(),
  }),
  outputSchema: z.object({
    count: z.number().int().describe('Entities matching (all pages)'),
    data: z.array(Summary),
    next_cursor: NextCursor,
    meta: z.object({
      category: z.string().nullable(),
      returned: z.number().int(),
      limit: z.number().int(),
      limit_clamped: z.boolean(),
      quarantined_excluded: z.number().int(),
      fields: z.literal('summary'),
      license: z.string(),
      attribution: z.string(),
      dataset_version: z.string(),
    }),
  }),
  annotations: READ_ONLY,
  rest: [
    { method: 'GET', path: '/api/entities.json', defaults: { limit: LIST_LIMIT_MAX }, summary: 'All categories' },
    listRoute('/api/actuators.json', 'actuators'),
    listRoute('/api/sensors.json', 'sensors'),
    listRoute('/api/chips.json', 'chips'),
    listRoute('/api/protocols.json', 'protocols'),
  ],
  handler: async (input, ctx) => {
    const r = await listParts(partsContext(ctx), { ...input, offset: decodeCursor(input.cursor) });
    const meta = await ctx.deps.catalogue.meta();
    return {
      count: r.total,
      data: r.items.map(toSummary),
      next_cursor: r.next_offset === null ? null : encodeCursor(r.next_offset),
      meta: {
        category: r.category,
        returned: r.items.length,
        limit: r.limit,
        limit_clamped: r.limit_clamped,
        quarantined_excluded: r.quarantined_excluded,
        fields: 'summary' as const,
        license: LICENSE,
        attribution: ATTRIBUTION,
        dataset_version: meta.dataset_version,
      },
    };
  },
  text: (o) => `${o.count} entities${o.meta.category ? ` in ${o.meta.category}` : ''}; showing ${o.meta.returned}.` + (o.next_cursor ? ` More: cursor=${o.next_cursor}` : ''),
});
