/**
 * /robots/{id}: the robot's kinematic structure in 3D, drawn from its URDF (served by the page's
 * own route) by three.js and urdf-loader (src/views/robot-scene.js; the MCP Apps views draw the
 * same things with a compact renderer). Bundled by scripts/browser-assets.mjs.
 */
import { drawUrdf } from '../../../views/robot-scene.js';

const canvas = document.getElementById('robot-canvas');
const status = document.getElementById('robot-status');

function say(text) {
  if (status) status.textContent = text;
}

async function main() {
  const res = await fetch(canvas.dataset.urdf);
  if (!res.ok) throw new Error(`URDF request failed: ${res.status}`);
  const { joints, primitives } = drawUrdf(canvas, await res.text());
  canvas.dataset.state = 'drawn';
  canvas.dataset.joints = String(joints);
  canvas.dataset.primitives = String(primitives);
  say(`Drawn: ${joints} joints as a skeleton${primitives ? ` and ${primitives} primitive shapes` : ' (the URDF has no primitive geometry)'}. Drag to rotate, scroll or pinch to zoom.`);
}

if (canvas) {
  main().catch((err) => {
    canvas.dataset.state = 'failed';
    say(`The 3D view could not be drawn: ${err.message}`);
  });
}
