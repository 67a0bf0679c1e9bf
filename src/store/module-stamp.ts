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

/** The hash of the listed modules (relative to `dir`), or null when one cannot be read. */
export function hashFiles(dir: string, files: readonly string[]): string | null {
  let contents: Buffer[];
  try {
    contents = files.map((f) => fs.readFileSync(path.join(dir, f)));
  } catch {
    return null;
  }
  return hashContents(files, contents);
}

/**
 * The stamp of the entry modules' static import closure as the files are now, paths relative to
 * `dir` (default: the first entry's folder). Null when a module cannot be read.
 */
export function moduleStamp(entries: readonly (URL | string)[], dir?: string): ModuleStamp | null {
  const abs = entries.map((e) => path.resolve(toPath(e)));
  const base = dir ?? path.dirname(abs[0]!);
  const seen = new Set<string>();
  const todo = [...abs];
  try {
    while (todo.length > 0) {
      const file = todo.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      const text = fs.readFileSync(file, 'utf8');
      for (const m of text.matchAll(STATIC_IMPORT)) {
        const dep = path.resolve(path.dirname(file), m[1]!);
        if (!seen.has(dep) && fs.existsSync(dep)) todo.push(dep);
      }
    }
  } catch {
    return null;
  }
  const files = [...seen].map((f) => path.relative(base, f).split(path.sep).join('/')).sort();
  const sha256 = hashFiles(base, files);
  return sha256 ? { files, sha256 } : null;
}
