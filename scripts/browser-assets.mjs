/**
 * Builds the pages' browser assets into dist/assets/ (served by the process under /assets/):
 * the stylesheet and small scripts of src/http/pages/static/ as they are, the 3D robot view
 * bundled with three and urdf-loader (one minified file, only the parts it uses), and Swagger
 * UI's browser bundle. three, urdf-loader, swagger-ui-dist and esbuild are dev dependencies:
 * a production install carries only these built files.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = path.join(root, 'src/http/pages/static');
const out = path.join(root, 'dist/assets');
fs.mkdirSync(path.join(out, 'vendor'), { recursive: true });

for (const f of fs.readdirSync(src)) {
  if (f.endsWith('.entry.js')) continue;
  fs.copyFileSync(path.join(src, f), path.join(out, f));
}

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  // An install without dev dependencies keeps what a previous build (the package's dist) holds.
  process.stderr.write('browser-assets: esbuild not installed; the bundles in dist/assets are left as they are\n');
  process.exit(0);
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
