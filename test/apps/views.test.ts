/**
 * The MCP Apps views in Chromium, hosted by the SDK's AppBridge (test/apps/host.entry.js): each view
 * is read from the server (resources/read), loaded in a sandboxed iframe (allow-scripts only), sent
 * a real tool result from the server (an in-memory MCP client that declared the extension), and what
 * it draws is checked: a non-blank WebGL canvas for the robot (extract_robot_parts, size_actuators) and the plate, the compared ids in the
 * table, the U2D2 bridge for a DYNAMIXEL + Raspberry Pi 5 set; no console error; the CSP in force
 * (a fetch from the view is refused by connect-src); the host's dark theme and a phone width.
 * With APPS_SCREENSHOTS=1 the views are saved to docs/screenshots/ for the README.
 */
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { Deps } from '../../src/deps.js';
import { realDeps } from '../support/deps.js';
import { ROBOTS, robotsPresent, ROOT } from '../oss/helpers.js';
import { appsClient } from './support.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = fs.existsSync(CHROMIUM);
if (!available && process.env.CI) throw new Error(`${CHROMIUM} is missing`);
const SHOTS = process.env.APPS_SCREENSHOTS === '1' ? path.join(ROOT, 'docs/screenshots') : null;

const DYNAMIXEL = 'ACT-001'; // ROBOTIS DYNAMIXEL XM540: TTL/RS-485
const RASPBERRY_PI = 'CHIP-003'; // Raspberry Pi 5: no TTL/RS-485 in its interfaces

