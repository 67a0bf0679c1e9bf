/**
 * PostgreSQL implementations of Ledger, RateLimiter and PaymentOrderStore (see ledger.ts for
 * the contracts and the charging model), for several instances sharing one database.
 *
 * Concurrency (READ COMMITTED, row locks):
 * - charge: the paid operation runs first, outside any transaction; settlement is one
 *   statement (SETTLE_SQL): the conditional debit `credits >= cost` arbitrates under the
 *   account's row lock, held for that statement only, and the ledger entry, usage and
 *   idempotency record are written with it or not at all. Two calls with one Idempotency-Key
 *   collide on the record's primary key: the loser's statement (its debit included) rolls
 *   back and it replays the winner's record.
 * - markPaidAndCredit: `UPDATE ... WHERE status = 'pending'` takes the order's row lock; a
 *   concurrent webhook on another instance waits, then matches no row and reports
 *   `transitioned: false`. The partial unique index on payment references backs it up.
 * - rate limits: one upsert per hit (HIT_SQL) applies the window policy under the row's lock,
 *   so concurrent hits from every instance count exactly once each.
 * Lock order is order -> account everywhere, so these transactions cannot deadlock.
 */
import crypto from 'node:crypto';
import type {
  AccountRecord,
  ChargeOutcome,
  ChargeRequest,
  Ledger,
  LedgerEntry,
  NewAccount,
  PaymentOrderRecord,
  PaymentOrderStore,
  RateLimiter,
  ReplayPolicy,
} from './ledger.js';
import { DEFAULT_REPLAY_POLICY, PRUNE_REPLAYS_EVERY, replayCutoff } from './ledger.js';
import { DomainError } from '../domain/shared/errors.js';
import { digestsEqual } from '../domain/accounts/keys.js';
import { applyHit, RATE_WINDOW_MS, type RateLimitDecision } from '../domain/accounts/rate-limit.js';
import { systemClock, type Clock } from '../domain/shared/clock.js';
import { storeError, withTransaction, type PgClient, type PgPool } from './pg.js';

export interface PgStoreOptions {
  clock?: Clock;
  /** Expiry and per-account cap of stored Idempotency-Key replays. */
  replays?: ReplayPolicy;
}

const ACCOUNT_COLUMNS = 'id, plan, credits, api_calls, created_at';
/** Transaction advisory lock while binding the database to the digest secret ("rpmd"). */
const DIGEST_LOCK_KEY = 0x72706d64;
const ORDER_COLUMNS = 'order_id, gateway, account_id, plan, amount_minor, currency, credits, status, created_at, paid_at';

/**
 * Settlement in ONE statement (one round trip, its own transaction): the conditional debit
 * takes the account's row lock only for this statement (a concurrent settlement of the same
 * account waits, then re-checks `credits >= cost` against the committed balance), and the
 * ledger entry, usage record and idempotency record are written only when the debit matched.
 * A concurrent call with the same Idempotency-Key fails on the record's primary key, which
 * rolls the whole statement back (its debit included).
 * $1 cost, $2 account, $3 reason, $4 reference, $5 at, $6 idempotency key or null, $7 stored result.
 */
const SETTLE_SQL = `
  WITH debit AS (
    UPDATE accounts SET credits = credits - $1, api_calls = api_calls + 1
     WHERE id = $2 AND credits >= $1
    RETURNING credits
  ), entry AS (
    INSERT INTO ledger_entries (account_id, delta, reason, reference, created_at)
    SELECT $2, -$1::integer, $3, $4, $5 FROM debit WHERE $1::integer > 0
  ), usage AS (
    INSERT INTO usage_records (account_id, reason, reference, cost, created_at)
    SELECT $2, $3, $4, $1, $5 FROM debit
  ), idem AS (
    INSERT INTO idempotency_records (account_id, idempotency_key, reason, reference, result, charged, credits_remaining, created_at)
    SELECT $2, $6::text, $3, $4, $7::text, $1, debit.credits, $5 FROM debit WHERE $6::text IS NOT NULL
  )
  SELECT (SELECT credits FROM debit) AS debited`;

/**
 * One rate-limit hit, the policy of applyHit (src/domain/accounts/rate-limit.ts) in one
 * upsert: no row or an ended window -> a new window with 1 hit; room left -> hits + 1;
 * otherwise no change and no row returned (refused hits are not counted).
 * $1 subject, $2 now (ms), $3 limit, $4 window length (ms).
 */
