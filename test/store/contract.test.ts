/**
 * The account-store contract (src/store/ledger.ts), one suite run against both backends:
 * SQLite (two connections to one file) and PostgreSQL (two pools on one throwaway cluster).
 * Each "handle" stands for one server process; the cross-handle tests are the guarantees a
 * fleet of instances relies on: no overdraw, no double charge, replays shared, rate-limit
 * windows shared, a paid order credited once, orders visible everywhere.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/shared/errors.js';
import { FREE_CREDITS } from '../../src/domain/accounts/service.js';
import type { PaymentOrderRecord } from '../../src/store/ledger.js';
import { pgTestsEnabled, startPgCluster, type PgCluster } from '../support/pg.js';
import { DIGESTS, LATEST_MIGRATION, pgBackend, sqliteBackend, type Backend, type FreshStore, type StoreHandle } from './backends.js';

const PG = pgTestsEnabled();
let cluster: PgCluster | null = null;
beforeAll(async () => {
  if (PG) cluster = await startPgCluster();
}, 120_000);
afterAll(() => cluster?.destroy());

const backends: Backend[] = [sqliteBackend, pgBackend(() => cluster!)];

class TestClock {
  constructor(public ms: number) {}
  readonly now = (): Date => new Date(this.ms);
}

/** Lets other pending calls interleave (ordering only, no timers). */
const yieldTurns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

async function rejection(p: Promise<unknown>): Promise<DomainError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
  throw new Error('expected a rejection');
}

function order(accountId: string, id: string, credits = 1000): PaymentOrderRecord {
  return {
    order_id: id,
    gateway: 'sandbox',
    account_id: accountId,
    plan: 'starter',
    amount_minor: 900,
    currency: 'CNY',
    credits,
    status: 'pending',
    created_at: '2025-03-01T10:00:00.000Z',
    paid_at: null,
  };
}

