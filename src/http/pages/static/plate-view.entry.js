/**
 * /plates: the adapter plate in 3D, drawn from the STL the API serves for it (the same file as the
 * download link) with three.js. Drag to rotate, wheel or pinch to zoom. The stage and orbit camera
 * are the ones the robot page uses (src/views/robot-scene.js); bundled by
 * scripts/browser-assets.mjs.
 */
import { Group, Mesh, MeshLambertMaterial } from 'three';
import { STLLoader } from 'three/examples/jsm/loaders/STLLoader.js';
import { makeStage, orbit } from '../../../views/robot-scene.js';

const canvas = document.getElementById('plate-canvas');
const status = document.getElementById('plate-status');

async function main() {
  const res = await fetch(canvas.dataset.stl);
  if (!res.ok) throw new Error(`STL request failed: ${res.status}`);
  const geometry = new STLLoader().parse(await res.arrayBuffer());
  geometry.computeVertexNormals();
  const { renderer, scene } = makeStage(canvas);
  const world = new Group();
  world.rotation.x = -Math.PI / 2; // the STL is z-up; three.js is y-up
  world.add(new Mesh(geometry, new MeshLambertMaterial({ color: 0x5b7fa6 })));
  scene.add(world);
  orbit(canvas, renderer, scene);
  canvas.dataset.state = 'drawn';
  canvas.dataset.triangles = String(geometry.getAttribute('position').count / 3);
  if (status) status.textContent = `Drawn from the STL: ${canvas.dataset.triangles} triangles. Drag to rotate, scroll or pinch to zoom.`;
}

if (canvas) {
  main().catch((err) => {
    canvas.dataset.state = 'failed';
    if (status) status.textContent = `The 3D view could not be drawn: ${err.message}`;
  });
}
