/**
 * For test/apps/urdf-model.test.ts, bundled by esbuild into a Chromium page: the same URDF text
 * read by urdf-loader (three.js, the pages' reader: the oracle) and by src/views/urdf-model.js
 * (the views' compact reader), each side's frames at the zero pose reported as plain numbers.
 */
import URDFLoader from 'urdf-loader/src/URDFLoader.js';
import { readUrdf } from '../../src/views/urdf-model.js';

const prim = (group) => group.children.find((c) => c.isMesh && c.geometry && /^(Box|Cylinder|Sphere)Geometry$/.test(c.geometry.type));

window.frames = (text) => {
  const loader = new URDFLoader();
  loader.parseCollision = true;
  loader.loadMeshCb = (_path, _manager, _material, done) => done(null);
  const robot = loader.parse(text);
  robot.updateMatrixWorld(true);
  const oracle = { joints: {}, links: {}, shapes: {} };
  for (const [name, j] of Object.entries(robot.joints)) oracle.joints[name] = { type: j.jointType, m: [...j.matrixWorld.elements] };
  for (const [name, l] of Object.entries(robot.links)) {
    oracle.links[name] = [...l.matrixWorld.elements];
    // The visuals' and the collisions' primitives, visuals first (the order both readers keep).
    const groups = ['isURDFVisual', 'isURDFCollider'].flatMap((kind) => l.children.filter((c) => c[kind]).map(prim).filter(Boolean).map((mesh) => ({ kind, mesh })));
    oracle.shapes[name] = groups.map(({ kind, mesh }) => ({
      from: kind === 'isURDFVisual' ? 'visual' : 'collision',
      type: mesh.geometry.type.replace('Geometry', '').toLowerCase(),
      // The origin's frame is the group's (the mesh under it only scales, and turns a cylinder from y to z).
      m: [...mesh.parent.matrixWorld.elements],
      scale: [mesh.scale.x, mesh.scale.y, mesh.scale.z],
    }));
  }
  const model = readUrdf(text);
  const compact = { joints: {}, links: {}, shapes: {}, jointCount: model.joints.length, roots: model.roots };
  for (const j of model.joints) compact.joints[j.name] = { type: j.type, m: j.world };
  for (const [name, l] of model.links) {
    compact.links[name] = l.world;
    compact.shapes[name] = l.shapes.map((s) => ({ from: s.from, type: s.type, m: s.world, size: s.size ?? null, radius: s.radius ?? null, length: s.length ?? null }));
  }
  return { oracle, compact };
};
