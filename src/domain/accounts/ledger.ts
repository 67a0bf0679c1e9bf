/**
 * Accounts, the credit ledger, rate-limit windows and payment orders, as the domain sees them:
 * the ports the domain declares and src/store/ implements (src/store/ledger.ts re-exports them).
 * SQLite implements these now (src/store/sqlite-ledger.ts); a PostgreSQL backend must fit
 * without touching the domain. Keys and e-mails never reach this layer: only their keyed digests.
 *
 * Invariants every backend must keep:
 * - `ledger_entries` is append-only; an account's `credits` always equals the sum of its
 *   entries' deltas (a cached column updated in the same transaction as the entry).
 * - credits never go below zero, whatever the concurrency.
 * - a payment order moves pending -> paid at most once, in the same transaction as its credit.
 *
 * Charging model ("execute, then settle"): `charge` runs the paid operation first, outside
 * any transaction, then in ONE transaction re-checks the balance with a conditional debit
 * (`... SET credits = credits - cost WHERE id = ? AND credits >= cost`), appends the ledger
 * entry, the usage record and the idempotency record. So a call that fails is never debited,
 * no credit is ever held by an in-flight call (nothing to refund after a crash), concurrent
 * calls cannot overdraw (the conditional debit is the arbiter), and two concurrent calls with
 * one idempotency key settle once (the second finds the first's record inside its transaction
 * and returns the stored result). A cheap balance pre-check before running rejects the
 * obvious cases early; a call that loses a race at settlement has done its (read-only) work
 * for nothing and gets `insufficient`, which rate limits bound. Paid operations must be free
 * of external side effects for this reason.
 */
import type { RateLimitDecision } from './rate-limit.js';

export interface AccountRecord {
  /** Opaque random id (not derived from key or e-mail). */
  id: string;
  plan: string;
  credits: number;
  api_calls: number;
  created_at: string;
}

export interface LedgerEntry {
  id: number;
  account_id: string;
  delta: number;
  reason: string;
  reference: string;
  created_at: string;
}

export interface NewAccount {
  keyDigest: string;
  emailDigest: string;
  plan: string;
  /** Initial grant, written as a ledger entry (reason `grant`, reference `registration`). */
  credits: number;
}

export interface ChargeRequest<T> {
  accountId: string;
  /** Credits to debit on success (integer >= 0; 0 records usage without a debit). */
  cost: number;
  /** What was charged, e.g. `entities.deep`, `bom.export` (ledger and usage reason). */
  reason: string;
  /**
   * What identifies the request, e.g. a route or a digest of the body. With an idempotency
   * key, a replay must carry the same reason and reference, else `conflict`.
   */
  reference: string;
  idempotencyKey?: string | null;
  /** The paid operation. Its result must be JSON-serialisable when an idempotency key is used. */
  run: () => Promise<T>;
}

export type ChargeOutcome<T> =
  | { status: 'charged'; result: T; charged: number; credits_remaining: number }
  | {
      status: 'replayed';
      result: T;
      charged: 0;
      credits_remaining: number;
      /** What the first call was charged and the balance it reported (null for records older than migration 5). */
      first: { charged: number; credits_remaining: number | null };
    }
  | { status: 'insufficient'; cost: number; credits_remaining: number };

export interface Ledger {
  /** Throws DomainError('already_registered') when the e-mail digest already has an account. */
  createAccount(input: NewAccount): Promise<AccountRecord>;
  accountByKeyDigest(keyDigest: string): Promise<AccountRecord | null>;
  accountByEmailDigest(emailDigest: string): Promise<AccountRecord | null>;
  account(id: string): Promise<AccountRecord | null>;
  /** See the charging model above. Errors thrown by `run` propagate; nothing is debited then. */
  charge<T>(req: ChargeRequest<T>): Promise<ChargeOutcome<T>>;
  /** The account's entries, oldest first. */
  entries(accountId: string): Promise<LedgerEntry[]>;
  /** Sum of the account's ledger deltas (must equal its credits). */
  ledgerSum(accountId: string): Promise<number>;
  /**
   * Binds the store to the server secret that keys its digests, in one transaction:
   * - no fingerprint stored yet: store `fingerprint`;
   * - a different fingerprint stored: throw (the database was keyed with another secret);
   * - then re-key every account row still holding plain SHA-256 digests (rows from before
   *   keyed digests): key_digest and email_digest := rekey(old), marked as keyed.
   * Returns how many rows were re-keyed. `beforeRecord` runs inside the transaction just before
   * a fingerprint is first stored (the server writes a newly generated secret to its file there:
   * a store that refuses the secret never gets one written, and a failure to write it stores
   * nothing).
   */
  adoptDigestSecret(fingerprint: string, rekey: (legacySha256Hex: string) => string, beforeRecord?: () => void): Promise<{ rekeyed: number }>;
  /**
   * Deletes stored Idempotency-Key replays older than the replay TTL (see ReplayPolicy).
   * Backends also treat an expired record as absent when a retry arrives, and keep at most
   * `maxPerAccount` records per account (the oldest go first) as they store new ones.
   */
  pruneReplays(now: Date): Promise<number>;
}

/** How long stored Idempotency-Key replays live, and how many an account may hold. */
export interface ReplayPolicy {
  /** Milliseconds a replay is kept; a retry after that is a new (charged) call. */
  ttlMs: number;
  /** Most replays stored per account; 0 = no cap. */
  maxPerAccount: number;
}

export const DEFAULT_REPLAY_POLICY: ReplayPolicy = { ttlMs: 24 * 3_600_000, maxPerAccount: 100 };

/** Charges that store a replay between two sweeps of expired replays (every backend). */
export const PRUNE_REPLAYS_EVERY = 100;

/** ISO time before which a replay stored under `policy` has expired at `now`. */
export function replayCutoff(policy: ReplayPolicy, now: Date): string {
  return new Date(now.getTime() - policy.ttlMs).toISOString();
}

/** Hourly windows per subject, kept in the database. */
export interface RateLimiter {
  /** Counts one request for `subject`; `limitPerHour` 0 disables (always allowed, nothing stored). */
  hit(subject: string, limitPerHour: number, now: Date): Promise<RateLimitDecision>;
  /** Deletes windows that ended before `now`; returns how many. */
  prune(now: Date): Promise<number>;
}

export type OrderStatus = 'pending' | 'paid';

export interface PaymentOrderRecord {
  order_id: string;
  gateway: string;
  account_id: string;
  plan: string;
  /** Integer minor units (fen). */
  amount_minor: number;
  currency: string;
  /** Credits the order grants, fixed when the order is created. */
  credits: number;
  status: OrderStatus;
  created_at: string;
  paid_at: string | null;
}

export interface PaymentOrderStore {
  insertOrder(order: PaymentOrderRecord): Promise<void>;
  order(orderId: string): Promise<PaymentOrderRecord | null>;
  /**
   * In one transaction: pending -> paid, ledger credit of `order.credits` (reason `payment`,
   * reference = order id) and the account's plan set to `nextPlan(current)`. When the order
   * is already paid nothing changes and `transitioned` is false. Unknown order: null.
   */
  markPaidAndCredit(
    orderId: string,
    nextPlan: (currentPlan: string, orderPlan: string) => string,
  ): Promise<{ transitioned: boolean; order: PaymentOrderRecord } | null>;
}
