/**
 * A compact WebGL renderer for the MCP Apps views (three.js alone is ~540 kB minified, far over a
 * view's 80,000-character resource read budget; the pages keep three.js): triangle meshes with
 * per-vertex normals lit by one ambient and one directional light (Lambert), optionally
 * transparent, line segments, and an orbiting perspective camera framed on the bounding box
 * (drag to rotate, wheel or pinch to zoom), z up. Geometry is given in world coordinates (the
 * generators below take a placement), so the only matrix the shaders need is the camera's.
 */
import { Earcut } from 'three/src/extras/Earcut.js';

const VS = 'attribute vec3 p;attribute vec3 n;uniform mat4 vp;varying vec3 vn;void main(){vn=n;gl_Position=vp*vec4(p,1.0);}';
// Lambert in linear light, as three.js lights the pages (ambient 1.2 + directional 1.5, over π), sRGB out.
const FS = 'precision mediump float;uniform vec3 c;uniform float a;uniform float lit;uniform vec3 l;varying vec3 vn;void main(){vec3 o=c;if(lit>0.5){vec3 nn=normalize(vn);if(!gl_FrontFacing)nn=-nn;o=pow(min(pow(c,vec3(2.2))*(0.382+0.477*max(dot(nn,l),0.0)),1.0),vec3(1.0/2.2));}gl_FragColor=vec4(o,a);}';

/** A colour 0xrrggbb as [r, g, b] in 0..1. */
export const rgb = (hex) => [((hex >> 16) & 255) / 255, ((hex >> 8) & 255) / 255, (hex & 255) / 255];

/** Applies a column-major 4×4 placement to a point (w = 1) or a direction (w = 0). */
function apply(m, x, y, z, w) {
  return [m[0] * x + m[4] * y + m[8] * z + m[12] * w, m[1] * x + m[5] * y + m[9] * z + m[13] * w, m[2] * x + m[6] * y + m[10] * z + m[14] * w];
}

/** Geometry under construction: positions, normals (world), triangles as index triples. */
class Builder {
  constructor(m) {
    this.m = m;
    this.p = [];
    this.n = [];
  }
  /** One triangle from local points and local normals (one per point). */
  tri(a, b, c, na, nb = na, nc = na) {
    for (const [q, nq] of [[a, na], [b, nb], [c, nc]]) {
      this.p.push(...(this.m ? apply(this.m, q[0], q[1], q[2], 1) : q));
      const v = this.m ? apply(this.m, nq[0], nq[1], nq[2], 0) : nq;
      this.n.push(...v);
    }
  }
  quad(a, b, c, d, na, nb = na, nc = nb, nd = na) {
    this.tri(a, b, c, na, nb, nc);
    this.tri(a, c, d, na, nc, nd);
  }
  done() {
    return { positions: new Float32Array(this.p), normals: new Float32Array(this.n) };
  }
}

/** A box of size [x, y, z] centred on the placement's origin. */
export function box(size, m) {
  const g = new Builder(m);
  const [x, y, z] = size.map((s) => s / 2);
  const faces = [
    [[1, 0, 0], [x, -y, -z], [x, y, -z], [x, y, z], [x, -y, z]],
    [[-1, 0, 0], [-x, y, -z], [-x, -y, -z], [-x, -y, z], [-x, y, z]],
    [[0, 1, 0], [x, y, -z], [-x, y, -z], [-x, y, z], [x, y, z]],
    [[0, -1, 0], [-x, -y, -z], [x, -y, -z], [x, -y, z], [-x, -y, z]],
    [[0, 0, 1], [-x, -y, z], [x, -y, z], [x, y, z], [-x, y, z]],
    [[0, 0, -1], [-x, y, -z], [x, y, -z], [x, -y, -z], [-x, -y, -z]],
  ];
  for (const [nrm, a, b, c, d] of faces) g.quad(a, b, c, d, nrm);
  return g.done();
}

/**
 * A cylinder along z (radius, length) centred on the placement's origin; `segments` sides (6 draws
 * a hexagonal prism, its first corner on +x turned by `turn` radians); `caps` false leaves it open.
 */
