/**
 * Independent readers for the plate tests: a binary STL parser, mesh checks (closed 2-manifold,
 * volume by the divergence theorem, vertical rays) and the analytic volume of a design computed
 * from its listed features. Nothing here calls the production geometry code.
 */
export interface Tri {
  a: [number, number, number];
  b: [number, number, number];
  c: [number, number, number];
}

export function parseStl(bytes: Uint8Array): Tri[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = view.getUint32(80, true);
  if (bytes.byteLength !== 84 + 50 * n) throw new Error(`STL length ${bytes.byteLength} does not match ${n} triangles`);
  const tris: Tri[] = [];
  for (let i = 0; i < n; i++) {
    const o = 84 + 50 * i + 12;
    const v = (k: number): [number, number, number] => [view.getFloat32(o + 12 * k, true), view.getFloat32(o + 12 * k + 4, true), view.getFloat32(o + 12 * k + 8, true)];
    tris.push({ a: v(0), b: v(1), c: v(2) });
  }
  return tris;
}

/** Every undirected edge shared by exactly two triangles, and each directed edge used once (consistent orientation). */
export function manifoldReport(tris: Tri[]): { edges: number; badEdges: number; badDirected: number; vertices: number } {
  const ids = new Map<string, number>();
  const id = (p: number[]) => {
    const k = p.join(',');
    let v = ids.get(k);
    if (v === undefined) ids.set(k, (v = ids.size));
    return v;
  };
  const undirected = new Map<string, number>();
  const directed = new Map<string, number>();
  for (const t of tris) {
    const [a, b, c] = [id(t.a), id(t.b), id(t.c)];
    for (const [p, q] of [[a, b], [b, c], [c, a]] as const) {
      const u = p < q ? `${p}-${q}` : `${q}-${p}`;
      undirected.set(u, (undirected.get(u) ?? 0) + 1);
      directed.set(`${p}>${q}`, (directed.get(`${p}>${q}`) ?? 0) + 1);
    }
  }
  return {
    edges: undirected.size,
    badEdges: [...undirected.values()].filter((n) => n !== 2).length,
    badDirected: [...directed.values()].filter((n) => n !== 1).length,
    vertices: ids.size,
  };
}

/** Signed volume enclosed by the triangles (sum of tetrahedra to the origin). */
export function meshVolume(tris: Tri[]): number {
  let v = 0;
  for (const { a, b, c } of tris) {
    v += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0])) / 6;
  }
  return v;
}

/** Whether the vertical line through (x, y) passes through any triangle's projection (strictly inside). */
export function verticalRayHits(tris: Tri[], x: number, y: number): number {
  let hits = 0;
  for (const { a, b, c } of tris) {
    const d1 = (b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]);
    const d2 = (c[0] - b[0]) * (y - b[1]) - (c[1] - b[1]) * (x - b[0]);
    const d3 = (a[0] - c[0]) * (y - c[1]) - (a[1] - c[1]) * (x - c[0]);
    if ((d1 > 0 && d2 > 0 && d3 > 0) || (d1 < 0 && d2 < 0 && d3 < 0)) hits++;
  }
  return hits;
}

export interface Feature {
  kind: string;
  side: 'a' | 'b';
  hole: number;
  shape: 'circle' | 'hexagon';
  diameter_mm: number;
  across_flats_mm: number | null;
  depth_mm: number;
  z_min_mm: number;
  z_max_mm: number;
  x_mm: number;
  y_mm: number;
  rule: string;
  source_ids: number[];
}

/** Disc minus, per hole, its through cut plus the extra area of a pocket over the pocket's depth. */
export function analyticVolume(diameter: number, thickness: number, features: Feature[]): number {
  const area = (f: Feature) => (f.shape === 'hexagon' ? (3 * Math.sqrt(3) / 2) * (f.across_flats_mm! / Math.sqrt(3)) ** 2 : Math.PI * (f.diameter_mm / 2) ** 2);
  let v = Math.PI * (diameter / 2) ** 2 * thickness;
  const holes = new Map<string, Feature[]>();
  for (const f of features) holes.set(`${f.side}${f.hole}`, [...(holes.get(`${f.side}${f.hole}`) ?? []), f]);
  for (const fs of holes.values()) {
    const through = fs.filter((f) => f.z_min_mm === 0 && f.z_max_mm === thickness);
    if (through.length !== 1) throw new Error(`hole ${fs[0]!.side}${fs[0]!.hole}: expected one through feature, got ${through.length}`);
    v -= area(through[0]!) * thickness;
    for (const p of fs.filter((f) => f !== through[0])) v -= (area(p) - area(through[0]!)) * (p.z_max_mm - p.z_min_mm);
  }
  return v;
}
