/**
 * `/plates?a=&b=&b_holes=`: an adapter plate between two registered ISO 9409-1 flanges
 * (design_adapter_plate): a form with the registered designations, a three.js view drawn from the
 * plate's STL (the download's own URL), a dimensioned top-view drawing (SVG: outer diameter, both
 * pitch circles, every hole with its callout, the thickness in a section below), the fasteners of
 * each side, and the STL, 3MF and OpenSCAD downloads (the API route of the tool).
 */
import { PLATE_HOLE_OPTIONS } from '../../domain/plates/index.js';
import { TOOLS } from '../../tools/index.js';
import { html, Html, type PageContent } from './html.js';
import type { PageRequest } from './types.js';

interface Feature {
  side: string;
  hole: number | null;
  shape: string;
  x_mm: number | null;
  y_mm: number | null;
  id: string;
  kind: string;
  diameter_mm: number | null;
  across_flats_mm: number | null;
  rotation_deg: number | null;
  depth_mm: number | null;
  from_face: string | null;
  rule: string;
}

interface Side {
  designation: string;
  pcd_mm: number;
  bolt_count: number;
  thread: string;
  role: string;
  from_part: string | null;
}

interface PlateOut {
  plate_needed: boolean;
  reason: string;
  ruling: { verdict: string; reason: string };
  not_load_rated?: string;
  material?: unknown;
  design: null | {
    id: string;
    side_a: Side;
    side_b: Side;
    outline: { shape: string; diameter_mm: number; thickness_mm: number; rule: string };
    angular_offset: { side_b_deg: number };
    centre_bore: { diameter_mm: number } | null;
    features: Feature[];
    warnings: string[];
  };
}

/** The REST route of design_adapter_plate (the downloads and the STL the 3D view reads). */
const plateRoute = () => TOOLS.find((t) => t.name === 'design_adapter_plate')!.rest[0]!.path;

const fmt = (n: number) => String(Number(n.toFixed(2)));

