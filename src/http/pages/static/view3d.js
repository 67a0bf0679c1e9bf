/**
 * The pages' shared three.js view (bundled into robot-view.js and plate-view.js; the MCP Apps
 * views can import it too): a renderer on a canvas, a lit scene with a z-up world (URDF and STL
 * are z-up; three.js is y-up), a camera framing what the world holds, orbit controls, and a
 * redraw on change and resize.
 */
import { AmbientLight, Box3, Color, DirectionalLight, Group, PerspectiveCamera, Scene, Vector3, WebGLRenderer } from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';

export function createView(canvas) {
  const renderer = new WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
  const scene = new Scene();
  scene.background = new Color(0xf4f6f8);
  scene.add(new AmbientLight(0xffffff, 1.2));
  const sun = new DirectionalLight(0xffffff, 1.5);
  sun.position.set(2, 3, 4);
  scene.add(sun);
  const world = new Group();
  world.rotation.x = -Math.PI / 2; // z-up content in a y-up scene
  scene.add(world);
  let camera = new PerspectiveCamera(40, 1, 0.01, 100);
  let controls = null;
  const draw = () => renderer.render(scene, camera);
  const resize = () => {
    const w = canvas.clientWidth || 600;
    const h = canvas.clientHeight || 400;
    renderer.setSize(w, h, false);
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
    draw();
  };
  /** Frames the scene (and extra points) from a three-quarter view, then draws. */
  const frame = (points = []) => {
    world.updateMatrixWorld(true);
    const all = new Box3().setFromObject(scene);
    for (const p of points) all.expandByPoint(p);
    const centre = all.getCenter(new Vector3());
    const radius = all.getSize(new Vector3()).length() / 2 || 1;
    camera = new PerspectiveCamera(40, 1, radius / 100, radius * 100);
    camera.position.copy(centre).add(new Vector3(radius * 1.6, radius * 1.1, radius * 1.9));
    controls?.dispose();
    controls = new OrbitControls(camera, canvas);
    controls.target.copy(centre);
    controls.addEventListener('change', draw);
    controls.update();
    resize();
  };
  window.addEventListener('resize', resize);
  return { renderer, scene, world, frame, draw };
}
