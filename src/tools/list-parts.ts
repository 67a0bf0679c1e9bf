import { z } from 'zod';
import { DeepEntity, SUMMARY_FIELDS } from '../domain/catalogue/entity.js';
import { invalidInput } from '../domain/shared/errors.js';
import { preparedDeepList, preparedSummaryList } from '../domain/catalogue/views.js';
import { listParts, LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, LIST_LIMIT_MAX_MCP } from '../domain/catalogue/parts.js';
import { requireAccount } from './access.js';
import { partsContext } from './context.js';
import { defineTool } from './define.js';
import { ApiKey, ATTRIBUTION, Category, Cursor, decodeCursor, encodeCursor, LICENSE, NextCursor, pickFields, recordsWithin, Summary } from './schemas.js';

const RECORD_FIELDS = Object.keys(DeepEntity.shape) as [keyof DeepEntity, ...(keyof DeepEntity)[]];

export const DEEP_LIST_COST = 1;
/** MCP: the most characters of records one page holds (within the 200,000-character answer budget with its envelope). */
export const MCP_PAGE_CHARS = 180_000;


const listRoute = (path: string, category: string) => ({
  method: 'GET' as const,
  path,
  fixed: { category },
  defaults: { limit: LIST_LIMIT_MAX },
  summary: `List of ${category}`,
});

export const listPartsTool = defineTool({
  name: 'list_parts',
  access: { key: 'optional', charged: true },
  errors: ['unknown_category'],
  title: 'List robot parts',
  description:
    'Catalogue entities, all or one category, id order, paged by cursor. Summary fields free; ' +
    `deep=true (API key, ${DEEP_LIST_COST} credit): full records.`,
  inputSchema: z.object({
    category: Category.optional(),
    deep: z.boolean().optional().describe(`Full records with paid fields; API key, ${DEEP_LIST_COST} credit per call`),
    include_quarantine: z.boolean().optional().describe('Include quarantined (default false)'),
    limit: z.number().int().min(1).optional().describe(`Entities per page, default ${LIST_LIMIT_DEFAULT}; above ${LIST_LIMIT_MAX_MCP} clamped (REST ${LIST_LIMIT_MAX})`),
    cursor: Cursor.optional(),
    api_key: ApiKey.optional(),
    fields: z
      .array(z.enum(RECORD_FIELDS))
      .min(1)
      .optional()
      .describe('Fields (id always; paid ones need deep=true); default all'),
  }),
  outputSchema: z.object({
    count: z.number().int(),
    // One record shape types every field: a deep record, a summary and a projection (fields) are
    // all partial deep records with an id (the full DeepEntity branch repeated 4,700 characters).
    data: z.array(z.union([DeepEntity.partial().extend({ id: z.string() }).strict(), Summary])),
    next_cursor: NextCursor,
    meta: z.object({
      category: z.string().nullable(),
      returned: z.number().int(),
      limit: z.number().int(),
      limit_clamped: z.boolean(),
      quarantined_excluded: z.number().int(),
      fields: z.enum(['summary', 'deep']),
      credits_charged: z.number().int(),
      credits_remaining: z.number().int().nullable(),
      license: z.string(),
      attribution: z.string(),
      dataset_version: z.string(),
    }),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  rest: [
    {
      method: 'GET',
      path: '/api/entities.json',
      defaults: { limit: LIST_LIMIT_MAX },
      // Spec: with a valid key, /api/entities.json returns deep fields (1 credit per call).
      prepare: (input, ctx) => (input.deep === undefined && (ctx.credentials.length > 0 || input.api_key) ? { ...input, deep: true } : input),
      summary: 'All categories; deep fields with a key',
    },
    listRoute('/api/actuators.json', 'actuators'),
    listRoute('/api/sensors.json', 'sensors'),
    listRoute('/api/chips.json', 'chips'),
    listRoute('/api/protocols.json', 'protocols'),
  ],
  handler: async (input, ctx) => {
    const offset = decodeCursor(input.cursor);
    const pick = input.fields;
    if (pick && !input.deep) {
      const paid = pick.filter((f) => !(SUMMARY_FIELDS as readonly string[]).includes(f));
      if (paid.length) throw invalidInput('fields', `${paid.join(', ')}: not a summary field; summary fields are ${SUMMARY_FIELDS.join(', ')} (the others need deep=true)`);
    }
    const build = async (deep: boolean) => {
      const r = await listParts(partsContext(ctx), { ...input, offset, maxLimit: ctx.surface === 'rest' ? LIST_LIMIT_MAX : LIST_LIMIT_MAX_MCP });
      const meta = await ctx.deps.catalogue.meta();
      let data = pick
        ? (deep ? preparedDeepList(r.items) : preparedSummaryList(r.items)).map((x) => pickFields(x as { id: string }, pick))
        : deep
          ? preparedDeepList(r.items)
          : preparedSummaryList(r.items);
      let nextOffset = r.next_offset;
      // MCP: a page ends before its records pass MCP_PAGE_CHARS (500 deep records were ~504,000 characters).
      const fit = ctx.surface === 'rest' ? data.length : recordsWithin(data, MCP_PAGE_CHARS);
      if (fit < data.length) {
        data = data.slice(0, fit);
        nextOffset = offset + fit;
      }
      return {
        count: r.total,
        data,
        next_cursor: nextOffset === null ? null : encodeCursor(nextOffset),
        meta: {
          category: r.category,
          returned: data.length,
          limit: r.limit,
          limit_clamped: r.limit_clamped || fit < r.items.length,
          quarantined_excluded: r.quarantined_excluded,
          fields: deep ? ('deep' as const) : ('summary' as const),
          credits_charged: 0,
          credits_remaining: null as number | null,
          license: LICENSE,
          attribution: ATTRIBUTION,
          dataset_version: meta.dataset_version,
        },
      };
    };
    if (!input.deep) return build(false);
    const { account } = await requireAccount(ctx, input);
    const charged = await ctx.deps.accounts.charge({
      account,
      cost: DEEP_LIST_COST,
      reason: 'entities.deep',
      // Every argument that changes the answer (the key only picks the account): a reused Idempotency-Key with other fields is a conflict, never the first body.
      reference: `list_parts:${input.category ?? '*'}:${input.include_quarantine ? 'q' : ''}:${offset}:${input.limit ?? ''}:${pick ? pick.join(',') : '*'}`,
      idempotencyKey: ctx.idempotencyKey,
      run: () => build(true),
    });
    ctx.setHeader('X-Credits-Remaining', String(charged.credits_remaining));
    ctx.setHeader('X-API-Tier', 'credits');
    if (charged.replayed) ctx.setHeader('Idempotent-Replayed', 'true');
    // A replay answers with the first call's body, billing included (headers carry the live balance).
    return { ...charged.result, meta: { ...charged.result.meta, credits_charged: charged.reported.charged, credits_remaining: charged.reported.credits_remaining } };
  },
  text: (o) =>
    `${o.count} entities${o.meta.category ? ` in ${o.meta.category}` : ''}; showing ${o.meta.returned} (${o.meta.fields} fields).` +
    (o.meta.credits_charged ? ` Charged ${o.meta.credits_charged} credit; ${o.meta.credits_remaining} left.` : '') +
    (o.next_cursor ? ` More: cursor=${o.next_cursor}` : ''),
});
