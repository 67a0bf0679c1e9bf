/** Every tool, in the order tools/list shows them. One loop registers them on MCP; the REST table derives from them. */
import type { AnyTool } from './define.js';
import { getCatalogueStatsTool } from './get-catalogue-stats.js';
import { getPartTool } from './get-part.js';
import { listPartsTool } from './list-parts.js';
import { searchPartsTool } from './search-parts.js';

export const TOOLS: readonly AnyTool[] = [searchPartsTool, getPartTool, listPartsTool, getCatalogueStatsTool];
