import { bomCheckEngines, BomCheckRequest, BomCheckResult, checkBom, parseBomCheckRequest, recordLookup, toCheckParts } from '../domain/bom/index.js';
import { defineTool, READ_ONLY } from './define.js';

export const checkBomTool = defineTool({
  name: 'check_bom',
  title: 'Check a BOM for conflicts',
  description:
    'Problems across a list of parts (catalogue ids with quantities): supply voltages no single rail covers, parts with no common bus or needing a bridge, ' +
    'flanges needing adapter plates, quarantined parts, red-line marks, and dimensions the data cannot settle (listed as unknown, never as fine). ' +
    'Each finding names the parts, the dimension, the severity and the evidence; connections states what works (each device\'s bus or bridge to its host, the supply rails). Free; at most 500 items.',
  inputSchema: BomCheckRequest,
  outputSchema: BomCheckResult,
  annotations: READ_ONLY,
  rest: [{ method: 'POST', path: '/api/bom/check', summary: 'Compatibility problems across a BOM' }],
  handler: async (input, ctx) => {
    const req = parseBomCheckRequest(input);
    const records = await ctx.deps.catalogue.getMany([...new Set(req.items.map((i) => i.id))]);
    return checkBom(toCheckParts(req.items, recordLookup(records)), bomCheckEngines(ctx.deps.knowledge));
  },
});
