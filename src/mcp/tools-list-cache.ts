/**
 * The tools/list entries of the shipped tool registry, converted at build time: `npm run build`
 * runs scripts/tools-list-cache.mjs after tsc, which writes dist/mcp/tools-list.json from the
 * built definitions. Loading it spares every process converting each tool's zod schemas to JSON
 * Schema (about 35 ms, a tenth of a stdio cold start). When the file is absent (tests run from
 * src, a bare tsc) or names other tools, null is returned and the entries are converted as before.
 * test/spine/tools-list-cache.test.ts checks the built file equals a fresh conversion.
 */
import fs from 'node:fs';
import type { Tool } from '@modelcontextprotocol/server';

export const TOOLS_LIST_CACHE = new URL('./tools-list.json', import.meta.url);

/** The prebuilt entries when the file lists exactly these tools in this order, else null. */
export function prebuiltToolEntries(names: readonly string[], file: URL | string = TOOLS_LIST_CACHE): Tool[] | null {
  let doc: { tools?: Tool[] };
  try {
    doc = JSON.parse(fs.readFileSync(file, 'utf8')) as { tools?: Tool[] };
  } catch {
    return null;
  }
  const tools = doc.tools;
  if (!Array.isArray(tools) || tools.length !== names.length || tools.some((t, i) => t?.name !== names[i])) return null;
  return tools;
}
