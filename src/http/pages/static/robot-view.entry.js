/**
 * /robots/{id}: the robot's kinematic structure in 3D, drawn from its URDF (served by the page's
 * own route) with three.js and urdf-loader. Meshes are not shipped: the URDF's primitive geometry
 * (box, cylinder, sphere) is drawn where it has some, and every link frame is joined to its child
 * joints as a skeleton, with a marker on each joint (actuated joints in a stronger colour).
 * Drag to rotate, wheel or pinch to zoom. Bundled by scripts/browser-assets.mjs.
 */
import { AxesHelper, Box3, BufferGeometry, Group, Line, LineBasicMaterial, Mesh, MeshLambertMaterial, SphereGeometry, Vector3 } from 'three';
import URDFLoader from 'urdf-loader/src/URDFLoader.js';
import { createView } from './view3d.js';

const canvas = document.getElementById('robot-canvas');
const status = document.getElementById('robot-status');

function say(text) {
  if (status) status.textContent = text;
}

async function main() {
  const res = await fetch(canvas.dataset.urdf);
  if (!res.ok) throw new Error(`URDF request failed: ${res.status}`);
  const text = await res.text();
  const loader = new URDFLoader();
  loader.parseCollision = true;
  // Meshes are not shipped: a mesh element draws nothing.
  loader.loadMeshCb = (_path, _manager, done) => done(null);
  const robot = loader.parse(text);

  // The shared view (view3d.js): renderer, lit scene, z-up world, framing and orbit controls.
  const view = createView(canvas);
  const { scene, world } = view;
  world.add(robot);

  let primitives = 0;
  const solid = new MeshLambertMaterial({ color: 0x8fa3b8, transparent: true, opacity: 0.55 });
  robot.traverse((o) => {
    if (o.isMesh) {
      o.material = solid;
      o.visible = true;
      primitives += 1;
    }
    if (o.isURDFCollider || o.isURDFVisual) o.visible = true;
  });
  world.updateMatrixWorld(true);

  // Skeleton: from each link's frame to each of its child joints' frames.
  const box = new Box3().setFromObject(robot);
  const size = box.getSize(new Vector3()).length() || 1;
  const bone = new LineBasicMaterial({ color: 0x1d3557 });
  const jointGeo = new SphereGeometry(size * 0.012, 12, 8);
  const actuatedMat = new MeshLambertMaterial({ color: 0xc1121f });
  const fixedMat = new MeshLambertMaterial({ color: 0x6c757d });
  const skeleton = new Group();
  let joints = 0;
  const points = [];
  for (const joint of Object.values(robot.joints)) {
    const parent = joint.parent;
    const a = parent.getWorldPosition(new Vector3());
    const b = joint.getWorldPosition(new Vector3());
    points.push(a, b);
    skeleton.add(new Line(new BufferGeometry().setFromPoints([a, b]), bone));
    const dot = new Mesh(jointGeo, joint.jointType === 'fixed' ? fixedMat : actuatedMat);
    dot.position.copy(b);
    skeleton.add(dot);
    joints += 1;
  }
  scene.add(skeleton);
  const frame = new AxesHelper(size * 0.08);
  frame.rotation.x = -Math.PI / 2;
  scene.add(frame);

  view.frame(points);
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
