/**
 * Acceptance: balance, usage and rate-limit windows survive a restart on the same database
 * file; the raw SQLite file (and its WAL) never holds a key or an e-mail in clear.
 */
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import { sampleEntities } from '../support/factory.js';
import { startTestServer } from '../support/http.js';
import { bearer, http, postJson, readLedger, tempDb } from './helpers.js';

const LIMIT = 5;

describe('restart on the same database file', () => {
  const tmp = tempDb();
  afterAll(() => tmp.cleanup());

  it('balance, api_calls and rate-limit windows continue where they were', async () => {
    let key: string;
    const first = await startTestServer(sampleEntities(), { dbPath: tmp.file, rateLimitFree: LIMIT });
    try {
      const reg = await postJson<{ api_key: string }>(`${first.url}/api/register`, { email: 'restart@example.com' });
      expect(reg.status).toBe(200);
      expect(reg.headers.get('ratelimit-remaining')).toBe(String(LIMIT - 1)); // anonymous window: 1 used
      key = reg.body.api_key;

      for (const [i, remaining] of [LIMIT - 1, LIMIT - 2].entries()) {
        const r = await http(`${first.url}/api/entities.json`, { headers: bearer(key) });
        expect(r.status).toBe(200);
        expect(r.headers.get('ratelimit-limit')).toBe(String(LIMIT));
        expect(r.headers.get('ratelimit-remaining')).toBe(String(remaining));
        expect(r.headers.get('x-credits-remaining')).toBe(String(99 - i));
      }
    } finally {
      await first.stop();
    }

    const second = await startTestServer(sampleEntities(), { dbPath: tmp.file, rateLimitFree: LIMIT });
    try {
      // Third request of the key's window (a fresh window would say LIMIT - 1).
      const bal = await postJson(`${second.url}/api/credits/balance`, { api_key: key });
      expect(bal.status).toBe(200);
      expect(bal.body).toEqual({ credits: 98, plan: 'free', api_calls: 2 });
      expect(bal.headers.get('ratelimit-remaining')).toBe(String(LIMIT - 3));

      const fourth = await http(`${second.url}/api/entities.json`, { headers: bearer(key) });
      expect(fourth.status).toBe(200);
      expect(fourth.headers.get('ratelimit-remaining')).toBe('1');
      expect(fourth.headers.get('x-credits-remaining')).toBe('97');
      const fifth = await http(`${second.url}/api/entities.json`, { headers: bearer(key) });
      expect(fifth.status).toBe(200);
      expect(fifth.headers.get('ratelimit-remaining')).toBe('0');
      expect(fifth.headers.get('x-credits-remaining')).toBe('96');

      const sixth = await http(`${second.url}/api/entities.json`, { headers: bearer(key) });
      expect(sixth.status).toBe(429);
      expect(sixth.body).toMatchObject({ code: 'rate_limited', limit: LIMIT });
      const retryAfter = Number(sixth.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      expect(sixth.headers.get('ratelimit-remaining')).toBe('0');
      expect(sixth.headers.get('ratelimit-reset')).toBe(String(retryAfter));

      // The anonymous window of this address also survived: register used 1 of it.
      const anon = await http(`${second.url}/api/search?q=servo`);
      expect(anon.status).toBe(200);
      expect(anon.headers.get('ratelimit-remaining')).toBe(String(LIMIT - 2));
    } finally {
      await second.stop();
    }

    // The refused call was not charged; usage is exactly the 4 paid calls.
    const ledger = readLedger(tmp.file);
    const [account] = ledger.accounts;
    expect(account).toMatchObject({ credits: 96, api_calls: 4, plan: 'free' });
    expect(ledger.sum(account.id)).toBe(96);
    expect(ledger.usage(account.id)).toBe(4);
  });
});

describe('raw database file after registration', () => {
  const tmp = tempDb();
  afterAll(() => tmp.cleanup());

  const EMAIL = 'Raw.Bytes+Probe@Example.COM';

  function fileBytes(): Buffer {
    const parts = [tmp.file, `${tmp.file}-wal`, `${tmp.file}-journal`].filter((f) => fs.existsSync(f)).map((f) => fs.readFileSync(f));
    return Buffer.concat(parts);
  }

  function assertNoClearText(bytes: Buffer, secrets: string[]): void {
    for (const s of secrets) {
      for (const enc of ['utf8', 'utf16le'] as const) {
        expect(bytes.includes(Buffer.from(s, enc)), `${JSON.stringify(s)} in ${enc}`).toBe(false);
      }
    }
  }

  const sha256 = (t: string) => crypto.createHash('sha256').update(t).digest('hex');
  /** The stored digest: HMAC-SHA256 under the server's secret file of the SHA-256 digest (computed here). */
  const keyed = (t: string) => crypto.createHmac('sha256', fs.readFileSync(`${tmp.file}.secret`, 'utf8').trim()).update(sha256(t)).digest('hex');
  /** The mailbox of EMAIL under the default rules: lower case, +tag dropped (dots count outside gmail). */
  const MAILBOX = 'raw.bytes@example.com';

  it('holds digests, never the key or the e-mail in clear (main file and WAL, running and stopped)', async () => {
    const srv = await startTestServer(sampleEntities(), { dbPath: tmp.file, rateLimitFree: 30 });
    let key: string;
    try {
      const reg = await postJson<{ api_key: string }>(`${srv.url}/api/register`, { email: EMAIL });
      expect(reg.status).toBe(200);
      key = reg.body.api_key;
      // One paid call too, so the WAL holds account updates after the insert.
      expect((await http(`${srv.url}/api/entities.json`, { headers: bearer(key) })).status).toBe(200);

      const live = fileBytes();
      expect(fs.existsSync(`${tmp.file}-wal`)).toBe(true);
      // The probe reads the right bytes: the digests are there.
      expect(live.includes(Buffer.from(keyed(key), 'utf8'))).toBe(true);
      expect(live.includes(Buffer.from(keyed(MAILBOX), 'utf8'))).toBe(true);
      // Keyed digests: the plain SHA-256 of a guessed key or address is not in the file.
      expect(live.includes(Buffer.from(sha256(key), 'utf8'))).toBe(false);
      expect(live.includes(Buffer.from(sha256(MAILBOX), 'utf8'))).toBe(false);
      const keyBody = key.slice('gtk_'.length);
      assertNoClearText(live, [key, keyBody, EMAIL, EMAIL.toLowerCase(), 'raw.bytes+probe', '127.0.0.1']);
    } finally {
      await srv.stop();
    }
    const closed = fileBytes();
    expect(closed.includes(Buffer.from(keyed(key), 'utf8'))).toBe(true);
    assertNoClearText(closed, [key, key.slice(4), EMAIL, EMAIL.toLowerCase(), 'raw.bytes+probe', '127.0.0.1']);
  });
});
