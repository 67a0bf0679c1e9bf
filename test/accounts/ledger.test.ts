import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { DomainError } from '../../src/domain/shared/errors.js';
import crypto from 'node:crypto';
import { DIGEST_SECRET, openStores, RECHARGE_URL, rejection, tempDir, TestClock } from './support.js';

/** HMAC-SHA256(secret, SHA-256 hex of text), computed here with node:crypto. */
const keyed = (text: string) =>
  crypto.createHmac('sha256', DIGEST_SECRET).update(crypto.createHash('sha256').update(text).digest('hex')).digest('hex');

let tmp: ReturnType<typeof tempDir>;
let s: ReturnType<typeof openStores>;

beforeEach(() => {
  tmp = tempDir();
  s = openStores(tmp.file, new TestClock(Date.parse('2025-03-01T10:00:00Z')));
});
afterEach(() => {
  if (s.db.open) s.db.close();
  tmp.cleanup();
});


/** Lets other pending calls interleave (no timers: ordering only). */
const yieldTurns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

/** Charges an account down to `n` credits (cost-n debits via the normal path). */
async function drainTo(key: string, n: number) {
  const b = await s.accounts.balance(key);
  if (b.credits > n) {
    await s.accounts.charge({ key, cost: b.credits - n, reason: 'test.drain', reference: 'drain', run: async () => null });
  }
}

describe('registration and balance', () => {
  it('registers with 100 credits on the free plan and reports the balance', async () => {
    const reg = await s.accounts.register('ada@example.com');
    expect(reg.api_key).toMatch(/^gtk_[A-Za-z0-9_-]{32}$/);
    expect(reg.credits).toBe(100);
    expect(reg.plan).toBe('free');
    expect(reg.message).toMatch(/shown only once/);
    expect(await s.accounts.balance(reg.api_key)).toEqual({ credits: 100, plan: 'free', api_calls: 0 });
    const account = await s.accounts.authenticate(reg.api_key);
    expect(await s.ledger.entries(account.id)).toMatchObject([{ delta: 100, reason: 'grant', reference: 'registration' }]);
    expect(await s.ledger.ledgerSum(account.id)).toBe(100);
  });

  it('refuses a second key for the same e-mail, however it is written', async () => {
    await s.accounts.register('ada@example.com');
    const err = await rejection(s.accounts.register('  ADA@Example.com '));
    expect(err.code).toBe('already_registered');
    expect(err.status).toBe(409);
    const n = s.db.prepare('SELECT COUNT(*) AS n FROM accounts').get() as { n: number };
    expect(n.n).toBe(1);
    const grants = s.db.prepare("SELECT COUNT(*) AS n FROM ledger_entries WHERE reason = 'grant'").get() as { n: number };
    expect(grants.n).toBe(1);
  });

  it('refuses an invalid e-mail with invalid_input', async () => {
    const err = await rejection(s.accounts.register('not-an-address'));
    expect(err.code).toBe('invalid_input');
    expect(err.details.field).toBe('email');
  });

  it('missing key -> missing_credentials, unknown or malformed key -> unknown_key', async () => {
    expect((await rejection(s.accounts.balance(null))).code).toBe('missing_credentials');
    expect((await rejection(s.accounts.balance(''))).code).toBe('missing_credentials');
    expect((await rejection(s.accounts.balance('gtk_' + 'x'.repeat(32)))).code).toBe('unknown_key');
    expect((await rejection(s.accounts.balance('hello'))).code).toBe('unknown_key');
  });

  it('stores neither the key nor the e-mail in clear (raw database bytes)', async () => {
    const email = 'grace.hopper@example.org';
    const reg = await s.accounts.register(`  Grace.Hopper@Example.org `);
    const files = [tmp.file, `${tmp.file}-wal`].filter((f) => fs.existsSync(f));
    expect(files.length).toBeGreaterThan(0);
    const scan = (bufs: Buffer[]) => {
      for (const buf of bufs) {
        for (const needle of [reg.api_key, reg.api_key.slice(4), email, 'Grace.Hopper@Example.org', 'grace.hopper']) {
          expect(buf.includes(Buffer.from(needle, 'utf8'))).toBe(false);
          expect(buf.includes(Buffer.from(needle, 'utf16le'))).toBe(false);
        }
      }
    };
    scan(files.map((f) => fs.readFileSync(f)));
    // the digest is there: the scan really looks at the data
    const all = Buffer.concat(files.map((f) => fs.readFileSync(f)));
    expect(all.includes(Buffer.from(keyed(reg.api_key)))).toBe(true);
    // keyed: the plain SHA-256 digest (which anyone can compute from a guess) is not stored
    expect(all.includes(Buffer.from(crypto.createHash('sha256').update(reg.api_key).digest('hex')))).toBe(false);
    s.db.close(); // checkpoint the WAL into the main file, then scan again
    scan([fs.readFileSync(tmp.file)]);
  });

  it('keeps ledger_entries append-only', async () => {
    await s.accounts.register('ada@example.com');
    expect(() => s.db.prepare('UPDATE ledger_entries SET delta = 1000').run()).toThrow(/append-only/);
    expect(() => s.db.prepare('DELETE FROM ledger_entries').run()).toThrow(/append-only/);
  });
});

