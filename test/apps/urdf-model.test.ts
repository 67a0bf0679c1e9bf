/**
 * The views' compact URDF reader (src/views/urdf-model.js: world frames at the zero pose, and the
 * primitive shapes the views draw) against an independent oracle, urdf-loader with three.js (what
 * the pages draw with), both run on the same text in Chromium: every joint's and link's world
 * transform (position and orientation) and every primitive's frame and dimensions agree within
 * 1e-9. The texts: real URDFs read from ../shared/robots at run time, and a chain written here with
 * a non-trivial rpy on every joint and on every shape. Both readers draw a link's visual and
 * collision primitives.
 */
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROBOTS, robotsPresent, ROOT } from '../oss/helpers.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = fs.existsSync(CHROMIUM);
if (!available && process.env.CI) throw new Error(`${CHROMIUM} is missing`);
const TOL = 1e-9;

type M = number[];
interface Side {
  joints: Record<string, { type: string; m: M | null }>;
  links: Record<string, M | null>;
  shapes: Record<string, { from: string; type: string; m: M | null; scale?: number[]; size?: number[] | null; radius?: number | null; length?: number | null }[]>;
  jointCount?: number;
  roots?: string[];
}

/** A chain written for this test: every joint and every shape turned by roll, pitch and yaw all non-zero, all joint types, a collision-only link. */
function chain(): string {
  const types = ['revolute', 'continuous', 'prismatic', 'fixed', 'revolute', 'floating', 'planar', 'revolute'];
  const links: string[] = [];
  const joints: string[] = [];
  for (let i = 0; i <= types.length; i++) {
    const r = (k: number) => (((i + 1) * 0.37 * k) % 3.1) - 1.5; // distinct, non-zero, both signs
    const shape = [`<box size="${0.1 + i * 0.01} 0.2 ${0.05 * (i + 1)}"/>`, `<cylinder radius="${0.02 + i * 0.003}" length="${0.3 - i * 0.01}"/>`, `<sphere radius="${0.04 + i * 0.002}"/>`][i % 3];
    const el = i === 4 ? 'collision' : 'visual';
    // Link 2 also has a collision box (both are drawn); link 6 also a mesh (not drawn).
    const extra = i === 2 ? `<collision><origin xyz="0.1 0.2 0.3" rpy="${r(13)} ${r(14)} ${r(15)}"/><geometry><box size="0.3 0.2 0.1"/></geometry></collision>` : i === 6 ? '<visual><geometry><mesh filename="package://x/m.stl"/></geometry></visual>' : '';
    links.push(`<link name="l${i}"><${el}><origin xyz="${r(1)} ${r(2)} ${r(3)}" rpy="${r(4)} ${r(5)} ${r(6)}"/><geometry>${shape}</geometry></${el}>${extra}</link>`);
    if (i > 0) {
      joints.push(`<joint name="j${i}" type="${types[i - 1]}"><parent link="l${i === 7 ? 3 : i - 1}"/><child link="l${i}"/><origin xyz="${r(7)} ${r(8)} ${r(9)}" rpy="${r(10)} ${r(11)} ${r(12)}"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="5" velocity="2"/></joint>`);
    }
  }
  return `<?xml version="1.0"?>\n<robot name="oracle_chain">\n${links.join('\n')}\n${joints.join('\n')}\n</robot>\n`;
}

function expectClose(a: M | null | undefined, b: M | null | undefined, what: string) {
  expect(a, what).toBeTruthy();
  expect(b, what).toBeTruthy();
  expect(a!.length, what).toBe(16);
  const worst = Math.max(...a!.map((v, k) => Math.abs(v - b![k]!)));
  expect(worst, `${what}: largest difference`).toBeLessThanOrEqual(TOL);
}

describe.skipIf(!available)('the views\' URDF reader against urdf-loader (Chromium)', { timeout: 120_000 }, () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    const bundle = await build({ entryPoints: [path.join(ROOT, 'test/apps/urdf-oracle.entry.js')], bundle: true, format: 'iife', write: false, logLevel: 'warning' });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    page = await browser.newPage();
    await page.setContent(`<!doctype html><html><head><meta charset="utf-8"></head><body><script>${bundle.outputFiles[0]!.text.replaceAll('</script', '<\\/script')}</script></body></html>`);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  async function compare(text: string) {
    const { oracle, compact } = (await page.evaluate((t) => (window as unknown as { frames: (x: string) => unknown }).frames(t), text)) as { oracle: Side; compact: Side };
    // The same joints and links, independently of either reader: the <joint> and <link> elements with a name in the text.
    const jointNames = [...text.matchAll(/<joint\b[^>]*?\bname="([^"]+)"[^>]*?\btype="/g)].map((m) => m[1]!);
    expect(Object.keys(oracle.joints).sort()).toEqual([...new Set(jointNames)].sort());
    expect(Object.keys(compact.joints).sort()).toEqual(Object.keys(oracle.joints).sort());
    expect(compact.jointCount).toBe(jointNames.length);
    expect(Object.keys(compact.links).sort()).toEqual(Object.keys(oracle.links).sort());
    for (const [name, j] of Object.entries(oracle.joints)) {
      expect(compact.joints[name]!.type, name).toBe(j.type);
      expectClose(compact.joints[name]!.m, j.m, `joint ${name}`);
    }
    for (const [name, m] of Object.entries(oracle.links)) expectClose(compact.links[name], m, `link ${name}`);
    let shapes = 0;
    for (const [name, list] of Object.entries(oracle.shapes)) {
      const mine = compact.shapes[name]!;
      expect(mine.map((s) => `${s.from} ${s.type}`), `shapes of ${name}`).toEqual(list.map((s) => `${s.from} ${s.type}`));
      list.forEach((s, k) => {
        const c = mine[k]!;
        expectClose(c.m, s.m, `${name} shape ${k}`);
        const dims = s.type === 'box' ? c.size! : s.type === 'cylinder' ? [c.radius!, c.length!, c.radius!] : [c.radius!, c.radius!, c.radius!];
        dims.forEach((v, i) => expect(Math.abs(v - s.scale![i]!), `${name} shape ${k} dimension ${i}`).toBeLessThanOrEqual(TOL));
        shapes += 1;
      });
    }
    return { joints: jointNames.length, links: Object.keys(oracle.links).length, shapes };
  }

  it('a chain with a non-trivial rpy on every joint and shape, every joint type, a branch, a collision-only link, a visual with a collision, and a mesh', async () => {
    const text = chain();
    const n = await compare(text);
    expect(n).toEqual({ joints: 8, links: 9, shapes: 10 });
    // Not trivially equal: the frames are turned (an off-diagonal term of the last joint's rotation is far from 0).
    const { compact } = (await page.evaluate((t) => (window as unknown as { frames: (x: string) => unknown }).frames(t), text)) as { compact: Side };
    expect(Math.abs(compact.joints.j8!.m![1]!)).toBeGreaterThan(0.05);
  });

  for (const file of ['so101_new_calib.urdf', 'berkeley_humanoid_lite.urdf', 'tienkung_lite_humanoid_publish.urdf', 'unitree_go2_description.urdf', 'open_duck_mini_v2_robot.urdf', 'roboto_origin_atom01.urdf']) {
    it.skipIf(!robotsPresent)(`${file}: every joint, link and primitive frame as urdf-loader has it`, async () => {
      const n = await compare(fs.readFileSync(path.join(ROBOTS, 'urdf', file), 'utf8'));
      expect(n.joints).toBeGreaterThan(5);
    });
  }
});
