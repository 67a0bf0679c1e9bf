/** Real SQLite files in a temp dir, plus a settable clock. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDb, type Db } from '../../src/store/db.js';
import { sqliteAccountStores } from '../../src/store/sqlite-ledger.js';
import { AccountService } from '../../src/domain/accounts/service.js';
import { KeyedDigests } from '../../src/domain/accounts/keys.js';
import { DomainError } from '../../src/domain/shared/errors.js';

export const RECHARGE_URL = 'http://127.0.0.1:8787/api/payment/create';
/** The server secret the test stores are keyed with (stable across reopening a file). */
export const DIGEST_SECRET = 'test-digest-secret-0123456789abcdef';

export function tempDir(): { dir: string; file: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-accounts-'));
  return { dir, file: path.join(dir, 'test.db'), cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export class TestClock {
  constructor(public ms: number) {}
  readonly now = (): Date => new Date(this.ms);
  advance(seconds: number): void {
    this.ms += seconds * 1000;
  }
}

export function openStores(file: string, clock?: TestClock) {
  const db: Db = openDb(file);
  const stores = sqliteAccountStores(db, { clock: clock?.now });
  const accounts = new AccountService(stores.ledger, { rechargeUrl: RECHARGE_URL, digests: new KeyedDigests(DIGEST_SECRET) });
  return { db, ...stores, accounts };
}

/** The DomainError a promise rejects with (fails the test when it resolves or throws something else). */
export async function rejection(p: Promise<unknown>): Promise<DomainError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
  throw new Error('expected a rejection');
}
