import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import path from 'node:path';
import { DomainError } from '../../src/domain/shared/errors.js';
import { loadPlans } from '../../src/store/datasets.js';
import { SandboxGateway } from '../../src/domain/payments/sandbox.js';
import { createPaymentGateway } from '../../src/domain/payments/index.js';
import { computeSignature, signPayload, verifySignature } from '../../src/domain/payments/signature.js';
import { createPayment } from '../../src/domain/payments/service.js';
import { escapeHtml, renderPayPage } from '../../src/domain/payments/pay-page.js';
import { openStores, rejection, tempDir, TestClock } from '../accounts/support.js';

const SECRET = 'whsec_test_0123456789';
const BASE = 'http://127.0.0.1:8787';
const T0 = Date.parse('2025-03-01T10:00:00Z');
const plans = loadPlans(path.resolve(import.meta.dirname, '../../data'));

let tmp: ReturnType<typeof tempDir>;
let s: ReturnType<typeof openStores>;
let clock: TestClock;
let gateway: SandboxGateway;

function setup() {
  s = openStores(tmp.file, clock);
  gateway = new SandboxGateway({ orders: s.orders, plans, secret: SECRET, publicBaseUrl: `${BASE}/`, clock: clock.now });
}

beforeEach(() => {
  tmp = tempDir();
  clock = new TestClock(T0);
  setup();
});
afterEach(() => {
  if (s.db.open) s.db.close();
  tmp.cleanup();
});


function webhook(body: object, opts: { secret?: string; at?: Date } = {}) {
  const rawBody = JSON.stringify(body);
  return { headers: { 'X-Signature': signPayload(opts.secret ?? SECRET, rawBody, opts.at ?? clock.now()) }, rawBody };
}

const deps = () => ({ accounts: s.accounts, gateway, plans });

async function newOrder(plan = 'starter') {
  const reg = await s.accounts.register(`buyer-${Math.random()}@example.com`);
  const order = await createPayment({ plan, apiKey: reg.api_key }, deps());
  return { reg, order };
}

describe('signatures', () => {
  it('computes HMAC-SHA256 over `${t}.${body}` and formats t=..,v1=..', () => {
    const header = signPayload('s', '{}', new Date(1_700_000_000_000));
    expect(header).toBe(`t=1700000000,v1=${computeSignature('s', 1700000000, '{}')}`);
    // HMAC-SHA256(key "s", "1700000000.{}") as computed by `openssl dgst -sha256 -hmac s`
    expect(computeSignature('s', 1700000000, '{}')).toBe('e9232c9945da8456c2dea6b39da7786c07b00bca7a64d5dd1283674713a7b72a');
    expect(verifySignature('s', header, '{}', new Date(1_700_000_000_000))).toBe(1700000000);
  });

  it('accepts any matching v1 among several (secret rotation)', () => {
    const now = new Date(1_700_000_000_000);
    const good = signPayload('new', 'x', now);
    const old = signPayload('old', 'x', now).split(',')[1];
    expect(verifySignature('new', `${old},${good}`, 'x', now)).toBe(1700000000);
  });

  it('rejects missing, malformed, tampered, stale and future signatures with bad_signature', () => {
    const now = new Date(1_700_000_000_000);
    const header = signPayload('s', 'body', now);
    const code = (fn: () => unknown) => {
      try {
        fn();
        return 'accepted';
      } catch (e) {
        return `${(e as DomainError).code}:${(e as DomainError).message}`;
      }
    };
    expect(code(() => verifySignature('s', undefined, 'body', now))).toBe('bad_signature:Missing X-Signature header');
    expect(code(() => verifySignature('s', 'v1=abc', 'body', now))).toMatch(/^bad_signature:Malformed/);
    expect(code(() => verifySignature('s', header, 'body!', now))).toBe('bad_signature:Webhook signature does not match');
    expect(code(() => verifySignature('other', header, 'body', now))).toBe('bad_signature:Webhook signature does not match');
    expect(code(() => verifySignature('s', header, 'body', new Date(now.getTime() + 300_000)))).toBe('accepted');
    expect(code(() => verifySignature('s', header, 'body', new Date(now.getTime() + 301_000)))).toBe(
      'bad_signature:Webhook timestamp is too old',
    );
    expect(code(() => verifySignature('s', header, 'body', new Date(now.getTime() - 301_000)))).toBe(
      'bad_signature:Webhook timestamp is in the future',
    );
  });
});

