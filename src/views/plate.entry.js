/**
 * MCP Apps view of design_adapter_plate: the plate in 3D drawn from the design in the answer (the
 * disc, and every hole feature at its x, y, depth and diameter: side a in blue, side b in orange),
 * both bolt patterns, the dimensions and the file links. Nothing is fetched. Drawn by the compact
 * renderer (lite3d.js): three.js does not fit a view's resource read budget.
 */
import { answerOrAlert, connect, el } from './bridge.js';
import { createStage, cylinder, holedDisc } from './lite3d.js';

const app = document.getElementById('app');
let bridge = null;

/** Draws the disc (through holes cut out) and every hole feature as an open tube; returns the features drawn. */
function draw(canvas, d) {
  const dark = document.documentElement.dataset.theme === 'dark';
  const stage = createStage(canvas, dark ? 0x22262c : 0xf4f6f8);
  const t = d.outline.thickness_mm;
  const r = d.outline.diameter_mm / 2;
  const placed = (f) => Number.isFinite(f.x_mm) && Number.isFinite(f.y_mm);
  // Through holes (a feature spanning the whole thickness) are cut out of the disc.
  const through = d.features.filter((f) => placed(f) && f.shape === 'circle' && f.diameter_mm > 0 && f.z_min_mm <= 0 && f.z_max_mm >= t);
  stage.mesh(holedDisc(r, through.map((f) => ({ x: f.x_mm, y: f.y_mm, r: f.diameter_mm / 2 })), t), 0x9aa7b5, 0.75);
  const colour = { a: 0x1d4ed8, b: 0xd9480f };
  let drawn = 0;
  for (const f of d.features) {
    const depth = f.z_max_mm - f.z_min_mm;
    if (!(depth > 0) || !placed(f)) continue;
    const hex = f.shape === 'hexagon';
    // A hexagon's corners at its rotation + k·60° from +x, at across-flats/√3 (as the plates page draws it).
    const radius = hex && f.across_flats_mm ? f.across_flats_mm / Math.sqrt(3) : f.diameter_mm / 2;
    if (!(radius > 0)) continue;
    const m = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, f.x_mm, f.y_mm, (f.z_min_mm + f.z_max_mm) / 2, 1];
    stage.mesh(cylinder(radius, depth, m, { segments: hex ? 6 : 32, caps: false, turn: hex ? ((f.rotation_deg ?? 0) * Math.PI) / 180 : 0 }), colour[f.side] ?? colour.a);
    drawn += 1;
  }
  stage.show();
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