export async function platesPage({ c, deps, call }: PageRequest): Promise<PageContent> {
  const a = c.req.query('a')?.trim() ?? '';
  const b = c.req.query('b')?.trim() ?? '';
  const holes = c.req.query('b_holes')?.trim() || 'tapped';
  const designations = deps.knowledge.flanges.designations.map((d) => d.designation);
  const select = (name: string, label: string, current: string) =>
    html`<div><label for="${name}">${label}</label><select id="${name}" name="${name}"><option value="">Choose…</option>${designations.map((d) => html`<option value="${d}"${d === current ? new Html(' selected') : ''}>${d}</option>`)}${current && !designations.includes(current) ? html`<option value="${current}" selected>${current}</option>` : ''}</select></div>`;
  const form = html`<form class="inline" action="/plates" method="get">${select('a', 'Side a flange (counterbored)', a)}${select('b', 'Side b flange', b)}
<div><label for="b_holes">Side b holes</label><select id="b_holes" name="b_holes">${PLATE_HOLE_OPTIONS.map((o) => html`<option value="${o}"${o === holes ? new Html(' selected') : ''}>${o === 'nut' ? 'nut pockets' : o}</option>`)}</select></div>
<button type="submit">Design the plate</button></form>`;
  const head = html`<h1>Adapter plate</h1>
<p>A printable plate between two registered ISO 9409-1 bolt patterns: side a is counterbored for socket-head screws, side b tapped or with nut pockets. Every dimension comes from the registry and the rules the API answer lists. Not load-rated.</p>
${form}`;
  if (!a || !b) {
    return { title: 'Adapter plate', current: '/plates', body: html`${head}<p class="muted">Choose both flanges. A compatibility check that finds two flanges need an adapter links here.</p>` };
  }
  const out = await call<PlateOut>('design_adapter_plate', { a, b, b_holes: holes });
  if (!out.design) {
    return { title: `Adapter plate ${a} / ${b}`, current: '/plates', body: html`${head}<h2>No plate</h2><p id="plate-reason"><strong>${out.ruling.verdict}</strong>: ${out.reason}</p>` };
  }
  const d = out.design;
  const q = `a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}&b_holes=${encodeURIComponent(holes)}`;
  const file = (format: string) => `${plateRoute()}?${q}&format=${format}`;
  return {
    title: `Adapter plate ${d.side_a.designation} / ${d.side_b.designation}`,
    current: '/plates',
    scripts: ['/assets/plate-view.js'],
    body: html`${head}
<h2>${d.side_a.designation} to ${d.side_b.designation}</h2>
<p id="plate-summary">Disc Ø${fmt(d.outline.diameter_mm)} mm × ${fmt(d.outline.thickness_mm)} mm, ${d.features.length} features; side b turned ${fmt(d.angular_offset.side_b_deg)}° against side a. <span class="muted">${out.ruling.reason}</span></p>
<ul class="downloads" id="downloads"><li><a href="${file('stl')}" download>STL (binary)</a></li><li><a href="${file('3mf')}" download>3MF</a></li><li><a href="${file('scad')}" download>OpenSCAD source</a></li><li><a href="${file('json')}">Design as JSON (every rule and source)</a></li></ul>
<div class="plate-views">
<figure><canvas id="plate-canvas" data-stl="${file('stl')}" role="img" aria-label="3D view of the plate, drawn from its STL"></canvas><figcaption id="plate-status" role="status">The 3D view needs JavaScript and WebGL; the drawing beside it does not.</figcaption></figure>
<figure>${drawing(d)}<figcaption>Top view from face b, dimensions in mm. Dashed: pitch circles (a solid blue holes, b orange).</figcaption></figure>
</div>
<h2>Fasteners</h2>
<dl class="kv" id="fasteners"><dt>Side a: ${d.side_a.bolt_count} × ${d.side_a.thread}</dt><dd>${d.side_a.role} Pitch circle Ø${fmt(d.side_a.pcd_mm)} mm.</dd>
<dt>Side b: ${d.side_b.bolt_count} × ${d.side_b.thread}</dt><dd>${d.side_b.role} Pitch circle Ø${fmt(d.side_b.pcd_mm)} mm.</dd></dl>
<h2>Features</h2>
<div class="scroll" tabindex="0"><table id="features"><caption class="visually-hidden">Every feature with its rule</caption><thead><tr><th scope="col">Feature</th><th scope="col">Shape</th><th scope="col" class="num">x, y (mm)</th><th scope="col" class="num">Size (mm)</th><th scope="col" class="num">Depth (mm)</th><th scope="col">Rule</th></tr></thead><tbody>${d.features.map(
      (f) => html`<tr><th scope="row">${f.id}</th><td>${f.shape}</td><td class="num">${f.x_mm === null ? '–' : `${fmt(f.x_mm)}, ${fmt(f.y_mm ?? 0)}`}</td><td class="num">${f.diameter_mm !== null ? `Ø${fmt(f.diameter_mm)}` : f.across_flats_mm !== null ? `${fmt(f.across_flats_mm)} A/F` : '–'}</td><td class="num">${f.depth_mm === null ? '–' : fmt(f.depth_mm)}</td><td>${f.rule}</td></tr>`,
    )}</tbody></table></div>
${d.warnings.length ? html`<h2>Warnings</h2><ul>${d.warnings.map((w) => html`<li class="warning">${w}</li>`)}</ul>` : ''}
${out.not_load_rated ? html`<p class="note">${out.not_load_rated}</p>` : ''}`,
  };
}

/**
 * The dimensioned top view: the disc, both pitch circles, each hole (a circle, or a hexagon for a
 * nut pocket) and the centre bore, with the outer diameter, the pitch circles, one callout per kind
 * of hole on each side, and a section below with the thickness. SVG attributes only (no style
 * attributes under the pages' CSP).
 */