describe('sandbox orders', () => {
  it('creates a stored pending order with pay_url and a PNG QR code of it', async () => {
    const { order, reg } = await newOrder('pro');
    expect(order.order_id).toMatch(/^ord_[A-Za-z0-9_-]{22}$/);
    expect(order.pay_url).toMatch(new RegExp(`^${BASE}/pay/${order.order_id}\\?token=[A-Za-z0-9_-]{32}$`));
    // the token opens this order's page only
    const token = new URL(order.pay_url).searchParams.get('token');
    expect(gateway.tokenMatches(order.order_id, token)).toBe(true);
    expect(gateway.tokenMatches(order.order_id, `${token}x`)).toBe(false);
    expect(gateway.tokenMatches((await newOrder('pro')).order.order_id, token)).toBe(false);
    expect(order.qr_code.startsWith('data:image/png;base64,')).toBe(true);
    const png = Buffer.from(order.qr_code.slice('data:image/png;base64,'.length), 'base64');
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(await gateway.status(order.order_id)).toEqual({
      order_id: order.order_id,
      status: 'pending',
      plan: 'pro',
      amount: '29.00',
      currency: 'CNY',
      credits: 2000,
      created_at: '2025-03-01T10:00:00.000Z',
      paid_at: null,
    });
    const account = await s.accounts.authenticate(reg.api_key);
    expect(await s.orders.order(order.order_id)).toMatchObject({ account_id: account.id, amount_minor: 2900, gateway: 'sandbox' });
  });

  it('unknown order status -> not_found', async () => {
    expect((await rejection(gateway.status('ord_nope'))).code).toBe('not_found');
  });

  it('a valid webhook credits the plan credits, sets the plan, and reports paid', async () => {
    const { order, reg } = await newOrder('starter');
    const res = await gateway.handleWebhook(
      webhook({ type: 'payment.succeeded', order_id: order.order_id, plan: 'starter', amount: '9.00', currency: 'CNY' }),
    );
    expect(res).toEqual({ order_id: order.order_id, status: 'paid', credited: true });
    expect(await s.accounts.balance(reg.api_key)).toEqual({ credits: 600, plan: 'starter', api_calls: 0 });
    expect(await gateway.status(order.order_id)).toMatchObject({ status: 'paid', paid_at: '2025-03-01T10:00:00.000Z' });
    const account = await s.accounts.authenticate(reg.api_key);
    expect((await s.ledger.entries(account.id)).map((e) => [e.delta, e.reason, e.reference])).toEqual([
      [100, 'grant', 'registration'],
      [500, 'payment', order.order_id],
    ]);
  });

  it('replayed x5 (sequentially and concurrently): credited exactly once', async () => {
    const { order, reg } = await newOrder('pro');
    const req = webhook({ type: 'payment.succeeded', order_id: order.order_id, plan: 'pro', amount: 29, currency: 'CNY' });
    const sequential = [];
    for (let i = 0; i < 5; i++) sequential.push((await gateway.handleWebhook(req)).credited);
    expect(sequential).toEqual([true, false, false, false, false]);
    const concurrent = await Promise.all(Array.from({ length: 5 }, () => gateway.handleWebhook(req)));
    expect(concurrent.map((r) => r.credited)).toEqual([false, false, false, false, false]);
    expect(await s.accounts.balance(reg.api_key)).toEqual({ credits: 2100, plan: 'pro', api_calls: 0 });
    const account = await s.accounts.authenticate(reg.api_key);
    expect(await s.ledger.ledgerSum(account.id)).toBe(2100);
  });

  it('concurrent first deliveries of one order credit once', async () => {
    const { order, reg } = await newOrder('starter');
    const req = webhook({ type: 'payment.succeeded', order_id: order.order_id, plan: 'starter', amount: '9', currency: 'CNY' });
    const res = await Promise.all(Array.from({ length: 5 }, () => gateway.handleWebhook(req)));
    expect(res.filter((r) => r.credited)).toHaveLength(1);
    expect((await s.accounts.balance(reg.api_key)).credits).toBe(600);
  });

  it('bad signature -> bad_signature, nothing credited', async () => {
    const { order, reg } = await newOrder();
    const req = webhook(
      { type: 'payment.succeeded', order_id: order.order_id, plan: 'starter', amount: '9.00', currency: 'CNY' },
      { secret: 'wrong-secret' },
    );
    const err = await rejection(gateway.handleWebhook(req));
    expect(err.code).toBe('bad_signature');
    expect(err.status).toBe(401);
    // body tampered after signing
    const good = webhook({ type: 'payment.succeeded', order_id: order.order_id, plan: 'starter', amount: '9.00', currency: 'CNY' });
    const tampered = { headers: good.headers, rawBody: good.rawBody.replace('9.00', '9.01') };
    expect((await rejection(gateway.handleWebhook(tampered))).code).toBe('bad_signature');
    expect((await rejection(gateway.handleWebhook({ headers: {}, rawBody: good.rawBody }))).code).toBe('bad_signature');
    expect((await s.accounts.balance(reg.api_key)).credits).toBe(100);
    expect((await gateway.status(order.order_id)).status).toBe('pending');
  });

  it('stale timestamp (> 5 min) -> bad_signature, nothing credited', async () => {
    const { order, reg } = await newOrder();
    const body = { type: 'payment.succeeded', order_id: order.order_id, plan: 'starter', amount: '9.00', currency: 'CNY' };
    const stale = webhook(body, { at: new Date(T0 - 301_000) });
    const err = await rejection(gateway.handleWebhook(stale));
    expect(err.code).toBe('bad_signature');
    expect(err.message).toBe('Webhook timestamp is too old');
    const future = webhook(body, { at: new Date(T0 + 301_000) });
    expect((await rejection(gateway.handleWebhook(future))).message).toBe('Webhook timestamp is in the future');
    expect((await s.accounts.balance(reg.api_key)).credits).toBe(100);
  });

  it('wrong amount, plan or currency -> invalid_input naming the field, nothing credited', async () => {
    const { order, reg } = await newOrder('starter');
    const base = { type: 'payment.succeeded', order_id: order.order_id, plan: 'starter', amount: '9.00', currency: 'CNY' };
    for (const [patch, field] of [
      [{ amount: '0.90' }, 'amount'],
      [{ amount: 29 }, 'amount'],
      [{ plan: 'lifetime' }, 'plan'],
      [{ currency: 'USD' }, 'currency'],
      [{ amount: 'nine' }, 'amount'],
    ] as const) {
      const err = await rejection(gateway.handleWebhook(webhook({ ...base, ...patch })));
      expect(err.code).toBe('invalid_input');
      expect(err.details.field).toBe(field);
    }
    expect((await s.accounts.balance(reg.api_key)).credits).toBe(100);
    expect((await gateway.status(order.order_id)).status).toBe('pending');
  });

  it('unknown order -> not_found', async () => {
    const err = await rejection(
      gateway.handleWebhook(webhook({ type: 'payment.succeeded', order_id: 'ord_unknown', plan: 'starter', amount: '9.00', currency: 'CNY' })),
    );
    expect(err.code).toBe('not_found');
    expect(err.status).toBe(404);
  });

  it('signed but malformed body -> invalid_input', async () => {
    const rawBody = 'not json';
    const err = await rejection(gateway.handleWebhook({ headers: { 'x-signature': signPayload(SECRET, rawBody, clock.now()) }, rawBody }));
    expect(err.code).toBe('invalid_input');
    const wrongType = await rejection(gateway.handleWebhook(webhook({ type: 'payment.refunded', order_id: 'x', plan: 'p', amount: 1, currency: 'CNY' })));
    expect(wrongType.details.field).toBe('type');
  });

  it('never downgrades: lifetime then starter stays lifetime, credits add up', async () => {
    const { order, reg } = await newOrder('lifetime');
    await gateway.simulatePayment(order.order_id);
    const second = await createPayment({ plan: 'starter', apiKey: reg.api_key }, deps());
    expect(await gateway.simulatePayment(second.order_id)).toMatchObject({ credited: true });
    expect(await s.accounts.balance(reg.api_key)).toEqual({ credits: 100 + 9999 + 500, plan: 'lifetime', api_calls: 0 });
  });

  it('a paid order stays paid and credited once across a restart', async () => {
    const { order, reg } = await newOrder('starter');
    const req = await gateway.completionRequest(order.order_id);
    expect((await gateway.handleWebhook(req)).credited).toBe(true);
    s.db.close();
    setup();
    expect((await gateway.handleWebhook(req)).credited).toBe(false);
    expect(await s.accounts.balance(reg.api_key)).toEqual({ credits: 600, plan: 'starter', api_calls: 0 });
  });
});

