/**
 * A content stamp of compiled modules: every module reachable from the entry modules by relative
 * static imports (`from './x.js'`, `import '../y.js'`), and a SHA-256 over their paths and bytes.
 * Two builds whose stamped modules have the same bytes have the same imports too, so the same
 * closure: what the stamp was made from is what would run. Used by what a build or an earlier
 * start prepared for a later process (the prebuilt tools/list, a large catalogue's prepared start)
 * to tell whether the code it was made by is the code running now (content, never file times:
 * `npm install` gives every file a new time).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ModuleStamp {
  /** The modules, relative to `dir` ('/'-separated), sorted. */
  files: string[];
  /** SHA-256 (hex) over each module's relative path, length and bytes, in that order. */
  sha256: string;
}

export const toPath = (p: URL | string): string => (typeof p === 'string' ? p : fileURLToPath(p));

const STATIC_IMPORT = /\b(?:from|import)\s*['"](\.\.?\/[^'"]+)['"]/g;

/** SHA-256 (hex) over each module's relative path, length and bytes, in the order listed. */
export function hashContents(files: readonly string[], contents: readonly Uint8Array[]): string {
  const h = createHash('sha256');
  files.forEach((f, i) => {
    h.update(`${f}\0${contents[i]!.length}\0`);
    h.update(contents[i]!);
  });
  return h.digest('hex');
}

/**
 * The stamp of the entry modules' static import closure as the files are now, paths relative to
 * `dir` (default: the first entry's folder). Null when a module cannot be read.
 */
export function moduleStamp(entries: readonly (URL | string)[], dir?: string): ModuleStamp | null {
  const abs = entries.map((e) => path.resolve(toPath(e)));
  const base = dir ?? path.dirname(abs[0]!);
  // Each module read once: its imports found in the bytes that are hashed. Scanned as Latin-1 (a
  // byte a character: the bundle's modules are ASCII, and decoding them as UTF-8 was most of the
  // ~20 ms this took at a start that prepares a catalogue); a specifier with other bytes is decoded
  // from its own bytes as UTF-8.
  const bytes = new Map<string, Buffer>();
  const todo = [...abs];
  try {
    while (todo.length > 0) {
      const file = todo.pop()!;
      if (bytes.has(file)) continue;
      const buf = fs.readFileSync(file);
      bytes.set(file, buf);
      for (const m of buf.toString('latin1').matchAll(STATIC_IMPORT)) {
        const spec = /[^\x00-\x7f]/.test(m[1]!) ? Buffer.from(m[1]!, 'latin1').toString('utf8') : m[1]!;
        const dep = path.resolve(path.dirname(file), spec);
        if (!bytes.has(dep) && fs.existsSync(dep)) todo.push(dep);
      }
    }
  } catch {
    return null;
  }
  const modules = [...bytes].map(([f, b]) => ({ rel: path.relative(base, f).split(path.sep).join('/'), b }));
  modules.sort((x, y) => (x.rel < y.rel ? -1 : x.rel > y.rel ? 1 : 0));
  const files = modules.map((m) => m.rel);
  return { files, sha256: hashContents(files, modules.map((m) => m.b)) };
}
