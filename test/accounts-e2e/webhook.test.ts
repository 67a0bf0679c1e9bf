/**
 * Acceptance: the payment webhook over HTTP (bad signature, stale timestamp, wrong amount,
 * unknown order, replay x5 credited once) and the sandbox pay page.
 */
import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeSignature } from '../../src/domain/payments/signature.js';
import { sampleEntities } from '../support/factory.js';
import { startTestServer } from '../support/http.js';
import { balance, bearer, completionBody, http, postJson, readLedger, registerKey, sendWebhook, tempDb, WEBHOOK_SECRET, simulateUrl } from './helpers.js';

type Order = { order_id: string; pay_url: string; qr_code: string };

describe('payment webhook and sandbox pay page over HTTP', () => {
  const tmp = tempDb();
  let srv: Awaited<ReturnType<typeof startTestServer>>;
  let key: string;

  const createOrder = async (plan: string): Promise<Order> => {
    const r = await postJson<Order>(`${srv.url}/api/payment/create`, { plan }, bearer(key));
    expect(r.status).toBe(200);
    return r.body;
  };
  const status = async (orderId: string) => http<Record<string, unknown>>(`${srv.url}/api/payment/${encodeURIComponent(orderId)}`);

  beforeAll(async () => {
    srv = await startTestServer(sampleEntities(), { dbPath: tmp.file, webhookSecret: WEBHOOK_SECRET });
    key = await registerKey(srv.url, 'payer@example.com');
  });
  afterAll(async () => {
    await srv?.stop();
    tmp.cleanup();
  });

  let starter: Order;

  it('creates an order: {order_id, pay_url, qr_code}, status pending', async () => {
    starter = await createOrder('starter');
    expect(Object.keys(starter).sort()).toEqual(['order_id', 'pay_url', 'qr_code']);
    expect(starter.order_id).toMatch(/^ord_[A-Za-z0-9_-]{20,}$/);
    expect(starter.pay_url).toMatch(new RegExp(`^${srv.url}/pay/${starter.order_id}\\?token=[A-Za-z0-9_-]{32}$`));
    expect(starter.qr_code).toBe(await QRCode.toDataURL(starter.pay_url));
    const s = await status(starter.order_id);
    expect(s.status).toBe(200);
    expect(s.body).toMatchObject({ order_id: starter.order_id, status: 'pending', plan: 'starter', amount: '9.00', currency: 'CNY', credits: 500, paid_at: null });
  });

  it('refuses a bad signature with 401 bad_signature and credits nothing', async () => {
    const body = completionBody(starter);
    const wrongSecret = await sendWebhook(srv.url, body, { secret: 'not-the-secret' });
    expect(wrongSecret.status).toBe(401);
    expect(wrongSecret.body).toMatchObject({ code: 'bad_signature' });

    // Signed over a different body (amount tampered after signing).
    const t = Math.floor(Date.now() / 1000);
    const tampered = await sendWebhook(srv.url, body, { signature: `t=${t},v1=${computeSignature(WEBHOOK_SECRET, t, body.replace('9.00', '0.01'))}` });
    expect(tampered.status).toBe(401);
    expect(tampered.body).toMatchObject({ code: 'bad_signature' });

    const malformed = await sendWebhook(srv.url, body, { signature: 'sha256=deadbeef' });
    expect(malformed.status).toBe(401);
    expect(malformed.body).toMatchObject({ code: 'bad_signature' });

    const missing = await http(`${srv.url}/api/payment/webhook`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ code: 'bad_signature' });

    expect((await status(starter.order_id)).body.status).toBe('pending');
    expect(await balance(srv.url, key)).toEqual({ credits: 100, plan: 'free', api_calls: 0 });
  });

  it('refuses a stale (and a far-future) timestamp with 401', async () => {
    const body = completionBody(starter);
    const stale = await sendWebhook(srv.url, body, { at: new Date(Date.now() - 10 * 60_000) });
    expect(stale.status).toBe(401);
    expect(stale.body).toMatchObject({ code: 'bad_signature', error: expect.stringMatching(/old/i) });
    const future = await sendWebhook(srv.url, body, { at: new Date(Date.now() + 10 * 60_000) });
    expect(future.status).toBe(401);
    expect(future.body).toMatchObject({ code: 'bad_signature' });
    expect((await status(starter.order_id)).body.status).toBe('pending');
  });

  it('refuses a wrong amount (400 naming amount), plan or currency, and an unknown order (404)', async () => {
    const amount = await sendWebhook(srv.url, completionBody({ ...starter, amount: '1.00' }));
    expect(amount.status).toBe(400);
    expect(amount.body).toMatchObject({ code: 'invalid_input', field: 'amount' });
    const amountNumber = await sendWebhook(srv.url, completionBody({ ...starter, amount: 29 }));
    expect(amountNumber.status).toBe(400);
    expect(amountNumber.body).toMatchObject({ code: 'invalid_input', field: 'amount' });
    const plan = await sendWebhook(srv.url, completionBody({ ...starter, plan: 'lifetime' }));
    expect(plan.status).toBe(400);
    expect(plan.body).toMatchObject({ code: 'invalid_input', field: 'plan' });
    const currency = await sendWebhook(srv.url, completionBody({ ...starter, currency: 'USD' }));
    expect(currency.status).toBe(400);
    expect(currency.body).toMatchObject({ code: 'invalid_input', field: 'currency' });

    const unknown = await sendWebhook(srv.url, completionBody({ order_id: 'ord_doesnotexist0000000000' }));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'not_found', order_id: 'ord_doesnotexist0000000000' });
    const unknownStatus = await status('ord_doesnotexist0000000000');
    expect(unknownStatus.status).toBe(404);
    expect(unknownStatus.body).toMatchObject({ code: 'not_found' });

    expect((await status(starter.order_id)).body.status).toBe('pending');
    expect((await balance(srv.url, key)).credits).toBe(100);
  });

  it('replayed 5 times in sequence: 200 each, credited once (+500, plan starter)', async () => {
    const body = completionBody(starter);
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await sendWebhook(srv.url, body));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(results.map((r) => r.body.credited)).toEqual([true, false, false, false, false]);
    expect(results[0].body).toEqual({ order_id: starter.order_id, status: 'paid', credited: true });
    expect(await balance(srv.url, key)).toEqual({ credits: 600, plan: 'starter', api_calls: 0 });
    const s = await status(starter.order_id);
    expect(s.body).toMatchObject({ status: 'paid', plan: 'starter', credits: 500, paid_at: expect.any(String) });
  });

  it('the very same signed request replayed 5 times concurrently: credited once (+2000, plan pro)', async () => {
    const pro = await createOrder('pro');
    const body = completionBody({ ...pro, plan: 'pro', amount: '29.00' });
    const t = Math.floor(Date.now() / 1000);
    const signature = `t=${t},v1=${computeSignature(WEBHOOK_SECRET, t, body)}`;
    const results = await Promise.all(Array.from({ length: 5 }, () => sendWebhook(srv.url, body, { signature })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(results.filter((r) => r.body.credited === true)).toHaveLength(1);
    expect(await balance(srv.url, key)).toEqual({ credits: 2600, plan: 'pro', api_calls: 0 });
    expect((await status(pro.order_id)).body).toMatchObject({ status: 'paid', plan: 'pro', amount: '29.00', credits: 2000 });
  });

  it('serves the pay page with plan, amount and the QR code; simulate pays once; no plan downgrade', async () => {
    const order = await createOrder('starter');
    const page = await http(order.pay_url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain('starter');
    expect(page.text).toContain('9.00 CNY');
    expect(page.text).toContain('pending');
    const src = /<img src="([^"]+)"/.exec(page.text)?.[1];
    const unescaped = src?.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));
    expect(unescaped).toMatch(/^data:image\/png;base64,/);
    expect(unescaped).toBe(await QRCode.toDataURL(order.pay_url));
    const token = new URL(order.pay_url).searchParams.get('token');
    expect(page.text).toContain(`action="/pay/${order.order_id}/simulate?token&#61;${token}"`);

    const simulated = await http(simulateUrl(order.pay_url), { method: 'POST' });
    expect(simulated.status).toBe(303);
    expect(simulated.headers.get('location')).toBe(`/pay/${order.order_id}?token=${token}`);
    const again = await http(simulateUrl(order.pay_url), { method: 'POST' });
    expect(again.status).toBe(303);

    // +500 once; the account keeps the higher plan (pro) it already had.
    expect(await balance(srv.url, key)).toEqual({ credits: 3100, plan: 'pro', api_calls: 0 });
    expect((await status(order.order_id)).body.status).toBe('paid');
    const paidPage = await http(order.pay_url);
    expect(paidPage.text).toContain('<dd id="status">paid</dd>');
    expect(paidPage.text).not.toContain('/simulate');

    const missing = await http(`${srv.url}/pay/ord_doesnotexist0000000000?token=${token}`);
    expect(missing.status).toBe(404);
  });

  it('the ledger holds exactly one payment entry per paid order and sums to the balance', async () => {
    await srv.stop();
    const ledger = readLedger(tmp.file);
    const [account] = ledger.accounts;
    expect(account).toMatchObject({ credits: 3100, plan: 'pro' });
    expect(ledger.sum(account.id)).toBe(3100);
    const payments = ledger.entries(account.id).filter((e) => e.reason === 'payment');
    expect(payments.map((e) => e.delta).sort((a, b) => a - b)).toEqual([500, 500, 2000]);
    expect(new Set(payments.map((e) => e.reference)).size).toBe(3);
    srv = undefined as never;
  });
});

describe('webhook secret', () => {
  it('without a configured secret the sandbox uses a random one: a guessable secret does not verify', async () => {
    const srv = await startTestServer(sampleEntities());
    try {
      const key = await registerKey(srv.url, 'nosecret@example.com');
      const order = (await postJson<Order>(`${srv.url}/api/payment/create`, { plan: 'starter', api_key: key })).body;
      for (const guess of [WEBHOOK_SECRET, '', 'sandbox', 'secret']) {
        const r = await sendWebhook(srv.url, completionBody(order), { secret: guess });
        expect(r.status).toBe(401);
      }
      // The sandbox's own completion (pay page button) still works.
      expect((await http(simulateUrl(order.pay_url), { method: 'POST' })).status).toBe(303);
      expect((await balance(srv.url, key)).credits).toBe(600);
    } finally {
      await srv.stop();
    }
  });
});
