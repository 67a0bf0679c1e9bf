/**
 * A small URDF reader for the MCP Apps views (the pages use urdf-loader with three.js, which does
 * not fit a view's resource read budget): the links, the joints (type, parent, child, origin,
 * axis, limits), the root link(s), the world transform of every link and joint at the zero pose,
 * and the primitive geometry of each link's visual and collision elements (both, as the pages'
 * urdf-loader draws them: many URDFs have meshes as visuals and primitives as collisions): box,
 * cylinder (along z) and sphere, each with its world transform. Meshes are not shipped: a mesh element
 * draws nothing and is counted. test/apps/urdf-model.test.ts checks the transforms against
 * urdf-loader in Chromium.
 *
 * Transforms are 4×4 matrices in column-major order (as WebGL takes them): m[12..14] is the
 * translation. URDF's rpy is fixed-axis roll, pitch, yaw: R = Rz(yaw)·Ry(pitch)·Rx(roll).
 * `modelFromRobot` uses only the element API (nodeName, children, getAttribute), so any parser
 * that offers it will do; `readUrdf` parses the text with the browser's DOMParser.
 */

const tuple = (v, n = 3) => {
  const out = v ? v.trim().split(/\s+/).map(Number) : [];
  while (out.length < n) out.push(0);
  return out.map((x) => (Number.isFinite(x) ? x : 0));
};
const num = (v) => (v === null || v === undefined || v === '' ? null : Number.isFinite(Number(v)) ? Number(v) : null);
const kids = (node, name) => [...node.children].filter((c) => c.nodeName.toLowerCase() === name);
const kid = (node, name) => kids(node, name)[0] ?? null;

export const IDENTITY = Object.freeze([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);

/** The transform of an origin: translation xyz, rotation R = Rz(y)·Ry(p)·Rx(r). */
export function originMatrix(xyz, rpy) {
  const [r, p, y] = rpy;
  const cr = Math.cos(r), sr = Math.sin(r), cp = Math.cos(p), sp = Math.sin(p), cy = Math.cos(y), sy = Math.sin(y);
  return [
    cy * cp, sy * cp, -sp, 0,
    cy * sp * sr - sy * cr, sy * sp * sr + cy * cr, cp * sr, 0,
    cy * sp * cr + sy * sr, sy * sp * cr - cy * sr, cp * cr, 0,
    xyz[0], xyz[1], xyz[2], 1,
  ];
}

/** a·b (column-major 4×4). */
export function multiply(a, b) {
  const o = new Array(16);
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      o[c * 4 + r] = a[r] * b[c * 4] + a[4 + r] * b[c * 4 + 1] + a[8 + r] * b[c * 4 + 2] + a[12 + r] * b[c * 4 + 3];
    }
  }
  return o;
}

const origin = (node) => {
  const o = node && kid(node, 'origin');
  return { xyz: tuple(o?.getAttribute('xyz')), rpy: tuple(o?.getAttribute('rpy')) };
};

function shapeOf(g) {
  const el = g && g.children[0];
  if (!el) return null;
  const type = el.nodeName.toLowerCase();
  if (type === 'box') return { type, size: tuple(el.getAttribute('size')) };
  if (type === 'cylinder') return { type, radius: num(el.getAttribute('radius')) ?? 0, length: num(el.getAttribute('length')) ?? 0 };
  if (type === 'sphere') return { type, radius: num(el.getAttribute('radius')) ?? 0 };
  return { type };
}

/** The model of a <robot> element; throws when the element is missing. */
export function modelFromRobot(robot) {
  if (!robot || robot.nodeName !== 'robot') throw new Error('the text has no <robot> element');
  const links = new Map();
  for (const l of kids(robot, 'link')) {
    const name = l.getAttribute('name');
    const shapes = [];
    let meshes = 0;
    for (const v of [...kids(l, 'visual'), ...kids(l, 'collision')]) {
      const s = shapeOf(kid(v, 'geometry'));
      if (!s) continue;
      if (s.type === 'mesh') meshes += 1;
      if (s.type !== 'box' && s.type !== 'cylinder' && s.type !== 'sphere') continue;
      const o = origin(v);
      shapes.push({ ...s, from: v.nodeName.toLowerCase(), origin: o, local: originMatrix(o.xyz, o.rpy), world: null });
    }
    links.set(name, { name, shapes, meshes, world: null });
  }
  const joints = kids(robot, 'joint').map((j) => {
    const o = origin(j);
    const axis = kid(j, 'axis');
    const limit = kid(j, 'limit');
    return {
      name: j.getAttribute('name'),
      type: j.getAttribute('type'),
      parent: kid(j, 'parent')?.getAttribute('link') ?? null,
      child: kid(j, 'child')?.getAttribute('link') ?? null,
      origin: o,
      axis: axis ? tuple(axis.getAttribute('xyz')) : [1, 0, 0],
      limits: limit ? { lower: num(limit.getAttribute('lower')), upper: num(limit.getAttribute('upper')), effort: num(limit.getAttribute('effort')), velocity: num(limit.getAttribute('velocity')) } : null,
      local: originMatrix(o.xyz, o.rpy),
      world: null,
    };
  });
  const children = new Set(joints.map((j) => j.child));
  const roots = [...links.keys()].filter((n) => !children.has(n));
  // Zero pose: a joint's frame is its parent link's frame times its origin; the child link's frame is the joint's.
  const byParent = new Map();
  for (const j of joints) byParent.set(j.parent, [...(byParent.get(j.parent) ?? []), j]);
  const queue = [];
  for (const r of roots) {
    links.get(r).world = IDENTITY.slice();
    queue.push(r);
  }
  while (queue.length) {
    const name = queue.shift();
    const frame = links.get(name).world;
    for (const j of byParent.get(name) ?? []) {
      if (j.world) continue;
      j.world = multiply(frame, j.local);
      const child = links.get(j.child);
      if (child && !child.world) {
        child.world = j.world;
        queue.push(j.child);
      }
    }
  }
  let primitives = 0;
  let meshes = 0;
  for (const l of links.values()) {
    meshes += l.meshes;
    for (const s of l.shapes) {
      if (!l.world) continue;
      s.world = multiply(l.world, s.local);
      primitives += 1;
    }
  }
  return { name: robot.getAttribute('name'), links, joints, roots, primitives, meshes };
}

/** The model of a URDF text, parsed with the browser's DOMParser. */
export function readUrdf(text) {
  const doc = new DOMParser().parseFromString(text, 'text/xml');
  const err = doc.getElementsByTagName('parsererror')[0];
  if (err) throw new Error(`the URDF is not well-formed XML: ${(err.textContent || '').trim().split('\n')[0]}`);
  return modelFromRobot([...doc.children].find((c) => c.nodeName === 'robot'));
}
