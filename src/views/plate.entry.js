/**
 * MCP Apps view of design_adapter_plate: the plate in 3D drawn from the design in the answer (the
 * disc, and every hole feature at its x, y, depth and diameter: side a in blue, side b in orange),
 * both bolt patterns, the dimensions and the file links. Nothing is fetched.
 */
import { Color, CylinderGeometry, DoubleSide, ExtrudeGeometry, Group, Mesh, MeshLambertMaterial, Path, Shape } from 'three';
import { answerOrAlert, connect, el } from './bridge.js';
import { makeStage, orbit } from './robot-scene.js';

const app = document.getElementById('app');
let bridge = null;

function draw(canvas, d) {
  const dark = document.documentElement.dataset.theme === 'dark';
  const { renderer, scene } = makeStage(canvas, dark ? 0x22262c : 0xf4f6f8);
  const t = d.outline.thickness_mm;
  const r = d.outline.diameter_mm / 2;
  // Through holes (a feature spanning the whole thickness) are cut out of the disc.
  const through = d.features.filter((f) => f.shape === 'circle' && f.z_min_mm <= 0 && f.z_max_mm >= t);
  const disc = new Shape();
  disc.absarc(0, 0, r, 0, Math.PI * 2, false);
  for (const f of through) {
    const h = new Path();
    h.absarc(f.x_mm, f.y_mm, f.diameter_mm / 2, 0, Math.PI * 2, true);
    disc.holes.push(h);
  }
  const plate = new Mesh(new ExtrudeGeometry(disc, { depth: t, bevelEnabled: false, curveSegments: 48 }), new MeshLambertMaterial({ color: 0x9aa7b5, transparent: true, opacity: 0.75, side: DoubleSide }));
  const group = new Group();
  group.add(plate);
  const colour = { a: new Color(0x1d4ed8), b: new Color(0xd9480f) };
  let drawn = 0;
  for (const f of d.features) {
    const depth = f.z_max_mm - f.z_min_mm;
    if (!(depth > 0)) continue;
    const radius = f.shape === 'hexagon' && f.across_flats_mm ? f.across_flats_mm / Math.sqrt(3) : f.diameter_mm / 2;
    const geo = new CylinderGeometry(radius, radius, depth, f.shape === 'hexagon' ? 6 : 32, 1, true);
    const m = new Mesh(geo, new MeshLambertMaterial({ color: colour[f.side] ?? colour.a, side: DoubleSide }));
    m.rotation.x = Math.PI / 2; // cylinder axis along z (the plate's thickness)
    if (f.shape === 'hexagon' && f.rotation_deg != null) m.rotation.y = (f.rotation_deg * Math.PI) / 180;
    m.position.set(f.x_mm, f.y_mm, (f.z_min_mm + f.z_max_mm) / 2);
    group.add(m);
    drawn += 1;
  }
  group.rotation.x = -Math.PI / 2; // the plate's z (thickness) up
  scene.add(group);
  orbit(canvas, renderer, scene);
  return drawn;
}

function render(result) {
  const out = answerOrAlert(app, result);
  if (!out) return;
  const d = out.design;
  if (!d) {
    app.append(el('h1', {}, 'No plate'), el('p', { id: 'reason' }, out.reason ?? out.ruling?.reason ?? ''));
    return;
  }
  app.append(
    el('h1', {}, `Adapter plate ${d.side_a.designation} / ${d.side_b.designation}`),
    el('ul', { class: 'facts', id: 'dimensions' },
      el('li', {}, 'Disc ⌀ ', el('strong', {}, `${d.outline.diameter_mm} mm`)),
      el('li', {}, 'Thickness ', el('strong', {}, `${d.outline.thickness_mm} mm`)),
      el('li', {}, 'Side b turned ', el('strong', {}, `${d.angular_offset.side_b_deg}°`)),
      el('li', {}, 'Volume ', el('strong', {}, `${Math.round(d.volume_mm3)} mm³`)),
      el('li', {}, 'Side b holes ', el('strong', {}, d.b_holes))),
  );
  const canvas = el('canvas', { class: 'scene', id: 'plate-canvas', role: 'img', 'aria-label': '3D view of the plate: side a holes in blue, side b in orange; drag to rotate, scroll to zoom', tabindex: '0' });
  const status = el('p', { class: 'status', role: 'status' });
  app.append(canvas, status);
  try {
    const n = draw(canvas, d);
    canvas.dataset.state = 'drawn';
    canvas.dataset.features = String(n);
    status.textContent = `Drawn: the disc and ${n} hole features (side a blue, side b orange). Drag to rotate.`;
  } catch (err) {
    canvas.dataset.state = 'failed';
    status.textContent = `The 3D view could not be drawn: ${err.message}`;
  }
  const side = (s, name) => el('tr', {}, el('th', { scope: 'row' }, name), el('td', {}, s.designation), el('td', { class: 'num' }, `${s.pcd_mm} mm`), el('td', { class: 'num' }, String(s.bolt_count)), el('td', {}, s.thread), el('td', {}, s.role));
  app.append(
    el('h2', {}, 'Bolt patterns'),
    el('div', { class: 'scroll' }, el('table', { id: 'patterns' },
      el('thead', {}, el('tr', {}, ['Side', 'Designation', 'PCD', 'Bolts', 'Thread', 'Role'].map((h) => el('th', { scope: 'col' }, h)))),
      el('tbody', {}, side(d.side_a, 'a'), side(d.side_b, 'b')))),
  );
  if (d.warnings.length) app.append(el('h2', {}, 'Warnings'), el('ul', {}, d.warnings.map((w) => el('li', { class: 'sev-warning' }, w))));
  const files = (out.files ?? []).filter((f) => f.format !== 'json');
  app.append(el('h2', {}, 'Files'), el('ul', { id: 'files' }, files.map((f) => {
    const open = f.url && bridge && bridge.canOpenLinks() ? el('button', { type: 'button', onclick: () => bridge.openLink(f.url).catch(() => {}) }, `Download ${f.format.toUpperCase()}`) : null;
    return el('li', { 'data-format': f.format }, open, ' ', el('code', {}, f.url ?? f.uri), f.url ? null : el('span', { class: 'muted' }, ' (an MCP resource: the host reads it)'));
  })));
  if (out.not_load_rated) app.append(el('p', { class: 'muted' }, out.not_load_rated));
}

bridge = connect({ name: 'robot-parts-plate-view', version: '1', onResult: render });
