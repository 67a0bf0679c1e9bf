import { z } from 'zod';
import { findWhereUsed } from '../domain/oss/where-used-query.js';
import { partsContext } from './context.js';
import { defineTool, READ_ONLY } from './define.js';
import { ElsewhereSchema } from './schemas.js';

const PriceOut = z
  .object({
    column: z.string().describe('Column header as written'),
    as_written: z.string(),
    currency: z.string().nullable().describe('ISO 4217 when the header and cell name exactly one; else null'),
    amount: z.string().nullable().describe('Plain decimal; null when the cell is not a plain amount'),
    symbol: z.string().nullable(),
    product_of: z.object({ amount: z.string(), factor: z.string() }).strict().nullable().describe('A cell written as a product ("¥10.8*4"): its factors'),
    basis_evidence: z.string().nullable().describe('Why a price is read as a line total when its header does not say so'),
  })
  .strict();

const ManufacturerOut = z.object({ name: z.string(), evidence: z.string() }).strict();

export const WhereUsedOutput = z.object({
  query: z.object({ q: z.string().nullable(), terms: z.array(z.string()), model_codes: z.array(z.string()) }).strict(),
  entity: z
    .object({ id: z.string(), name: z.string(), manufacturer: z.string().nullable(), oss: z.boolean() })
    .strict()
    .nullable()
    .describe('The part looked up by id, when id was given'),
  robots: z.array(
    z
      .object({
        robot: z.string(),
        sources: z.array(z.string()).describe('Layer source ids (meta.sources of the oss-layer dataset)'),
        bom_lines: z.array(
          z
            .object({
              record_id: z.string().describe('OSS-LIVE id of the BOM line (get_part resolves it)'),
              source_id: z.string(),
              source_url: z.string(),
              license: z.string(),
              line: z.number().int(),
              section: z.string().nullable(),
              item: z.string(),
              item_as_written: z.string().nullable(),
              quantity: z.number().int().nullable().describe('As the line states it; lines are not added up'),
              quantity_as_written: z.string().nullable(),
              quantity_source: z.enum(['column', 'item_prefix']).nullable(),
              unit_prices: z.array(PriceOut),
              line_totals: z.array(PriceOut),
              matched_fields: z.array(z.string()).describe('Fields of the line that matched: item, part_number, manufacturer, manufacturer_part, supplier_part, link_label, link_url'),
              manufacturer: ManufacturerOut.nullable().describe('Named only with evidence from the row (its manufacturer column, a known manufacturer name in its text, a vendor link on the manufacturer\'s own site); null otherwise'),
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
              links: z.array(z.string()).describe('URDF links that draw it (not a stated quantity)'),
            })
            .strict(),
        ),
      })
      .strict(),
  ),
  counts: z.object({ robots: z.number().int(), bom_lines: z.number().int(), urdf_mentions: z.number().int() }).strict(),
  manufacturers: z.array(z.object({ name: z.string(), evidence: z.array(z.string()) }).strict()).describe('Manufacturers named by matching lines, each with its evidence'),
  notes: z.array(z.string()),
  elsewhere: ElsewhereSchema.optional(),
});

export const findWhereUsedTool = defineTool({
  name: 'find_where_used',
  errors: ['not_found'],
  title: 'Which open-source robots use a part',
  description:
    'Answers which robots of the open-source layer use a part, how many and at what stated price: matches BOM lines (item, part numbers, manufacturer column, link labels and URLs) and URDF mesh and material names by name and model number. ' +
    'Give q (a name or model number, e.g. "STS3215", "DM 4340P", "Dynamixel XL430") or id (a catalogue id, matched by the model number in its name, or an OSS-LIVE id). ' +
    'A company name also matches its other names and families (Feetech: STS). ' +
    'Quantities and prices are per line as written (never converted or added up); a manufacturer is named only with evidence from the row itself. No hit: elsewhere gives the calls that find the name elsewhere.',
  inputSchema: z.object({
    q: z.string().max(200).optional().describe('Part name or model number to look for, e.g. "STS3215" or "DM 4340P"; literal, case-insensitive'),
    id: z.string().max(200).optional().describe('A part id instead of q: a catalogue id (e.g. "CHIP-007") or an open-source-layer id (OSS-LIVE-...)'),
  }),
  outputSchema: WhereUsedOutput,
  annotations: READ_ONLY,
  rest: [{ method: 'GET', path: '/api/where-used', summary: 'Which open-source robots use a part (q or id)' }],
  handler: async ({ q, id }, ctx) => findWhereUsed(partsContext(ctx), ctx.deps.ossLayer, { q, id }),
});