describe('charging', () => {
  it('debits on success and records usage in the same step', async () => {
    const { api_key } = await s.accounts.register('ada@example.com');
    const out = await s.accounts.charge({
      key: api_key,
      cost: 1,
      reason: 'entities.deep',
      reference: 'GET /api/entities.json',
      run: async () => ({ rows: 3 }),
    });
    expect(out).toEqual({ result: { rows: 3 }, charged: 1, credits_remaining: 99, replayed: false, reported: { charged: 1, credits_remaining: 99 } });
    expect(await s.accounts.balance(api_key)).toEqual({ credits: 99, plan: 'free', api_calls: 1 });
    const account = await s.accounts.authenticate(api_key);
    expect(await s.ledger.usage(account.id)).toEqual([
      { reason: 'entities.deep', reference: 'GET /api/entities.json', cost: 1, created_at: '2025-03-01T10:00:00.000Z' },
    ]);
    expect((await s.ledger.entries(account.id)).map((e) => e.delta)).toEqual([100, -1]);
  });

  it('does not debit when the operation fails', async () => {
    const { api_key } = await s.accounts.register('ada@example.com');
    await expect(
      s.accounts.charge({ key: api_key, cost: 1, reason: 'x', reference: 'y', run: async () => Promise.reject(new Error('boom')) }),
    ).rejects.toThrow('boom');
    expect(await s.accounts.balance(api_key)).toEqual({ credits: 100, plan: 'free', api_calls: 0 });
    const account = await s.accounts.authenticate(api_key);
    expect(await s.ledger.entries(account.id)).toHaveLength(1);
    expect(await s.ledger.usage(account.id)).toEqual([]);
  });

  it('refuses with insufficient_credits (402) carrying credits_remaining and recharge_url, without running', async () => {
    const { api_key } = await s.accounts.register('ada@example.com');
    await drainTo(api_key, 0);
    let ran = false;
    const err = await rejection(
      s.accounts.charge({ key: api_key, cost: 1, reason: 'x', reference: 'y', run: async () => (ran = true) }),
    );
    expect(err.code).toBe('insufficient_credits');
    expect(err.status).toBe(402);
    expect(err.toBody()).toEqual({
      error: err.message,
      code: 'insufficient_credits',
      credits_remaining: 0,
      recharge_url: RECHARGE_URL,
    });
    expect(ran).toBe(false);
  });

  it('N credits, 3N parallel paid calls (plus failing ones): exactly N succeed, balance 0, ledger sums to it', async () => {
    const N = 7;
    const { api_key } = await s.accounts.register('ada@example.com');
    await drainTo(api_key, N);
    const account = await s.accounts.authenticate(api_key);
    const usageBefore = (await s.ledger.usage(account.id)).length;

    const calls = Array.from({ length: 3 * N }, (_, i) =>
      s.accounts.charge({
        key: api_key,
        cost: 1,
        reason: 'entities.deep',
        reference: `call-${i}`,
        run: async () => {
          await yieldTurns(1 + (i % 4)); // interleave with the other calls
          return { i };
        },
      }),
    );
    const failing = Array.from({ length: N }, (_, i) =>
      s.accounts.charge({
        key: api_key,
        cost: 1,
        reason: 'entities.deep',
        reference: `fail-${i}`,
        run: async () => {
          await yieldTurns(1 + (i % 3));
          throw new Error('operation failed');
        },
      }),
    );
    const settled = await Promise.allSettled([...calls, ...failing]);
    const ok = settled.slice(0, 3 * N).filter((r) => r.status === 'fulfilled');
    const refused = settled
      .slice(0, 3 * N)
      .filter((r): r is PromiseRejectedResult => r.status === 'rejected')
      .map((r) => (r.reason as DomainError).code);
    expect(ok).toHaveLength(N);
    expect(refused).toEqual(Array(2 * N).fill('insufficient_credits'));
    for (const r of settled.slice(3 * N)) {
      expect(r.status).toBe('rejected');
      expect(((r as PromiseRejectedResult).reason as Error).message).toBe('operation failed');
    }
    expect(await s.accounts.balance(api_key)).toMatchObject({ credits: 0 });
    expect(await s.ledger.ledgerSum(account.id)).toBe(0);
    const debits = (await s.ledger.entries(account.id)).filter((e) => e.reason === 'entities.deep');
    expect(debits).toHaveLength(N);
    expect(new Set(debits.map((e) => e.reference)).size).toBe(N);
    expect((await s.ledger.usage(account.id)).length - usageBefore).toBe(N);
  });

  it('with one Idempotency-Key: one charge, the first result returned again', async () => {
    const { api_key } = await s.accounts.register('ada@example.com');
    let runs = 0;
    const call = () =>
      s.accounts.charge({
        key: api_key,
        cost: 1,
        reason: 'bom.export',
        reference: 'body-digest-1',
        idempotencyKey: 'retry-42',
        run: async () => ({ run: ++runs, csv: 'a,b\n1,2\n' }),
      });
    const first = await call();
    const second = await call();
    expect(first).toEqual({ result: { run: 1, csv: 'a,b\n1,2\n' }, charged: 1, credits_remaining: 99, replayed: false, reported: { charged: 1, credits_remaining: 99 } });
    expect(second).toEqual({ result: { run: 1, csv: 'a,b\n1,2\n' }, charged: 0, credits_remaining: 99, replayed: true, reported: { charged: 1, credits_remaining: 99 } });
    expect(runs).toBe(1);
    expect(await s.accounts.balance(api_key)).toEqual({ credits: 99, plan: 'free', api_calls: 1 });
  });

  it('concurrent calls with one Idempotency-Key settle once and all return the first stored result', async () => {
    const { api_key } = await s.accounts.register('ada@example.com');
    let runs = 0;
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        s.accounts.charge({
          key: api_key,
          cost: 1,
          reason: 'bom.export',
          reference: 'same',
          idempotencyKey: 'k-1',
          run: async () => {
            const n = ++runs;
            await yieldTurns(6 - n);
            return { run: n };
          },
        }),
      ),
    );
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    const winner = results.find((r) => !r.replayed)!.result;
    for (const r of results) expect(r.result).toEqual(winner);
    expect(await s.accounts.balance(api_key)).toEqual({ credits: 99, plan: 'free', api_calls: 1 });
  });

  it('an Idempotency-Key reused for a different request is a conflict; keys are per account', async () => {
    const a = await s.accounts.register('ada@example.com');
    const b = await s.accounts.register('bob@example.com');
    await s.accounts.charge({ key: a.api_key, cost: 1, reason: 'bom.export', reference: 'r1', idempotencyKey: 'k', run: async () => 1 });
    const err = await rejection(
      s.accounts.charge({ key: a.api_key, cost: 1, reason: 'bom.export', reference: 'r2', idempotencyKey: 'k', run: async () => 2 }),
    );
    expect(err.code).toBe('conflict');
    const other = await s.accounts.charge({
      key: b.api_key,
      cost: 1,
      reason: 'bom.export',
      reference: 'r2',
      idempotencyKey: 'k',
      run: async () => 2,
    });
    expect(other).toMatchObject({ result: 2, charged: 1, replayed: false });
  });

  it('a failed idempotent call stores nothing, so a retry runs and charges once', async () => {
    const { api_key } = await s.accounts.register('ada@example.com');
    const base = { key: api_key, cost: 1, reason: 'bom.export', reference: 'r', idempotencyKey: 'k' };
    await expect(s.accounts.charge({ ...base, run: async () => Promise.reject(new Error('x')) })).rejects.toThrow('x');
    const ok = await s.accounts.charge({ ...base, run: async () => 'done' });
    expect(ok).toMatchObject({ result: 'done', charged: 1, replayed: false, credits_remaining: 99 });
  });

  it('rejects a malformed Idempotency-Key', async () => {
    const { api_key } = await s.accounts.register('ada@example.com');
    const err = await rejection(
      s.accounts.charge({ key: api_key, cost: 1, reason: 'r', reference: 'r', idempotencyKey: 'has space', run: async () => 1 }),
    );
    expect(err.code).toBe('invalid_input');
    expect(err.details.field).toBe('Idempotency-Key');
  });
});

