/**
 * The OpenSCAD source of a plate renders with Debian's OpenSCAD (/usr/bin/openscad, installed by
 * .ci/run) to a mesh whose volume matches our STL's within 1 %. OpenSCAD's CGAL render takes
 * tens of seconds per plate, so two designs are checked: a small tapped plate and a nut-pocket
 * plate that grew thicker. Outside CI the test is skipped when OpenSCAD is absent.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRealServer } from '../support/http.js';
import { meshVolume, parseStl, type Tri } from './mesh-support.js';

const OPENSCAD = process.env.OPENSCAD_PATH ?? '/usr/bin/openscad';
const available = fs.existsSync(OPENSCAD);
if (!available && process.env.CI && process.env.CI !== 'false') throw new Error(`${OPENSCAD} is missing: .ci/run installs Debian's openscad`);

/** OpenSCAD writes ASCII STL: "vertex x y z" lines, three per facet. */
function parseAsciiStl(text: string): Tri[] {
  const v = [...text.matchAll(/vertex\s+(\S+)\s+(\S+)\s+(\S+)/g)].map((m) => [Number(m[1]), Number(m[2]), Number(m[3])] as [number, number, number]);
  if (v.length === 0 || v.length % 3 !== 0) throw new Error(`ASCII STL with ${v.length} vertices`);
  const tris: Tri[] = [];
  for (let i = 0; i < v.length; i += 3) tris.push({ a: v[i]!, b: v[i + 1]!, c: v[i + 2]! });
  return tris;
}

describe.skipIf(!available)('OpenSCAD renders the same plate', () => {
  let server: Awaited<ReturnType<typeof startRealServer>>;
  let dir: string;
  beforeAll(async () => {
    server = await startRealServer();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plate-scad-'));
  });
  afterAll(async () => {
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const cases = [
    { a: 'ISO9409-1-A20-4-M3', b: 'ISO9409-1-A31.5-4-M5', b_holes: 'tapped' },
    { a: 'ISO9409-1-A50-4-M6', b: 'ISO9409-1-A63-6-M6', b_holes: 'nut' },
  ];

  it('volume of the OpenSCAD render within 1 % of our STL', async () => {
    const results = await Promise.all(
      cases.map(async (c, i) => {
        const q = new URLSearchParams(c);
        const scad = await (await fetch(`${server.url}/api/adapter-plate?${q}&format=scad`)).text();
        const ours = parseStl(new Uint8Array(await (await fetch(`${server.url}/api/adapter-plate?${q}&format=stl`)).arrayBuffer()));
        const src = path.join(dir, `p${i}.scad`);
        const out = path.join(dir, `p${i}.stl`);
        fs.writeFileSync(src, scad);
        await promisify(execFile)(OPENSCAD, ['-o', out, src], { timeout: 280_000 });
        const theirs = parseAsciiStl(fs.readFileSync(out, 'utf8'));
        return { c, ours: meshVolume(ours), theirs: meshVolume(theirs) };
      }),
    );
    for (const r of results) {
      console.log(`${r.c.a} / ${r.c.b} (${r.c.b_holes}): ours ${r.ours.toFixed(1)} mm3, OpenSCAD ${r.theirs.toFixed(1)} mm3`);
      expect(r.theirs).toBeGreaterThan(0);
      expect(Math.abs(r.theirs - r.ours) / r.ours, `${r.c.a} / ${r.c.b}`).toBeLessThan(0.01);
    }
  }, 300_000);
});
