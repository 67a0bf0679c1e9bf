/**
 * Builds the MCP Apps views (src/views/*.entry.js) into dist/views/<name>.html.gz (gzip): one
 * self-contained HTML document each (the MCP Apps profile, text/html;profile=mcp-app), the script
 * bundled and minified by esbuild with the stylesheet inlined, nothing loaded from elsewhere, and
 * a Content-Security-Policy meta element that allows only the inline script and style (the
 * resource's _meta.ui.csp declares no domain either). src/mcp/apps.ts serves them on
 * resources/read. esbuild is a dev dependency: an install without it keeps the built files.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, gzipSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = path.join(root, 'src/views');
const out = path.join(root, 'dist/views');
fs.mkdirSync(out, { recursive: true });

/** The policy every view carries: its own inline script and style, images from data:/blob:, no connection. */
export const VIEW_CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:; connect-src 'none'; base-uri 'none'; form-action 'none'";

const TITLES = { robot: 'Robot in 3D', plate: 'Adapter plate', compare: 'Parts compared', bom: 'BOM check', size: 'Actuator sizing' };

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  process.stderr.write('app-views: esbuild not installed; the views in dist/views are left as they are\n');
  process.exit(0);
}
const css = fs.readFileSync(path.join(src, 'view.css'), 'utf8');
const cssMin = (await esbuild.transform(css, { loader: 'css', minify: true })).code.trim();
const sizes = [];
for (const f of fs.readdirSync(src).filter((x) => x.endsWith('.entry.js')).sort()) {
  const name = f.slice(0, -'.entry.js'.length);
  const r = await esbuild.build({
    entryPoints: [path.join(src, f)],
    bundle: true,
    minify: process.env.APP_VIEWS_DEBUG !== '1',
    format: 'iife',
    target: 'es2020',
    legalComments: 'eof',
    write: false,
    logLevel: 'warning',
  });
  // "</script" inside the inline script would end it: every occurrence is inside a string or regex, where "<\/" means the same.
  const js = r.outputFiles[0].text.replaceAll('</script', '<\\/script');
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta http-equiv="Content-Security-Policy" content="${VIEW_CSP}"><title>${TITLES[name] ?? name}</title><style>${cssMin}</style></head>` +
    `<body><main id="app" aria-live="polite"><p class="status">Waiting for the tool result from the host.</p></main><script>${js}</script></body></html>\n`;
  // Stored gzip-compressed (~34 kB for the five; the installed package stays small); src/mcp/apps.ts reads them back.
  fs.writeFileSync(path.join(out, `${name}.html.gz`), gzipSync(html, { level: constants.Z_BEST_COMPRESSION }));
  fs.rmSync(path.join(out, `${name}.html`), { force: true });
  sizes.push(`${name} ${html.length}`);
}
process.stderr.write(`app-views: ${sizes.join(', ')} characters\n`);