const HIT_SQL = `
  INSERT INTO rate_limit_windows AS w (subject, window_start, hits) VALUES ($1, $2, 1)
  ON CONFLICT (subject) DO UPDATE SET
    window_start = CASE WHEN $2 >= w.window_start + $4 THEN $2 ELSE w.window_start END,
    hits = CASE WHEN $2 >= w.window_start + $4 THEN 1 ELSE w.hits + 1 END
  WHERE $2 >= w.window_start + $4 OR w.hits < $3
  RETURNING window_start, hits`;

interface IdempotencyRow {
  created_at: string;
  reason: string;
  reference: string;
  result: string;
  charged: number;
  credits_remaining: number | null;
}

type Queryable = PgPool | PgClient;

function uniqueViolation(e: unknown, constraint?: string): boolean {
  const err = e as { code?: string; constraint?: string } | null;
  return !!err && err.code === '23505' && (constraint === undefined || err.constraint === constraint);
}

/** Who hears that the database answered or failed (the outage log: one line per change of state). */
export interface StoreWatch {
  available(store: 'postgres'): void;
  unavailable(store: 'postgres', fields?: Record<string, unknown>): void;
}
const watches = new WeakMap<PgPool, StoreWatch>();

/** Wraps a store method: availability failures become store_unavailable (and the pool's watch hears of both outcomes). */
async function guard<T>(pool: PgPool, fn: () => Promise<T>): Promise<T> {
  let out: T;
  try {
    out = await fn();
  } catch (err) {
    const mapped = storeError(err);
    if (mapped instanceof DomainError && mapped.code === 'store_unavailable') watches.get(pool)?.unavailable('postgres', { error: (err as Error).message });
    else watches.get(pool)?.available('postgres'); // it answered (with an error of another kind)
    throw mapped;
  }
  watches.get(pool)?.available('postgres');
  return out;
}

async function one<T>(q: Queryable, sql: string, params: unknown[]): Promise<T | null> {
  const r = await q.query(sql, params);
  return (r.rows[0] as T | undefined) ?? null;
}

async function appendEntry(c: PgClient, accountId: string, delta: number, reason: string, reference: string, at: string): Promise<void> {
  await c.query('INSERT INTO ledger_entries (account_id, delta, reason, reference, created_at) VALUES ($1, $2, $3, $4, $5)', [
    accountId,
    delta,
    reason,
    reference,
    at,
  ]);
  await c.query('UPDATE accounts SET credits = credits + $1 WHERE id = $2', [delta, accountId]);
}

export class PgLedger implements Ledger {
  private readonly clock: Clock;
  private readonly replays: ReplayPolicy;
  private chargesSincePrune = 0;

  constructor(
    private readonly pool: PgPool,
    opts: PgStoreOptions = {},
  ) {
    this.clock = opts.clock ?? systemClock;
    this.replays = opts.replays ?? DEFAULT_REPLAY_POLICY;
  }

  /** ISO time before which a stored replay has expired. */
  private replayCutoff(): string {
    return replayCutoff(this.replays, this.clock());
  }

  private now(): string {
    return this.clock().toISOString();
  }

  private accountOn(q: Queryable, id: string): Promise<AccountRecord | null> {
    return one<AccountRecord>(q, `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id = $1`, [id]);
  }

  createAccount(input: NewAccount): Promise<AccountRecord> {
    return guard(this.pool, async () => {
      if (!Number.isInteger(input.credits) || input.credits < 0) throw new RangeError('credits must be a non-negative integer');
      const id = crypto.randomUUID();
      const at = this.now();
      const refused = () =>
        new DomainError('already_registered', 'This e-mail address already has an API key; each address gets one free key');
      try {
        return await withTransaction(this.pool, async (c) => {
          await c.query(
            'INSERT INTO accounts (id, key_digest, email_digest, plan, credits, api_calls, created_at, digest_version) VALUES ($1, $2, $3, $4, 0, 0, $5, 2)',
            [id, input.keyDigest, input.emailDigest, input.plan, at],
          );
          if (input.credits > 0) await appendEntry(c, id, input.credits, 'grant', 'registration', at);
          return (await this.accountOn(c, id))!;
        });
      } catch (e) {
        if (uniqueViolation(e)) throw refused();
        throw e;
      }
    });
  }

