/**
 * Meshes and files of an adapter plate design (src/domain/plates): the solid is built with the
 * manifold-3d CSG kernel (WebAssembly, loaded once on first use) from the design's features (a
 * disc minus cylinders and hexagonal prisms), then written as binary STL and 3MF. The OpenSCAD
 * source states the same solid with the same polygon resolution. No triangle is made here by hand:
 * every triangle comes from the kernel.
 */
import { lazyRequire } from '../lazy-require.js';
import type { PlateDesign, PlateFeature } from '../domain/plates/index.js';

/** fflate, loaded by the first 3MF file (src/lazy-require.ts). */
const fflate = lazyRequire<typeof import('fflate')>('fflate');

/** Polygon resolution: segments of a hole circle and of the outer disc (OpenSCAD $fn alike). */
export const HOLE_SEGMENTS = 64;
export const OUTLINE_SEGMENTS = 128;
/** How far a cut runs past the face it opens on, mm (no coplanar faces in the booleans). */
const OVERCUT_MM = 1;

type ManifoldModule = Awaited<ReturnType<typeof import('manifold-3d').default>>;
let kernel: Promise<ManifoldModule> | null = null;

function loadKernel(): Promise<ManifoldModule> {
  return (kernel ??= import('manifold-3d').then(async (m) => {
    const wasm = await m.default();
    wasm.setup();
    return wasm;
  }));
}

export interface PlateMesh {
  /** xyz per vertex. */
  positions: Float32Array;
  /** Three vertex indices per triangle (counter-clockwise seen from outside). */
  triangles: Uint32Array;
  /** The kernel's volume of the solid, mm^3. */
  volume: number;
}

/** The z range a feature's cut spans, run past the faces it opens on. */
function cutRange(f: PlateFeature, thickness: number): { z0: number; z1: number } {
  const z0 = f.z_min_mm <= 0 ? -OVERCUT_MM : f.z_min_mm;
  const z1 = f.z_max_mm >= thickness ? thickness + OVERCUT_MM : f.z_max_mm;
  return { z0, z1 };
}

export async function plateMesh(design: PlateDesign): Promise<PlateMesh> {
  const { Manifold } = await loadKernel();
  const t = design.outline.thickness_mm;
  const owned: { delete(): void }[] = [];
  const keep = <T extends { delete(): void }>(m: T): T => (owned.push(m), m);
  try {
    const disc = keep(Manifold.cylinder(t, design.outline.diameter_mm / 2, design.outline.diameter_mm / 2, OUTLINE_SEGMENTS));
    const cuts = design.features.map((f) => {
      const { z0, z1 } = cutRange(f, t);
      const r = f.diameter_mm / 2;
      let c = keep(Manifold.cylinder(z1 - z0, r, r, f.shape === 'hexagon' ? 6 : HOLE_SEGMENTS));
      if (f.shape === 'hexagon' && f.rotation_deg) c = keep(c.rotate([0, 0, f.rotation_deg]));
      return keep(c.translate([f.x_mm, f.y_mm, z0]));
    });
    const solid = keep(Manifold.difference([disc, ...cuts]));
    const mesh = solid.getMesh();
    const n = mesh.numProp;
    const verts = mesh.vertProperties;
    const count = verts.length / n;
    const positions = new Float32Array(count * 3);
    for (let i = 0; i < count; i++) {
      positions[3 * i] = verts[n * i]!;
      positions[3 * i + 1] = verts[n * i + 1]!;
      positions[3 * i + 2] = verts[n * i + 2]!;
    }
    return { positions, triangles: Uint32Array.from(mesh.triVerts), volume: solid.volume() };
  } finally {
    for (const m of owned) m.delete();
  }
}

/** Binary STL: 80-byte header, triangle count, per triangle normal, three vertices, attribute 0. */
export function stlBytes(mesh: PlateMesh, title: string): Uint8Array {
  const nTri = mesh.triangles.length / 3;
  const buf = new ArrayBuffer(84 + 50 * nTri);
  const view = new DataView(buf);
  const header = fflate().strToU8(title.slice(0, 80));
  new Uint8Array(buf, 0, 80).set(header.subarray(0, 80));
  view.setUint32(80, nTri, true);
  const p = mesh.positions;
  let o = 84;
  for (let i = 0; i < nTri; i++) {
    const [a, b, c] = [mesh.triangles[3 * i]!, mesh.triangles[3 * i + 1]!, mesh.triangles[3 * i + 2]!];
    const ux = p[3 * b]! - p[3 * a]!, uy = p[3 * b + 1]! - p[3 * a + 1]!, uz = p[3 * b + 2]! - p[3 * a + 2]!;
    const vx = p[3 * c]! - p[3 * a]!, vy = p[3 * c + 1]! - p[3 * a + 1]!, vz = p[3 * c + 2]! - p[3 * a + 2]!;
    let nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const len = Math.hypot(nx, ny, nz) || 1;
    nx /= len; ny /= len; nz /= len;
    for (const v of [nx, ny, nz]) { view.setFloat32(o, v, true); o += 4; }
    for (const k of [a, b, c]) {
      view.setFloat32(o, p[3 * k]!, true);
      view.setFloat32(o + 4, p[3 * k + 1]!, true);
      view.setFloat32(o + 8, p[3 * k + 2]!, true);
      o += 12;
    }
    view.setUint16(o, 0, true);
    o += 2;
  }
  return new Uint8Array(buf);
}

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** Shortest decimal that reads back as the same float32. */
const num = (x: number) => String(Math.fround(x) === x ? x : Number(x.toPrecision(9)));

