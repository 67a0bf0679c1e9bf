/**
 * The catalogue pages in a real browser (Debian's Chromium through playwright-core, software GL):
 * every page answers 200 with no console error and no failed request, and axe-core finds no
 * serious or critical WCAG 2 A/AA violation; with JavaScript off, /search lists exactly the ids
 * GET /api/search returns and /parts/ACT-017 shows the torque with unit and evidence; the Go2's
 * 3D view draws a non-blank WebGL canvas and the page states the DOF counted from the URDF file;
 * /docs shows every path of /openapi.json. Page weights (bytes and requests) are printed; with
 * PAGES_SCREENSHOTS=1 the main pages are saved to docs/screenshots/ for the README.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startRealServer } from '../support/http.js';
import { ROBOTS, robotsPresent, ROOT } from '../oss/helpers.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = fs.existsSync(CHROMIUM);
if (!available && process.env.CI) throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium`);
const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SHOTS = process.env.PAGES_SCREENSHOTS === '1' ? path.join(ROOT, 'docs/screenshots') : null;

const WHERE = 'torque_rated>=30 N·m; voltage covers 48 V; bus in EtherCAT|CAN';
const SEARCH = `/search?where=${encodeURIComponent(WHERE)}&category=actuators`;

interface Visit {
  page: Page;
  status: number | undefined;
  errors: string[];
  failed: string[];
  bytes: number;
  requests: number;
}

describe.skipIf(!available)('catalogue pages in Chromium', () => {
  let srv: Awaited<ReturnType<typeof startRealServer>>;
  let browser: Browser;
  let js: BrowserContext;
  let nojs: BrowserContext;
  const weights: Record<string, { bytes: number; requests: number }> = {};

  beforeAll(async () => {
    srv = await startRealServer();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      // Software WebGL (SwiftShader) for the 3D view; no network beyond loopback is needed.
      args: ['--no-sandbox', '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    js = await browser.newContext({ viewport: { width: 1000, height: 700 } });
    nojs = await browser.newContext({ javaScriptEnabled: false });
  }, 60_000);
  afterAll(async () => {
    if (Object.keys(weights).length) console.log(`page weights (bytes, requests):\n${Object.entries(weights).map(([p, w]) => `  ${p}  ${w.bytes} B  ${w.requests} req`).join('\n')}`);
    await browser?.close();
    await srv?.stop();
  });

  async function visit(ctx: BrowserContext, route: string, ready?: (p: Page) => Promise<unknown>): Promise<Visit> {
    const page = await ctx.newPage();
    const errors: string[] = [];
    const failed: string[] = [];
    const done: Promise<number>[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('requestfailed', (r) => failed.push(`${r.url()} ${r.failure()?.errorText}`));
    page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.url()} ${r.status()}`);
    });
    page.on('requestfinished', (r) => done.push(r.sizes().then((s) => s.responseBodySize + s.responseHeadersSize)));
    const resp = await page.goto(srv.url + route, { waitUntil: 'load' });
    if (ready) await ready(page);
    await page.waitForLoadState('networkidle');
    const sizes = await Promise.all(done);
    return { page, status: resp?.status(), errors, failed, bytes: sizes.reduce((a, b) => a + b, 0), requests: sizes.length };
  }

  async function seriousViolations(page: Page): Promise<string[]> {
    await page.evaluate(AXE); // through the debugger protocol: the page's CSP stays as served
    const result = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run: (c: Document, o: object) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
      return axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    });
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
  }

  const PAGES: [string, string, ((p: Page) => Promise<unknown>)?][] = [
    ['home', '/'],
    ['search', SEARCH],
    ['part', '/parts/ACT-017'],
    ['compare', '/compare?ids=ACT-017,ACT-018,ACT-024'],
    ['robots', '/robots'],
    ['robot', '/robots/unitree-go2', (p) => p.waitForSelector('#robot-canvas[data-state="drawn"]', { timeout: 60_000 })],
    ['bom', '/bom'],
    ['intelligence', '/intelligence'],
    ['docs', '/docs', (p) => p.waitForSelector('.opblock', { timeout: 60_000 })],
  ];

  for (const [name, route, ready] of PAGES) {
    it(`${route}: 200, no console error, no failed request, no serious or critical axe violation`, async () => {
      const v = await visit(js, route, ready);
      expect(v.status).toBe(200);
      expect(v.errors).toEqual([]);
      expect(v.failed).toEqual([]);
      expect(await seriousViolations(v.page)).toEqual([]);
      weights[route] = { bytes: v.bytes, requests: v.requests };
      if (SHOTS && ['home', 'search', 'part', 'robot', 'intelligence', 'docs'].includes(name)) {
        fs.mkdirSync(SHOTS, { recursive: true });
        const file = path.join(SHOTS, `${name}.png`);
        if (name === 'robot') await v.page.locator('#robot-canvas').screenshot({ path: file });
        else await v.page.screenshot({ path: file });
      }
      await v.page.close();
    }, 120_000);
  }

  it('without JavaScript, /search lists exactly the ids GET /api/search returns for the same query', async () => {
    const api = (await (await fetch(`${srv.url}/api/search?where=${encodeURIComponent(WHERE)}&category=actuators&limit=100`)).json()) as { data: { id: string }[]; meta: { total: number } };
    expect(api.meta.total).toBeGreaterThan(0);
    const v = await visit(nojs, SEARCH);
    expect(v.status).toBe(200);
    const ids = await v.page.$$eval('#results-table tbody tr', (rows) => rows.map((r) => r.getAttribute('data-id')));
    expect(ids).toEqual(api.data.map((h) => h.id));
    // The filtered fields are columns with their units; each filter's unknown count is shown.
    const head = await v.page.textContent('#results-table thead');
    expect(head).toContain('torque_rated (Nm)');
    expect(head).toContain('voltage (V)');
    await v.page.close();
  });

  it('without JavaScript, /parts/ACT-017 shows its torque with the unit and the evidence', async () => {
    const rest = (await (await fetch(`${srv.url}/api/entity/ACT-017`)).json()) as { entity: { declared: Record<string, string>; provenance: Record<string, string[]> } };
    const declared = rest.entity.declared.torque!;
    const upstream = rest.entity.provenance['declared.torque']!;
    const v = await visit(nojs, '/parts/ACT-017');
    expect(v.status).toBe(200);
    const row = (await v.page.textContent('#specs tr[data-field="torque_rated"]'))!;
    const [, number, unit] = /^([\d.]+)\s*(\S+)$/.exec(declared)!; // "120 Nm"
    expect(row).toContain(`${number} ${unit}`);
    expect(row).toContain('declared.torque');
    for (const u of upstream) expect(row).toContain(u);
    await v.page.close();
  });

  it.skipIf(!robotsPresent)('/robots/unitree-go2 draws a non-blank WebGL canvas and states the DOF counted in the URDF file', async () => {
    const text = fs.readFileSync(path.join(ROBOTS, 'urdf/unitree_go2_description.urdf'), 'utf8');
    // Independent count: revolute/continuous/prismatic <joint> definitions without <mimic> (the file has none).
    const actuated = (text.match(/<joint\s[^>]*type="(revolute|continuous|prismatic)"/g) ?? []).length;
    expect(text.includes('<mimic')).toBe(false);
    expect(actuated).toBe(12);
    const v = await visit(js, '/robots/unitree-go2', (p) => p.waitForSelector('#robot-canvas[data-state="drawn"]', { timeout: 60_000 }));
    expect(await v.page.textContent('#dof strong')).toBe(String(actuated));
    const pixels = await v.page.evaluate(() => {
      const gl = document.getElementById('robot-canvas') as HTMLCanvasElement;
      const c = document.createElement('canvas');
      c.width = gl.width;
      c.height = gl.height;
      const g = c.getContext('2d')!;
      g.drawImage(gl, 0, 0);
      const d = g.getImageData(0, 0, c.width, c.height).data;
      const bg = [d[0], d[1], d[2]];
      let other = 0;
      const colours = new Set<number>();
      for (let i = 0; i < d.length; i += 4) {
        if (Math.abs(d[i]! - bg[0]!) + Math.abs(d[i + 1]! - bg[1]!) + Math.abs(d[i + 2]! - bg[2]!) > 30) other += 1;
        colours.add((d[i]! << 16) | (d[i + 1]! << 8) | d[i + 2]!);
      }
      return { total: d.length / 4, other, colours: colours.size, joints: gl.dataset.joints, primitives: gl.dataset.primitives };
    });
    expect(pixels.total).toBeGreaterThan(10_000);
    expect(pixels.other).toBeGreaterThan(500); // drawn shapes, not an empty background
    expect(pixels.colours).toBeGreaterThan(10);
    expect(Number(pixels.joints)).toBe((text.match(/<joint\s[^>]*type="/g) ?? []).length);
    expect(Number(pixels.primitives)).toBe((text.match(/<(box|cylinder|sphere)\s/g) ?? []).length);
    await v.page.close();
  }, 120_000);

  it('/docs shows every path of /openapi.json', async () => {
    const spec = (await (await fetch(`${srv.url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    const v = await visit(js, '/docs', (p) => p.waitForSelector('.opblock', { timeout: 60_000 }));
    const shown = await v.page.$$eval('.opblock-summary-path', (els) => els.map((e) => e.getAttribute('data-path') ?? e.textContent ?? ''));
    expect(new Set(shown.map((s) => s.replace(/\u200b/g, '')))).toEqual(new Set(Object.keys(spec.paths)));
    await v.page.close();
  }, 120_000);

  it('the BOM form posts to check_bom and shows its findings; the pages carry a CSP without inline scripts', async () => {
    const v = await visit(js, '/bom');
    await v.page.fill('#lines', 'ACT-017 2\nACT-018 1');
    await Promise.all([v.page.waitForURL(`${srv.url}/bom`), v.page.click('button[value="check"]')]);
    const expected = (await (
      await fetch(`${srv.url}/api/bom/check`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items: [{ id: 'ACT-017', quantity: 2 }, { id: 'ACT-018', quantity: 1 }] }) })
    ).json()) as { findings: unknown[] };
    expect(await v.page.textContent('#findings')).toContain(`${expected.findings.length} finding`);
    await v.page.close();
    const res = await fetch(`${srv.url}/search`);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).not.toContain('unsafe-inline');
  }, 120_000);
});