  accountByKeyDigest(keyDigest: string): Promise<AccountRecord | null> {
    return guard(this.pool, async () => {
      const row = await one<AccountRecord & { key_digest: string }>(
        this.pool,
        `SELECT key_digest, ${ACCOUNT_COLUMNS} FROM accounts WHERE key_digest = $1`,
        [keyDigest],
      );
      if (!row || !digestsEqual(row.key_digest, keyDigest)) return null;
      const { key_digest: _omit, ...account } = row;
      return account;
    });
  }

  accountByEmailDigest(emailDigest: string): Promise<AccountRecord | null> {
    return guard(this.pool, async () => {
      const row = await one<AccountRecord & { email_digest: string }>(
        this.pool,
        `SELECT email_digest, ${ACCOUNT_COLUMNS} FROM accounts WHERE email_digest = $1`,
        [emailDigest],
      );
      if (!row || !digestsEqual(row.email_digest, emailDigest)) return null;
      const { email_digest: _omit, ...account } = row;
      return account;
    });
  }

  account(id: string): Promise<AccountRecord | null> {
    return guard(this.pool, () => this.accountOn(this.pool, id));
  }

  /** The live (unexpired) replay record of a key, or null. */
  private async idempotencyOn(q: Queryable, accountId: string, key: string): Promise<IdempotencyRow | null> {
    const row = await one<IdempotencyRow>(
      q,
      'SELECT created_at, reason, reference, result, charged, credits_remaining FROM idempotency_records WHERE account_id = $1 AND idempotency_key = $2',
      [accountId, key],
    );
    return row && row.created_at >= this.replayCutoff() ? row : null;
  }

  private async replay<T>(q: Queryable, row: IdempotencyRow, req: ChargeRequest<T>, accountId: string): Promise<ChargeOutcome<T>> {
    if (row.reason !== req.reason || row.reference !== req.reference) {
      throw new DomainError('conflict', 'This Idempotency-Key was already used for a different request', {
        field: 'Idempotency-Key',
      });
    }
    const credits = (await this.accountOn(q, accountId))?.credits ?? 0;
    return {
      status: 'replayed',
      result: JSON.parse(row.result) as T,
      charged: 0,
      credits_remaining: credits,
      first: { charged: row.charged, credits_remaining: row.credits_remaining },
    };
  }

  async charge<T>(req: ChargeRequest<T>): Promise<ChargeOutcome<T>> {
    if (!Number.isInteger(req.cost) || req.cost < 0) throw new RangeError('cost must be a non-negative integer');
    const idem = req.idempotencyKey ?? null;
    const early = await guard(this.pool, async (): Promise<ChargeOutcome<T> | { account: AccountRecord }> => {
      const before = await this.accountOn(this.pool, req.accountId);
      if (!before) throw new DomainError('unknown_key', 'The API key is not registered');
      if (idem !== null) {
        const prior = await this.idempotencyOn(this.pool, before.id, idem);
        if (prior) return this.replay(this.pool, prior, req, before.id);
      }
      // Early refusal; the authoritative check is the conditional debit below.
      if (before.credits < req.cost) return { status: 'insufficient', cost: req.cost, credits_remaining: before.credits };
      return { account: before };
    });
    if (!('account' in early)) return early;
    const accountId = early.account.id;

    // The paid operation: outside any transaction, its errors propagate, nothing is debited.
    const produced = await req.run();
    let result = produced as T;
    let stored: string | null = null;
    if (idem !== null) {
      stored = JSON.stringify(produced);
      if (stored === undefined) throw new TypeError('charge: an idempotent result must be JSON-serialisable');
      result = JSON.parse(stored) as T; // the first caller gets exactly what a replay will get
    }

    const outcome = await guard(this.pool, async (): Promise<ChargeOutcome<T>> => {
      const at = this.now();
      if (idem !== null) {
        // An expired record of the same key may still be there (not pruned yet): it gives way.
        await this.pool.query('DELETE FROM idempotency_records WHERE account_id = $1 AND idempotency_key = $2 AND created_at < $3', [
          accountId,
          idem,
          this.replayCutoff(),
        ]);
      }
      let row: { debited: number | null };
      try {
        row = (await this.pool.query(SETTLE_SQL, [req.cost, accountId, req.reason, req.reference, at, idem, stored])).rows[0] as typeof row;
      } catch (e) {
        // Another call with this Idempotency-Key settled first (any instance): its record wins, this call replays it.
        if (idem !== null && uniqueViolation(e, 'idempotency_records_pkey')) {
          const prior = await this.idempotencyOn(this.pool, accountId, idem);
          if (prior) return this.replay(this.pool, prior, req, accountId);
        }
        throw e;
      }
      if (row.debited === null) {
        // The statement's own snapshot may predate the debit it lost to: read the balance afresh.
        const now = await this.accountOn(this.pool, accountId);
        return { status: 'insufficient', cost: req.cost, credits_remaining: now?.credits ?? 0 };
      }
      return { status: 'charged', result, charged: req.cost, credits_remaining: row.debited };
    });
    if (idem !== null && outcome.status === 'charged') {
      await guard(this.pool, async () => {
        if (this.replays.maxPerAccount > 0) {
          // The account's newest maxPerAccount replays stay; older ones go.
          await this.pool.query(
            'DELETE FROM idempotency_records WHERE account_id = $1 AND idempotency_key NOT IN ' +
              '(SELECT idempotency_key FROM idempotency_records WHERE account_id = $1 ORDER BY created_at DESC, idempotency_key DESC LIMIT $2)',
            [accountId, this.replays.maxPerAccount],
          );
        }
        if (++this.chargesSincePrune >= PRUNE_REPLAYS_EVERY) {
          this.chargesSincePrune = 0;
          await this.pruneReplays(this.clock());
        }
      });
    }
    return outcome;
  }

