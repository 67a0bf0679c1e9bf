// Run by `npm run build` after tsc (package.json): replaces the compiled modules in dist/ with a
// bundle of them and of the packages they import (esbuild), so that a process loads a few files
// instead of ~385 modules (issue 47: at 100,000 records the imports were ~0.48 s of a ~1.5 s start;
// bundled, ~0.33 s). Every module that is loaded by its path stays a file of its own at its place
// (an entry: the CLI, the workers, what the scripts and the bench import), re-exporting from shared
// chunks beside cli.js; every other compiled module is removed. A module's `import.meta.url` is
// rewritten to its own place in dist/, so paths it resolves from it (assets, data, workers) are
// unchanged. Packages loaded by name at run time (lazyRequire) or native ones stay outside.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(ROOT, 'dist');
/** The modules loaded by their path: the bin, the workers, what the build scripts and the bench import, the stamps' entries. */
const ENTRIES = [
  'cli.js',
  'config.js',
  'deps.js',
  'log.js',
  'server.js',
  'http/app.js',
  'tools/index.js',
  'mcp/tools-list-cache.js',
  'jobs/worker.js',
  'store/search-index-worker.js',
  'store/search-index-build.js',
  'store/catalogue-prepared.js',
  'store/catalogue-data.js',
  'store/catalogue-records.js',
  'domain/catalogue/parts.js',
  'domain/catalogue/search.js',
  'tools/context.js',
];
/** Loaded at run time by name (lazyRequire, optional or native): left to node_modules. */
const EXTERNAL = ['better-sqlite3', 'pg', 'manifold-3d', 'qrcode', 'fflate', 'yaml', 'csv-stringify', 'csv-stringify/*', 'tsx', 'tsx/*'];
const MARK = '__RP_DIST_ROOT__';

function jsFiles(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...jsFiles(p));
    else if (/\.js(\.map)?$/.test(e.name)) out.push(p);
  }
  return out;
}

/**
 * zod (v4) re-exports every language's error messages as `z.locales` (~40 modules, ~0.36 MB of the
 * ~2.7 MB a server loads at start, each parsed by node at every start). Nothing in this package
 * asks for a language: zod's schemas import English, its default, themselves. So the bundle's copy
 * of that index exports English only; the build fails if the index is no longer zod's list of
 * languages (each `export { default as xx } from "./xx.js"`), rather than drop something else.
 */
const zodLocales = {
  name: 'zod-locales',
  setup(b) {
    b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => {
      const src = fs.readFileSync(args.path, 'utf8');
      const lines = src.split('\n').filter((l) => l.trim() !== '');
      if (!lines.every((l) => /^export \{ default as [a-zA-Z]+ \} from "\.\/[a-zA-Z-]+\.js";$/.test(l)) || !lines.includes('export { default as en } from "./en.js";')) {
        throw new Error(`bundle: ${args.path} is not the list of zod's languages this build expects; see zodLocales in scripts/bundle.mjs`);
      }
      return { contents: 'export { default as en } from "./en.js";\n', loader: 'js', resolveDir: path.dirname(args.path) };
    });
  },
};

const t = performance.now();
const out = fs.mkdtempSync(path.join(ROOT, '.bundle-'));
try {
  const ownUrl = {
    name: 'own-url',
    setup(b) {
      b.onLoad({ filter: /\.js$/ }, (args) => {
        if (!args.path.startsWith(DIST + path.sep)) return undefined;
        const src = fs.readFileSync(args.path, 'utf8');
        const rel = path.relative(DIST, args.path).split(path.sep).join('/');
        return { contents: src.replaceAll('import.meta.url', `new URL(${JSON.stringify(`${MARK}/${rel}`)}, import.meta.url).href`), loader: 'js' };
      });
    },
  };
  const r = await build({
    entryPoints: ENTRIES.map((e) => ({ in: path.join(DIST, e), out: e.replace(/\.js$/, '') })),
    outdir: out,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    chunkNames: 'chunk-[hash]',
    external: EXTERNAL,
    plugins: [ownUrl, zodLocales],
    metafile: true,
    logLevel: 'warning',
    legalComments: 'eof',
  });
  // The compiled modules (and their maps) go: the files of dist/ that a module of src/ compiles to
  // (the pages' browser assets and the views are not); the bundle's files take their places (each
  // MARK: the way from that file to dist/).
  for (const f of jsFiles(DIST)) {
    const rel = path.relative(DIST, f);
    if (fs.existsSync(path.join(ROOT, 'src', rel.replace(/\.js(\.map)?$/, '.ts'))) || /^chunk-[A-Z0-9]+\.js(\.map)?$/.test(rel)) fs.rmSync(f); // a module, or an earlier build's chunk
  }
  const written = Object.keys(r.metafile.outputs);
  let bytes = 0;
  for (const f of written) {
    const rel = path.relative(out, path.resolve(ROOT, f));
    const up = path.relative(path.dirname(rel), '.').split(path.sep).join('/') || '.';
    const text = fs.readFileSync(path.resolve(ROOT, f), 'utf8').replaceAll(MARK, up);
    fs.mkdirSync(path.dirname(path.join(DIST, rel)), { recursive: true });
    fs.writeFileSync(path.join(DIST, rel), text);
    bytes += Buffer.byteLength(text);
  }
  console.log(`bundle: ${ENTRIES.length} entries, ${written.length} files, ${(bytes / 1048576).toFixed(2)} MB, ${(performance.now() - t).toFixed(0)} ms`);
} finally {
  fs.rmSync(out, { recursive: true, force: true });
}
