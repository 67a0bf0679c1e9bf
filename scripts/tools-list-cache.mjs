// Run by `npm run build` after tsc: writes dist/mcp/tools-list.json, the tools/list entries of the
// shipped registry converted from the built definitions (see src/mcp/tools-list-cache.ts).
import fs from 'node:fs';

const { toolListEntry } = await import('../dist/server.js');
const { TOOLS } = await import('../dist/tools/index.js');
const { TOOLS_LIST_CACHE } = await import('../dist/mcp/tools-list-cache.js');
fs.writeFileSync(TOOLS_LIST_CACHE, `${JSON.stringify({ tools: TOOLS.map(toolListEntry) })}\n`);
