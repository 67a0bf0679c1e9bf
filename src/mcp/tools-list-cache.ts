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
/** The compiled registry module the entries were converted from (its size and mtime are stamped in the file). */
export const TOOLS_REGISTRY_MODULE = new URL('../tools/index.js', import.meta.url);

/** What the build stamps into the file: the registry module as it was when the entries were written. */
export function registryStamp(module: URL | string = TOOLS_REGISTRY_MODULE): { size: number; mtime_ms: number } | null {
  try {
    const st = fs.statSync(module);
    return { size: st.size, mtime_ms: st.mtimeMs };
  } catch {
    return null;
  }
}

interface CacheFile {
  tools?: Tool[];
  registry?: { size?: unknown; mtime_ms?: unknown };
}

/** The shipped file, read and parsed at most once per process (both readers below use it). */
let shipped: CacheFile | null | undefined;

/** The parsed file, or null when it cannot be read or parsed. */
function readCacheFile(file: URL | string): CacheFile | null {
  if (file === TOOLS_LIST_CACHE && shipped !== undefined) return shipped;
  let doc: CacheFile | null;
  try {
    doc = JSON.parse(fs.readFileSync(file, 'utf8')) as CacheFile;
  } catch {
    doc = null;
  }
  if (file === TOOLS_LIST_CACHE) shipped = doc;
  return doc;
}

/**
 * The prebuilt entries without importing the registry (stdio's handshake): only when the file's
 * stamp matches the compiled registry module as it is now, so a registry compiled again without
 * rewriting the file (a bare tsc) is never described by an older file. Null otherwise; the caller
 * then imports the registry and converts it.
 */
export function prebuiltToolList(file: URL | string = TOOLS_LIST_CACHE, module: URL | string = TOOLS_REGISTRY_MODULE): Tool[] | null {
  const doc = readCacheFile(file);
  if (!doc || !Array.isArray(doc.tools)) return null;
  const now = registryStamp(module);
  return now && doc.registry?.size === now.size && doc.registry?.mtime_ms === now.mtime_ms ? doc.tools : null;
}

/** The prebuilt entries when the file lists exactly these tools in this order, else null. */
export function prebuiltToolEntries(names: readonly string[], file: URL | string = TOOLS_LIST_CACHE): Tool[] | null {
  const tools = readCacheFile(file)?.tools;
  if (!Array.isArray(tools) || tools.length !== names.length || tools.some((t, i) => t?.name !== names[i])) return null;
  return tools;
}