export function cylinder(radius, length, m, { segments = 32, caps = true, turn = 0 } = {}) {
  const g = new Builder(m);
  const h = length / 2;
  const smooth = segments > 8;
  for (let i = 0; i < segments; i++) {
    const a0 = turn + (i / segments) * 2 * Math.PI;
    const a1 = turn + ((i + 1) / segments) * 2 * Math.PI;
    const c0 = Math.cos(a0), s0 = Math.sin(a0), c1 = Math.cos(a1), s1 = Math.sin(a1);
    const p0 = [radius * c0, radius * s0], p1 = [radius * c1, radius * s1];
    const flat = [Math.cos((a0 + a1) / 2), Math.sin((a0 + a1) / 2), 0];
    const n0 = smooth ? [c0, s0, 0] : flat, n1 = smooth ? [c1, s1, 0] : flat;
    g.quad([p0[0], p0[1], -h], [p1[0], p1[1], -h], [p1[0], p1[1], h], [p0[0], p0[1], h], n0, n1, n1, n0);
    if (caps) {
      g.tri([0, 0, h], [p0[0], p0[1], h], [p1[0], p1[1], h], [0, 0, 1]);
      g.tri([0, 0, -h], [p1[0], p1[1], -h], [p0[0], p0[1], -h], [0, 0, -1]);
    }
  }
  return g.done();
}

/** A sphere of the radius given, centred on the placement's origin. */
export function sphere(radius, m, rings = 8, sides = 12) {
  const g = new Builder(m);
  const at = (i, j) => {
    const t = (i / rings) * Math.PI;
    const f = (j / sides) * 2 * Math.PI;
    return [Math.sin(t) * Math.cos(f), Math.sin(t) * Math.sin(f), Math.cos(t)];
  };
  const s = (v) => v.map((x) => x * radius);
  for (let i = 0; i < rings; i++) {
    for (let j = 0; j < sides; j++) {
      const a = at(i, j), b = at(i + 1, j), c = at(i + 1, j + 1), d = at(i, j + 1);
      g.quad(s(a), s(b), s(c), s(d), a, b, c, d);
    }
  }
  return g.done();
}

/**
 * A flat disc (radius) with circular holes ({x, y, r}) extruded along z from 0 to `depth`:
 * both faces triangulated with earcut, the outer and hole walls as quads.
 */
export function holedDisc(radius, holes, depth, segments = 64, holeSegments = 24) {
  const g = new Builder(null);
  const ring = (cx, cy, r, n, dir) => Array.from({ length: n }, (_, i) => {
    const a = dir * (i / n) * 2 * Math.PI;
    return [cx + r * Math.cos(a), cy + r * Math.sin(a)];
  });
  const outer = ring(0, 0, radius, segments, 1);
  const inner = holes.map((h) => ring(h.x, h.y, h.r, holeSegments, -1));
  const flat = [];
  const holeStarts = [];
  for (const p of outer) flat.push(p[0], p[1]);
  for (const h of inner) {
    holeStarts.push(flat.length / 2);
    for (const p of h) flat.push(p[0], p[1]);
  }
  const idx = Earcut.triangulate(flat, holeStarts, 2);
  const pt = (i, z) => [flat[i * 2], flat[i * 2 + 1], z];
  for (let i = 0; i < idx.length; i += 3) {
    const [a, b, c] = [idx[i], idx[i + 1], idx[i + 2]];
    // Earcut's winding depends on the input; each face is oriented by its normal here.
    const cross = (flat[b * 2] - flat[a * 2]) * (flat[c * 2 + 1] - flat[a * 2 + 1]) - (flat[b * 2 + 1] - flat[a * 2 + 1]) * (flat[c * 2] - flat[a * 2]);
    const [p, q] = cross > 0 ? [b, c] : [c, b];
    g.tri(pt(a, depth), pt(p, depth), pt(q, depth), [0, 0, 1]);
    g.tri(pt(a, 0), pt(q, 0), pt(p, 0), [0, 0, -1]);
  }
  const wall = (loop, outward) => {
    for (let i = 0; i < loop.length; i++) {
      const a = loop[i], b = loop[(i + 1) % loop.length];
      const mx = (a[0] + b[0]) / 2, my = (a[1] + b[1]) / 2;
      const c = outward ? [0, 0] : [loop.reduce((s, v) => s + v[0], 0) / loop.length, loop.reduce((s, v) => s + v[1], 0) / loop.length];
      const dx = (mx - c[0]) * (outward ? 1 : -1), dy = (my - c[1]) * (outward ? 1 : -1);
      const l = Math.hypot(dx, dy) || 1;
      g.quad([a[0], a[1], 0], [b[0], b[1], 0], [b[0], b[1], depth], [a[0], a[1], depth], [dx / l, dy / l, 0]);
    }
  };
  wall(outer, true);
  for (const h of inner) wall(h, false);
  return g.done();
}

