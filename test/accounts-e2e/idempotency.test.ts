/** Idempotency-Key on a paid REST call: a retry is free and returns the first answer. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleEntities } from '../support/factory.js';
import { startTestServer } from '../support/http.js';
import { balance, bearer, http, registerKey } from './helpers.js';

describe('Idempotency-Key on GET /api/entities.json', () => {
  let srv: Awaited<ReturnType<typeof startTestServer>>;
  let key: string;
  beforeAll(async () => {
    srv = await startTestServer(sampleEntities());
    key = await registerKey(srv.url, 'idem@example.com');
  });
  afterAll(async () => {
    await srv.stop();
  });

  const get = (idem: string, query = '') => http(`${srv.url}/api/entities.json${query}`, { headers: { ...bearer(key), 'idempotency-key': idem } });

  type Listing = { data: unknown[]; meta: Record<string, unknown> };

  it('the same key twice: one charge, the same data and credit header', async () => {
    const first = await get('retry-0001');
    const second = await get('retry-0001');
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(first.headers.get('x-credits-remaining')).toBe('99');
    expect(second.headers.get('x-credits-remaining')).toBe('99');
    expect(second.body).toEqual(first.body); // identical, billing figures included
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await balance(srv.url, key)).toEqual({ credits: 99, plan: 'free', api_calls: 1 });
  });

  // KNOWN BUG (src/tools/list-parts.ts, not owned here): the handler overlays meta.credits_charged
  // / credits_remaining from the charge outcome AFTER the ledger stored the result, so a replay says
  // credits_charged 0 where the first answer said 1 (and credits_remaining is the balance now, not
  // then). product.md: a retried call is "free and identical". Remove `.fails` once fixed.
  it('the same key twice: byte-identical body', async () => {
    const first = await get('retry-0004');
    const second = await get('retry-0004');
    expect(second.text).toBe(first.text);
  });

  it('concurrent retries with one key settle once', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, () => get('retry-0002')));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    // Every retry answers with the first call's body, billing figures included; one charge.
    expect(new Set(results.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect(results.every((r) => (r.body as Listing).meta.credits_charged === 1)).toBe(true);
    expect(await balance(srv.url, key)).toEqual({ credits: 97, plan: 'free', api_calls: 3 });
  });

  it('a new key charges again; the same key for a different request is 409 conflict; a malformed key is 400', async () => {
    expect((await get('retry-0003')).status).toBe(200);
    expect((await balance(srv.url, key)).credits).toBe(96);
    const reused = await get('retry-0003', '?limit=2');
    expect(reused.status).toBe(409);
    expect(reused.body).toMatchObject({ code: 'conflict' });
    const malformed = await get('x'.repeat(256));
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ code: 'invalid_input', field: 'Idempotency-Key' });
    expect(await balance(srv.url, key)).toEqual({ credits: 96, plan: 'free', api_calls: 4 });
  });
});
