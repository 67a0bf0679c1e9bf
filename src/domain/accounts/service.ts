/**
 * Accounts as the tools see them: registration, authentication, balance and charging.
 * Works on raw keys and e-mails, hands only their digests to the Ledger.
 */
import type { AccountRecord, ChargeRequest, Ledger } from './ledger.js';
import { DomainError, invalidInput } from '../shared/errors.js';
import crypto from 'node:crypto';
import { generateApiKey, KeyedDigests, looksLikeApiKey } from './keys.js';
import { FREE_PLAN } from '../payments/plans.js';

export const FREE_CREDITS = 100;

export interface AccountServiceOptions {
  /** Where a caller out of credits can top up (402 body `recharge_url`). */
  rechargeUrl: string;
  /** Credits granted at registration (default 100). */
  freeCredits?: number;
  /** Keyed digests of keys and e-mails (server secret, mailbox rules); a random secret when absent (tests). */
  digests?: KeyedDigests;
}

export interface Registration {
  api_key: string;
  credits: number;
  plan: string;
  message: string;
}

export interface Balance {
  credits: number;
  plan: string;
  api_calls: number;
}

export type ChargeInput<T> = Omit<ChargeRequest<T>, 'accountId'> & ({ key: string } | { account: AccountRecord });

export interface Charged<T> {
  result: T;
  /** Credits debited by this call (0 on an idempotent replay). */
  charged: number;
  credits_remaining: number;
  /** True when the result is the stored first result of this Idempotency-Key. */
  replayed: boolean;
  /**
   * The billing the first call of this Idempotency-Key reported (equal to charged /
   * credits_remaining when not a replay): a retried call answers identically.
   */
  reported: { charged: number; credits_remaining: number };
}

/** Idempotency keys: 1-255 visible ASCII characters. */
export function validateIdempotencyKey(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (!/^[\x21-\x7e]{1,255}$/.test(value)) {
    throw invalidInput('Idempotency-Key', 'must be 1 to 255 visible ASCII characters');
  }
  return value;
}

export class AccountService {
  private readonly freeCredits: number;
  readonly digests: KeyedDigests;

  constructor(
    private readonly ledger: Ledger,
    private readonly opts: AccountServiceOptions,
  ) {
    this.freeCredits = opts.freeCredits ?? FREE_CREDITS;
    this.digests = opts.digests ?? new KeyedDigests(crypto.randomBytes(32));
  }

  get rechargeUrl(): string {
    return this.opts.rechargeUrl;
  }

  /** New key for a new e-mail address; already_registered when the address has one. */
  async register(email: unknown): Promise<Registration> {
    const emailDigest = this.digests.email(email);
    const apiKey = generateApiKey();
    const account = await this.ledger.createAccount({
      keyDigest: this.digests.key(apiKey),
      emailDigest,
      plan: FREE_PLAN,
      credits: this.freeCredits,
    });
    return {
      api_key: apiKey,
      credits: account.credits,
      plan: account.plan,
      message: 'Store this key now: it is shown only once and cannot be recovered.',
    };
  }

  /** The account of a key: missing_credentials (null/blank), unknown_key (not registered). */
  async authenticate(key: string | null | undefined): Promise<AccountRecord> {
    if (key === null || key === undefined || key.trim() === '') {
      throw new DomainError('missing_credentials', 'An API key is required');
    }
    const account = looksLikeApiKey(key) ? await this.ledger.accountByKeyDigest(this.digests.key(key)) : null;
    if (!account) throw new DomainError('unknown_key', 'The API key is not registered');
    return account;
  }

  /** The account registered with an e-mail address, or null. Validates the address. */
  async accountByEmail(email: unknown): Promise<AccountRecord | null> {
    return this.ledger.accountByEmailDigest(this.digests.email(email));
  }

  async balance(key: string | null | undefined): Promise<Balance> {
    const a = await this.authenticate(key);
    return { credits: a.credits, plan: a.plan, api_calls: a.api_calls };
  }

  /**
   * Runs a paid operation and debits `cost` only if it succeeds (see the charging model in
   * src/domain/accounts/ledger.ts). insufficient_credits (402) carries credits_remaining and recharge_url.
   */
  async charge<T>(input: ChargeInput<T>): Promise<Charged<T>> {
    const account = 'account' in input ? input.account : await this.authenticate(input.key);
    const outcome = await this.ledger.charge({
      accountId: account.id,
      cost: input.cost,
      reason: input.reason,
      reference: input.reference,
      idempotencyKey: validateIdempotencyKey(input.idempotencyKey),
      run: input.run,
    });
    if (outcome.status === 'insufficient') {
      throw new DomainError(
        'insufficient_credits',
        `Insufficient credits: this call costs ${outcome.cost} and ${outcome.credits_remaining} remain`,
        { credits_remaining: outcome.credits_remaining, recharge_url: this.opts.rechargeUrl },
      );
    }
    return {
      result: outcome.result,
      charged: outcome.charged,
      credits_remaining: outcome.credits_remaining,
      replayed: outcome.status === 'replayed',
      reported:
        outcome.status === 'replayed'
          ? { charged: outcome.first.charged, credits_remaining: outcome.first.credits_remaining ?? outcome.credits_remaining }
          : { charged: outcome.charged, credits_remaining: outcome.credits_remaining },
    };
  }
}
