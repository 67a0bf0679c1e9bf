/**
 * The tools/list entries of the shipped tool registry, converted at build time: `npm run build`
 * runs scripts/tools-list-cache.mjs after tsc, which writes dist/mcp/tools-list.json from the
 * built definitions. Loading it spares every process converting each tool's zod schemas to JSON
 * Schema (about 35 ms, a tenth of a stdio cold start). When the file is absent (tests run from
 * src, a bare tsc) or names other tools, null is returned and the entries are converted as before.
 * test/spine/tools-list-cache.test.ts checks the built file equals a fresh conversion.
 *
 * The file is stamped with the content (a SHA-256) of the compiled registry module and of every
 * module it imports statically (in the built package: the bundle's entry file for the registry and
 * the chunks it imports, scripts/bundle.mjs), never with file times: an installed tarball (whose files get new
 * times on install) uses the prebuilt list, and a registry compiled again with other content
 * (a bare tsc after an edit) is never described by an older file.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Tool } from '@modelcontextprotocol/server';
import { hashContents, moduleStamp, toPath, type ModuleStamp } from '../store/module-stamp.js';

export const TOOLS_LIST_CACHE = new URL('./tools-list.json', import.meta.url);
/** The compiled registry module the entries were converted from (its import closure's content is hashed into the file). */
export const TOOLS_REGISTRY_MODULE = new URL('../tools/index.js', import.meta.url);

/** What the build stamps into the file: the registry's static import closure and a hash of its content (src/store/module-stamp.ts). */
export type RegistryStamp = ModuleStamp;

/**
 * The stamp of the registry module as it is now (build time): every module reachable from it by
 * relative static imports, and the hash of their bytes. Null when the module cannot be read.
 */
export function registryStamp(module: URL | string = TOOLS_REGISTRY_MODULE): RegistryStamp | null {
  return moduleStamp([module]);
}

interface CacheFile {
  tools?: Tool[];
  registry?: { files?: unknown; sha256?: unknown };
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

/** A cache file's tools and stamp when they are well formed: the stamped modules, their folder, the hash. */
interface Stamped {
  tools: Tool[];
  dir: string;
  files: string[];
  sha256: string;
}

function stamped(file: URL | string, module: URL | string): Stamped | null {
  const doc = readCacheFile(file);
  if (!doc || !Array.isArray(doc.tools)) return null;
  const stamp = doc.registry;
  if (!stamp || typeof stamp.sha256 !== 'string' || !Array.isArray(stamp.files) || stamp.files.length === 0) return null;
  const files = stamp.files as unknown[];
  // Only paths inside the registry's folder tree of dist (relative, as the build writes them).
  if (!files.every((f): f is string => typeof f === 'string' && !path.isAbsolute(f))) return null;
  if (!files.includes(path.basename(toPath(module)))) return null;
  return { tools: doc.tools, dir: path.dirname(path.resolve(toPath(module))), files, sha256: stamp.sha256 };
}

/**
 * The prebuilt entries without importing the registry (stdio's handshake): only when the modules
 * stamped in the file still hash to the stamped value (their content, not their times), so a
 * registry compiled again with other content is never described by an older file. If every
 * stamped module has the same bytes, their imports are the same too, so the closure is the same.
 * Null otherwise; the caller then imports the registry and converts it. The stamped modules are
 * read concurrently on libuv's thread pool, off the main thread.
 */
export async function prebuiltToolList(file: URL | string = TOOLS_LIST_CACHE, module: URL | string = TOOLS_REGISTRY_MODULE): Promise<Tool[] | null> {
  const s = stamped(file, module);
  if (s === null) return null;
  let contents: Buffer[];
  try {
    contents = await Promise.all(s.files.map((f) => fs.promises.readFile(path.join(s.dir, f))));
  } catch {
    return null;
  }
  return hashContents(s.files, contents) === s.sha256 ? s.tools : null;
}

/** The shipped file's check, started at most once per process (see prebuiltToolListSoon). */
let shippedCheck: Promise<Tool[] | null> | undefined;

/**
 * prebuiltToolList for the shipped file, started once and kept. A stdio server calls it as it
 * starts, so the ~130 reads overlap its own module loading instead of delaying the handshake's
 * tools/list (issue 47: read when asked, they cost the list 300-800 ms on a loaded 2-core host).
 */
export function prebuiltToolListSoon(): Promise<Tool[] | null> {
  return (shippedCheck ??= prebuiltToolList());
}

/** The prebuilt entries when the file lists exactly these tools in this order, else null. */
export function prebuiltToolEntries(names: readonly string[], file: URL | string = TOOLS_LIST_CACHE): Tool[] | null {
  const tools = readCacheFile(file)?.tools;
  if (!Array.isArray(tools) || tools.length !== names.length || tools.some((t, i) => t?.name !== names[i])) return null;
  return tools;
}