/** Column-major perspective projection. */
function perspective(fovy, aspect, near, far) {
  const f = 1 / Math.tan(fovy / 2);
  const nf = 1 / (near - far);
  return [f / aspect, 0, 0, 0, 0, f, 0, 0, 0, 0, (far + near) * nf, -1, 0, 0, 2 * far * near * nf, 0];
}

const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const unit = (a) => {
  const l = Math.hypot(a[0], a[1], a[2]) || 1;
  return [a[0] / l, a[1] / l, a[2] / l];
};

/** Column-major view matrix of an eye looking at a target, z up. */
function lookAt(eye, target) {
  const z = unit(sub(eye, target));
  const x = unit(cross([0, 0, 1], z));
  const y = cross(z, x);
  return [x[0], y[0], z[0], 0, x[1], y[1], z[1], 0, x[2], y[2], z[2], 0, -dot(x, eye), -dot(y, eye), -dot(z, eye), 1];
}

function mul(a, b) {
  const o = new Array(16);
  for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) o[c * 4 + r] = a[r] * b[c * 4] + a[4 + r] * b[c * 4 + 1] + a[8 + r] * b[c * 4 + 2] + a[12 + r] * b[c * 4 + 3];
  return o;
}

function compile(gl) {
  const prog = gl.createProgram();
  for (const [type, src] of [[gl.VERTEX_SHADER, VS], [gl.FRAGMENT_SHADER, FS]]) {
    const s = gl.createShader(type);
    gl.shaderSource(s, src);
    gl.compileShader(s);
    if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(`shader: ${gl.getShaderInfoLog(s)}`);
    gl.attachShader(prog, s);
  }
  gl.bindAttribLocation(prog, 0, 'p');
  gl.bindAttribLocation(prog, 1, 'n');
  gl.linkProgram(prog);
  if (!gl.getProgramParameter(prog, gl.LINK_STATUS)) throw new Error(`shader link: ${gl.getProgramInfoLog(prog)}`);
  return prog;
}

/**
 * A stage on `canvas` with the background colour given (0xrrggbb). Add meshes and lines, then
 * call `show()` once: it frames the camera, wires rotate and zoom, and draws on every change and
 * resize. Throws when the browser offers no WebGL.
 */