describe('create_payment account resolution', () => {
  it('api_key: order for that account; unknown key -> unknown_key; unknown plan -> invalid_input', async () => {
    const reg = await s.accounts.register('ada@example.com');
    const order = await createPayment({ plan: 'starter', apiKey: reg.api_key }, deps());
    const account = await s.accounts.authenticate(reg.api_key);
    expect((await s.orders.order(order.order_id))?.account_id).toBe(account.id);
    expect((await rejection(createPayment({ plan: 'starter', apiKey: 'gtk_' + 'z'.repeat(32) }, deps()))).code).toBe('unknown_key');
    const bad = await rejection(createPayment({ plan: 'gold', apiKey: reg.api_key }, deps()));
    expect(bad.code).toBe('invalid_input');
    expect(bad.details.field).toBe('plan');
  });

  it('email alone (only where allowed): the account registered with it; unknown e-mail -> not_found; invalid -> invalid_input', async () => {
    const reg = await s.accounts.register('ada@example.com');
    expect((await rejection(createPayment({ plan: 'pro', email: 'ada@example.com' }, deps()))).code).toBe('missing_credentials');
    expect((await rejection(createPayment({ plan: 'pro', email: 'nobody@example.com' }, deps()))).code).toBe('missing_credentials');
    const byEmail = () => ({ ...deps(), allowEmailOnly: true });
    const order = await createPayment({ plan: 'pro', email: ' ADA@example.com' }, byEmail());
    const account = await s.accounts.authenticate(reg.api_key);
    expect((await s.orders.order(order.order_id))?.account_id).toBe(account.id);
    expect((await rejection(createPayment({ plan: 'pro', email: 'nobody@example.com' }, byEmail()))).code).toBe('not_found');
    expect((await rejection(createPayment({ plan: 'pro', email: 'nope' }, byEmail()))).code).toBe('invalid_input');
  });

  it('both: the e-mail must belong to the key; neither -> missing_credentials', async () => {
    const ada = await s.accounts.register('ada@example.com');
    await s.accounts.register('bob@example.com');
    expect(await createPayment({ plan: 'pro', apiKey: ada.api_key, email: 'ada@example.com' }, deps())).toHaveProperty('order_id');
    const err = await rejection(createPayment({ plan: 'pro', apiKey: ada.api_key, email: 'bob@example.com' }, deps()));
    expect(err.code).toBe('invalid_input');
    expect(err.details.field).toBe('email');
    expect((await rejection(createPayment({ plan: 'pro' }, deps()))).code).toBe('missing_credentials');
  });
});

