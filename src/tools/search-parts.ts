import { z } from 'zod';
import { SUMMARY_FIELDS } from '../domain/catalogue/entity.js';
import { searchParts, SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX, SEARCH_MAX_TERMS, SEARCH_Q_MAX_CHARS } from '../domain/catalogue/parts.js';
import { SEARCH_FIELDS } from '../domain/catalogue/search.js';
import { NO_LINKS_NOTE } from '../domain/shared/page-urls.js';
import { partsContext } from './context.js';
import { defineTool, READ_ONLY } from './define.js';
import { ATTRIBUTION, Category, Cursor, decodeCursor, ElsewhereSchema, encodeCursor, LICENSE, NextCursor, PageUrl, pickFields, Summary } from './schemas.js';
import { CompactSpecSchema, FilterMetaSchema, SortMetaSchema, SortArg, WhereArg } from './spec-schemas.js';

const HIT_EXTRA = ['relevance_score', 'matched_fields', 'detail_url', 'page_url', 'specs'] as const;
export const HIT_FIELDS = [...SUMMARY_FIELDS, ...HIT_EXTRA] as const;

const Hit = Summary.partial()
  .extend({
    id: z.string(),
    relevance_score: z.number().optional(),
    matched_fields: z.array(z.enum(SEARCH_FIELDS)).optional(),
    detail_url: z.string().optional(),
    page_url: PageUrl,
    specs: z.record(z.string(), CompactSpecSchema).optional().describe('Fields filtered or sorted on'),
  })
  .strict();

export const searchPartsTool = defineTool({
  name: 'search_parts',
  errors: ['unknown_category'],
  title: 'Search robot parts',
  description:
    'q: terms match a word or its start; ranked id > name > manufacturer > type > interface > description. ' +
    'where: spec filters (list_spec_fields), AND q, in units convert_parameter reads; undeclared never matches. ' +
    'meta.filters counts failed (declared, read, outside), unknown_excluded (undeclared, unread, a bound), not_applicable, near_misses. ' +
    'No hit: meta.elsewhere.',
  inputSchema: z
    .object({
      q: z
        .string()
        .optional()
        .describe(`e.g. "dynamixel xm540" (≤${SEARCH_Q_MAX_CHARS} chars, ${SEARCH_MAX_TERMS} terms)`),
      where: WhereArg.optional(),
      sort: SortArg.optional(),
      category: Category.optional(),
      limit: z.number().int().min(1).optional().describe(`Default ${SEARCH_LIMIT_DEFAULT}, at most ${SEARCH_LIMIT_MAX}`),
      include_quarantine: z.boolean().optional().describe('Include quarantined (default false)'),
      cursor: Cursor.optional(),
      fields: z.array(z.enum(HIT_FIELDS)).min(1).optional().describe('Hit fields (id always); default all'),
    }),
  outputSchema: z.object({
    data: z.array(Hit),
    next_cursor: NextCursor,
    meta: z.object({
      q: z.string().nullable(),
      terms: z.array(z.string()),
      filters: z.array(FilterMetaSchema),
      sort: SortMetaSchema.nullable(),
      category: z.string().nullable(),
      total: z.number().int(),
      returned: z.number().int(),
      limit: z.number().int(),
      limit_clamped: z.boolean(),
      quarantined_excluded: z.number().int(),
      include_quarantine: z.boolean(),
      elsewhere: ElsewhereSchema.optional(),
      license: z.string(),
      attribution: z.string(),
    }),
  }),
  annotations: READ_ONLY,
  cacheable: true,
  rest: [{ method: 'GET', path: '/api/search', summary: 'Keyword search and spec filters (where=torque_rated>=30 N·m; bus in EtherCAT|CAN)', warmUpArgument: 'q' }],
  handler: async (input, ctx) => {
    // Object.assign, not object spread: on Node 20 spreading these objects made ~1.4 kB of each
    // call's garbage survive into the old generation (bench/README.md, "Garbage per call").
    const r = await searchParts(partsContext(ctx), Object.assign({}, input, { offset: decodeCursor(input.cursor) }));
    return {
      data: input.fields ? r.data.map((h) => pickFields(h, input.fields!)) : r.data,
      next_cursor: r.next_offset === null ? null : encodeCursor(r.next_offset),
      meta: Object.assign({}, r.meta, { total: r.total, returned: r.data.length, license: LICENSE, attribution: ATTRIBUTION }),
    };
  },
  text: (o) =>
    `${o.meta.total} match(es)${o.meta.q ? ` for "${o.meta.q}"` : ''}${o.meta.filters.length ? ` with ${o.meta.filters.length} filter(s) (${o.meta.filters.map((f) => `${f.field}: ${f.unknown_excluded} unknown in ${f.applies_to.join('/') || 'no category'}${f.near_misses.length ? `, near misses ${f.near_misses.map((n) => `${n.id} "${n.declared}"`).join(', ')}` : ''}`).join('; ')})` : ''}` +
    `${o.meta.quarantined_excluded ? `, ${o.meta.quarantined_excluded} quarantined excluded` : ''}; showing ${o.meta.returned}${o.next_cursor ? '; more with cursor' : ''}.` +
    `${o.meta.elsewhere?.length ? ` Elsewhere: ${o.meta.elsewhere.map((e) => `${e.count} via ${e.call.tool} ${JSON.stringify(e.call.arguments)} (${e.where})`).join('; ')}.` : ''}` +
    `${o.data.length && o.data[0]!.page_url === undefined && o.data[0]!.detail_url === undefined ? ` ${NO_LINKS_NOTE}` : ''}`,
});