/** A fixed time stamp for the archive entries, so the same design gives the same bytes. */
const ZIP_TIME = new Date('2026-01-01T00:00:00Z');

/** 3MF package (OPC zip): content types, the root relationship and one mesh object, in millimetres. */
export function threeMfBytes(mesh: PlateMesh, title: string): Uint8Array {
  const p = mesh.positions;
  const parts: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    '<model unit="millimeter" xml:lang="en-US" xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02">\n',
    `<metadata name="Title">${xmlEscape(title)}</metadata>\n`,
    '<metadata name="Application">robot-parts-mcp</metadata>\n',
    '<resources>\n<object id="1" type="model">\n<mesh>\n<vertices>\n',
  ];
  for (let i = 0; i < p.length / 3; i++) parts.push(`<vertex x="${num(p[3 * i]!)}" y="${num(p[3 * i + 1]!)}" z="${num(p[3 * i + 2]!)}"/>\n`);
  parts.push('</vertices>\n<triangles>\n');
  const t = mesh.triangles;
  for (let i = 0; i < t.length / 3; i++) parts.push(`<triangle v1="${t[3 * i]}" v2="${t[3 * i + 1]}" v3="${t[3 * i + 2]}"/>\n`);
  parts.push('</triangles>\n</mesh>\n</object>\n</resources>\n<build>\n<item objectid="1"/>\n</build>\n</model>\n');
  const contentTypes =
    '<?xml version="1.0" encoding="UTF-8"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="model" ContentType="application/vnd.ms-package.3dmanufacturing-3dmodel+xml"/></Types>\n';
  const rels =
    '<?xml version="1.0" encoding="UTF-8"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    '<Relationship Target="/3D/3dmodel.model" Id="rel0" Type="http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel"/></Relationships>\n';
  const { strToU8, zipSync } = fflate();
  return zipSync(
    {
      '[Content_Types].xml': strToU8(contentTypes),
      '_rels/.rels': strToU8(rels),
      '3D/3dmodel.model': strToU8(parts.join('')),
    },
    { level: 6, mtime: ZIP_TIME },
  );
}

/** OpenSCAD source of the same solid: the disc minus every feature, same cuts and resolution. */
export function scadSource(design: PlateDesign, notes: string[]): string {
  const t = design.outline.thickness_mm;
  const lines = [
    `// Adapter plate ${design.id}`,
    `// side a: ${design.side_a.designation} (${design.side_a.bolt_count} x ${design.side_a.thread} on PCD ${design.side_a.pcd_mm} mm), counterbored from face b (z = ${t})`,
    `// side b: ${design.side_b.designation} (${design.side_b.bolt_count} x ${design.side_b.thread} on PCD ${design.side_b.pcd_mm} mm), ${design.b_holes === 'tapped' ? 'tap drill holes' : 'clearance holes with nut pockets in face a (z = 0)'}, turned ${design.angular_offset.side_b_deg} deg`,
    '// Units: mm. Generated by robot-parts-mcp (design_adapter_plate); every feature with its rule and source is in the JSON of the same design.',
    ...notes.map((n) => `// ${n.replace(/\n/g, ' ')}`),
    '',
    'difference() {',
    `  cylinder(h = ${t}, r = ${design.outline.diameter_mm / 2}, $fn = ${OUTLINE_SEGMENTS});`,
  ];
  for (const f of design.features) {
    const { z0, z1 } = cutRange(f, t);
    const fn = f.shape === 'hexagon' ? 6 : HOLE_SEGMENTS;
    const rot = f.shape === 'hexagon' && f.rotation_deg ? ` rotate([0, 0, ${f.rotation_deg}])` : '';
    lines.push(`  // ${f.id}: ${f.kind}, ${f.shape === 'hexagon' ? `${f.across_flats_mm} mm across flats` : `diameter ${f.diameter_mm} mm`}, depth ${f.depth_mm} mm from face ${f.from_face}`);
    lines.push(`  translate([${f.x_mm}, ${f.y_mm}, ${r4(z0)}])${rot} cylinder(h = ${r4(z1 - z0)}, r = ${f.diameter_mm / 2}, $fn = ${fn});`);
  }
  lines.push('}', '');
  return lines.join('\n');
}

function r4(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}
