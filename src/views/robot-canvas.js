/**
 * The robot drawn in a view (robot and size views): a canvas and a status line appended to `app`,
 * the URDF text drawn on it by robot-scene.js in the host's theme; a text that does not draw says why.
 */
import { el } from './bridge.js';
import { drawUrdf } from './robot-scene.js';

export function appendRobotCanvas(app, text) {
  const canvas = el('canvas', { class: 'scene', id: 'robot-canvas', role: 'img', 'aria-label': '3D view of the kinematic structure: joints as a skeleton and primitive shapes; drag to rotate, scroll to zoom', tabindex: '0' });
  const status = el('p', { class: 'status', id: 'robot-status', role: 'status' });
  app.append(canvas, status);
  try {
    const dark = document.documentElement.dataset.theme === 'dark';
    const drawn = drawUrdf(canvas, text, dark ? 0x22262c : 0xf4f6f8);
    canvas.dataset.state = 'drawn';
    canvas.dataset.joints = String(drawn.joints);
    status.textContent = `Drawn: ${drawn.joints} joints as a skeleton${drawn.primitives ? ` and ${drawn.primitives} primitive shapes` : ' (no primitive geometry)'}; meshes are not drawn. Drag to rotate, scroll or pinch to zoom.`;
  } catch (err) {
    canvas.dataset.state = 'failed';
    status.textContent = `The 3D view could not be drawn: ${err.message}`;
  }
}
