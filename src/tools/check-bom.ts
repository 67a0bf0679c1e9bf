import { BomCheckAnswer, BomCheckRequest, BomCheckResult, catalogueIds, pageBomCheck, parseBomCheckRequest, validateCustomItems } from '../domain/bom/index.js';
import { POOL_MIN_BOM_ITEMS } from '../jobs/types.js';
import { jobCaller } from './run.js';
import { partsContext } from './context.js';
import { defineTool, READ_ONLY } from './define.js';

export const checkBomTool = defineTool({
  name: 'check_bom',
  title: 'Check a BOM for conflicts',
  description:
    'Problems across parts (catalogue ids, or yours as custom): no host, voltages no rail covers, no common bus or a bridge needed, ' +
    'flanges needing plates, quarantine, red lines, what data cannot settle (unknown, never fine). ' +
    'finding_groups: counts per rule; findings paged (next_cursor). Free; ≤500 items.',
  inputSchema: BomCheckRequest,
  outputSchema: BomCheckAnswer,
  annotations: READ_ONLY,
  rest: [{ method: 'POST', path: '/api/bom/check', summary: 'Compatibility problems across a BOM' }],
  handler: async (input, ctx) => {
    const req = parseBomCheckRequest(input);
    validateCustomItems(req.items, ctx.deps.knowledge);
    const records = await ctx.deps.catalogue.getMany(catalogueIds(req.items));
    // Large checks in the worker pool (src/jobs/jobs.ts runs the same checkBom there).
    const inline = req.items.length < POOL_MIN_BOM_ITEMS;
    const result = (await ctx.deps.jobs.run('check_bom', { items: req.items, records, baseUrl: partsContext(ctx).baseUrl }, { label: 'check_bom', inline, ...(inline ? {} : jobCaller(ctx)) })) as BomCheckResult;
    // Within the answer budget by design: findings grouped per rule, one page of them (src/domain/bom/check-page.ts).
    return pageBomCheck(result, req.cursor);
  },
  text: (o) => {
    const s = o.summary;
    const verdict = s.errors > 0 ? `${s.errors} error(s)` : s.warnings > 0 ? 'No errors' : 'No errors or warnings';
    return (
      `${verdict}, ${s.warnings} warning(s), ${s.infos} info(s) over ${o.parts.length} line(s)` +
      `${o.finding_groups.length ? `: ${o.finding_groups.map((g) => `${g.kind} ${g.dimension} ×${g.findings} (${g.parts} parts)`).join(', ')}` : ''}` +
      `; ${o.pages} page(s) of findings${o.next_cursor !== null ? `, next_cursor=${o.next_cursor}` : ''}.`
    );
  },
});
