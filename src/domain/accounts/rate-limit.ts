/**
 * Hourly rate limits: the pure policy. A fixed window per subject that opens at the subject's
 * first request and lasts one hour; requests beyond the limit are refused (and not counted)
 * until the window ends. The window state lives in the database (see RateLimiter in
 * src/domain/accounts/ledger.ts), so restarts do not reset it.
 */
import { DomainError } from '../shared/errors.js';
import { sha256Hex } from './keys.js';

export const RATE_WINDOW_MS = 3_600_000;

export interface RateWindow {
  /** Unix milliseconds at which the window opened. */
  windowStart: number;
  /** Requests admitted in the window. */
  hits: number;
}

export interface RateLimitDecision {
  /** False when the limit is 0 (disabled): always allowed, no headers. */
  enabled: boolean;
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window ends (>= 1 while enabled). */
  resetSeconds: number;
}

export interface RateLimits {
  /** Requests per hour for anonymous and free-plan access (0 disables). */
  free: number;
  /** Requests per hour for paid plans (0 disables). */
  paid: number;
}

export const DEFAULT_RATE_LIMITS: RateLimits = { free: 30, paid: 1000 };

/**
 * One request against a window. Returns the decision and the state to store, or `next: null`
 * when nothing changes (disabled, or refused).
 */
export function applyHit(
  state: RateWindow | null,
  limit: number,
  nowMs: number,
): { decision: RateLimitDecision; next: RateWindow | null } {
  if (!Number.isInteger(limit) || limit < 0) throw new RangeError(`rate limit must be a non-negative integer, got ${limit}`);
  if (limit === 0) {
    return { decision: { enabled: false, allowed: true, limit: 0, remaining: 0, resetSeconds: 0 }, next: null };
  }
  const resetOf = (start: number) =>
    Math.min(RATE_WINDOW_MS / 1000, Math.max(1, Math.ceil((start + RATE_WINDOW_MS - nowMs) / 1000)));
  if (state === null || nowMs >= state.windowStart + RATE_WINDOW_MS) {
    const next = { windowStart: nowMs, hits: 1 };
    return {
      decision: { enabled: true, allowed: true, limit, remaining: limit - 1, resetSeconds: resetOf(nowMs) },
      next,
    };
  }
  if (state.hits < limit) {
    const next = { windowStart: state.windowStart, hits: state.hits + 1 };
    return {
      decision: { enabled: true, allowed: true, limit, remaining: limit - next.hits, resetSeconds: resetOf(state.windowStart) },
      next,
    };
  }
  return {
    decision: { enabled: true, allowed: false, limit, remaining: 0, resetSeconds: resetOf(state.windowStart) },
    next: null,
  };
}

/** Anonymous callers and the free plan get the free limit; every other plan the paid one. */
export function limitForPlan(plan: string | null, limits: RateLimits): number {
  return plan === null || plan === 'free' ? limits.free : limits.paid;
}

/**
 * The stored subject: a key's digest, or a digest of the client address (addresses are
 * personal data too, so they are not stored in clear either).
 */
export function rateLimitSubject(who: { keyDigest: string } | { address: string }): string {
  return 'keyDigest' in who ? `key:${who.keyDigest}` : `addr:${sha256Hex(who.address)}`;
}

/** RateLimit-* headers (IETF draft), plus Retry-After when refused. Empty when disabled. */
export function rateLimitHeaders(d: RateLimitDecision): Record<string, string> {
  if (!d.enabled) return {};
  const h: Record<string, string> = {
    'RateLimit-Limit': String(d.limit),
    'RateLimit-Remaining': String(d.remaining),
    'RateLimit-Reset': String(d.resetSeconds),
    'RateLimit-Policy': `${d.limit};w=3600`,
  };
  if (!d.allowed) h['Retry-After'] = String(d.resetSeconds);
  return h;
}

export function rateLimitedError(d: RateLimitDecision): DomainError {
  return new DomainError(
    'rate_limited',
    `Rate limit of ${d.limit} requests per hour exceeded; retry in ${d.resetSeconds} s`,
    { limit: d.limit, retry_after: d.resetSeconds },
  );
}

/** What enforceRateLimit needs from the store (structurally the RateLimiter of src/domain/accounts/ledger.ts). */
export interface RateLimitHitter {
  hit(subject: string, limitPerHour: number, now: Date): Promise<RateLimitDecision>;
}

/**
 * One request: counts it, sets the headers through `setHeader`, throws rate_limited when refused.
 * Adapters call it before the handler (not on stdio).
 */
export async function enforceRateLimit(
  limiter: RateLimitHitter,
  subject: string,
  limitPerHour: number,
  now: Date,
  setHeader: (name: string, value: string) => void = () => {},
): Promise<RateLimitDecision> {
  const d = await limiter.hit(subject, limitPerHour, now);
  for (const [k, v] of Object.entries(rateLimitHeaders(d))) setHeader(k, v);
  if (!d.allowed) throw rateLimitedError(d);
  return d;
}