export function createStage(canvas, background = 0xf4f6f8) {
  // No alpha channel: the canvas is opaque (blending never lets the page show through).
  const opts = { alpha: false, antialias: true, preserveDrawingBuffer: true };
  const gl = canvas.getContext('webgl', opts) || canvas.getContext('experimental-webgl', opts);
  if (!gl) throw new Error('this browser offers no WebGL');
  const prog = compile(gl);
  const u = Object.fromEntries(['vp', 'c', 'a', 'lit', 'l'].map((k) => [k, gl.getUniformLocation(prog, k)]));
  const items = [];
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  const grow = (pos) => {
    for (let i = 0; i < pos.length; i += 3) {
      for (let k = 0; k < 3; k++) {
        lo[k] = Math.min(lo[k], pos[i + k]);
        hi[k] = Math.max(hi[k], pos[i + k]);
      }
    }
  };
  const upload = (data) => {
    const b = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, b);
    gl.bufferData(gl.ARRAY_BUFFER, data, gl.STATIC_DRAW);
    return b;
  };
  let camera = null;

  const stage = {
    /** A triangle mesh ({positions, normals}) in a colour, opacity 0..1 (below 1 blends). */
    mesh(geo, colour, opacity = 1) {
      grow(geo.positions);
      items.push({ mode: gl.TRIANGLES, p: upload(geo.positions), n: upload(geo.normals), count: geo.positions.length / 3, colour: rgb(colour), opacity, lit: 1 });
      return stage;
    },
    /** Line segments: pairs of points [x, y, z]. */
    lines(points, colour) {
      const pos = new Float32Array(points.flat());
      grow(pos);
      items.push({ mode: gl.LINES, p: upload(pos), n: upload(new Float32Array(pos.length)), count: points.length, colour: rgb(colour), opacity: 1, lit: 0 });
      return stage;
    },
    /** The bounding box of what was added: { min, max }. */
    bounds: () => ({ min: lo.slice(), max: hi.slice() }),
    draw() {
      const w = gl.drawingBufferWidth, h = gl.drawingBufferHeight;
      gl.viewport(0, 0, w, h);
      const bg = rgb(background);
      gl.clearColor(bg[0], bg[1], bg[2], 1);
      gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
      gl.enable(gl.DEPTH_TEST);
      gl.useProgram(prog);
      const { target, dist, az, el, radius } = camera;
      const eye = [target[0] + dist * Math.cos(el) * Math.cos(az), target[1] + dist * Math.cos(el) * Math.sin(az), target[2] + dist * Math.sin(el)];
      gl.uniformMatrix4fv(u.vp, false, new Float32Array(mul(perspective((40 * Math.PI) / 180, w / h || 1, radius / 100, radius * 100), lookAt(eye, target))));
      gl.uniform3fv(u.l, unit([2, -4, 3]));
      // Opaque first, then the transparent ones without writing depth.
      for (const pass of [false, true]) {
        gl.depthMask(!pass);
        if (pass) {
          gl.enable(gl.BLEND);
          gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
        } else gl.disable(gl.BLEND);
        for (const it of items) {
          if ((it.opacity < 1) !== pass) continue;
          gl.bindBuffer(gl.ARRAY_BUFFER, it.p);
          gl.enableVertexAttribArray(0);
          gl.vertexAttribPointer(0, 3, gl.FLOAT, false, 0, 0);
          gl.bindBuffer(gl.ARRAY_BUFFER, it.n);
          gl.enableVertexAttribArray(1);
          gl.vertexAttribPointer(1, 3, gl.FLOAT, false, 0, 0);
          gl.uniform3fv(u.c, it.colour);
          gl.uniform1f(u.a, it.opacity);
          gl.uniform1f(u.lit, it.lit);
          gl.drawArrays(it.mode, 0, it.count);
        }
      }
      gl.depthMask(true);
    },
    resize() {
      const dpr = Math.min(window.devicePixelRatio || 1, 2);
      const w = canvas.clientWidth || 600;
      const h = canvas.clientHeight || 400;
      canvas.width = Math.round(w * dpr);
      canvas.height = Math.round(h * dpr);
      stage.draw();
    },
    /** Frames the camera on the bounding box (and any extra points), wires the controls, draws. */
    show(extraPoints = []) {
      for (const p of extraPoints) grow(p);
      const ok = lo.every(Number.isFinite);
      const target = ok ? lo.map((v, k) => (v + hi[k]) / 2) : [0, 0, 0];
      const radius = (ok ? Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) / 2 : 0) || 1;
      // The direction the pages' camera looks from (three.js' (1.6, 1.1, 1.9) in a y-up world is (1.6, -1.9, 1.1) z-up).
      const off = [1.6, -1.9, 1.1];
      camera = { target, radius, dist: radius * Math.hypot(...off), az: Math.atan2(off[1], off[0]), el: Math.asin(off[2] / Math.hypot(...off)) };
      controls(canvas, camera, stage.draw);
      window.addEventListener('resize', stage.resize);
      stage.resize();
      return stage;
    },
  };
  return stage;
}

/** Drag to rotate, wheel or pinch to zoom. */
function controls(canvas, cam, draw) {
  canvas.style.touchAction = 'none';
  const down = new Map();
  let pinch = 0;
  const spread = () => {
    const [a, b] = [...down.values()];
    return Math.hypot(a.x - b.x, a.y - b.y);
  };
  const zoom = (f) => {
    cam.dist = Math.min(cam.radius * 50, Math.max(cam.radius / 20, cam.dist * f));
    draw();
  };
  canvas.addEventListener('pointerdown', (e) => {
    down.set(e.pointerId, { x: e.clientX, y: e.clientY });
    canvas.setPointerCapture?.(e.pointerId);
    if (down.size === 2) pinch = spread();
  });
  canvas.addEventListener('pointermove', (e) => {
    const last = down.get(e.pointerId);
    if (!last) return;
    const dx = e.clientX - last.x, dy = e.clientY - last.y;
    down.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (down.size === 2) {
      const s = spread();
      if (pinch > 0 && s > 0) zoom(pinch / s);
      pinch = s;
    } else if (down.size === 1) {
      cam.az -= dx * 0.008;
      cam.el = Math.max(-1.5, Math.min(1.5, cam.el + dy * 0.008));
      draw();
    }
  });
  const up = (e) => {
    down.delete(e.pointerId);
    pinch = 0;
  };
  canvas.addEventListener('pointerup', up);
  canvas.addEventListener('pointercancel', up);
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    zoom(Math.exp(e.deltaY * 0.001));
  }, { passive: false });
}
