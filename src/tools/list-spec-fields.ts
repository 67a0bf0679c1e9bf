import { z } from 'zod';
import { specFields } from '../domain/specs/service.js';
import { partsContext } from './context.js';
import { defineTool, READ_ONLY } from './define.js';
import { ATTRIBUTION, Category, LICENSE } from './schemas.js';

const Facet = z
  .object({
    name: z.string(),
    kind: z.enum(['number', 'range', 'set', 'code']),
    quantity: z.string(),
    unit: z.string().nullable(),
    ops: z.array(z.string()),
    units: z.array(z.string()),
    description: z.string(),
    example_value: z.string(),
    declared: z.number().int(),
    read: z.number().int().describe('Read exactly (filterable)'),
    by_category: z.record(z.string(), z.number().int()),
    min: z.number().nullable(),
    max: z.number().nullable(),
    values: z.array(z.object({ value: z.string(), count: z.number().int() })).nullable(),
    example_notation: z.string().nullable(),
  })
  .strict();

export const listSpecFieldsTool = defineTool({
  name: 'list_spec_fields',
  errors: ['unknown_category'],
  title: 'List filterable spec fields',
  description:
    'Spec fields search_parts filters and sorts on: quantity, SI unit, ops, units, counts declared and read (per category), min, max, set values, an example. ' +
    'Quarantined not counted.',
  inputSchema: z.object({ category: Category.optional() }),
  outputSchema: z.object({
    category: z.string().nullable(),
    records: z.number().int(),
    fields: z.array(Facet),
    meta: z.object({ license: z.string(), attribution: z.string() }),
  }),
  annotations: READ_ONLY,
  // A function of the catalogue snapshot (and category): the pages ask it on every search view.
  cacheable: true,
  rest: [{ method: 'GET', path: '/api/spec_fields', summary: 'Filterable spec fields with counts, ranges and values' }],
  handler: async ({ category }, ctx) => ({ ...(await specFields(partsContext(ctx), category)), meta: { license: LICENSE, attribution: ATTRIBUTION } }),
  text: (o) => `${o.fields.length} spec fields over ${o.records} records${o.category ? ` in ${o.category}` : ''}: ${o.fields.map((f) => `${f.name} ${f.read}`).join(', ')}.`,
});