  pruneReplays(now: Date): Promise<number> {
    return guard(this.pool, async () => {
      const cutoff = replayCutoff(this.replays, now);
      return (await this.pool.query('DELETE FROM idempotency_records WHERE created_at < $1', [cutoff])).rowCount ?? 0;
    });
  }

  adoptDigestSecret(fingerprint: string, rekey: (legacySha256Hex: string) => string, beforeRecord?: () => void): Promise<{ rekeyed: number }> {
    return guard(this.pool, () =>
      withTransaction(this.pool, async (c) => {
        // Instances starting together bind the database one at a time.
        await c.query('SELECT pg_advisory_xact_lock($1)', [DIGEST_LOCK_KEY]);
        const stored = await one<{ value: string }>(c, "SELECT value FROM server_meta WHERE key = 'digest_secret_fingerprint'", []);
        if (stored && !digestsEqual(stored.value, fingerprint)) {
          throw new Error(
            'this database was keyed with a different server secret: give every instance the original secret (ROBOT_PARTS_SECRET / ROBOT_PARTS_SECRET_FILE), or no key or e-mail would match',
          );
        }
        if (!stored) beforeRecord?.();
        if (!stored) await c.query("INSERT INTO server_meta (key, value) VALUES ('digest_secret_fingerprint', $1)", [fingerprint]);
        const legacy = (await c.query('SELECT id, key_digest, email_digest FROM accounts WHERE digest_version = 1 FOR UPDATE')).rows as {
          id: string;
          key_digest: string;
          email_digest: string;
        }[];
        for (const r of legacy) {
          await c.query('UPDATE accounts SET key_digest = $1, email_digest = $2, digest_version = 2 WHERE id = $3 AND digest_version = 1', [
            rekey(r.key_digest),
            rekey(r.email_digest),
            r.id,
          ]);
        }
        return { rekeyed: legacy.length };
      }),
    );
  }

  entries(accountId: string): Promise<LedgerEntry[]> {
    return guard(this.pool, async () => {
      const r = await this.pool.query(
        'SELECT id, account_id, delta, reason, reference, created_at FROM ledger_entries WHERE account_id = $1 ORDER BY id',
        [accountId],
      );
      return r.rows as LedgerEntry[];
    });
  }

  ledgerSum(accountId: string): Promise<number> {
    return guard(this.pool, async () => {
      const row = await one<{ total: number }>(this.pool, 'SELECT COALESCE(SUM(delta), 0) AS total FROM ledger_entries WHERE account_id = $1', [
        accountId,
      ]);
      return row!.total;
    });
  }

  /** Usage records of an account, oldest first (for tests and audits). */
  usage(accountId: string): Promise<{ reason: string; reference: string; cost: number; created_at: string }[]> {
    return guard(this.pool, async () => {
      const r = await this.pool.query('SELECT reason, reference, cost, created_at FROM usage_records WHERE account_id = $1 ORDER BY id', [accountId]);
      return r.rows as { reason: string; reference: string; cost: number; created_at: string }[];
    });
  }
}

export class PgRateLimiter implements RateLimiter {
  private hitsSincePrune = 0;

  constructor(
    private readonly pool: PgPool,
    private readonly pruneEvery = 1000,
  ) {}

