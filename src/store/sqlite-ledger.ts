/**
 * SQLite implementations of Ledger, RateLimiter and PaymentOrderStore (see ledger.ts for the
 * contracts and the charging model). All three share one better-sqlite3 handle from openDb().
 * Writes run in BEGIN IMMEDIATE transactions, so several processes on one database file
 * (e.g. a stdio and an HTTP server) serialise correctly too; SQL is kept portable
 * (conditional UPDATEs, INSERT ... ON CONFLICT) for the PostgreSQL backend.
 */
import crypto from 'node:crypto';
import type { Db } from './db.js';
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
import { applyHit, RATE_WINDOW_MS, type RateLimitDecision, type RateWindow } from '../domain/accounts/rate-limit.js';
import { systemClock, type Clock } from '../domain/shared/clock.js';

export interface SqliteStoreOptions {
  clock?: Clock;
  /** Expiry and per-account cap of stored Idempotency-Key replays. */
  replays?: ReplayPolicy;
}

const ACCOUNT_COLUMNS = 'id, plan, credits, api_calls, created_at';

interface IdempotencyRow {
  created_at: string;
  reason: string;
  reference: string;
  result: string;
  charged: number;
  credits_remaining: number | null;
}

/** Appends a ledger entry and moves the cached balance by the same delta. Call inside a transaction. */
function appendEntry(db: Db, accountId: string, delta: number, reason: string, reference: string, at: string): void {
  db.prepare('INSERT INTO ledger_entries (account_id, delta, reason, reference, created_at) VALUES (?, ?, ?, ?, ?)').run(
    accountId,
    delta,
    reason,
    reference,
    at,
  );
  db.prepare('UPDATE accounts SET credits = credits + ? WHERE id = ?').run(delta, accountId);
}

function isUniqueViolation(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE';
}

export class SqliteLedger implements Ledger {
  private readonly clock: Clock;
  private readonly replays: ReplayPolicy;
  private chargesSincePrune = 0;

