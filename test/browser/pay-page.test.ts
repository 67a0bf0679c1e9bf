/**
 * The sandbox pay page in a real browser (Debian's Chromium through playwright-core): it shows
 * the order, renders the QR code image, and its button pays the order exactly once.
 * Needs /usr/bin/chromium (.ci/run installs it). Outside CI the test is skipped when absent.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { startTestServer } from '../support/http.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = fs.existsSync(CHROMIUM);
if (!available && process.env.CI) throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium`);

describe.skipIf(!available)('sandbox pay page in Chromium', () => {
  let srv: Awaited<ReturnType<typeof startTestServer>>;
  let browser: Browser;

  beforeAll(async () => {
    srv = await startTestServer();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      // Playwright gives the browser a fresh temporary profile; no network beyond loopback is needed.
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await srv?.stop();
  });

  it('shows plan, amount and a rendered QR code; "Simulate payment" credits the account once', async () => {
    const { api_key } = await srv.deps.accounts.register('browser@example.com');
    const order = (await (
      await fetch(`${srv.url}/api/payment/create`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ plan: 'starter', api_key }) })
    ).json()) as { order_id: string; pay_url: string };

    const page = await browser.newPage();
    const resp = await page.goto(order.pay_url);
    expect(resp?.status()).toBe(200);
    const body = await page.textContent('body');
    expect(body).toContain('starter (500 credits)');
    expect(body).toContain('9.00 CNY');
    expect(await page.textContent('#status')).toBe('pending');
    // The QR code is a real image the browser decoded (the CSP allows data: images only).
    const qrWidth = await page.$eval('img', (img) => (img as HTMLImageElement).naturalWidth);
    expect(qrWidth).toBeGreaterThan(0);
    const shot = await page.screenshot();
    expect(shot.byteLength).toBeGreaterThan(1000);

    await Promise.all([page.waitForURL(order.pay_url), page.click('button[type=submit]')]);
    expect(await page.textContent('#status')).toBe('paid');
    expect(await page.$('button[type=submit]')).toBeNull(); // no button on a paid order

    // Replaying the form post (e.g. the back button) pays nothing more.
    const pay = new URL(order.pay_url);
    const again = await page.request.post(`${srv.url}${pay.pathname}/simulate${pay.search}`, { headers: { origin: srv.url }, maxRedirects: 0 });
    expect(again.status()).toBe(303);
    expect(await srv.deps.accounts.balance(api_key)).toMatchObject({ credits: 600, plan: 'starter' });
    await page.close();
  });
});
