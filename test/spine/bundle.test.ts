/**
 * The built dist/ is the bundle scripts/bundle.mjs makes of the compiled modules (issue 47): files
 * that load, paths that still point where the modules were, and no import of a package an install
 * leaves out (zod, hono and the MCP SDK are dev dependencies because they are inside the bundle).
 * Read from the built files themselves, not from the bundle script's own lists.
 */
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DIST = path.join(ROOT, 'dist');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; bin: Record<string, string> };

function jsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...jsFiles(p));
    else if (e.name.endsWith('.js')) out.push(p);
  }
  return out;
}

const files = jsFiles(DIST).filter((f) => !f.startsWith(path.join(DIST, 'assets') + path.sep));
const text = new Map(files.map((f) => [f, fs.readFileSync(f, 'utf8')]));

describe('the built bundle', () => {
  it('holds a few files instead of one per compiled module, the bin among them', () => {
    const srcModules = fs.readdirSync(path.join(ROOT, 'src'), { recursive: true }).filter((f) => String(f).endsWith('.ts')).length;
    expect(fs.existsSync(path.join(ROOT, pkg.bin['robot-parts-mcp']!))).toBe(true);
    expect(files.some((f) => /^chunk-[A-Z0-9]+\.js$/.test(path.basename(f)))).toBe(true);
    expect(files.length).toBeLessThan(srcModules / 2);
  });

  it('every import of every file resolves: each relative one to a file, each by name to a node built-in or a dependency an install brings (never a dev dependency)', async () => {
    // esbuild parses the files (imports, dynamic imports with a literal, require calls with a
    // literal; not text in comments or strings): an unresolved relative import fails the build.
    const r = await build({ entryPoints: files, bundle: true, write: false, metafile: true, platform: 'node', format: 'esm', packages: 'external', outdir: path.join(ROOT, '.bundle-check'), logLevel: 'silent' });
    const builtins = new Set(builtinModules);
    const named = new Set<string>();
    for (const input of Object.values(r.metafile.inputs)) {
      for (const imp of input.imports) {
        if (!imp.external || imp.path.startsWith('node:')) continue;
        const name = imp.path.startsWith('@') ? imp.path.split('/').slice(0, 2).join('/') : imp.path.split('/')[0]!;
        if (!builtins.has(name)) named.add(name);
      }
    }
    expect([...named].filter((n) => !(n in pkg.dependencies)).sort()).toEqual([]);
    // The packages bundled in are not imported by name (the bundle carries them).
    for (const bundled of ['zod', 'hono', '@hono/node-server', '@modelcontextprotocol/server']) expect(named.has(bundled)).toBe(false);
    expect(named.has('better-sqlite3')).toBe(true); // native: loaded from node_modules
  });

  it("each module's own URL still points at its place in dist/: the source module beside it exists", () => {
    const wrong: string[] = [];
    let seen = 0;
    for (const [f, src] of text) {
      for (const m of src.matchAll(/new URL\("((?:\.\.?\/)+[^"]+\.js)", import\.meta\.url\)\.href/g)) {
        seen++;
        const rel = path.relative(DIST, path.resolve(path.dirname(f), m[1]!));
        if (rel.startsWith('..') || !fs.existsSync(path.join(ROOT, 'src', rel.replace(/\.js$/, '.ts')))) wrong.push(`${path.relative(DIST, f)}: ${m[1]}`);
      }
      expect(src).not.toContain('__RP_DIST_ROOT__');
    }
    expect(seen).toBeGreaterThan(5);
    expect(wrong).toEqual([]);
  });

  it("holds zod's English messages and none of its other languages (nothing here asks for one); zod's errors still read in English", async () => {
    const all = [...text.values()].join('\n');
    // esbuild names each bundled module in a comment: English is there, the others are not.
    expect(all).toMatch(/\/\/ node_modules\/zod\/v4\/locales\/en\.js/);
    const others = [...all.matchAll(/\/\/ node_modules\/zod\/v4\/locales\/([a-zA-Z-]+)\.js/g)].map((m) => m[1]).filter((l) => l !== 'en' && l !== 'index');
    expect(others).toEqual([]);
    // A schema of the bundle refuses in English: the tool registry's search_parts, given a number for its query.
    const { TOOLS } = (await import(path.join(DIST, 'tools/index.js'))) as { TOOLS: { name: string; inputSchema: { safeParse(v: unknown): { success: boolean; error?: { issues: { message: string }[] } } } }[] };
    const search = TOOLS.find((t) => t.name === 'search_parts')!;
    const r = search.inputSchema.safeParse({ q: 42 });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.message).toMatch(/^Invalid input: expected string, received number$/);
  });
});
