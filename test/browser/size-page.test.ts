/**
 * /size in Chromium with JavaScript off: a URDF file uploaded through the form gives one table row
 * per joint (the same joints, needs and chosen parts as size_actuators over REST), the bar chart,
 * links to the parts, no serious or critical axe violation, nothing wider than the 390 px phone screen (the
 * table scrolls inside its own box, the chart scales to the width);
 * the "check on the BOM page" form posts the chosen parts to /bom, which checks them. A package
 * archive is sized the same way; a form without a file answers an error page naming the field.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startRealServer } from '../support/http.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = fs.existsSync(CHROMIUM);
if (!available && process.env.CI) throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium`);
const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SO101 = path.resolve(__dirname, '../../../shared/robots/urdf/so101_new_calib.urdf');
const PACKAGE = path.resolve(__dirname, '../../../shared/robots/packages/robotiq_2f_85_gripper_visualization');

describe.skipIf(!available)('/size in Chromium', () => {
  let srv: Awaited<ReturnType<typeof startRealServer>>;
  let browser: Browser;
  let nojs: BrowserContext;
  let js: BrowserContext;
  let tmp: string;
  beforeAll(async () => {
    srv = await startRealServer();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    nojs = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 800 } });
    // axe runs as a script: its checks use a context with JavaScript on, the same pages and flow.
    js = await browser.newContext({ viewport: { width: 390, height: 800 } });
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-size-page-'));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await srv?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  async function serious(page: Page): Promise<string[]> {
    await page.evaluate(AXE);
    const result = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run: (c: Document, o: object) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
      return axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    });
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
  }
  const width = (page: Page) => page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth));

  it('SO-101 uploaded with JavaScript off: the table, the chart and the links match the API; the BOM form checks the chosen parts', async () => {
    const api = (await (await fetch(`${srv.url}/api/oss/size`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ content: fs.readFileSync(SO101, 'utf8'), samples: 64 }) })).json()) as {
      joints: { joint_name: string; candidates: { id: string }[] }[];
      bom_items: { id: string; quantity: number }[];
    };
    const page = await nojs.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    expect((await page.goto(`${srv.url}/size`))?.status()).toBe(200);
    expect(await width(page)).toBeLessThanOrEqual(390);
    await page.setInputFiles('#file', SO101);
    await page.fill('#samples', '64');
    const [resp] = await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    expect(resp?.status()).toBe(200);
    const rows = await page.$$eval('#joints tbody tr', (trs) => trs.map((tr) => ({ joint: tr.querySelector('th')!.textContent, part: tr.querySelector('td a')?.textContent ?? null })));
    expect(rows).toEqual(api.joints.map((j) => ({ joint: j.joint_name, part: j.candidates[0]?.id ?? null })));
    expect(await page.$$eval('svg[role=img] rect', (r) => r.length)).toBeGreaterThanOrEqual(api.joints.length);
    for (const b of api.bom_items) expect(await page.$(`a[href="/parts/${encodeURIComponent(b.id)}"]`)).not.toBeNull();
    // At 390 px nothing is wider than the screen (693 px was measured before the pages' phone styles):
    // the table is wider than its box and scrolls inside it, the chart is drawn at the box's width.
    expect(await width(page)).toBeLessThanOrEqual(390);
    const fit = await page.evaluate(() => {
      const table = document.querySelector('#joints')!;
      const box = table.closest('.scroll')!;
      return { table: table.getBoundingClientRect().width, box: box.getBoundingClientRect().width, overflow: getComputedStyle(box).overflowX, chart: document.querySelector('svg[role=img]')!.getBoundingClientRect().right };
    });
    expect(fit.box).toBeLessThanOrEqual(390);
    expect(fit.table).toBeGreaterThan(fit.box);
    expect(fit.overflow).toBe('auto');
    expect(fit.chart).toBeLessThanOrEqual(390);
    expect(errors).toEqual([]);
    // The chosen parts go to /bom, filled in.
    const [bom] = await Promise.all([page.waitForNavigation(), page.click('text=Check these parts on the BOM page')]);
    expect(bom?.status()).toBe(200);
    const text = await page.textContent('main');
    for (const b of api.bom_items) expect(text).toContain(b.id);
    // The form and the result page, with axe (JavaScript on for axe itself).
    const a = await js.newPage();
    await a.goto(`${srv.url}/size`);
    expect(await serious(a)).toEqual([]);
    await a.setInputFiles('#file', SO101);
    await a.fill('#samples', '16');
    await Promise.all([a.waitForNavigation(), a.click('button[type=submit]')]);
    expect(await a.$$eval('#joints tbody tr', (trs) => trs.length)).toBe(api.joints.length);
    expect(await serious(a)).toEqual([]);
  }, 180_000);

  it('a .tar.gz package with its entry; no file answers an error page naming the field', async () => {
    const tgz = path.join(tmp, 'gripper.tar.gz');
    execFileSync('tar', ['-czf', tgz, '-C', path.dirname(PACKAGE), path.basename(PACKAGE)]);
    const page = await nojs.newPage();
    await page.goto(`${srv.url}/size`);
    await page.setInputFiles('#file', tgz);
    await page.fill('#entry', 'urdf/robotiq_arg2f_85_model.xacro');
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    expect(await page.$$eval('#joints tbody tr', (trs) => trs.length)).toBe(1);
    await page.goto(`${srv.url}/size`);
    const [bad] = await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    expect(bad?.status()).toBe(400);
    expect(await page.textContent('[role=alert]')).toContain('file');
  }, 120_000);
});
