/**
 * The robot's kinematic structure in 3D from URDF text, with three.js and urdf-loader, for the
 * pages: the /robots/{id} page (src/http/pages/static/robot-view.entry.js, which fetches the page's
 * URDF) and /plates (makeStage, orbit). The MCP Apps views draw the same things with the compact
 * renderer (src/views/robot-canvas.js, lite3d.js, urdf-model.js): three.js does not fit a view's
 * 80,000-character resource read budget. Meshes are not shipped: the URDF's primitive geometry (box, cylinder, sphere) is
 * drawn where it has some, and every link frame is joined to its child joints as a skeleton, with
 * a marker on each joint (actuated joints in a stronger colour). Drag to rotate, wheel or pinch to zoom.
 */
import { AmbientLight, AxesHelper, Box3, BufferGeometry, Color, DirectionalLight, Group, Line, LineBasicMaterial, Mesh, MeshLambertMaterial, PerspectiveCamera, Scene, SphereGeometry, Vector3, WebGLRenderer } from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import URDFLoader from 'urdf-loader/src/URDFLoader.js';

/** A WebGL renderer, scene and lights on `canvas`, with the background colour given. */
export function makeStage(canvas, background = 0xf4f6f8) {
  const renderer = new WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
  const scene = new Scene();
  scene.background = new Color(background);
  scene.add(new AmbientLight(0xffffff, 1.2));
  const sun = new DirectionalLight(0xffffff, 1.5);
  sun.position.set(2, 3, 4);
  scene.add(sun);
  return { renderer, scene };
}

/**
 * Frames the scene (its bounding box and any extra points) with an orbiting camera and draws it on
 * every change and resize. Returns the redraw function.
 */
export function orbit(canvas, renderer, scene, extraPoints = []) {
  const all = new Box3().setFromObject(scene);
  for (const p of extraPoints) all.expandByPoint(p);
  const centre = all.getCenter(new Vector3());
  const radius = all.getSize(new Vector3()).length() / 2 || 1;
  const camera = new PerspectiveCamera(40, 1, radius / 100, radius * 100);
  camera.position.copy(centre).add(new Vector3(radius * 1.6, radius * 1.1, radius * 1.9));
  const controls = new OrbitControls(camera, canvas);
  controls.target.copy(centre);
  const draw = () => renderer.render(scene, camera);
  const resize = () => {
    const w = canvas.clientWidth || 600;
    const h = canvas.clientHeight || 400;
    renderer.setSize(w, h, false);
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
    draw();
  };
  controls.addEventListener('change', draw);
  window.addEventListener('resize', resize);
  controls.update();
  resize();
  return { draw, resize };
}

/**
 * Draws the URDF text on the canvas; throws the parser's error when the text is not a URDF.
 * Returns what was drawn: { joints, primitives }.
 */
export function drawUrdf(canvas, text, background) {
  const loader = new URDFLoader();
  loader.parseCollision = true;
  // Meshes are not shipped: a mesh element draws nothing.
  loader.loadMeshCb = (_path, _manager, _material, done) => done(null);
  const robot = loader.parse(text);
  if (!robot || !robot.isURDFRobot) throw new Error('the text has no <robot> element');

  const { renderer, scene } = makeStage(canvas, background);
  // URDF is z-up; three.js is y-up.
  const world = new Group();
  world.rotation.x = -Math.PI / 2;
  world.add(robot);
  scene.add(world);

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
    const a = joint.parent.getWorldPosition(new Vector3());
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
  orbit(canvas, renderer, scene, points);
  return { joints, primitives };
}
