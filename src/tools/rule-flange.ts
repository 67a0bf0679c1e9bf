import { z } from 'zod';
import { FlangeRuling, ruleFlange } from '../domain/knowledge/flange.js';
import { platePointer, PlatePointer } from '../domain/plates/index.js';
import { partsContext } from './context.js';
import { defineTool, READ_ONLY } from './define.js';

const Designation = z.string().min(1).max(100);

export const ruleFlangeTool = defineTool({
  name: 'rule_flange',
  title: 'Rule on two ISO 9409-1 flanges',
  description:
    'Whether two ISO 9409-1 flanges bolt together: identity, direct, or adapter_required with blocking dimensions. ' +
    'Geometry from the registry, never the label: unregistered is unknown.',
  inputSchema: z.object({
    a: Designation.describe('First flange designation, e.g. "ISO9409-1-A50-4-M6"'),
    b: Designation.describe('Second flange designation'),
  }),
  outputSchema: z.object({
    ruling: FlangeRuling,
    adapter_plate: PlatePointer.nullable(),
    registered_designations: z.array(z.string()),
    meta: z.object({ license: z.string(), attribution: z.string() }),
  }),
  annotations: READ_ONLY,
  rest: [{ method: 'GET', path: '/api/flange/rule', summary: 'Ruling for two flange designations' }],
  handler: async ({ a, b }, ctx) => {
    const reg = ctx.deps.knowledge.flanges;
    const ruling = ruleFlange(reg, a, b);
    return {
      ruling,
      adapter_plate: ruling.verdict === 'adapter_required' ? platePointer(partsContext(ctx).baseUrl, ruling.pair[0], ruling.pair[1]) : null,
      registered_designations: reg.designations.map((d) => d.designation),
      meta: { license: reg.meta.license, attribution: reg.meta.attribution },
    };
  },
  text: (o) => `${o.ruling.verdict}: ${o.ruling.reason}`,
});
