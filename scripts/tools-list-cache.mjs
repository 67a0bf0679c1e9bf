// Run by `npm run build` after tsc and the bundle (scripts/bundle.mjs): writes dist/mcp/tools-list.json, the tools/list entries of the
// shipped registry converted from the built definitions (see src/mcp/tools-list-cache.ts).
import fs from 'node:fs';

const { toolListEntry } = await import('../dist/server.js');
const { TOOLS } = await import('../dist/tools/index.js');
const { TOOLS_LIST_CACHE, registryStamp } = await import('../dist/mcp/tools-list-cache.js');
// The stamp: the content (SHA-256) of the compiled registry module and of every module it imports
// statically; a compile with other content changes it, an install (new file times) does not.
fs.writeFileSync(TOOLS_LIST_CACHE, `${JSON.stringify({ registry: registryStamp(), tools: TOOLS.map(toolListEntry) })}\n`);
