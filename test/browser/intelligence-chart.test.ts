/**
 * The intelligence picture in a real browser (Debian's Chromium through playwright-core): the bars
 * drawn are the document's figures. Expected values come from the JSON document fetched over REST,
 * not from the chart code. Needs /usr/bin/chromium (.ci/run installs it); skipped outside CI when absent.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startHttpServer, type RunningServer } from '../../src/http/app.js';
import type { Deps } from '../../src/deps.js';
import { realDeps } from '../support/deps.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = fs.existsSync(CHROMIUM);
if (!available && process.env.CI) throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium`);

type Doc = {
  maturity_distribution: Record<string, number>;
  categories: Record<string, { name: string; momentum: { known: number; mean: number | null } }>;
};

/** Filled shapes of one colour, with their box sizes, as the browser laid them out. */
async function bars(page: Page, fill: string) {
  return page.$$eval(
    'rect',
    (ps, f) =>
      ps
        .filter((p) => p.getAttribute('fill') === f)
        .map((p) => {
          const b = (p as SVGGraphicsElement).getBBox();
          return { x: b.x, y: b.y, w: b.width, h: b.height };
        }),
    fill,
  );
}

describe.skipIf(!available)('intelligence picture in Chromium', () => {
  let deps: Deps;
  let srv: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    deps = realDeps();
    srv = await startHttpServer(deps);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await srv?.close();
    deps?.close();
  });

  it('draws one TRL bar per level plus unknown and one momentum bar per scored category, with the document figures', async () => {
    const doc = (await (await fetch(`${srv.url}/api/intelligence.json`)).json()) as Doc;
    const page = await browser.newPage({ viewport: { width: 1000, height: 820 } });
    const resp = await page.goto(`${srv.url}/api/intelligence.svg`);
    expect(resp?.status()).toBe(200);
    expect(await page.evaluate(() => document.documentElement.tagName)).toBe('svg');

    const texts = (await page.$$eval('text', (ts) => ts.map((t) => (t.textContent ?? '').trim()))).filter((t) => t !== '');
    const levels = [...Array.from({ length: 9 }, (_, i) => `TRL ${i + 1}`), 'unknown'];
    for (const l of levels) expect(texts).toContain(l);
    const scored = Object.values(doc.categories).filter((c) => c.momentum.known > 0);
    for (const c of scored) {
      expect(texts).toContain(`${c.name} (n=${c.momentum.known})`);
      expect(texts).toContain(String(c.momentum.mean));
    }
    for (const c of Object.values(doc.categories).filter((c) => c.momentum.known === 0)) expect(texts).not.toContain(`${c.name} (n=0)`);
    // value labels of the TRL bars, in order
    const counts = levels.map((l) => doc.maturity_distribution[l === 'unknown' ? 'unknown' : l.slice(4)]!);
    for (const n of counts) expect(texts).toContain(String(n));

    // Bars as laid out: 9 level bars, heights proportional to the counts, and the unknown bar in
    // its own panel to the right of all of them (on its own axis, so TRL 1-9 are not flattened).
    const levelBars = (await bars(page, '#3f6fa6')).sort((a, b) => a.x - b.x);
    const unknownBars = await bars(page, '#9aa5b1');
    expect(levelBars).toHaveLength(9);
    expect(unknownBars).toHaveLength(1);
    const levels9 = Array.from({ length: 9 }, (_, i) => doc.maturity_distribution[String(i + 1)]!);
    const tallest = levelBars.reduce((m, b) => Math.max(m, b.h), 0);
    const unit = tallest / Math.max(...levels9);
    levelBars.forEach((b, i) => expect(Math.abs(b.h - levels9[i]! * unit), `TRL ${i + 1}`).toBeLessThan(1.5));
    // legible: the largest TRL bar is at least half the panel's height whatever the unknown count
    expect(tallest).toBeGreaterThan(130);
    expect(unknownBars[0]!.x).toBeGreaterThan(levelBars[8]!.x + levelBars[8]!.w + 20);
    if (doc.maturity_distribution.unknown! > 0) expect(unknownBars[0]!.h).toBeGreaterThan(0);

    const momentumBars = [...(await bars(page, '#2e8b57')), ...(await bars(page, '#d4a017')), ...(await bars(page, '#c0392b'))].sort((a, b) => a.y - b.y);
    expect(momentumBars).toHaveLength(scored.length);
    // widths proportional to the means on a 0-100 axis
    const widest = Math.max(...scored.map((c) => c.momentum.mean!));
    const wUnit = Math.max(...momentumBars.map((b) => b.w)) / widest;
    scored.forEach((c, i) => expect(Math.abs(momentumBars[i]!.w - c.momentum.mean! * wUnit), c.name).toBeLessThan(1.5));

    const shot = path.join(os.tmpdir(), 'robot-parts-intelligence.png');
    await page.screenshot({ path: shot });
    expect(fs.statSync(shot).size).toBeGreaterThan(5000);
    await page.close();
  });
});