  constructor(
    private readonly db: Db,
    opts: SqliteStoreOptions = {},
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

  private accountSync(id: string): AccountRecord | null {
    return (this.db.prepare(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id = ?`).get(id) as AccountRecord | undefined) ?? null;
  }

  async createAccount(input: NewAccount): Promise<AccountRecord> {
    if (!Number.isInteger(input.credits) || input.credits < 0) throw new RangeError('credits must be a non-negative integer');
    const id = crypto.randomUUID();
    const at = this.now();
    const refused = () =>
      new DomainError('already_registered', 'This e-mail address already has an API key; each address gets one free key');
    const tx = this.db.transaction(() => {
      if (this.db.prepare('SELECT 1 FROM accounts WHERE email_digest = ?').get(input.emailDigest)) throw refused();
      this.db
        .prepare(
          'INSERT INTO accounts (id, key_digest, email_digest, plan, credits, api_calls, created_at, digest_version) VALUES (?, ?, ?, ?, 0, 0, ?, 2)',
        )
        .run(id, input.keyDigest, input.emailDigest, input.plan, at);
      if (input.credits > 0) appendEntry(this.db, id, input.credits, 'grant', 'registration', at);
    });
    try {
      tx.immediate();
    } catch (e) {
      if (isUniqueViolation(e)) throw refused();
      throw e;
    }
    return this.accountSync(id)!;
  }

  async accountByKeyDigest(keyDigest: string): Promise<AccountRecord | null> {
    const row = this.db.prepare(`SELECT key_digest, ${ACCOUNT_COLUMNS} FROM accounts WHERE key_digest = ?`).get(keyDigest) as
      | (AccountRecord & { key_digest: string })
      | undefined;
    if (!row || !digestsEqual(row.key_digest, keyDigest)) return null;
    const { key_digest: _omit, ...account } = row;
    return account;
  }

  async accountByEmailDigest(emailDigest: string): Promise<AccountRecord | null> {
    const row = this.db.prepare(`SELECT email_digest, ${ACCOUNT_COLUMNS} FROM accounts WHERE email_digest = ?`).get(emailDigest) as
      | (AccountRecord & { email_digest: string })
      | undefined;
    if (!row || !digestsEqual(row.email_digest, emailDigest)) return null;
    const { email_digest: _omit, ...account } = row;
    return account;
  }

  async account(id: string): Promise<AccountRecord | null> {
    return this.accountSync(id);
  }

  /** The live (unexpired) replay record of a key, or null. */
  private idempotencySync(accountId: string, key: string): IdempotencyRow | null {
    const row =
      (this.db
        .prepare('SELECT created_at, reason, reference, result, charged, credits_remaining FROM idempotency_records WHERE account_id = ? AND idempotency_key = ?')
        .get(accountId, key) as IdempotencyRow | undefined) ?? null;
    return row && row.created_at >= this.replayCutoff() ? row : null;
  }

  private replay<T>(row: IdempotencyRow, req: ChargeRequest<T>, accountId: string): ChargeOutcome<T> {
    if (row.reason !== req.reason || row.reference !== req.reference) {
      throw new DomainError('conflict', 'This Idempotency-Key was already used for a different request', {
        field: 'Idempotency-Key',
      });
    }
    const credits = this.accountSync(accountId)?.credits ?? 0;
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
    const before = this.accountSync(req.accountId);
    if (!before) throw new DomainError('unknown_key', 'The API key is not registered');
    if (idem !== null) {
      const prior = this.idempotencySync(before.id, idem);
      if (prior) return this.replay(prior, req, before.id);
    }
    // Early refusal; the authoritative check is the conditional debit below.
    if (before.credits < req.cost) return { status: 'insufficient', cost: req.cost, credits_remaining: before.credits };

    const produced = await req.run();
    let result = produced as T;
    let stored: string | null = null;
    if (idem !== null) {
      stored = JSON.stringify(produced);
      if (stored === undefined) throw new TypeError('charge: an idempotent result must be JSON-serialisable');
      result = JSON.parse(stored) as T; // the first caller gets exactly what a replay will get
    }

    const settle = this.db.transaction((): ChargeOutcome<T> => {
      const at = this.now();
      if (idem !== null) {
        const prior = this.idempotencySync(before.id, idem);
        if (prior) return this.replay(prior, req, before.id);
      }
      const debit = this.db
        .prepare('UPDATE accounts SET credits = credits - ?, api_calls = api_calls + 1 WHERE id = ? AND credits >= ?')
        .run(req.cost, before.id, req.cost);
      if (debit.changes !== 1) {
        return { status: 'insufficient', cost: req.cost, credits_remaining: this.accountSync(before.id)?.credits ?? 0 };
      }
      if (req.cost > 0) {
        this.db
          .prepare('INSERT INTO ledger_entries (account_id, delta, reason, reference, created_at) VALUES (?, ?, ?, ?, ?)')
          .run(before.id, -req.cost, req.reason, req.reference, at);
      }
      this.db
        .prepare('INSERT INTO usage_records (account_id, reason, reference, cost, created_at) VALUES (?, ?, ?, ?, ?)')
        .run(before.id, req.reason, req.reference, req.cost, at);
      const credits = this.accountSync(before.id)!.credits;
      if (idem !== null) {
        // An expired record of the same key may still be there (not pruned yet): it is replaced.
        this.db.prepare('DELETE FROM idempotency_records WHERE account_id = ? AND idempotency_key = ?').run(before.id, idem);
        this.db
          .prepare(
            'INSERT INTO idempotency_records (account_id, idempotency_key, reason, reference, result, charged, credits_remaining, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
          )
          .run(before.id, idem, req.reason, req.reference, stored, req.cost, credits, at);
        if (this.replays.maxPerAccount > 0) {
          this.db
            .prepare(
              'DELETE FROM idempotency_records WHERE account_id = ? AND idempotency_key NOT IN ' +
                '(SELECT idempotency_key FROM idempotency_records WHERE account_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?)',
            )
            .run(before.id, before.id, this.replays.maxPerAccount);
        }
      }
      return { status: 'charged', result, charged: req.cost, credits_remaining: credits };
    });
    const outcome = settle.immediate();
    if (idem !== null && ++this.chargesSincePrune >= PRUNE_REPLAYS_EVERY) {
      this.chargesSincePrune = 0;
      await this.pruneReplays(this.clock());
    }
    return outcome;
  }

  async pruneReplays(now: Date): Promise<number> {
    const cutoff = replayCutoff(this.replays, now);
    return this.db.prepare('DELETE FROM idempotency_records WHERE created_at < ?').run(cutoff).changes;
  }

  async adoptDigestSecret(fingerprint: string, rekey: (legacySha256Hex: string) => string, beforeRecord?: () => void): Promise<{ rekeyed: number }> {
    const tx = this.db.transaction((): { rekeyed: number } => {
      const stored = this.db.prepare("SELECT value FROM server_meta WHERE key = 'digest_secret_fingerprint'").get() as { value: string } | undefined;
      if (stored && !digestsEqual(stored.value, fingerprint)) {
        throw new Error(
          'this database was keyed with a different server secret: restore the original secret (ROBOT_PARTS_SECRET / ROBOT_PARTS_SECRET_FILE), or no key or e-mail would match',
        );
      }
      if (!stored) beforeRecord?.();
      if (!stored) this.db.prepare("INSERT INTO server_meta (key, value) VALUES ('digest_secret_fingerprint', ?)").run(fingerprint);
      const legacy = this.db.prepare('SELECT id, key_digest, email_digest FROM accounts WHERE digest_version = 1').all() as {
        id: string;
        key_digest: string;
        email_digest: string;
      }[];
      const update = this.db.prepare('UPDATE accounts SET key_digest = ?, email_digest = ?, digest_version = 2 WHERE id = ? AND digest_version = 1');
      for (const r of legacy) update.run(rekey(r.key_digest), rekey(r.email_digest), r.id);
      return { rekeyed: legacy.length };
    });
    return tx.immediate();
  }

  async entries(accountId: string): Promise<LedgerEntry[]> {
    return this.db
      .prepare('SELECT id, account_id, delta, reason, reference, created_at FROM ledger_entries WHERE account_id = ? ORDER BY id')
      .all(accountId) as LedgerEntry[];
  }

  async ledgerSum(accountId: string): Promise<number> {
    const row = this.db.prepare('SELECT COALESCE(SUM(delta), 0) AS total FROM ledger_entries WHERE account_id = ?').get(accountId) as {
      total: number;
    };
    return row.total;
  }

  /** Usage records of an account, oldest first (for tests and audits). */
  async usage(accountId: string): Promise<{ reason: string; reference: string; cost: number; created_at: string }[]> {
    return this.db
      .prepare('SELECT reason, reference, cost, created_at FROM usage_records WHERE account_id = ? ORDER BY id')
      .all(accountId) as { reason: string; reference: string; cost: number; created_at: string }[];
  }
}

/**
 * Hits are group-committed: the hits that arrive in the same turn of the event loop are
 * decided and written in ONE transaction (each against the window state the previous ones
 * left), and each caller's promise resolves only after that transaction committed. So an
 * admitted request is always on disk before it is answered (windows survive any restart),
 * while under concurrent load the cost of a commit (about 100-400 µs on the bench machine,
 * more than a whole search request) is shared by every hit of the batch instead of paid by each.
 */
export class SqliteRateLimiter implements RateLimiter {
  private hitsSincePrune = 0;
  private queue: { subject: string; limit: number; nowMs: number; resolve: (d: RateLimitDecision) => void; reject: (e: unknown) => void }[] = [];

  constructor(
    private readonly db: Db,
    private readonly pruneEvery = 1000,
  ) {}

  hit(subject: string, limitPerHour: number, now: Date): Promise<RateLimitDecision> {
    const nowMs = now.getTime();
    if (limitPerHour === 0) return Promise.resolve(applyHit(null, 0, nowMs).decision);
    return new Promise((resolve, reject) => {
      if (this.queue.length === 0) setImmediate(() => void this.flush(now));
      this.queue.push({ subject, limit: limitPerHour, nowMs, resolve, reject });
    });
  }

  private async flush(now: Date): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    let decisions: RateLimitDecision[];
    try {
      const select = this.db.prepare('SELECT window_start, hits FROM rate_limit_windows WHERE subject = ?');
      const upsert = this.db.prepare(
        'INSERT INTO rate_limit_windows (subject, window_start, hits) VALUES (?, ?, ?) ' +
          'ON CONFLICT (subject) DO UPDATE SET window_start = excluded.window_start, hits = excluded.hits',
      );
      const tx = this.db.transaction((): RateLimitDecision[] =>
        batch.map((h) => {
          const row = select.get(h.subject) as { window_start: number; hits: number } | undefined;
          const state: RateWindow | null = row ? { windowStart: row.window_start, hits: row.hits } : null;
          const { decision, next } = applyHit(state, h.limit, h.nowMs);
          if (next) upsert.run(h.subject, next.windowStart, next.hits);
          return decision;
        }),
      );
      decisions = tx.immediate();
    } catch (err) {
      for (const h of batch) h.reject(err);
      return;
    }
    this.hitsSincePrune += batch.length;
    if (this.hitsSincePrune >= this.pruneEvery) {
      this.hitsSincePrune = 0;
      try {
        await this.prune(now);
      } catch {
        // pruning is housekeeping; the hits are committed either way
      }
    }
    batch.forEach((h, i) => h.resolve(decisions[i]));
  }

  async prune(now: Date): Promise<number> {
    return this.db.prepare('DELETE FROM rate_limit_windows WHERE window_start <= ?').run(now.getTime() - RATE_WINDOW_MS).changes;
  }
}

const ORDER_COLUMNS = 'order_id, gateway, account_id, plan, amount_minor, currency, credits, status, created_at, paid_at';

export class SqlitePaymentOrders implements PaymentOrderStore {
  private readonly clock: Clock;

  constructor(
    private readonly db: Db,
    opts: SqliteStoreOptions = {},
  ) {
    this.clock = opts.clock ?? systemClock;
  }

  private orderSync(orderId: string): PaymentOrderRecord | null {
    return (
      (this.db.prepare(`SELECT ${ORDER_COLUMNS} FROM payment_orders WHERE order_id = ?`).get(orderId) as
        | PaymentOrderRecord
        | undefined) ?? null
    );
  }

  async insertOrder(o: PaymentOrderRecord): Promise<void> {
    this.db
      .prepare(`INSERT INTO payment_orders (${ORDER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(o.order_id, o.gateway, o.account_id, o.plan, o.amount_minor, o.currency, o.credits, o.status, o.created_at, o.paid_at);
  }

  async order(orderId: string): Promise<PaymentOrderRecord | null> {
    return this.orderSync(orderId);
  }

  async markPaidAndCredit(
    orderId: string,
    nextPlan: (currentPlan: string, orderPlan: string) => string,
  ): Promise<{ transitioned: boolean; order: PaymentOrderRecord } | null> {
    const tx = this.db.transaction(() => {
      const order = this.orderSync(orderId);
      if (!order) return null;
      if (order.status === 'paid') return { transitioned: false, order };
      const at = this.clock().toISOString();
      const moved = this.db
        .prepare("UPDATE payment_orders SET status = 'paid', paid_at = ? WHERE order_id = ? AND status = 'pending'")
        .run(at, orderId);
      if (moved.changes !== 1) return { transitioned: false, order: this.orderSync(orderId)! };
      const account = this.db.prepare('SELECT plan FROM accounts WHERE id = ?').get(order.account_id) as { plan: string };
      appendEntry(this.db, order.account_id, order.credits, 'payment', order.order_id, at);
      this.db.prepare('UPDATE accounts SET plan = ? WHERE id = ?').run(nextPlan(account.plan, order.plan), order.account_id);
      return { transitioned: true, order: this.orderSync(orderId)! };
    });
    return tx.immediate();
  }
}

/** The three stores over one database handle. */
/**
 * `rateLimitDb`: a second connection to the same file for the rate-limit windows (synchronous
 * NORMAL: a window lost to a power cut costs nothing, and a free call then waits for no disk
 * flush); the ledger, accounts and orders stay on `db` (FULL). Same file, so the windows are the
 * same rows either way.
 */
export function sqliteAccountStores(db: Db, opts: SqliteStoreOptions & { rateLimitDb?: Db } = {}) {
  return {
    ledger: new SqliteLedger(db, opts),
    rateLimiter: new SqliteRateLimiter(opts.rateLimitDb ?? db),
    orders: new SqlitePaymentOrders(db, opts),
  };
}
