/**
 * Group-committed rate-limit hits: hits arriving together are decided in one transaction, in
 * arrival order, and each answer comes only after its hit is on disk.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStores, tempDir, TestClock } from './support.js';

const T0 = Date.parse('2025-03-01T10:00:00Z');

describe('SqliteRateLimiter, concurrent hits', () => {
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

  it('25 hits at once against a limit of 10: the first 10 in arrival order are admitted, every subject counted apart', async () => {
    const subjects = ['key:a', 'key:b'];
    const calls = Array.from({ length: 25 }, (_, i) => s.rateLimiter.hit(subjects[i % 2], 10, clock.now()));
    const decisions = await Promise.all(calls);
    for (const [n, subject] of subjects.entries()) {
      const mine = decisions.filter((_, i) => i % 2 === n);
      expect(mine.map((d) => d.allowed), subject).toEqual(mine.map((_, k) => k < 10));
      expect(mine.slice(0, 10).map((d) => d.remaining), subject).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    }
    // Already committed when the promises resolved: a reader on another connection sees them.
    const rows = openStores(tmp.file, clock);
    try {
      expect(rows.db.prepare('SELECT subject, hits FROM rate_limit_windows ORDER BY subject').all()).toEqual([
        { subject: 'key:a', hits: 10 },
        { subject: 'key:b', hits: 10 },
      ]);
    } finally {
      rows.db.close();
    }
  });

  it('a closed database refuses every queued hit (the caller gets the error, nothing is admitted)', async () => {
    const pending = [s.rateLimiter.hit('key:c', 5, clock.now()), s.rateLimiter.hit('key:d', 5, clock.now())];
    s.db.close();
    const settled = await Promise.allSettled(pending);
    expect(settled.map((x) => x.status)).toEqual(['rejected', 'rejected']);
  });
});