describe.skipIf(!available)('MCP Apps views in Chromium under the SDK AppBridge', { timeout: 180_000 }, () => {
  let deps: Deps;
  let mcp: Awaited<ReturnType<typeof appsClient>>;
  let browser: Browser;
  let host: string;
  const views = new Map<string, string>();

  beforeAll(async () => {
    deps = realDeps();
    mcp = await appsClient(deps, { extension: true });
    // The view of each tool, as the host finds it: tools/list's _meta.ui.resourceUri, then resources/read.
    for (const t of (await mcp.client.listTools()).tools) {
      const uri = (t._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri;
      if (!uri) continue;
      const r = await mcp.client.readResource({ uri });
      views.set(t.name, (r.contents[0] as { text: string }).text);
    }
    const bundle = await build({ entryPoints: [path.join(ROOT, 'test/apps/host.entry.js')], bundle: true, format: 'iife', write: false, logLevel: 'warning' });
    host = `<!doctype html><html><head><meta charset="utf-8"><title>test host</title></head><body><script>${bundle.outputFiles[0]!.text.replaceAll('</script', '<\\/script')}</script></body></html>`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await mcp?.close();
    deps?.close();
  });

  interface Opened {
    page: Page;
    frame: Frame;
    errors: string[];
    result: CallToolResult;
  }

  async function open(tool: string, args: Record<string, unknown>, opts: { theme?: 'light' | 'dark'; width?: number; serverTools?: boolean; ready: string }): Promise<Opened> {
    const result = (await mcp.client.callTool({ name: tool, arguments: args })) as CallToolResult;
    expect(result.isError, JSON.stringify(result.content).slice(0, 300)).toBeFalsy();
    const width = opts.width ?? 900;
    const page = await browser.newPage({ viewport: { width: width + 40, height: 1000 } });
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    if (opts.serverTools) await page.exposeFunction('hostCallTool', (p: { name: string; arguments?: Record<string, unknown> }) => mcp.client.callTool(p));
    await page.setContent(host);
    await page.evaluate((o) => (window as unknown as { openView: (x: unknown) => Promise<unknown> }).openView(o), {
      html: views.get(tool)!,
      input: args,
      result: JSON.parse(JSON.stringify(result)),
      theme: opts.theme ?? 'light',
      width,
      serverTools: opts.serverTools ?? false,
    });
    const frame = (await (await page.$('#view'))!.contentFrame())!;
    await frame.waitForSelector(opts.ready, { timeout: 60_000 });
    return { page, frame, errors, result };
  }

  /** Pixels of the WebGL canvas that differ from its background (first pixel), and distinct colours. */
  const canvasPixels = (frame: Frame, selector: string) =>
    frame.evaluate((sel) => {
      const gl = document.querySelector(sel) as HTMLCanvasElement;
      const c = document.createElement('canvas');
      c.width = gl.width;
      c.height = gl.height;
      const g = c.getContext('2d')!;
      g.drawImage(gl, 0, 0);
      const d = g.getImageData(0, 0, c.width, c.height).data;
      let other = 0;
      const colours = new Set<number>();
      for (let i = 0; i < d.length; i += 4) {
        if (Math.abs(d[i]! - d[0]!) + Math.abs(d[i + 1]! - d[1]!) + Math.abs(d[i + 2]! - d[2]!) > 30) other += 1;
        colours.add((d[i]! << 16) | (d[i + 1]! << 8) | d[i + 2]!);
      }
      return { total: d.length / 4, other, colours: colours.size };
    }, selector);

  /** The view's CSP refuses a connection: the fetch fails and a connect-src violation is reported. */
  async function cspRefusesFetch(o: Opened): Promise<void> {
    const before = o.errors.length;
    const r = await o.frame.evaluate(async () => {
      const seen: string[] = [];
      document.addEventListener('securitypolicyviolation', (e) => seen.push(e.effectiveDirective));
      let failed = false;
      try {
        await fetch('http://127.0.0.1:9/probe');
      } catch {
        failed = true;
      }
      await new Promise((res) => setTimeout(res, 50));
      return { failed, seen };
    });
    expect(r.failed).toBe(true);
    expect(r.seen).toContain('connect-src');
    o.errors.splice(before); // the browser's report of the refused probe
  }

  async function shot(o: Opened, name: string) {
    if (!SHOTS) return;
    fs.mkdirSync(SHOTS, { recursive: true });
    await (await o.page.$('#view'))!.screenshot({ path: path.join(SHOTS, name) });
  }

  it('every view is served sandboxed: the iframe allows scripts only', async () => {
    expect([...views.keys()].sort()).toEqual(['check_bom', 'compare_parts', 'design_adapter_plate', 'extract_robot_parts', 'size_actuators']);
    const o = await open('compare_parts', { ids: [DYNAMIXEL, 'ACT-006'] }, { ready: 'table' });
    expect(await o.page.getAttribute('#view', 'sandbox')).toBe('allow-scripts');
    // An opaque origin: the view cannot read the host's document.
    expect(await o.frame.evaluate(() => window.origin)).toBe('null');
    await o.page.close();
  });

  it.skipIf(!robotsPresent)('extract_robot_parts: the Go2 URDF drawn in 3D (non-blank canvas), its DOF and every joint listed', async () => {
    const text = fs.readFileSync(path.join(ROBOTS, 'urdf/unitree_go2_description.urdf'), 'utf8');
    // Independent counts from the file: joint definitions (with a type) and actuated ones.
    const defined = (text.match(/<joint\s[^>]*type="/g) ?? []).length;
    const actuated = (text.match(/<joint\s[^>]*type="(revolute|continuous|prismatic)"/g) ?? []).length;
    const o = await open('extract_robot_parts', { content: text, kind: 'urdf' }, { ready: '#robot-canvas[data-state]' });
    expect(await o.frame.getAttribute('#robot-canvas', 'data-state'), (await o.frame.textContent('#robot-status')) ?? '').toBe('drawn');
    const px = await canvasPixels(o.frame, '#robot-canvas');
    expect(px.other / px.total).toBeGreaterThan(0.002);
    expect(px.colours).toBeGreaterThan(3);
    expect(await o.frame.textContent('#dof strong')).toBe(String(actuated));
    expect(await o.frame.$$eval('#joints tbody tr', (rows) => rows.length)).toBe(defined);
    expect(Number(await o.frame.getAttribute('#robot-canvas', 'data-joints'))).toBe(defined);
    // Every primitive of a visual or collision element is drawn, as the page draws them (urdf-loader).
    const primitives = (text.match(/<(box|cylinder|sphere)\b/g) ?? []).length;
    expect(primitives).toBeGreaterThan(0);
    expect(Number(await o.frame.getAttribute('#robot-canvas', 'data-primitives'))).toBe(primitives);
    await shot(o, 'app-robot.png');
    expect(o.errors).toEqual([]);
    await cspRefusesFetch(o);
    await o.page.close();
  });

  it.skipIf(!robotsPresent)('size_actuators: the SO-101 drawn in 3D (non-blank canvas) and one row per sized joint with its need and its candidates from the answer', async () => {
    const text = fs.readFileSync(path.join(ROBOTS, 'urdf/so101_new_calib.urdf'), 'utf8');
    // Independent of the answer: the joints defined in the file (the skeleton draws every one) and the actuated ones (the rows).
    const defined = (text.match(/<joint\s[^>]*type="/g) ?? []).length;
    const actuated = [...text.matchAll(/<joint\s[^>]*name="([^"]+)"[^>]*type="(revolute|continuous|prismatic)"/g)].map((m) => m[1]);
    const o = await open('size_actuators', { content: text }, { ready: '#robot-canvas[data-state]' });
    expect(await o.frame.getAttribute('#robot-canvas', 'data-state'), (await o.frame.textContent('#robot-status')) ?? '').toBe('drawn');
    const px = await canvasPixels(o.frame, '#robot-canvas');
    expect(px.other / px.total).toBeGreaterThan(0.002);
    expect(px.colours).toBeGreaterThan(3);
    expect(Number(await o.frame.getAttribute('#robot-canvas', 'data-joints'))).toBe(defined);
    const sc = o.result.structuredContent as { joints: { joint_name: string; required_torque_nm: number; candidates: { id: string }[] }[] };
    expect(actuated.length).toBeGreaterThan(0);
    expect(sc.joints.map((j) => j.joint_name).sort()).toEqual([...actuated].sort());
    const rows = await o.frame.$$eval('#joints tbody tr', (tr) =>
      tr.map((r) => ({ joint: r.getAttribute('data-joint'), need: Number(r.querySelector('[data-need]')!.getAttribute('data-need')), ids: [...r.querySelectorAll('li[data-id]')].map((li) => li.getAttribute('data-id')) })),
    );
    expect(rows).toEqual(sc.joints.map((j) => ({ joint: j.joint_name, need: j.required_torque_nm, ids: j.candidates.map((c) => c.id) })));
    await shot(o, 'app-size.png');
    expect(o.errors).toEqual([]);
    await cspRefusesFetch(o);
    await o.page.close();
  });

  it('design_adapter_plate: the plate drawn in 3D (non-blank canvas), both bolt patterns, dimensions and the file links', async () => {
    const args = { a: 'ISO9409-1-A50-4-M6', b: 'ISO9409-1-A63-6-M6' };
    const o = await open('design_adapter_plate', args, { ready: '#plate-canvas[data-state]' });
    expect(await o.frame.getAttribute('#plate-canvas', 'data-state')).toBe('drawn');
    const px = await canvasPixels(o.frame, '#plate-canvas');
    expect(px.other / px.total).toBeGreaterThan(0.01);
    const patterns = await o.frame.$$eval('#patterns tbody tr', (rows) => rows.map((r) => r.children[1]!.textContent));
    expect(patterns).toEqual([args.a, args.b]);
    // Both patterns' holes are drawn: 4 + 6 bolt holes at least (from the designations).
    expect(Number(await o.frame.getAttribute('#plate-canvas', 'data-features'))).toBeGreaterThanOrEqual(10);
    const sc = o.result.structuredContent as { design: { outline: { diameter_mm: number; thickness_mm: number } } };
    const dims = await o.frame.textContent('#dimensions');
    expect(dims).toContain(`${sc.design.outline.diameter_mm} mm`);
    expect(dims).toContain(`${sc.design.outline.thickness_mm} mm`);
    expect((await o.frame.$$eval('#files li', (li) => li.map((l) => l.getAttribute('data-format')))).sort()).toEqual(['3mf', 'scad', 'stl']);
    await shot(o, 'app-plate.png');
    expect(o.errors).toEqual([]);
    await cspRefusesFetch(o);
    await o.page.close();
  });

  it('design_adapter_plate in a host that offers links: a file button asks the host to open the file (ui/open-link through the AppBridge); without that offer there is no button', async () => {
    const args = { a: 'ISO9409-1-A31.5-4-M5', b: 'ISO9409-1-A50-4-M6' };
    const o = await open('design_adapter_plate', args, { ready: '#files', serverTools: true });
    const stl = (o.result.structuredContent as { files: { format: string; url: string | null }[] }).files.find((f) => f.format === 'stl')!;
    expect(stl.url).toBeTruthy();
    await o.frame.click('#files li[data-format="stl"] button');
    await o.page.waitForFunction(() => (window as unknown as { opened: string[] }).opened.length > 0);
    expect(await o.page.evaluate(() => (window as unknown as { opened: string[] }).opened)).toEqual([stl.url]);
    expect(o.errors).toEqual([]);
    await o.page.close();
    const plain = await open('design_adapter_plate', args, { ready: '#files' });
    expect(await plain.frame.$$('#files button')).toHaveLength(0);
    await plain.page.close();
  });

  it('compare_parts: the compared ids head the table, comparable rows ranked first, the others with their reason', async () => {
    const ids = [DYNAMIXEL, 'ACT-006', 'ACT-002'];
    const o = await open('compare_parts', { ids }, { ready: 'table' });
    expect(await o.frame.$$eval('table.comparable thead th[data-id], table.not-comparable thead th[data-id]', (th) => [...new Set(th.map((t) => t.textContent))])).toEqual(ids);
    const sc = o.result.structuredContent as { rows: { field: string; comparable: boolean; reason: string; ranking: { id: string; rank: number }[] | null }[] };
    expect(await o.frame.$$eval('table.comparable tbody tr', (r) => r.map((x) => x.getAttribute('data-field')))).toEqual(sc.rows.filter((r) => r.comparable).map((r) => r.field));
    const other = await o.frame.$$eval('table.not-comparable tbody tr', (r) => r.map((x) => [x.getAttribute('data-field'), x.lastElementChild!.textContent]));
    expect(other).toEqual(sc.rows.filter((r) => !r.comparable).map((r) => [r.field, r.reason]));
    for (const r of sc.rows.filter((x) => x.comparable && x.ranking)) {
      const first = r.ranking!.filter((x) => x.rank === 1).map((x) => x.id);
      expect(await o.frame.$$eval(`table.comparable tr[data-field="${r.field}"] td.rank1`, (td) => td.map((t) => t.getAttribute('data-id'))), r.field).toEqual(first);
    }
    await shot(o, 'app-compare.png');
    expect(o.errors).toEqual([]);
    await cspRefusesFetch(o);
    await o.page.close();
  });

  it('compare_parts with a part declared by the user: its column and its mark, from the answer', async () => {
    const mine = { custom: { name: 'My servo', role: 'actuator', buses: ['TTL'], mass_kg: 0.082 } };
    const o = await open('compare_parts', { ids: [DYNAMIXEL, mine] }, { ready: 'table' });
    expect(await o.frame.$$eval('#parts li', (li) => li.map((l) => [l.getAttribute('data-id'), l.getAttribute('data-source'), l.querySelector('.badge') !== null]))).toEqual([
      [DYNAMIXEL, 'catalogue', false],
      ['user:My servo', 'user', true],
    ]);
    expect(await o.frame.$$eval('table thead th[data-id]', (th) => [...new Set(th.map((t) => t.textContent))])).toEqual([DYNAMIXEL, 'user:My servo']);
    expect(o.errors).toEqual([]);
    await o.page.close();
  });

  it('check_bom: a DYNAMIXEL + Raspberry Pi 5 set shows the U2D2 bridge it needs, findings grouped by severity, in the dark theme', async () => {
    const o = await open('check_bom', { items: [{ id: DYNAMIXEL, quantity: 4 }, { id: RASPBERRY_PI, quantity: 1 }] }, { ready: '#summary', theme: 'dark' });
    const sc = o.result.structuredContent as { findings: { kind: string; severity: string }[] };
    expect(sc.findings.map((f) => f.kind)).toContain('bridge_required');
    const needed = await o.frame.textContent('#needed li[data-kind="bridge_required"]');
    expect(needed).toContain('ROBOTIS U2D2');
    expect(needed).toContain(DYNAMIXEL);
    for (const sev of ['error', 'warning', 'info']) {
      expect(await o.frame.$$eval(`section[data-severity="${sev}"] .finding`, (f) => f.length), sev).toBe(sc.findings.filter((f) => f.severity === sev).length);
    }
    // The host's dark theme is applied.
    expect(await o.frame.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    const bg = await o.frame.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const [r, g, b] = bg.match(/\d+/g)!.map(Number);
    expect(r! + g! + b!).toBeLessThan(200);
    await shot(o, 'app-bom.png');
    expect(o.errors).toEqual([]);
    await cspRefusesFetch(o);
    await o.page.close();
  });

  it('at a phone width (360 px) the views fit: nothing wider than the frame but the tables\' own scrollers; the size is reported to the host', async () => {
    const o = await open('compare_parts', { ids: [DYNAMIXEL, 'ACT-006', 'ACT-002', 'ACT-003'] }, { ready: 'table', width: 360 });
    const fit = await o.frame.evaluate(() => ({ doc: document.documentElement.scrollWidth, view: document.documentElement.clientWidth }));
    expect(fit.doc).toBeLessThanOrEqual(fit.view);
    const sizes = (await o.page.evaluate(() => (window as unknown as { sizes: { height?: number }[] }).sizes)) as { height?: number }[];
    expect(sizes.length).toBeGreaterThan(0);
    expect(sizes.at(-1)!.height).toBeGreaterThan(100);
    expect(o.errors).toEqual([]);
    await o.page.close();
  });
});