for (const backend of backends) {
  describe.skipIf(backend.name === 'postgres' && !PG)(`store contract: ${backend.name}`, () => {
    let store: FreshStore;
    let a: StoreHandle;
    let b: StoreHandle;
    const clock = new TestClock(Date.parse('2025-03-01T10:00:00Z'));

    beforeEach(async () => {
      clock.ms = Date.parse('2025-03-01T10:00:00Z');
      store = await backend.fresh();
      a = await store.open(clock.now, { ttlMs: 3_600_000, maxPerAccount: 3 });
      b = await store.open(clock.now, { ttlMs: 3_600_000, maxPerAccount: 3 });
    });
    afterEach(async () => store.cleanup());

    /** credits == ledger sum, never negative, from both handles. */
    async function invariant(accountId: string): Promise<number> {
      const [fromA, fromB] = [await a.ledger.account(accountId), await b.ledger.account(accountId)];
      expect(fromA).toEqual(fromB);
      expect(fromA!.credits).toBeGreaterThanOrEqual(0);
      expect(await a.ledger.ledgerSum(accountId)).toBe(fromA!.credits);
      return fromA!.credits;
    }

    it('schema at the latest migration of the one shared history', async () => {
      const rows = await a.sql('SELECT version FROM schema_migrations ORDER BY version');
      expect(rows.map((r) => Number(r.version))).toEqual(Array.from({ length: LATEST_MIGRATION }, (_, i) => i + 1));
    });

    it('registration grants the free credits as a ledger entry; the account is visible from the other handle', async () => {
      const reg = await a.accounts.register('ada@example.com');
      const acc = await b.accounts.authenticate(reg.api_key);
      expect(acc).toMatchObject({ plan: 'free', credits: FREE_CREDITS, api_calls: 0 });
      expect(await b.ledger.entries(acc.id)).toMatchObject([{ delta: FREE_CREDITS, reason: 'grant', reference: 'registration' }]);
      expect(await invariant(acc.id)).toBe(FREE_CREDITS);
    });

    it('one e-mail, registered concurrently through both handles: exactly one key', async () => {
      const results = await Promise.allSettled([
        a.accounts.register('race@example.com'),
        b.accounts.register('Race@Example.com'),
        a.accounts.register('RACE@example.com'),
        b.accounts.register(' race@example.com'),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')) {
        expect((r.reason as DomainError).code).toBe('already_registered');
      }
      expect(Number((await a.sql('SELECT COUNT(*) AS n FROM accounts'))[0]!.n)).toBe(1);
      expect(Number((await b.sql("SELECT COUNT(*) AS n FROM ledger_entries WHERE reason = 'grant'"))[0]!.n)).toBe(1);
    });

    it('ledger_entries is append-only', async () => {
      await a.accounts.register('ada@example.com');
      await expect(a.sql('UPDATE ledger_entries SET delta = 1000')).rejects.toThrow(/append-only/);
      await expect(b.sql('DELETE FROM ledger_entries')).rejects.toThrow(/append-only/);
    });

    it('a charge debits only on success: a failing operation records nothing', async () => {
      const { api_key } = await a.accounts.register('ada@example.com');
      const acc = await a.accounts.authenticate(api_key);
      await expect(a.accounts.charge({ key: api_key, cost: 3, reason: 'x', reference: 'y', run: async () => Promise.reject(new Error('boom')) })).rejects.toThrow(
        'boom',
      );
      expect(await b.ledger.usage(acc.id)).toEqual([]);
      const ok = await b.accounts.charge({ key: api_key, cost: 3, reason: 'entities.deep', reference: 'GET /api/entities.json', run: async () => ({ n: 1 }) });
      expect(ok).toMatchObject({ result: { n: 1 }, charged: 3, credits_remaining: FREE_CREDITS - 3, replayed: false });
      expect(await a.ledger.usage(acc.id)).toEqual([
        { reason: 'entities.deep', reference: 'GET /api/entities.json', cost: 3, created_at: '2025-03-01T10:00:00.000Z' },
      ]);
      expect(await a.accounts.balance(api_key)).toEqual({ credits: FREE_CREDITS - 3, plan: 'free', api_calls: 1 });
      expect(await invariant(acc.id)).toBe(FREE_CREDITS - 3);
    });

    it('N credits, 3N parallel charges spread over both handles: exactly N succeed, balance 0, ledger sums to 0', async () => {
      const N = 12;
      const { api_key } = await a.accounts.register('ada@example.com');
      const acc = await a.accounts.authenticate(api_key);
      await a.accounts.charge({ key: api_key, cost: FREE_CREDITS - N, reason: 'test.drain', reference: 'drain', run: async () => null });
      const settled = await Promise.allSettled(
        Array.from({ length: 3 * N }, (_, i) =>
          (i % 2 ? a : b).accounts.charge({
            key: api_key,
            cost: 1,
            reason: 'entities.deep',
            reference: `call-${i}`,
            run: async () => {
              await yieldTurns(1 + (i % 3));
              return { i };
            },
          }),
        ),
      );
      const ok = settled.filter((r) => r.status === 'fulfilled');
      const refused = settled.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => (r.reason as DomainError).code);
      expect(ok).toHaveLength(N);
      expect(refused).toEqual(Array(2 * N).fill('insufficient_credits'));
      // Each success reported its own remaining balance: N-1 .. 0, each once.
      const remaining = ok.map((r) => (r as PromiseFulfilledResult<{ credits_remaining: number }>).value.credits_remaining).sort((x, y) => x - y);
      expect(remaining).toEqual(Array.from({ length: N }, (_, i) => i));
      expect(await invariant(acc.id)).toBe(0);
      expect((await a.ledger.entries(acc.id)).filter((e) => e.reason === 'entities.deep')).toHaveLength(N);
      expect((await b.ledger.usage(acc.id)).filter((u) => u.reason === 'entities.deep')).toHaveLength(N);
      expect((await a.ledger.account(acc.id))!.api_calls).toBe(N + 1);
    });

    it('an idempotent call replayed through the other handle is free and answers the first result', async () => {
      const { api_key } = await a.accounts.register('ada@example.com');
      const acc = await a.accounts.authenticate(api_key);
      let runs = 0;
      const call = (h: StoreHandle) =>
        h.accounts.charge({ key: api_key, cost: 2, reason: 'bom.export', reference: 'digest-1', idempotencyKey: 'retry-1', run: async () => ({ run: ++runs }) });
      const first = await call(a);
      const again = await call(b);
      expect(first).toEqual({ result: { run: 1 }, charged: 2, credits_remaining: FREE_CREDITS - 2, replayed: false, reported: { charged: 2, credits_remaining: FREE_CREDITS - 2 } });
      expect(again).toEqual({ result: { run: 1 }, charged: 0, credits_remaining: FREE_CREDITS - 2, replayed: true, reported: { charged: 2, credits_remaining: FREE_CREDITS - 2 } });
      expect(runs).toBe(1);
      const conflict = await rejection(
        b.accounts.charge({ key: api_key, cost: 2, reason: 'bom.export', reference: 'digest-2', idempotencyKey: 'retry-1', run: async () => null }),
      );
      expect(conflict.code).toBe('conflict');
      expect(conflict.details.field).toBe('Idempotency-Key');
      expect(await invariant(acc.id)).toBe(FREE_CREDITS - 2);
    });

    it('concurrent calls with one Idempotency-Key on both handles settle once', async () => {
      const { api_key } = await a.accounts.register('ada@example.com');
      const acc = await a.accounts.authenticate(api_key);
      let runs = 0;
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          (i % 2 ? a : b).accounts.charge({
            key: api_key,
            cost: 5,
            reason: 'bom.export',
            reference: 'same',
            idempotencyKey: 'once',
            run: async () => {
              const mine = ++runs;
              await yieldTurns(1 + (i % 4));
              return { run: mine };
            },
          }),
        ),
      );
      expect(results.filter((r) => !r.replayed)).toHaveLength(1);
      const winner = results.find((r) => !r.replayed)!;
      for (const r of results) {
        expect(r.result).toEqual(winner.result);
        expect(r.reported).toEqual({ charged: 5, credits_remaining: FREE_CREDITS - 5 });
      }
      expect(await invariant(acc.id)).toBe(FREE_CREDITS - 5);
      expect(await a.ledger.usage(acc.id)).toHaveLength(1);
    });

    it('rate-limit windows are shared between handles, reset after the hour, and pruned', async () => {
      const hits = [];
      for (let i = 0; i < 4; i++) hits.push(await (i % 2 ? a : b).rateLimiter.hit('key:abc', 3, clock.now()));
      expect(hits.map((h) => [h.allowed, h.remaining])).toEqual([
        [true, 2],
        [true, 1],
        [true, 0],
        [false, 0],
      ]);
      // Concurrent first hits of a new subject from both handles count each once.
      const burst = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).rateLimiter.hit('addr:new', 6, clock.now())));
      expect(burst.filter((h) => h.allowed)).toHaveLength(6);
      expect(burst.filter((h) => h.allowed).map((h) => h.remaining).sort()).toEqual([0, 1, 2, 3, 4, 5]);
      clock.ms += 3_600_000;
      expect(await a.rateLimiter.hit('key:abc', 3, clock.now())).toMatchObject({ allowed: true, remaining: 2 });
      expect(await b.rateLimiter.hit('key:off', 0, clock.now())).toMatchObject({ enabled: false, allowed: true });
      expect(await b.rateLimiter.prune(clock.now())).toBe(1); // addr:new's window ended; key:abc's just began
    });

    it('stored replays expire after the TTL and are capped per account, on every handle', async () => {
      const { api_key } = await a.accounts.register('ttl@example.com');
      const acc = await a.accounts.authenticate(api_key);
      const call = (h: StoreHandle, key: string) =>
        h.accounts.charge({ key: api_key, cost: 1, reason: 'bom.export', reference: 'r', idempotencyKey: key, run: async () => ({ key, at: clock.ms }) });
      const first = await call(a, 'k1');
      clock.ms += 3_599_000;
      expect(await call(b, 'k1')).toMatchObject({ replayed: true, result: first.result });
      clock.ms += 2_000; // past the hour: the retry is a new, charged call
      expect(await call(b, 'k1')).toMatchObject({ replayed: false, charged: 1 });
      for (const k of ['k2', 'k3', 'k4']) await call(a, k);
      const keys = (await a.sql(`SELECT idempotency_key FROM idempotency_records WHERE account_id = '${acc.id}' ORDER BY idempotency_key`)).map((r) => r.idempotency_key);
      expect(keys).toEqual(['k2', 'k3', 'k4']); // cap 3: the oldest (k1) went
      clock.ms += 3_601_000;
      expect(await b.ledger.pruneReplays(clock.now())).toBe(3);
      expect(await invariant(acc.id)).toBe(FREE_CREDITS - 5);
    });

    it('the store binds to one digest secret: the same secret joins, another one is refused', async () => {
      const fp = DIGESTS.fingerprint();
      expect(await a.ledger.adoptDigestSecret(fp, (x) => DIGESTS.rekey(x))).toEqual({ rekeyed: 0 });
      expect(await b.ledger.adoptDigestSecret(fp, (x) => DIGESTS.rekey(x))).toEqual({ rekeyed: 0 });
      await expect(b.ledger.adoptDigestSecret('0'.repeat(fp.length), (x) => x)).rejects.toThrow(/different server secret/);
    });

    it('an order inserted through one handle is visible through the other; paid five times concurrently, credited once', async () => {
      const { api_key } = await a.accounts.register('ada@example.com');
      const acc = await a.accounts.authenticate(api_key);
      await a.orders.insertOrder(order(acc.id, 'ord_1'));
      expect(await b.orders.order('ord_1')).toEqual(order(acc.id, 'ord_1'));
      const plans: string[] = [];
      const results = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          (i % 2 ? a : b).orders.markPaidAndCredit('ord_1', (current, bought) => {
            plans.push(`${current}->${bought}`);
            return bought;
          }),
        ),
      );
      expect(results.filter((r) => r!.transitioned)).toHaveLength(1);
      for (const r of results) expect(r!.order).toMatchObject({ status: 'paid', paid_at: '2025-03-01T10:00:00.000Z' });
      expect(plans).toEqual(['free->starter']);
      expect(await b.ledger.account(acc.id)).toMatchObject({ plan: 'starter', credits: FREE_CREDITS + 1000 });
      expect((await a.ledger.entries(acc.id)).filter((e) => e.reason === 'payment')).toMatchObject([{ delta: 1000, reference: 'ord_1' }]);
      expect(await invariant(acc.id)).toBe(FREE_CREDITS + 1000);
      expect(await a.orders.markPaidAndCredit('ord_unknown', (c) => c)).toBeNull();
      expect(await b.orders.order('ord_unknown')).toBeNull();
    });
  });
}
