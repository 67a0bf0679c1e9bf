import { z } from 'zod';
import { searchParts, SEARCH_LIMIT_MAX, SEARCH_MAX_TERMS, SEARCH_Q_MAX_CHARS } from '../domain/parts.js';
import { SEARCH_FIELDS } from '../domain/search.js';
import { partsContext } from './context.js';
import { defineTool, READ_ONLY } from './define.js';
import { ATTRIBUTION, Category, Cursor, decodeCursor, encodeCursor, LICENSE, NextCursor, Summary } from './schemas.js';

const Hit = Summary.extend({
  relevance_score: z.number().describe('Sum over terms of the weight of the best field matched'),
  matched_fields: z.array(z.enum(SEARCH_FIELDS)),
  detail_url: z.string(),
});

export const searchPartsTool = defineTool({
  name: 'search_parts',
  title: 'Search robot parts',
  description:
    'Keyword search over the robot-parts catalogue (actuators, sensors, chips, protocols, models, platforms, ...). ' +
    'All space-separated terms must match (AND); a term matches a word or the start of a word, case-insensitively; no fuzzy or semantic matching. ' +
    'Ranked by the field matched: id > name > manufacturer > type > application/interface > description. ' +
    'Returns free-tier summary fields; quarantined (suspicious) entries are excluded unless include_quarantine is true. Use get_part for one full record.',
  inputSchema: z.object({
    q: z
      .string()
      .describe(`Space-separated literal terms, e.g. "dynamixel xm540" or "can joint_motor" (at most ${SEARCH_Q_MAX_CHARS} characters and ${SEARCH_MAX_TERMS} distinct terms)`),
    category: Category.optional(),
    limit: z.number().int().min(1).optional().describe(`Hits per page, default 20; values above ${SEARCH_LIMIT_MAX} are clamped to ${SEARCH_LIMIT_MAX}`),
    include_quarantine: z.boolean().optional().describe('Include quarantined entries (default false)'),
    cursor: Cursor.optional(),
  }),
  outputSchema: z.object({
    data: z.array(Hit),
    next_cursor: NextCursor,
    meta: z.object({
      q: z.string(),
      terms: z.array(z.string()),
      category: z.string().nullable(),
      total: z.number().int(),
      returned: z.number().int(),
      limit: z.number().int(),
      limit_clamped: z.boolean(),
      quarantined_excluded: z.number().int().describe('Matching entries left out because they are quarantined'),
      include_quarantine: z.boolean(),
      license: z.string(),
      attribution: z.string(),
    }),
  }),
  annotations: READ_ONLY,
  rest: [{ method: 'GET', path: '/api/search', summary: 'Keyword search' }],
  handler: async (input, ctx) => {
    const r = await searchParts(partsContext(ctx), { ...input, offset: decodeCursor(input.cursor) });
    return {
      data: r.data,
      next_cursor: r.next_offset === null ? null : encodeCursor(r.next_offset),
      meta: { ...r.meta, total: r.total, returned: r.data.length, license: LICENSE, attribution: ATTRIBUTION },
    };
  },
  text: (o) =>
    o.data.length === 0
      ? `No match for "${o.meta.q}" (${o.meta.quarantined_excluded} quarantined excluded).`
      : `${o.meta.total} match(es) for "${o.meta.q}"${o.meta.quarantined_excluded ? `, ${o.meta.quarantined_excluded} quarantined excluded` : ''}:\n` +
        o.data.map((h) => `- ${h.id}: ${h.name}${h.manufacturer ? ` (${h.manufacturer})` : ''} [${h.category}] score ${h.relevance_score}`).join('\n') +
        (o.next_cursor ? `\nMore: cursor=${o.next_cursor}` : ''),
});
