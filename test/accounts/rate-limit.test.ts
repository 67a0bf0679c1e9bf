import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  applyHit,
  enforceRateLimit,
  limitForPlan,
  rateLimitHeaders,
  rateLimitSubject,
  RATE_WINDOW_MS,
} from '../../src/domain/accounts/rate-limit.js';
import { DomainError } from '../../src/domain/shared/errors.js';
import { openStores, tempDir, TestClock } from './support.js';

const T0 = Date.parse('2025-03-01T10:00:00Z');

describe('applyHit (pure window math)', () => {
  it('opens a window at the first hit and counts down', () => {
    const a = applyHit(null, 3, T0);
    expect(a).toEqual({
      decision: { enabled: true, allowed: true, limit: 3, remaining: 2, resetSeconds: 3600 },
      next: { windowStart: T0, hits: 1 },
    });
    const b = applyHit(a.next, 3, T0 + 1_500);
    expect(b.decision).toEqual({ enabled: true, allowed: true, limit: 3, remaining: 1, resetSeconds: 3599 });
    const c = applyHit(b.next, 3, T0 + 600_000);
    expect(c.decision).toEqual({ enabled: true, allowed: true, limit: 3, remaining: 0, resetSeconds: 3000 });
    const d = applyHit(c.next, 3, T0 + 600_000);
    expect(d).toEqual({ decision: { enabled: true, allowed: false, limit: 3, remaining: 0, resetSeconds: 3000 }, next: null });
  });

  it('refuses until the last millisecond of the window and opens a new one exactly at its end', () => {
    const full = { windowStart: T0, hits: 3 };
    expect(applyHit(full, 3, T0 + RATE_WINDOW_MS - 1).decision).toMatchObject({ allowed: false, resetSeconds: 1 });
    expect(applyHit(full, 3, T0 + RATE_WINDOW_MS)).toEqual({
      decision: { enabled: true, allowed: true, limit: 3, remaining: 2, resetSeconds: 3600 },
      next: { windowStart: T0 + RATE_WINDOW_MS, hits: 1 },
    });
  });

  it('limit 0 disables: always allowed, nothing stored', () => {
    expect(applyHit({ windowStart: T0, hits: 999 }, 0, T0)).toEqual({
      decision: { enabled: false, allowed: true, limit: 0, remaining: 0, resetSeconds: 0 },
      next: null,
    });
  });

  it('rejects a negative or fractional limit', () => {
    expect(() => applyHit(null, -1, T0)).toThrow(RangeError);
    expect(() => applyHit(null, 1.5, T0)).toThrow(RangeError);
  });

  it('picks the free limit for anonymous and free, the paid one for other plans', () => {
    const limits = { free: 30, paid: 1000 };
    expect(limitForPlan(null, limits)).toBe(30);
    expect(limitForPlan('free', limits)).toBe(30);
    expect(limitForPlan('starter', limits)).toBe(1000);
    expect(limitForPlan('lifetime', limits)).toBe(1000);
  });

  it('subjects: key digest, or a digest of the address (never the address in clear)', () => {
    expect(rateLimitSubject({ keyDigest: 'ab12' })).toBe('key:ab12');
    const s = rateLimitSubject({ address: '203.0.113.7' });
    expect(s).toMatch(/^addr:[0-9a-f]{64}$/);
    expect(s).not.toContain('203.0.113.7');
  });

  it('headers: RateLimit-* always, Retry-After when refused, none when disabled', () => {
    expect(rateLimitHeaders({ enabled: true, allowed: true, limit: 30, remaining: 29, resetSeconds: 3600 })).toEqual({
      'RateLimit-Limit': '30',
      'RateLimit-Remaining': '29',
      'RateLimit-Reset': '3600',
      'RateLimit-Policy': '30;w=3600',
    });
    expect(rateLimitHeaders({ enabled: true, allowed: false, limit: 30, remaining: 0, resetSeconds: 12 })['Retry-After']).toBe('12');
    expect(rateLimitHeaders({ enabled: false, allowed: true, limit: 0, remaining: 0, resetSeconds: 0 })).toEqual({});
  });
});

describe('SqliteRateLimiter', () => {
  let tmp: ReturnType<typeof tempDir>;
  let s: ReturnType<typeof openStores>;
  let clock: TestClock;
  beforeEach(() => {
    tmp = tempDir();
    clock = new TestClock(T0);
    s = openStores(tmp.file, clock);
  });
  afterEach(() => {
    if (s.db.open) s.db.close();
    tmp.cleanup();
  });

  it('free limit 30/h: 30 allowed, the 31st refused with rate_limited and Retry-After, a new hour allowed', async () => {
    const subject = rateLimitSubject({ address: '198.51.100.1' });
    for (let i = 1; i <= 30; i++) {
      const d = await s.rateLimiter.hit(subject, 30, clock.now());
      expect(d).toMatchObject({ allowed: true, remaining: 30 - i });
      clock.advance(10);
    }
    // 300 s after the window opened
    const headers: Record<string, string> = {};
    try {
      await enforceRateLimit(s.rateLimiter, subject, 30, clock.now(), (k, v) => (headers[k] = v));
      expect.unreachable();
    } catch (e) {
      expect((e as DomainError).code).toBe('rate_limited');
      expect((e as DomainError).status).toBe(429);
      expect((e as DomainError).details).toEqual({ limit: 30, retry_after: 3300 });
    }
    expect(headers).toEqual({
      'RateLimit-Limit': '30',
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': '3300',
      'RateLimit-Policy': '30;w=3600',
      'Retry-After': '3300',
    });
    // other subjects are independent
    expect(await s.rateLimiter.hit(rateLimitSubject({ address: '198.51.100.2' }), 30, clock.now())).toMatchObject({
      allowed: true,
      remaining: 29,
    });
    clock.advance(3300);
    expect(await s.rateLimiter.hit(subject, 30, clock.now())).toMatchObject({ allowed: true, remaining: 29, resetSeconds: 3600 });
  });

  it('limit 0 stores nothing', async () => {
    for (let i = 0; i < 50; i++) expect((await s.rateLimiter.hit('key:x', 0, clock.now())).allowed).toBe(true);
    expect((s.db.prepare('SELECT COUNT(*) AS n FROM rate_limit_windows').get() as { n: number }).n).toBe(0);
  });

  it('prunes windows that have ended', async () => {
    await s.rateLimiter.hit('key:old', 5, clock.now());
    clock.advance(1800);
    await s.rateLimiter.hit('key:new', 5, clock.now());
    clock.advance(1800);
    expect(await s.rateLimiter.prune(clock.now())).toBe(1);
    expect(s.db.prepare('SELECT subject FROM rate_limit_windows').all()).toEqual([{ subject: 'key:new' }]);
  });

  it('the window survives a restart', async () => {
    for (let i = 0; i < 3; i++) await s.rateLimiter.hit('key:r', 3, clock.now());
    s.db.close();
    clock.advance(120);
    s = openStores(tmp.file, clock);
    expect(await s.rateLimiter.hit('key:r', 3, clock.now())).toMatchObject({ allowed: false, resetSeconds: 3480 });
  });
});
