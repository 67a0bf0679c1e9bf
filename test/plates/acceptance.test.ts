/**
 * Adapter plates, acceptance: for every ordered pair of registered designations that needs an
 * adapter, and both hole options of side b, over REST on a loopback server:
 * - the STL is a closed, consistently oriented 2-manifold (parsed here from the bytes);
 * - its volume (from the triangles) equals the volume computed here from the JSON's features
 *   (disc minus cylinders, hexagonal prisms, counterbores) within 0.5 %;
 * - a vertical ray through each listed hole centre meets no triangle;
 * - the through holes on each pitch circle number the registry's bolt count (registry file read here).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { unzipSync, strFromU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRealServer } from '../support/http.js';
import { analyticVolume, manifoldReport, meshVolume, parseStl, verticalRayHits, type Feature } from './mesh-support.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const registry = JSON.parse(fs.readFileSync(path.join(ROOT, 'data/flange/designations.json'), 'utf8')) as {
  designations: { designation: string; pcd_mm: number; bolt_count: number; thread: string }[];
};
const rows = registry.designations;
const pairs = rows.flatMap((a) => rows.filter((b) => b !== a && (b.pcd_mm !== a.pcd_mm || b.bolt_count !== a.bolt_count)).map((b) => [a, b] as const));

let server: Awaited<ReturnType<typeof startRealServer>>;
beforeAll(async () => {
  server = await startRealServer();
});
afterAll(async () => {
  await server?.stop();
});

async function get(q: Record<string, string>) {
  const res = await fetch(`${server.url}/api/adapter-plate?${new URLSearchParams(q)}`);
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

describe('adapter plates for every registered pair that needs one', () => {
  it('the registry has pairs needing an adapter (9 designations, 72 ordered pairs)', () => {
    expect(rows.length).toBe(9);
    expect(pairs.length).toBe(72);
  });

  for (const b_holes of ['tapped', 'nut'] as const) {
    it(`STL closed 2-manifold, volume within 0.5 % of the features, clear holes, registry hole counts (b_holes ${b_holes})`, async () => {
      const worst = { volume: 0, pair: '' };
      for (const [a, b] of pairs) {
        const label = `${a.designation} / ${b.designation} (${b_holes})`;
        const j = await get({ a: a.designation, b: b.designation, b_holes });
        expect(j.res.status, label).toBe(200);
        const answer = JSON.parse(Buffer.from(j.bytes).toString('utf8'));
        expect(answer.plate_needed, label).toBe(true);
        const d = answer.design;
        const features = d.features as Feature[];
        const t = d.outline.thickness_mm as number;

        const s = await get({ a: a.designation, b: b.designation, b_holes, format: 'stl' });
        expect(s.res.status, label).toBe(200);
        const tris = parseStl(s.bytes);
        const m = manifoldReport(tris);
        expect(m.badEdges, `${label}: edges not shared by exactly two triangles`).toBe(0);
        expect(m.badDirected, `${label}: inconsistently oriented edges`).toBe(0);
        expect(m.vertices - m.edges + tris.length, `${label}: Euler characteristic of a disc with ${features.length} cuts`).toBe(2 - 2 * (a.bolt_count + b.bolt_count));

        const expected = analyticVolume(d.outline.diameter_mm, t, features);
        const got = meshVolume(tris);
        const rel = Math.abs(got - expected) / expected;
        if (rel > worst.volume) Object.assign(worst, { volume: rel, pair: label });
        expect(rel, `${label}: mesh ${got} vs features ${expected}`).toBeLessThan(0.005);

        // The centre and four points 0.01 mm around it (a triangle edge running exactly through one point cannot hide material).
        const around = [[0, 0], [0.01, 0], [-0.01, 0], [0, 0.01], [0, -0.01]];
        for (const f of features) {
          for (const [dx, dy] of around) expect(verticalRayHits(tris, f.x_mm + dx!, f.y_mm + dy!), `${label}: ray through ${f.kind} ${f.side}${f.hole}`).toBe(0);
        }
        // Where there is no hole the ray meets material twice (faces a and b): the ray test can fail.
        expect(verticalRayHits(tris, 0.3137, 0.1729), `${label}: the plate near its centre is material`).toBe(2);

        const through = features.filter((f) => f.z_min_mm === 0 && f.z_max_mm === t);
        for (const row of [a, b]) {
          const on = through.filter((f) => Math.abs(Math.hypot(f.x_mm, f.y_mm) - row.pcd_mm / 2) < 1e-3);
          expect(on.length, `${label}: through holes on PCD ${row.pcd_mm}`).toBe(row.bolt_count);
        }
        expect(through.length).toBe(a.bolt_count + b.bolt_count);
        // Each source listed once (issue 40: the list used to be repeated per hole).
        expect(new Set(d.sources).size, `${label}: sources listed once`).toBe(d.sources.length);
        for (const f of features) {
          expect(f.source_ids.length, `${label}: ${f.kind} has a source`).toBeGreaterThan(0);
          for (const i of f.source_ids) expect(d.sources[i], `${label}: ${f.kind} source ${i} is listed`).toMatch(/\S/);
          expect(f.rule, `${label}: ${f.kind} has a rule`).not.toBe('');
        }
      }
      console.log(`worst mesh/feature volume difference (${b_holes}): ${(worst.volume * 100).toFixed(3)} % (${worst.pair})`);
    }, 600_000);
  }
});

describe('REST files', () => {
  const [a, b] = [rows.find((r) => r.designation === 'ISO9409-1-A50-4-M6')!, rows.find((r) => r.designation === 'ISO9409-1-A63-6-M6')!];

  it('STL, 3MF and SCAD come with their content type and a file name', async () => {
    const expected = { stl: 'model/stl', '3mf': 'model/3mf', scad: 'application/x-openscad' };
    for (const [format, type] of Object.entries(expected)) {
      const r = await get({ a: 'ISO 9409-1-50-4-M6', b: b.designation, format });
      expect(r.res.status).toBe(200);
      expect(r.res.headers.get('content-type')).toBe(type);
      expect(r.res.headers.get('content-disposition')).toBe(`attachment; filename="adapter-plate_ISO9409-1-A50-4-M6_ISO9409-1-A63-6-M6_tapped.${format}"`);
    }
  });

  it('the 3MF package holds the same mesh as the STL', async () => {
    const stl = parseStl((await get({ a: a.designation, b: b.designation, format: 'stl' })).bytes);
    const files = unzipSync((await get({ a: a.designation, b: b.designation, format: '3mf' })).bytes);
    expect(Object.keys(files).sort()).toEqual(['3D/3dmodel.model', '[Content_Types].xml', '_rels/.rels']);
    expect(strFromU8(files['[Content_Types].xml']!)).toContain('application/vnd.ms-package.3dmanufacturing-3dmodel+xml');
    expect(strFromU8(files['_rels/.rels']!)).toContain('Target="/3D/3dmodel.model"');
    const model = strFromU8(files['3D/3dmodel.model']!);
    expect(model).toMatch(/<model unit="millimeter"/);
    const triangles = model.match(/<triangle /g)!.length;
    const vertices = model.match(/<vertex /g)!.length;
    expect(triangles).toBe(stl.length);
    expect(vertices).toBe(manifoldReport(stl).vertices);
  });

  it('the same flange on both sides: no plate needed, in JSON even when a file is asked for', async () => {
    for (const format of ['json', 'stl']) {
      const r = await get({ a: a.designation, b: 'iso 9409-1-a50-4-m6', format });
      expect(r.res.status).toBe(200);
      expect(r.res.headers.get('content-type')).toMatch(/^application\/json/);
      const body = JSON.parse(Buffer.from(r.bytes).toString('utf8'));
      expect(body.plate_needed).toBe(false);
      expect(body.design).toBeNull();
      expect(body.files).toEqual([]);
      expect(body.reason).toMatch(/No adapter plate is needed/);
    }
  });

  it('an unregistered or bare designation is refused with 400 naming the registered forms', async () => {
    for (const bad of ['ISO9409-1-A50-4-M8', 'A50', '50-4-M6']) {
      const r = await get({ a: bad, b: b.designation });
      expect(r.res.status).toBe(400);
      const body = JSON.parse(Buffer.from(r.bytes).toString('utf8'));
      expect(body.code).toBe('invalid_input');
      expect(body.field).toBe('a');
      for (const row of rows) expect(body.error).toContain(row.designation);
      expect(body.error).toContain('ISO 9409-1-50-4-M6');
      expect(body.registered_forms).toHaveLength(rows.length);
    }
  });

  it('bad format, missing side and both forms of one side are refused', async () => {
    const fmt = await get({ a: a.designation, b: b.designation, format: 'obj' });
    expect(fmt.res.status).toBe(400);
    expect(JSON.parse(Buffer.from(fmt.bytes).toString('utf8')).field).toBe('format');
    const none = await get({ b: b.designation });
    expect(none.res.status).toBe(400);
    expect(JSON.parse(Buffer.from(none.bytes).toString('utf8')).field).toBe('a');
    const both = await get({ a: a.designation, part_a: 'ACT-001', b: b.designation });
    expect(both.res.status).toBe(400);
    expect(JSON.parse(Buffer.from(both.bytes).toString('utf8')).error).toMatch(/exactly one of a .* and part_a/);
  });

  it('a thickness override is used; one that leaves no web under the counterbores is refused naming the minimum', async () => {
    const ok = JSON.parse(Buffer.from((await get({ a: a.designation, b: b.designation, thickness_mm: '20' })).bytes).toString('utf8'));
    expect(ok.design.outline.thickness_mm).toBe(20);
    expect(ok.design.thickness.override_mm).toBe(20);
    const stl = parseStl((await get({ a: a.designation, b: b.designation, thickness_mm: '20', format: 'stl' })).bytes);
    const zs = stl.flatMap((t) => [t.a[2], t.b[2], t.c[2]]);
    expect(Math.min(...zs)).toBe(0);
    expect(Math.max(...zs)).toBe(20);
    // M6 head 6 mm + 0.5 mm allowance = 6.5 mm counterbore; 3 mm minimum web (data/print.json) -> 9.5 mm.
    const thin = await get({ a: a.designation, b: b.designation, thickness_mm: '7' });
    expect(thin.res.status).toBe(400);
    const body = JSON.parse(Buffer.from(thin.bytes).toString('utf8'));
    expect(body.field).toBe('thickness_mm');
    expect(body.minimum_mm).toBe(9.5);
  });
});