describe('restart', () => {
  it('balance, usage, idempotency records and rate-limit windows survive closing and reopening the file', async () => {
    const clock = new TestClock(Date.parse('2025-03-01T10:00:00Z'));
    s.db.close();
    s = openStores(tmp.file, clock);
    const { api_key } = await s.accounts.register('ada@example.com');
    for (let i = 0; i < 3; i++) {
      await s.accounts.charge({ key: api_key, cost: 1, reason: 'entities.deep', reference: `r${i}`, run: async () => i });
    }
    await s.accounts.charge({ key: api_key, cost: 1, reason: 'bom.export', reference: 'b', idempotencyKey: 'k', run: async () => 'first' });
    for (let i = 0; i < 4; i++) await s.rateLimiter.hit('key:abc', 5, clock.now());
    s.db.close();

    clock.advance(60);
    s = openStores(tmp.file, clock);
    expect(await s.accounts.balance(api_key)).toEqual({ credits: 96, plan: 'free', api_calls: 4 });
    const account = await s.accounts.authenticate(api_key);
    expect((await s.ledger.usage(account.id)).map((u) => u.reason)).toEqual([
      'entities.deep',
      'entities.deep',
      'entities.deep',
      'bom.export',
    ]);
    expect(await s.ledger.ledgerSum(account.id)).toBe(96);
    const replay = await s.accounts.charge({
      key: api_key,
      cost: 1,
      reason: 'bom.export',
      reference: 'b',
      idempotencyKey: 'k',
      run: async () => 'second',
    });
    expect(replay).toEqual({ result: 'first', charged: 0, credits_remaining: 96, replayed: true, reported: { charged: 1, credits_remaining: 96 } });
    const fifth = await s.rateLimiter.hit('key:abc', 5, clock.now());
    expect(fifth).toMatchObject({ allowed: true, remaining: 0, resetSeconds: 3540 });
    expect(await s.rateLimiter.hit('key:abc', 5, clock.now())).toMatchObject({ allowed: false, remaining: 0 });
  });
});