  async hit(subject: string, limitPerHour: number, now: Date): Promise<RateLimitDecision> {
    const nowMs = now.getTime();
    if (limitPerHour === 0) return applyHit(null, 0, nowMs).decision;
    const decision = await guard(this.pool, async () => {
      // One statement counts the hit when the policy admits it (new or expired window, or room
      // left); a refused hit matches the DO UPDATE's WHERE nothing and returns no row.
      const counted = await one<{ window_start: number; hits: number }>(this.pool, HIT_SQL, [subject, nowMs, limitPerHour, RATE_WINDOW_MS]);
      if (counted) {
        // The same decision the pure policy gives for the state before this hit.
        const before = counted.hits === 1 ? null : { windowStart: counted.window_start, hits: counted.hits - 1 };
        return applyHit(before, limitPerHour, nowMs).decision;
      }
      const row = await one<{ window_start: number; hits: number }>(this.pool, 'SELECT window_start, hits FROM rate_limit_windows WHERE subject = $1', [subject]);
      const refused = applyHit({ windowStart: row?.window_start ?? nowMs, hits: Math.max(limitPerHour, row?.hits ?? 0) }, limitPerHour, nowMs).decision;
      // (The window cannot have ended between the two statements unless the clock crossed its end just then.)
      return { ...refused, allowed: false, remaining: 0 };
    });
    if (++this.hitsSincePrune >= this.pruneEvery) {
      this.hitsSincePrune = 0;
      await this.prune(now);
    }
    return decision;
  }

  prune(now: Date): Promise<number> {
    return guard(this.pool, async () => {
      const r = await this.pool.query('DELETE FROM rate_limit_windows WHERE window_start <= $1', [now.getTime() - RATE_WINDOW_MS]);
      return r.rowCount ?? 0;
    });
  }
}

export class PgPaymentOrders implements PaymentOrderStore {
  private readonly clock: Clock;

  constructor(
    private readonly pool: PgPool,
    opts: PgStoreOptions = {},
  ) {
    this.clock = opts.clock ?? systemClock;
  }

  private orderOn(q: Queryable, orderId: string): Promise<PaymentOrderRecord | null> {
    return one<PaymentOrderRecord>(q, `SELECT ${ORDER_COLUMNS} FROM payment_orders WHERE order_id = $1`, [orderId]);
  }

  insertOrder(o: PaymentOrderRecord): Promise<void> {
    return guard(this.pool, async () => {
      await this.pool.query(`INSERT INTO payment_orders (${ORDER_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, [
        o.order_id,
        o.gateway,
        o.account_id,
        o.plan,
        o.amount_minor,
        o.currency,
        o.credits,
        o.status,
        o.created_at,
        o.paid_at,
      ]);
    });
  }

  order(orderId: string): Promise<PaymentOrderRecord | null> {
    return guard(this.pool, () => this.orderOn(this.pool, orderId));
  }

  markPaidAndCredit(
    orderId: string,
    nextPlan: (currentPlan: string, orderPlan: string) => string,
  ): Promise<{ transitioned: boolean; order: PaymentOrderRecord } | null> {
    return guard(this.pool, () =>
      withTransaction(this.pool, async (c) => {
        const at = this.clock().toISOString();
        // The row lock of this UPDATE makes a concurrent webhook (any instance) wait, then match nothing.
        const moved = await c.query(
          `UPDATE payment_orders SET status = 'paid', paid_at = $1 WHERE order_id = $2 AND status = 'pending' RETURNING ${ORDER_COLUMNS}`,
          [at, orderId],
        );
        if (moved.rowCount !== 1) {
          const order = await this.orderOn(c, orderId);
          return order ? { transitioned: false, order } : null;
        }
        const order = moved.rows[0] as PaymentOrderRecord;
        const account = await one<{ plan: string }>(c, 'SELECT plan FROM accounts WHERE id = $1 FOR NO KEY UPDATE', [order.account_id]);
        await appendEntry(c, order.account_id, order.credits, 'payment', order.order_id, at);
        await c.query('UPDATE accounts SET plan = $1 WHERE id = $2', [nextPlan(account!.plan, order.plan), order.account_id]);
        return { transitioned: true, order };
      }),
    );
  }
}

/** The three stores over one pool. */
export function pgAccountStores(pool: PgPool, opts: PgStoreOptions & { watch?: StoreWatch } = {}) {
  if (opts.watch) watches.set(pool, opts.watch);
  return {
    ledger: new PgLedger(pool, opts),
    rateLimiter: new PgRateLimiter(pool),
    orders: new PgPaymentOrders(pool, opts),
  };
}