function drawing(d: NonNullable<PlateOut['design']>): Html {
  const r = d.outline.diameter_mm / 2;
  const t = d.outline.thickness_mm;
  const pad = r * 0.5;
  const sectionTop = r + pad * 0.9;
  const w = 2 * (r + pad);
  const h = 2 * r + pad * 2 + t + pad;
  const font = fmt(Math.max(r / 9, 2.2));
  const colour = (side: string) => (side === 'a' ? '#0b5cad' : '#8a4b00');
  const holes = d.features.filter((f) => f.x_mm !== null && f.y_mm !== null);
  const shapes = holes.map((f) => {
    const x = f.x_mm!;
    const y = -f.y_mm!; // SVG y grows downwards
    if (f.shape === 'hexagon' && f.across_flats_mm !== null) {
      const R = f.across_flats_mm / Math.sqrt(3);
      const rot = ((f.rotation_deg ?? 0) * Math.PI) / 180;
      const pts = [0, 1, 2, 3, 4, 5].map((i) => `${fmt(x + R * Math.cos(rot + (i * Math.PI) / 3))},${fmt(y - R * Math.sin(rot + (i * Math.PI) / 3))}`).join(' ');
      return html`<polygon points="${pts}" fill="none" stroke="${colour(f.side)}" stroke-width="0.4"/>`;
    }
    return f.diameter_mm === null ? '' : html`<circle cx="${fmt(x)}" cy="${fmt(y)}" r="${fmt(f.diameter_mm / 2)}" fill="none" stroke="${colour(f.side)}" stroke-width="0.4"/>`;
  });
  // One callout per side and kind: "4× Ø6.6 clearance_hole".
  const groups = new Map<string, { side: string; kind: string; size: string; n: number; depth: number | null }>();
  for (const f of holes) {
    const size = f.diameter_mm !== null ? `Ø${fmt(f.diameter_mm)}` : f.across_flats_mm !== null ? `${fmt(f.across_flats_mm)} A/F` : '';
    const k = `${f.side}|${f.kind}|${size}`;
    const g = groups.get(k) ?? { side: f.side, kind: f.kind, size, n: 0, depth: f.depth_mm };
    g.n += 1;
    groups.set(k, g);
  }
  const callouts = [...groups.values()];
  const lineH = Number(font) * 1.3;
  return html`<svg id="plate-drawing" xmlns="http://www.w3.org/2000/svg" viewBox="${fmt(-r - pad)} ${fmt(-r - pad)} ${fmt(w)} ${fmt(h + callouts.length * lineH)}" role="img" aria-labelledby="plate-drawing-title"><title id="plate-drawing-title">Top view: outer diameter ${fmt(d.outline.diameter_mm)} mm, pitch circles ${fmt(d.side_a.pcd_mm)} mm (a) and ${fmt(d.side_b.pcd_mm)} mm (b), thickness ${fmt(t)} mm</title>
<circle cx="0" cy="0" r="${fmt(r)}" fill="#f4f6f8" stroke="#1b1f24" stroke-width="0.6"/>
<circle cx="0" cy="0" r="${fmt(d.side_a.pcd_mm / 2)}" fill="none" stroke="#0b5cad" stroke-width="0.3" stroke-dasharray="2 1.5"/>
<circle cx="0" cy="0" r="${fmt(d.side_b.pcd_mm / 2)}" fill="none" stroke="#8a4b00" stroke-width="0.3" stroke-dasharray="2 1.5"/>
${d.centre_bore ? html`<circle cx="0" cy="0" r="${fmt(d.centre_bore.diameter_mm / 2)}" fill="none" stroke="#1b1f24" stroke-width="0.4"/>` : ''}
${shapes}
<line x1="${fmt(-r)}" y1="${fmt(-r - pad * 0.45)}" x2="${fmt(r)}" y2="${fmt(-r - pad * 0.45)}" stroke="#1b1f24" stroke-width="0.3"/>
<line x1="${fmt(-r)}" y1="${fmt(-r - pad * 0.6)}" x2="${fmt(-r)}" y2="${fmt(-r)}" stroke="#1b1f24" stroke-width="0.2"/><line x1="${fmt(r)}" y1="${fmt(-r - pad * 0.6)}" x2="${fmt(r)}" y2="${fmt(-r)}" stroke="#1b1f24" stroke-width="0.2"/>
<text x="0" y="${fmt(-r - pad * 0.55)}" text-anchor="middle" font-size="${font}" fill="#1b1f24">Ø${fmt(d.outline.diameter_mm)}</text>
<text x="0" y="${fmt(-d.side_a.pcd_mm / 2 - 1)}" text-anchor="middle" font-size="${font}" fill="#0b5cad">PCD ${fmt(d.side_a.pcd_mm)} (a)</text>
<text x="0" y="${fmt(d.side_b.pcd_mm / 2 + Number(font) + 0.5)}" text-anchor="middle" font-size="${font}" fill="#8a4b00">PCD ${fmt(d.side_b.pcd_mm)} (b)</text>
<rect x="${fmt(-r)}" y="${fmt(sectionTop)}" width="${fmt(2 * r)}" height="${fmt(t)}" fill="#f4f6f8" stroke="#1b1f24" stroke-width="0.5"/>
<text x="${fmt(r + 1)}" y="${fmt(sectionTop + t / 2 + Number(font) / 3)}" font-size="${font}" fill="#1b1f24">${fmt(t)}</text>
${callouts.map((g, i) => html`<text x="${fmt(-r - pad + 1)}" y="${fmt(sectionTop + t + pad * 0.6 + i * lineH)}" font-size="${font}" fill="${colour(g.side)}">${g.side}: ${g.n}× ${g.size} ${g.kind.replace(/_/g, ' ')}${g.depth !== null ? `, depth ${fmt(g.depth)}` : ''}</text>`)}
</svg>`;
}
