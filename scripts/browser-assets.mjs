/**
 * Builds the pages' browser assets into dist/assets/ (served by the process under /assets/):
 * the stylesheet and small scripts of src/http/pages/static/ as they are, the 3D robot view
 * bundled with three and urdf-loader (one minified file, only the parts it uses), and Swagger
 * UI's browser bundle. three, urdf-loader, swagger-ui-dist and esbuild are dev dependencies:
 * a production install carries only these built files.
 *
 * Files over GZIP_MIN_BYTES are kept gzip-compressed only (`<name>.gz`, the original removed):
 * the process sends them as they are to a browser that accepts gzip, and decompressed, once, to a
 * client that does not (src/http/pages/index.ts). The 3D view and Swagger UI are ~2.6 MB as
 * text and ~0.7 MB compressed, which keeps a production install under its 40 MB.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, gzipSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = path.join(root, 'src/http/pages/static');
const out = path.join(root, 'dist/assets');
fs.mkdirSync(path.join(out, 'vendor'), { recursive: true });
const GZIP_MIN_BYTES = 32 * 1024;

/** Every file of dist/assets over GZIP_MIN_BYTES replaced by its gzip (`.gz`). */
function compressLarge(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const f = path.join(dir, e.name);
    if (e.isDirectory()) compressLarge(f);
    else if (e.name.endsWith('.gz')) continue;
    else if (fs.statSync(f).size > GZIP_MIN_BYTES) {
      fs.writeFileSync(`${f}.gz`, gzipSync(fs.readFileSync(f), { level: constants.Z_BEST_COMPRESSION }));
      fs.rmSync(f);
    } else fs.rmSync(`${f}.gz`, { force: true }); // grown small since: only the file itself
  }
}

for (const f of fs.readdirSync(src)) {
  if (f.endsWith('.entry.js')) continue; // bundled below
  fs.copyFileSync(path.join(src, f), path.join(out, f));
}

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  // An install without dev dependencies keeps what a previous build (the package's dist) holds.
  process.stderr.write('browser-assets: esbuild not installed; the bundles in dist/assets are left as they are\n');
  compressLarge(out);
  process.exit(0);
}
for (const name of ['plate-view']) {
  await esbuild.build({
    entryPoints: [path.join(src, `${name}.entry.js`)],
    outfile: path.join(out, `${name}.js`),
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2020',
    legalComments: 'linked',
    logLevel: 'warning',
  });
}
await esbuild.build({
  entryPoints: [path.join(src, 'robot-view.entry.js')],
  outfile: path.join(out, 'robot-view.js'),
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2020',
  legalComments: 'linked',
  logLevel: 'warning',
});
const swagger = path.join(root, 'node_modules/swagger-ui-dist');
for (const f of ['swagger-ui-bundle.js', 'swagger-ui.css', 'LICENSE']) fs.copyFileSync(path.join(swagger, f), path.join(out, 'vendor', f === 'LICENSE' ? 'swagger-ui.LICENSE' : f));
compressLarge(out);
