/**
 * Screenshots and page weights of the issue-41 pages (category, finder, zero-hit, 404, plate, the
 * /bom flow, /size) at a desktop (1366 px) and a phone (390 px) width: starts the server over the
 * shipped data on a loopback port, opens each page in Chromium (/usr/bin/chromium, or
 * CHROMIUM_PATH), saves the first screen of each as docs/screenshots/41-<page>-<width>.png
 * (a 16-colour indexed PNG, scripts/png-palette.ts, to keep the files small) and writes docs/page-weights.md: the HTML document's bytes sent uncompressed and
 * br-encoded (as the server sends them), and what Chromium transferred for the whole page.
 *
 *   node scripts/browser-assets.mjs   # once: the pages' scripts and 3D bundles in dist/assets
 *   npx tsx scripts/page-shots.ts
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { jobRunnerFactory } from '../src/compose.js';
import { loadConfig } from '../src/config.js';
import { buildDeps } from '../src/deps.js';
import { startHttpServer } from '../src/http/app.js';
import { silentLogger } from '../src/log.js';
import { palettePng } from './png-palette.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SHOTS = path.join(ROOT, 'docs/screenshots');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!fs.existsSync(path.join(ROOT, 'dist/assets/style.css'))) throw new Error('dist/assets is not built: run `node scripts/browser-assets.mjs` first');

const PLATE = '/plates?a=ISO9409-1-A50-4-M6&b=ISO9409-1-A31.5-4-M5';
const canvasDrawn = (p: Page) => p.waitForSelector('#plate-canvas[data-state="drawn"]', { timeout: 120_000 });

/** The BOM flow: Add to BOM on two part pages, then /bom's Check (the page then shows the findings). */
async function bomFlow(ctx: BrowserContext, base: string): Promise<Page> {
  for (const id of ['ACT-001', 'CHIP-001']) {
    const p = await ctx.newPage();
    await p.goto(`${base}/parts/${id}`);
    await p.click('form.add-bom button');
    await p.waitForSelector('form.add-bom [role="status"]:has-text("in the BOM")');
    await p.close();
  }
  const bom = await ctx.newPage();
  await bom.goto(`${base}/bom`);
  await Promise.all([bom.waitForURL(`${base}/bom`), bom.click('button[value="check"]')]);
  await bom.waitForSelector('#finding-list');
  await bom.evaluate(() => {
    const list = document.getElementById('finding-list')!;
    (list.previousElementSibling ?? list).scrollIntoView(); // the findings' heading at the top
  });
  return bom;
}

/** name, route, what to wait for (or the flow that makes the page). */
const PAGES: { name: string; route: string; ready?: (p: Page) => Promise<unknown>; flow?: typeof bomFlow }[] = [
  { name: 'category', route: '/search?category=actuators' },
  { name: 'finder', route: '/search?category=actuators&min.torque_rated=5&in.bus=CAN&in.bus=EtherCAT' },
  { name: 'zero-hit', route: '/search?q=feetech' },
  { name: 'not-found', route: '/no/such-page' },
  { name: 'plate', route: PLATE, ready: canvasDrawn },
  { name: 'bom', route: '/bom', flow: bomFlow },
  { name: 'size', route: '/size' },
];

/** The document's status and body length as sent for an Accept-Encoding (raw bytes: fetch would decode them). */
function documentBytes(url: string, encoding: string | null): Promise<{ status: number; bytes: number; coding: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { accept: 'text/html' };
    if (encoding) headers['accept-encoding'] = encoding;
    http
      .get(url, { headers }, (res) => {
        let n = 0;
        res.on('data', (c: Buffer) => (n += c.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes: n, coding: String(res.headers['content-encoding'] ?? 'identity') }));
      })
      .on('error', reject);
  });
}

const kB = (n: number) => `${(n / 1024).toFixed(1)} kB`;

async function main(): Promise<void> {
  const deps = buildDeps(loadConfig({}, { dbPath: ':memory:', port: 0, logLevel: 'error', rateLimitFree: 0, rateLimitPaid: 0 }), { log: silentLogger, jobs: jobRunnerFactory() });
  const srv = await startHttpServer(deps);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--hide-scrollbars'],
  });
  const widths = { desktop: { width: 1366, height: 768 }, phone: { width: 390, height: 844 } } as const;
  const rows: string[] = [];
  fs.mkdirSync(SHOTS, { recursive: true });
  let imageBytes = 0;
  try {
    for (const pg of PAGES) {
      const plain = await documentBytes(srv.url + pg.route, null);
      const packed = await documentBytes(srv.url + pg.route, 'br, gzip');
      const transferred: Record<string, string> = {};
      for (const [width, viewport] of Object.entries(widths)) {
        const ctx = await browser.newContext({ viewport, ...(width === 'phone' ? { isMobile: true, hasTouch: true } : {}) });
        const sizes: Promise<number>[] = [];
        ctx.on('requestfinished', (r) => sizes.push(r.sizes().then((s) => s.responseBodySize + s.responseHeadersSize)));
        let page: Page;
        if (pg.flow) page = await pg.flow(ctx, srv.url);
        else {
          page = await ctx.newPage();
          await page.goto(srv.url + pg.route, { waitUntil: 'load' });
          if (pg.ready) await pg.ready(page);
        }
        await page.waitForLoadState('networkidle');
        const file = path.join(SHOTS, `41-${pg.name}-${width}.png`);
        fs.writeFileSync(file, palettePng(await page.screenshot(), 16)); // the first screen only
        imageBytes += fs.statSync(file).size;
        const all = await Promise.all(sizes);
        transferred[width] = `${kB(all.reduce((a, b) => a + b, 0))} in ${all.length}`;
        await ctx.close();
      }
      rows.push(`| ${pg.name} | \`${pg.route}\` | ${plain.status} | ${plain.bytes} | ${packed.bytes} (${packed.coding}) | ${transferred.desktop} | ${transferred.phone} | [desktop](screenshots/41-${pg.name}-desktop.png), [phone](screenshots/41-${pg.name}-phone.png) |`);
      console.log(rows.at(-1));
    }
  } finally {
    await browser.close();
    await srv.close();
    deps.close();
  }
  const doc = `# Page weights and screenshots (issue 41)

Written by \`npx tsx scripts/page-shots.ts\` (after \`node scripts/browser-assets.mjs\`): the server over the shipped data on
loopback, each page opened in Chromium at 1366 × 768 (desktop) and 390 × 844 (phone). Screenshots show the first screen
only (16-colour PNG). HTML bytes are the document as the server sends it without and with \`Accept-Encoding: br, gzip\`
(responses over 1 KiB are compressed); "transferred" is every response Chromium received for the page (document,
stylesheet, scripts, the 3D bundle and the STL on the plate page; headers included), with the number of requests. The
/bom row is the flow: Add to BOM on two part pages, then Check on /bom (its transfer counts all three pages).

| Page | Route | Status | HTML bytes | HTML bytes, compressed | Transferred, desktop (requests) | Transferred, phone (requests) | Screenshots |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}

Screenshots: ${(imageBytes / 1024).toFixed(0)} kB in all.

| Page | Desktop (1366 px) | Phone (390 px) |
|---|---|---|
${PAGES.map((p) => `| ${p.name} | ![${p.name} at 1366 px](screenshots/41-${p.name}-desktop.png) | ![${p.name} at 390 px](screenshots/41-${p.name}-phone.png) |`).join('\n')}
`;
  fs.writeFileSync(path.join(ROOT, 'docs/page-weights.md'), doc);
  console.log(`docs/page-weights.md written; screenshots ${imageBytes} bytes`);
}

await main();
