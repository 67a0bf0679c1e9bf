/**
 * The robot drawn in a view (robot and size views): a canvas and a status line appended to `app`,
 * the URDF text drawn on it in the host's theme by the compact renderer (lite3d.js, with the URDF
 * read by urdf-model.js; three.js does not fit a view's read budget); a text that does not draw
 * says why. What is drawn is what the pages draw (src/views/robot-scene.js): the primitive
 * geometry (box, cylinder, sphere), every link frame joined to its child joints as a skeleton, a
 * marker on each joint (actuated joints in a stronger colour) and the base axes.
 */
import { el } from './bridge.js';
import { box, createStage, cylinder, sphere } from './lite3d.js';
import { readUrdf } from './urdf-model.js';

const at = (m) => [m[12], m[13], m[14]];
const ACTUATED = new Set(['revolute', 'continuous', 'prismatic']);

/** Draws the URDF text on the canvas; throws when the text is not a URDF. Returns { joints, primitives }. */
export function drawUrdf(canvas, text, background) {
  const model = readUrdf(text);
  const stage = createStage(canvas, background);
  for (const l of model.links.values()) {
    for (const s of l.shapes) {
      if (!s.world) continue;
      const geo = s.type === 'box' ? box(s.size, s.world) : s.type === 'cylinder' ? cylinder(s.radius, s.length, s.world) : sphere(s.radius, s.world, 12, 16);
      stage.mesh(geo, 0x8fa3b8, 0.55);
    }
  }
  // Skeleton: from each link's frame to each of its child joints' frames.
  const bones = [];
  for (const j of model.joints) {
    const parent = model.links.get(j.parent);
    if (j.world && parent?.world) bones.push(at(parent.world), at(j.world));
  }
  const b = stage.bounds();
  for (const p of bones) for (let k = 0; k < 3; k++) (b.min[k] = Math.min(b.min[k], p[k])), (b.max[k] = Math.max(b.max[k], p[k]));
  const size = (b.min.every(Number.isFinite) && Math.hypot(b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2])) || 1;
  if (bones.length) stage.lines(bones, 0x1d3557);
  for (const j of model.joints) {
    if (!j.world) continue;
    const m = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, ...at(j.world), 1];
    stage.mesh(sphere(size * 0.012, m), ACTUATED.has(j.type) ? 0xc1121f : 0x6c757d);
  }
  const a = size * 0.08;
  stage.lines([[0, 0, 0], [a, 0, 0]], 0xff0000).lines([[0, 0, 0], [0, a, 0]], 0x00ff00).lines([[0, 0, 0], [0, 0, a]], 0x0000ff);
  stage.show();
  return { joints: model.joints.length, primitives: model.primitives, meshes: model.meshes };
}

export function appendRobotCanvas(app, text) {
  const canvas = el('canvas', { class: 'scene', id: 'robot-canvas', role: 'img', 'aria-label': '3D view of the kinematic structure: joints as a skeleton and primitive shapes; drag to rotate, scroll to zoom', tabindex: '0' });
  const status = el('p', { class: 'status', id: 'robot-status', role: 'status' });
  app.append(canvas, status);
  try {
    const dark = document.documentElement.dataset.theme === 'dark';
    const drawn = drawUrdf(canvas, text, dark ? 0x22262c : 0xf4f6f8);
    canvas.dataset.state = 'drawn';
    canvas.dataset.joints = String(drawn.joints);
    canvas.dataset.primitives = String(drawn.primitives);
    status.textContent = `Drawn: ${drawn.joints} joints as a skeleton${drawn.primitives ? ` and ${drawn.primitives} primitive shapes` : ' (no primitive geometry)'}; meshes are not drawn${drawn.meshes ? ` (${drawn.meshes})` : ''}. Drag to rotate, scroll or pinch to zoom.`;
  } catch (err) {
    canvas.dataset.state = 'failed';
    status.textContent = `The 3D view could not be drawn: ${err.message}`;
  }
}
