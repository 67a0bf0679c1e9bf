/**
 * Every status of the account endpoints over REST: register, credits/balance, entities.json
 * (deep, 402), payment/create, credentials (401/403/400 conflicting) and rate limits (429).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleEntities } from '../support/factory.js';
import { startTestServer } from '../support/http.js';
import { balance, bearer, http, postJson, registerKey, type HttpResult } from './helpers.js';

type Server = Awaited<ReturnType<typeof startTestServer>>;

/** A well-formed key nobody registered. */
const UNKNOWN_KEY = 'gtk_' + 'A'.repeat(32);

/** Spends every credit of a key through the account service (the same path a paid call takes). */
async function drain(srv: Server, key: string): Promise<void> {
  const { credits } = await srv.deps.accounts.balance(key);
  await srv.deps.accounts.charge({ key, cost: credits, reason: 'test.drain', reference: 'drain', run: async () => null });
}

describe('REST account endpoints (rate limits off)', () => {
  let srv: Server;
  beforeAll(async () => {
    srv = await startTestServer(sampleEntities());
  });
  afterAll(async () => {
    await srv.stop();
  });

  describe('POST /api/register', () => {
    it('200: a gtk_ key with >= 128 random bits, 100 credits, plan free; a new key each time', async () => {
      const a = await postJson<Record<string, unknown>>(`${srv.url}/api/register`, { email: 'reg-a@example.com' });
      const b = await postJson<Record<string, unknown>>(`${srv.url}/api/register`, { email: 'reg-b@example.com' });
      for (const r of [a, b]) {
        expect(r.status).toBe(200);
        expect(r.body).toEqual({ api_key: expect.stringMatching(/^gtk_[A-Za-z0-9_-]+$/), credits: 100, plan: 'free', message: expect.any(String) });
        const random = Buffer.from((r.body.api_key as string).slice(4), 'base64url');
        expect(random.length * 8).toBeGreaterThanOrEqual(128);
      }
      expect(a.body.api_key).not.toBe(b.body.api_key);
      expect(await balance(srv.url, a.body.api_key as string)).toEqual({ credits: 100, plan: 'free', api_calls: 0 });
    });

    it('400 invalid_input naming email: malformed, missing, not a string', async () => {
      for (const body of [{ email: 'not-an-email' }, { email: 'a@' }, {}, { email: 42 }, { email: '' }]) {
        const r = await postJson(`${srv.url}/api/register`, body);
        expect(r.status, JSON.stringify(body)).toBe(400);
        expect(r.body, JSON.stringify(body)).toMatchObject({ code: 'invalid_input', field: 'email', error: expect.any(String) });
      }
      const notJson = await http(`${srv.url}/api/register`, { method: 'POST', body: '{email:', headers: { 'content-type': 'application/json' } });
      expect(notJson.status).toBe(400);
      expect(notJson.body).toMatchObject({ code: 'invalid_input', field: 'body' });
    });

    it('409 already_registered, also with another case and surrounding whitespace; no second grant', async () => {
      const key = await registerKey(srv.url, 'dup@example.com');
      for (const email of ['dup@example.com', 'DUP@Example.COM', '  dup@example.com  ']) {
        const r = await postJson(`${srv.url}/api/register`, { email });
        expect(r.status, email).toBe(409);
        expect(r.body, email).toMatchObject({ code: 'already_registered', error: expect.any(String) });
        expect(JSON.stringify(r.body)).not.toMatch(/gtk_/);
      }
      expect((await balance(srv.url, key)).credits).toBe(100);
    });
  });

  describe('POST /api/credits/balance', () => {
    let key: string;
    beforeAll(async () => {
      key = await registerKey(srv.url, 'balance@example.com');
    });

    it('200 with the key in the body, Authorization, X-API-Key or query key', async () => {
      const expected = { credits: 100, plan: 'free', api_calls: 0 };
      expect((await postJson(`${srv.url}/api/credits/balance`, { api_key: key })).body).toEqual(expected);
      expect((await postJson(`${srv.url}/api/credits/balance`, {}, bearer(key))).body).toEqual(expected);
      expect((await postJson(`${srv.url}/api/credits/balance`, {}, { 'x-api-key': key })).body).toEqual(expected);
      const q = await postJson(`${srv.url}/api/credits/balance?key=${encodeURIComponent(key)}`, {});
      expect(q.status).toBe(200);
      expect(q.body).toEqual(expected);
      // An empty body is an empty object.
      const empty = await http(`${srv.url}/api/credits/balance`, { method: 'POST', headers: bearer(key) });
      expect(empty.status).toBe(200);
    });

    it('401 missing_credentials without a key (also a blank one)', async () => {
      for (const [body, headers] of [
        [{}, {}],
        [{ api_key: '   ' }, {}],
        [{}, { authorization: 'Bearer ' }],
        [{}, { 'x-api-key': '' }],
      ] as [Record<string, unknown>, Record<string, string>][]) {
        const r = await postJson(`${srv.url}/api/credits/balance`, body, headers);
        expect(r.status, JSON.stringify([body, headers])).toBe(401);
        expect(r.body).toMatchObject({ code: 'missing_credentials', error: expect.any(String) });
      }
    });

    it('403 unknown_key for an unregistered key, well-formed or not', async () => {
      for (const k of [UNKNOWN_KEY, 'nonsense', `${key}x`]) {
        const r = await postJson(`${srv.url}/api/credits/balance`, { api_key: k });
        expect(r.status, k).toBe(403);
        expect(r.body).toMatchObject({ code: 'unknown_key' });
      }
    });
  });

  describe('GET /api/entities.json', () => {
    it('anonymous: 200 summary fields, nothing charged; with a key: deep fields at 1 credit', async () => {
      const key = await registerKey(srv.url, 'entities@example.com');
      const anon = await http<{ data: Record<string, unknown>[]; meta: Record<string, unknown> }>(`${srv.url}/api/entities.json`);
      expect(anon.status).toBe(200);
      expect(anon.body.meta).toMatchObject({ fields: 'summary', credits_charged: 0, credits_remaining: null });
      expect(anon.body.data.some((e) => 'price' in e || 'compatibility' in e)).toBe(false);
      expect(anon.headers.get('x-credits-remaining')).toBeNull();

      for (const [url, headers] of [
        [`${srv.url}/api/entities.json`, bearer(key)],
        [`${srv.url}/api/entities.json?key=${key}`, {}],
        [`${srv.url}/api/entities.json`, { 'x-api-key': key }],
      ] as [string, Record<string, string>][]) {
        const r = await http<{ data: Record<string, unknown>[]; meta: Record<string, unknown> }>(url, { headers });
        expect(r.status).toBe(200);
        expect(r.body.meta.fields).toBe('deep');
        expect(r.body.data.find((e) => e.id === 'CHIP-001')).toMatchObject({ compatibility: ['secretcompat'], confidence: 0.9 });
        expect(r.headers.get('x-api-tier')).toBe('credits');
      }
      expect(await balance(srv.url, key)).toEqual({ credits: 97, plan: 'free', api_calls: 3 });
    });

    it('402 insufficient_credits {error, code, credits_remaining, recharge_url} at 0 credits; nothing changes', async () => {
      const key = await registerKey(srv.url, 'broke@example.com');
      await drain(srv, key);
      const r = await http(`${srv.url}/api/entities.json`, { headers: bearer(key) });
      expect(r.status).toBe(402);
      expect(r.body).toEqual({ error: expect.any(String), code: 'insufficient_credits', credits_remaining: 0, recharge_url: `${srv.url}/api/payment/create` });
      expect(await balance(srv.url, key)).toEqual({ credits: 0, plan: 'free', api_calls: 1 });
      // Summary data stays free for an empty account.
      expect((await http(`${srv.url}/api/actuators.json`, { headers: bearer(key) })).status).toBe(200);
    });

    it('401 when deep data is asked for without a key; 403 with an unknown key', async () => {
      const missing = await http(`${srv.url}/api/entities.json?deep=true`);
      expect(missing.status).toBe(401);
      expect(missing.body).toMatchObject({ code: 'missing_credentials' });
      const unknown = await http(`${srv.url}/api/entities.json`, { headers: bearer(UNKNOWN_KEY) });
      expect(unknown.status).toBe(403);
      expect(unknown.body).toMatchObject({ code: 'unknown_key' });
    });
  });

  describe('conflicting credentials', () => {
    let a: string;
    let b: string;
    beforeAll(async () => {
      a = await registerKey(srv.url, 'conflict-a@example.com');
      b = await registerKey(srv.url, 'conflict-b@example.com');
    });

    it('400 conflicting_credentials when keys differ (headers, query, body), naming the sources; nothing charged', async () => {
      const cases: [string, { method?: string; headers?: Record<string, string>; json?: unknown }, string[]][] = [
        [`${srv.url}/api/entities.json`, { headers: { ...bearer(a), 'x-api-key': b } }, ['authorization', 'x-api-key']],
        [`${srv.url}/api/entities.json?key=${b}`, { headers: bearer(a) }, ['authorization', 'query:key']],
        [`${srv.url}/api/entities.json?key=${b}`, { headers: { 'x-api-key': a } }, ['x-api-key', 'query:key']],
        [`${srv.url}/api/entities.json?api_key=${b}`, { headers: bearer(a) }, ['authorization', 'argument:api_key']],
        [`${srv.url}/api/credits/balance`, { method: 'POST', json: { api_key: b }, headers: bearer(a) }, ['authorization', 'argument:api_key']],
        [`${srv.url}/api/credits/balance`, { method: 'POST', json: { api_key: b }, headers: { 'x-api-key': a } }, ['x-api-key', 'argument:api_key']],
        [`${srv.url}/api/payment/create`, { method: 'POST', json: { plan: 'starter', api_key: a }, headers: { 'x-api-key': b } }, ['x-api-key', 'argument:api_key']],
        [`${srv.url}/api/credits/balance?key=${b}`, { method: 'POST', json: { api_key: a } }, ['query:key', 'argument:api_key']],
      ];
      for (const [url, opts, sources] of cases) {
        const r = await http(url, opts);
        expect(r.status, url).toBe(400);
        expect(r.body, url).toMatchObject({ code: 'conflicting_credentials', sources });
        expect(r.text).not.toContain(a);
        expect(r.text).not.toContain(b);
      }
      expect((await balance(srv.url, a)).credits).toBe(100);
      expect((await balance(srv.url, b)).credits).toBe(100);
    });

    it('the same key in several places is fine', async () => {
      const all = await http<{ meta: { fields: string } }>(`${srv.url}/api/entities.json?key=${a}`, { headers: { ...bearer(a), 'x-api-key': a } });
      expect(all.status).toBe(200);
      expect(all.body.meta.fields).toBe('deep');
      const bal = await postJson(`${srv.url}/api/credits/balance?key=${a}`, { api_key: a }, { ...bearer(a), 'x-api-key': a });
      expect(bal.status).toBe(200);
      expect(bal.body).toEqual({ credits: 99, plan: 'free', api_calls: 1 });
    });
  });

  describe('POST /api/payment/create and GET /api/payment/{order_id}', () => {
    let key: string;
    beforeAll(async () => {
      key = await registerKey(srv.url, 'buyer@example.com');
    });

    it('200 {order_id, pay_url, qr_code} by key, or key and e-mail when they agree', async () => {
      for (const [body, headers] of [
        [{ plan: 'starter' }, bearer(key)],
        [{ plan: 'pro', api_key: key }, {}],
        [{ plan: 'starter', email: 'buyer@example.com', api_key: key }, bearer(key)],
      ] as [Record<string, unknown>, Record<string, string>][]) {
        const r = await postJson<Record<string, string>>(`${srv.url}/api/payment/create`, body, headers);
        expect(r.status, JSON.stringify(body)).toBe(200);
        expect(Object.keys(r.body).sort()).toEqual(['order_id', 'pay_url', 'qr_code']);
        expect(r.body.pay_url).toMatch(new RegExp(`^${srv.url}/pay/${r.body.order_id}\\?token=[A-Za-z0-9_-]{32}$`));
        expect(r.body.qr_code).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
        const s = await http(`${srv.url}/api/payment/${r.body.order_id}`);
        expect(s.status).toBe(200);
        expect(s.body).toMatchObject({ status: 'pending', plan: body.plan, currency: 'CNY' });
      }
      expect((await http(`${srv.url}/api/payment/ord_nope`)).status).toBe(404);
    });

    it('400 invalid_input naming plan for an unknown or missing plan', async () => {
      for (const body of [{ plan: 'gold', api_key: key }, { api_key: key }, { plan: 'free', api_key: key }]) {
        const r = await postJson(`${srv.url}/api/payment/create`, body);
        expect(r.status, JSON.stringify(body)).toBe(400);
        expect(r.body).toMatchObject({ code: 'invalid_input', field: 'plan' });
      }
    });

    it('401 without key (an e-mail alone, registered or not, answers alike); 403 unknown key; 400 e-mail of another account', async () => {
      const none = await postJson(`${srv.url}/api/payment/create`, { plan: 'starter' });
      expect(none.status).toBe(401);
      expect(none.body).toMatchObject({ code: 'missing_credentials' });
      const unknown = await postJson(`${srv.url}/api/payment/create`, { plan: 'starter' }, bearer(UNKNOWN_KEY));
      expect(unknown.status).toBe(403);
      expect(unknown.body).toMatchObject({ code: 'unknown_key' });
      const nobody = await postJson(`${srv.url}/api/payment/create`, { plan: 'starter', email: 'nobody@example.com' });
      const somebody = await postJson(`${srv.url}/api/payment/create`, { plan: 'starter', email: 'buyer@example.com' });
      expect(nobody.status).toBe(401);
      expect(nobody.body).toMatchObject({ code: 'missing_credentials' });
      expect(somebody.status).toBe(401);
      expect(somebody.body).toEqual(nobody.body);
      const other = await postJson(`${srv.url}/api/payment/create`, { plan: 'starter', email: 'dup@example.com', api_key: key });
      expect(other.status).toBe(400);
      expect(other.body).toMatchObject({ code: 'invalid_input', field: 'email' });
      const badEmail = await postJson(`${srv.url}/api/payment/create`, { plan: 'starter', email: 'not-an-email', api_key: key });
      expect(badEmail.status).toBe(400);
      expect(badEmail.body).toMatchObject({ code: 'invalid_input', field: 'email' });
    });
  });
});