describe('pay page and gateway selection', () => {
  it('shows plan, amount and the QR code, and offers the sandbox button while pending', async () => {
    const { order } = await newOrder('pro');
    const html = await gateway.payPage(order.order_id, { simulateAction: `/pay/${order.order_id}/simulate` });
    expect(html).toContain('<dd>pro (2000 credits)</dd>');
    expect(html).toContain('<dd>29.00 CNY</dd>');
    expect(html).toContain(`<img src="data:image/png;base64,`);
    expect(html).toContain(`action="/pay/${order.order_id}/simulate"`);
    await gateway.simulatePayment(order.order_id);
    const paid = await gateway.payPage(order.order_id, { simulateAction: `/pay/${order.order_id}/simulate` });
    expect(paid).toContain('<dd id="status">paid</dd>');
    expect(paid).not.toContain('<form');
    expect((await rejection(gateway.payPage('ord_missing'))).code).toBe('not_found');
  });

  it('escapes everything it renders', () => {
    expect(escapeHtml(`<script>"x"&'y'</script>`)).toBe('&#60;script&#62;&#34;x&#34;&#38;&#39;y&#39;&#60;/script&#62;');
    const html = renderPayPage({
      order: {
        order_id: '<b>id</b>',
        status: 'pending',
        plan: '"><script>alert(1)</script>',
        amount: '9.00',
        currency: 'CNY',
        credits: 1,
        created_at: '',
        paid_at: null,
      },
      payUrl: 'javascript:"x"',
      qrCode: 'data:image/png;base64,AAA"onerror="alert(1)',
    });
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>');
    expect(html).not.toContain('"onerror="');
  });

  it('createPaymentGateway: sandbox by name, unknown names refused; the sandbox needs a secret', () => {
    expect(createPaymentGateway('sandbox', { orders: s.orders, plans, secret: SECRET, publicBaseUrl: BASE }).name).toBe('sandbox');
    expect(() => createPaymentGateway('paypal', { orders: s.orders, plans, secret: SECRET, publicBaseUrl: BASE })).toThrow(
      /Unknown payment gateway "paypal"/,
    );
    expect(() => new SandboxGateway({ orders: s.orders, plans, secret: '', publicBaseUrl: BASE })).toThrow(/secret/);
  });
});
