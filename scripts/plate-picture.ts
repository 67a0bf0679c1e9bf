/**
 * Renders one adapter plate to a PNG for the README (docs/adapter-plate.png): the mesh from the
 * same code the server uses, drawn as a flat-shaded SVG (isometric view, painter's order) and
 * photographed with Chromium (playwright-core, dev dependency; Debian's /usr/bin/chromium).
 *
 *   npx tsx scripts/plate-picture.ts [a] [b] [tapped|nut] [out.png]
 */
import path from 'node:path';
import { chromium } from 'playwright-core';
import { loadDatasets } from '../src/store/datasets.js';
import { lookupFlange } from '../src/domain/knowledge/flange.js';
import { designPlate } from '../src/domain/plates/index.js';
import { plateMesh } from '../src/geometry/plate-mesh.js';

const [a = 'ISO9409-1-A50-4-M6', b = 'ISO9409-1-A63-6-M6', holes = 'tapped', out = 'docs/adapter-plate.png'] = process.argv.slice(2);
const ds = loadDatasets(path.resolve('data'));
const ra = lookupFlange(ds.flanges, a);
const rb = lookupFlange(ds.flanges, b);
if (!ra || !rb) throw new Error('both designations must be registered');
const design = designPlate({ flanges: ds.flanges, fasteners: ds.fasteners, printRules: ds.printRules }, ra, rb, { b_holes: holes === 'nut' ? 'nut' : 'tapped', thickness_mm: null });
const mesh = await plateMesh(design);

// View: rotate about z by 30 deg, tilt 55 deg about x; light from the viewer's upper left.
const W = 900, H = 640;
const cz = Math.cos((30 * Math.PI) / 180), sz = Math.sin((30 * Math.PI) / 180);
const cx = Math.cos((-55 * Math.PI) / 180), sx = Math.sin((-55 * Math.PI) / 180);
const view = (i: number): [number, number, number] => {
  const p = mesh.positions;
  const [x0, y0, z0] = [p[3 * i]!, p[3 * i + 1]!, p[3 * i + 2]!];
  const x1 = x0 * cz - y0 * sz, y1 = x0 * sz + y0 * cz;
  return [x1, y1 * cx - z0 * sx, y1 * sx + z0 * cx];
};
const scale = (0.8 * Math.min(W, H)) / design.outline.diameter_mm;
const light = [-0.4, 0.5, 0.77];
// Drawing order for a plate seen from above: hole walls (far first), then horizontal faces from
// the lowest up (pocket floors, then face b), then the outer rim, which nothing covers.
const rim = design.outline.diameter_mm / 2 - 1e-3;
const layer = (i: number) => {
  const p = mesh.positions;
  const ids = [mesh.triangles[i]!, mesh.triangles[i + 1]!, mesh.triangles[i + 2]!];
  const zs = ids.map((k) => p[3 * k + 2]!);
  if (ids.every((k) => Math.hypot(p[3 * k]!, p[3 * k + 1]!) >= rim)) return 2e6;
  if (zs[0] === zs[1] && zs[1] === zs[2]) return 1e6 + 1e3 * zs[0]!;
  return 0;
};
const polys: { depth: number; d: string; shade: number }[] = [];
for (let i = 0; i < mesh.triangles.length; i += 3) {
  const [p, q, r] = [view(mesh.triangles[i]!), view(mesh.triangles[i + 1]!), view(mesh.triangles[i + 2]!)];
  const u = [q[0] - p[0], q[1] - p[1], q[2] - p[2]], v = [r[0] - p[0], r[1] - p[1], r[2] - p[2]];
  const n = [u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!];
  const len = Math.hypot(n[0]!, n[1]!, n[2]!) || 1;
  if (n[2]! / len <= 0) continue; // facing away
  const shade = 0.35 + 0.65 * Math.max(0, (n[0]! * light[0]! + n[1]! * light[1]! + n[2]! * light[2]!) / len);
  const pt = (s: [number, number, number]) => `${(W / 2 + s[0] * scale).toFixed(2)},${(H / 2 - s[1] * scale).toFixed(2)}`;
  polys.push({ depth: layer(i) + (p[2] + q[2] + r[2]) / 3, d: `M${pt(p)}L${pt(q)}L${pt(r)}Z`, shade });
}
polys.sort((x, y) => x.depth - y.depth);
const fill = (s: number) => `rgb(${Math.round(70 + 150 * s)},${Math.round(110 + 120 * s)},${Math.round(150 + 100 * s)})`;
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}"><rect width="100%" height="100%" fill="#fff"/>${polys
  .map((p) => `<path d="${p.d}" fill="${fill(p.shade)}" stroke="${fill(p.shade)}" stroke-width="0.4"/>`)
  .join('')}<text x="16" y="${H - 16}" font-family="sans-serif" font-size="15" fill="#333">${design.side_a.designation} (counterbored) / ${design.side_b.designation} (${design.b_holes}) - disc ${design.outline.diameter_mm} x ${design.outline.thickness_mm} mm</text></svg>`;

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const page = await browser.newPage({ viewport: { width: W, height: H } });
  await page.setContent(`<html><body style="margin:0">${svg}</body></html>`);
  await page.screenshot({ path: out, type: 'png' });
} finally {
  await browser.close();
}
console.log(`${out}: ${design.id}, ${mesh.triangles.length / 3} triangles`);
