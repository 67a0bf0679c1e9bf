import { BomCheckRequest, BomCheckResult, catalogueIds, parseBomCheckRequest, validateCustomItems } from '../domain/bom/index.js';
import { POOL_MIN_BOM_ITEMS } from '../jobs/types.js';
import { partsContext } from './context.js';
import { defineTool, READ_ONLY } from './define.js';

export const checkBomTool = defineTool({
  name: 'check_bom',
  title: 'Check a BOM for conflicts',
  description:
    'Problems across a set of parts (catalogue ids, or yours as custom): no host, voltages no single rail covers, no common bus or a bridge needed, ' +
    'flanges needing adapter plates, quarantined parts, red-line marks, and what the data cannot settle (unknown, never fine). ' +
    'Findings name parts, severity and evidence; connections says what works. Free; at most 500 items.',
  inputSchema: BomCheckRequest,
  outputSchema: BomCheckResult,
  annotations: READ_ONLY,
  rest: [{ method: 'POST', path: '/api/bom/check', summary: 'Compatibility problems across a BOM' }],
  handler: async (input, ctx) => {
    const req = parseBomCheckRequest(input);
    validateCustomItems(req.items, ctx.deps.knowledge);
    const records = await ctx.deps.catalogue.getMany(catalogueIds(req.items));
    // Large checks in the worker pool (src/jobs/jobs.ts runs the same checkBom there).
    return (await ctx.deps.jobs.run('check_bom', { items: req.items, records, baseUrl: partsContext(ctx).baseUrl }, { label: 'check_bom', inline: req.items.length < POOL_MIN_BOM_ITEMS })) as BomCheckResult;
  },
});
