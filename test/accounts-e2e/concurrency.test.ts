/**
 * Acceptance: a key with N credits and 3N parallel paid calls over HTTP -> exactly N succeed,
 * the rest get 402, the final balance is 0 and the ledger sums to it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { sampleEntities } from '../support/factory.js';
import { startTestServer } from '../support/http.js';
import { balance, bearer, http, readLedger, registerKey, tempDb } from './helpers.js';

const N = 100; // the registration grant

describe('concurrent paid calls over HTTP', () => {
  const tmp = tempDb();
  afterAll(() => tmp.cleanup());

  it(`${N} credits, ${3 * N} parallel GET /api/entities.json -> exactly ${N} succeed, the rest 402, balance 0 = ledger sum`, async () => {
    const srv = await startTestServer(sampleEntities(), { dbPath: tmp.file });
    let key: string;
    try {
      key = await registerKey(srv.url, 'concurrency@example.com');
      expect((await balance(srv.url, key)).credits).toBe(N);

      const results = await Promise.all(
        Array.from({ length: 3 * N }, () => http<Record<string, unknown>>(`${srv.url}/api/entities.json`, { headers: bearer(key) })),
      );
      const ok = results.filter((r) => r.status === 200);
      const refused = results.filter((r) => r.status === 402);
      expect(ok.length).toBe(N);
      expect(refused.length).toBe(2 * N);

      // Every success carries the paid fields and its own remaining count: N-1 .. 0, each once.
      const remaining = ok.map((r) => Number(r.headers.get('x-credits-remaining'))).sort((a, b) => a - b);
      expect(remaining).toEqual(Array.from({ length: N }, (_, i) => i));
      for (const r of ok) {
        const body = r.body as { data: Record<string, unknown>[]; meta: { fields: string; credits_charged: number } };
        expect(body.meta.fields).toBe('deep');
        expect(body.meta.credits_charged).toBe(1);
        const act1 = body.data.find((e) => e.id === 'ACT-001')!;
        expect(act1.price).toBe('120 USD');
        expect(act1.compatibility).toEqual(['ROS2']);
        expect(Object.keys(act1)).toEqual(expect.arrayContaining(['price', 'compatibility', 'confidence', 'sources', 'compliance', 'localization_ratio']));
      }
      for (const r of refused) {
        expect(r.body).toEqual({
          error: expect.any(String),
          code: 'insufficient_credits',
          credits_remaining: 0,
          recharge_url: `${srv.url}/api/payment/create`,
        });
      }

      const after = await balance(srv.url, key);
      expect(after).toEqual({ credits: 0, plan: 'free', api_calls: N });
    } finally {
      await srv.stop();
    }

    // The database file, read directly after the server has stopped.
    const ledger = readLedger(tmp.file);
    expect(ledger.accounts).toHaveLength(1);
    const [account] = ledger.accounts;
    expect(account.credits).toBe(0);
    expect(account.api_calls).toBe(N);
    expect(ledger.sum(account.id)).toBe(0);
    const entries = ledger.entries(account.id);
    expect(entries).toHaveLength(N + 1);
    expect(entries[0]).toEqual({ delta: N, reason: 'grant', reference: 'registration' });
    expect(entries.slice(1).every((e) => e.delta === -1 && e.reason === 'entities.deep')).toBe(true);
    expect(ledger.usage(account.id)).toBe(N);
  });
});

describe('other races over HTTP', () => {
  it('the same e-mail registered 5 times in parallel: one key, four 409 already_registered', async () => {
    const srv = await startTestServer(sampleEntities());
    try {
      const results = await Promise.all(
        ['race@example.com', 'RACE@example.com', ' race@example.com', 'race@EXAMPLE.com', 'race@example.com'].map((email) =>
          http(`${srv.url}/api/register`, { method: 'POST', json: { email } }),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
      for (const r of results.filter((x) => x.status === 409)) expect(r.body).toMatchObject({ code: 'already_registered' });
      const key = results.find((r) => r.status === 200)!.body.api_key as string;
      expect(await balance(srv.url, key)).toEqual({ credits: 100, plan: 'free', api_calls: 0 });
    } finally {
      await srv.stop();
    }
  });

  it('5 requests left in the key window and 15 parallel paid requests: exactly 5 pass, 10 get 429, 5 credits spent', async () => {
    const tmp = tempDb();
    const srv = await startTestServer(sampleEntities(), { dbPath: tmp.file, rateLimitFree: 6 });
    try {
      const key = await registerKey(srv.url, 'burst@example.com'); // anonymous window, not the key's
      const one = await http(`${srv.url}/api/credits/balance`, { method: 'POST', json: { api_key: key } }); // key window: 1 of 6
      expect(one.headers.get('ratelimit-remaining')).toBe('5');
      const results = await Promise.all(Array.from({ length: 15 }, () => http(`${srv.url}/api/entities.json`, { headers: bearer(key) })));
      expect(results.filter((r) => r.status === 200)).toHaveLength(5);
      expect(results.filter((r) => r.status === 429)).toHaveLength(10);
      expect(results.filter((r) => r.status === 200).map((r) => r.headers.get('ratelimit-remaining')).sort()).toEqual(['0', '1', '2', '3', '4']);
      expect(await srv.deps.accounts.balance(key)).toEqual({ credits: 95, plan: 'free', api_calls: 5 });
    } finally {
      await srv.stop();
      tmp.cleanup();
    }
  });
});
