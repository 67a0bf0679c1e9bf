import { z } from 'zod';
import { findWhereUsed } from '../domain/oss/where-used-query.js';
import { NO_LINKS_NOTE } from '../domain/shared/page-urls.js';
import { partsContext } from './context.js';
import { defineTool, READ_ONLY } from './define.js';
import { ElsewhereSchema, PageUrl } from './schemas.js';

const PriceOut = z
  .object({
    column: z.string(),
    as_written: z.string(),
    currency: z.string().nullable().describe('ISO 4217 when certain, else null'),
    amount: z.string().nullable().describe('Plain decimal; else null'),
    symbol: z.string().nullable(),
    product_of: z.object({ amount: z.string(), factor: z.string() }).strict().nullable().describe('Factors of a cell like "¥10.8*4"'),
    basis_evidence: z.string().nullable(),
  })
  .strict();

const ManufacturerOut = z.object({ name: z.string(), evidence: z.string() }).strict();

export const WhereUsedOutput = z.object({
  query: z.object({ q: z.string().nullable(), terms: z.array(z.string()), model_codes: z.array(z.string()) }).strict(),
  entity: z
    .object({ id: z.string(), name: z.string(), manufacturer: z.string().nullable(), oss: z.boolean() })
    .strict()
    .nullable(),
  robots: z.array(
    z
      .object({
        robot: z.string(),
        page_url: PageUrl,
        sources: z.array(z.string()),
        bom_lines: z.array(
          z
            .object({
              record_id: z.string(),
              source_id: z.string(),
              source_url: z.string(),
              license: z.string(),
              line: z.number().int(),
              section: z.string().nullable(),
              item: z.string(),
              item_as_written: z.string().nullable(),
              quantity: z.number().int().nullable().describe('Per line, never added up'),
              quantity_as_written: z.string().nullable(),
              quantity_source: z.enum(['column', 'item_prefix']).nullable(),
              unit_prices: z.array(PriceOut),
              line_totals: z.array(PriceOut),
              matched_fields: z.array(z.string()),
              manufacturer: ManufacturerOut.nullable().describe('Only with evidence in the row'),
            })
            .strict(),
        ),
        urdf_mentions: z.array(
          z
            .object({
              source_id: z.string(),
              source_url: z.string(),
              license: z.string(),
              kind: z.enum(['mesh', 'material']),
              name: z.string(),
              links: z.array(z.string()),
            })
            .strict(),
        ),
      })
      .strict(),
  ),
  counts: z.object({ robots: z.number().int(), bom_lines: z.number().int(), urdf_mentions: z.number().int() }).strict(),
  manufacturers: z.array(z.object({ name: z.string(), evidence: z.array(z.string()) }).strict()),
  notes: z.array(z.string()),
  elsewhere: ElsewhereSchema.optional(),
});

export const findWhereUsedTool = defineTool({
  name: 'find_where_used',
  errors: ['not_found'],
  title: 'Which open-source robots use a part',
  description:
    'Open-source robots using a part (BOM lines, URDF mesh names; by name, model number), how many, at what stated price. ' +
    'A company matches its other names, families. Per line as written, never summed. No hit: elsewhere.',
  inputSchema: z.object({
    q: z.string().max(200).optional().describe('Name or model number, e.g. "STS3215"'),
    id: z.string().max(200).optional().describe('Or a catalogue or OSS-LIVE id'),
  }),
  outputSchema: WhereUsedOutput,
  annotations: READ_ONLY,
  rest: [{ method: 'GET', path: '/api/where-used', summary: 'Which open-source robots use a part (q or id)' }],
  handler: async ({ q, id }, ctx) => findWhereUsed(partsContext(ctx), ctx.deps.ossLayer, { q, id }),
  text: (o) =>
    `${o.counts.robots === 0 ? 'No open-source robot uses' : `Used in ${o.counts.robots} open-source robot(s):`} ${o.entity ? o.entity.id : `"${o.query.q ?? ''}"`}` +
    `${o.counts.robots > 0 ? ` (${o.counts.bom_lines} BOM line(s), ${o.counts.urdf_mentions} URDF mention(s)): ${o.robots.slice(0, 5).map((r) => r.robot).join(', ')}${o.robots.length > 5 ? ', ...' : ''}` : ''}.${o.robots.length && o.robots[0]!.page_url === undefined ? ` ${NO_LINKS_NOTE}` : ''}`,
});