describe('create_payment by e-mail alone, where the server allows it (ROBOT_PARTS_PAYMENT_BY_EMAIL=1)', () => {
  it('200 for a registered address (any case), 404 for an unregistered one, 400 for a malformed one', async () => {
    const srv = await startTestServer(sampleEntities(), { paymentByEmail: true });
    try {
      await registerKey(srv.url, 'buyer@example.com');
      const ok = await postJson<Record<string, string>>(`${srv.url}/api/payment/create`, { plan: 'lifetime', email: 'BUYER@example.com' });
      expect(ok.status).toBe(200);
      expect(Object.keys(ok.body).sort()).toEqual(['order_id', 'pay_url', 'qr_code']);
      const nobody = await postJson(`${srv.url}/api/payment/create`, { plan: 'starter', email: 'nobody@example.com' });
      expect(nobody.status).toBe(404);
      expect(nobody.body).toMatchObject({ code: 'not_found' });
      const bad = await postJson(`${srv.url}/api/payment/create`, { plan: 'starter', email: 'not-an-email' });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ code: 'invalid_input', field: 'email' });
    } finally {
      await srv.stop();
    }
  });
});

describe('rate limits over REST', () => {
  const expectLimited = (r: HttpResult, limit: number) => {
    expect(r.status).toBe(429);
    expect(r.body).toMatchObject({ code: 'rate_limited', limit, retry_after: expect.any(Number), error: expect.any(String) });
    const retry = r.headers.get('retry-after');
    expect(retry).toMatch(/^\d+$/);
    expect(Number(retry)).toBeGreaterThanOrEqual(1);
    expect(Number(retry)).toBeLessThanOrEqual(3600);
    expect(r.body.retry_after).toBe(Number(retry));
    expect(r.headers.get('ratelimit-limit')).toBe(String(limit));
    expect(r.headers.get('ratelimit-remaining')).toBe('0');
    expect(r.headers.get('ratelimit-reset')).toBe(retry);
  };

  it('free: per client address when anonymous, per key otherwise; 429 with Retry-After and RateLimit-*', async () => {
    const srv = await startTestServer(sampleEntities(), { rateLimitFree: 3 });
    try {
      const reg = await postJson<{ api_key: string }>(`${srv.url}/api/register`, { email: 'limited@example.com' });
      expect(reg.headers.get('ratelimit-limit')).toBe('3');
      expect(reg.headers.get('ratelimit-remaining')).toBe('2');
      const reg2 = await postJson<{ api_key: string }>(`${srv.url}/api/register`, { email: 'limited2@example.com' });
      expect(reg2.headers.get('ratelimit-remaining')).toBe('1');
      const s = await http(`${srv.url}/api/search?q=servo`);
      expect(s.status).toBe(200);
      expect(s.headers.get('ratelimit-remaining')).toBe('0');
      expect(s.headers.get('ratelimit-reset')).toMatch(/^\d+$/);
      expect(s.headers.get('retry-after')).toBeNull();
      expectLimited(await http(`${srv.url}/api/search?q=servo`), 3);
      expectLimited(await postJson(`${srv.url}/api/register`, { email: 'third@example.com' }), 3);
      // An unregistered key does not escape the anonymous window.
      expectLimited(await http(`${srv.url}/api/search?q=servo`, { headers: bearer(UNKNOWN_KEY) }), 3);

      // A key has its own window.
      const key = reg.body.api_key;
      for (const remaining of ['2', '1', '0']) {
        const r = await http(`${srv.url}/api/entities.json`, { headers: bearer(key) });
        expect(r.status).toBe(200);
        expect(r.headers.get('ratelimit-remaining')).toBe(remaining);
      }
      expectLimited(await http(`${srv.url}/api/entities.json`, { headers: bearer(key) }), 3);
      expectLimited(await postJson(`${srv.url}/api/credits/balance`, { api_key: key }), 3);
      // ... and another key's window is untouched.
      const other = await postJson(`${srv.url}/api/credits/balance`, { api_key: reg2.body.api_key });
      expect(other.status).toBe(200);
      expect(other.headers.get('ratelimit-remaining')).toBe('2');
      // Refused calls were not charged.
      expect(await srv.deps.accounts.balance(key)).toEqual({ credits: 97, plan: 'free', api_calls: 3 });
    } finally {
      await srv.stop();
    }
  });

  it('a paid plan gets the paid limit', async () => {
    const srv = await startTestServer(sampleEntities(), { rateLimitFree: 2, rateLimitPaid: 4 });
    try {
      const key = await registerKey(srv.url, 'paid-limit@example.com');
      const order = await postJson<{ order_id: string; pay_url: string }>(`${srv.url}/api/payment/create`, { plan: 'starter' }, bearer(key));
      expect(order.headers.get('ratelimit-limit')).toBe('2');
      expect(order.headers.get('ratelimit-remaining')).toBe('1');
      const pay = new URL(order.body.pay_url);
      expect((await http(`${srv.url}${pay.pathname}/simulate${pay.search}`, { method: 'POST' })).status).toBe(303);
      // Same window (1 request used), now counted against the paid limit.
      for (const remaining of ['2', '1', '0']) {
        const r = await postJson(`${srv.url}/api/credits/balance`, {}, bearer(key));
        expect(r.status).toBe(200);
        expect(r.body).toMatchObject({ plan: 'starter', credits: 600 });
        expect(r.headers.get('ratelimit-limit')).toBe('4');
        expect(r.headers.get('ratelimit-remaining')).toBe(remaining);
      }
      expectLimited(await postJson(`${srv.url}/api/credits/balance`, {}, bearer(key)), 4);
    } finally {
      await srv.stop();
    }
  });

  it('limit 0 disables: no 429 and no RateLimit headers', async () => {
    const srv = await startTestServer(sampleEntities(), { rateLimitFree: 0, rateLimitPaid: 0 });
    try {
      for (let i = 0; i < 40; i++) {
        const r = await http(`${srv.url}/api/search?q=servo`);
        expect(r.status).toBe(200);
        expect(r.headers.get('ratelimit-limit')).toBeNull();
      }
    } finally {
      await srv.stop();
    }
  });
});
