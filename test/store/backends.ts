/**
 * The two account-store backends behind one shape, for the store contract suite: a fresh,
 * empty store per test, and any number of independent handles on it (each handle is what one
 * server process holds: its own SQLite connection to the same file, or its own PostgreSQL pool).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AccountService } from '../../src/domain/accounts/service.js';
import { KeyedDigests } from '../../src/domain/accounts/keys.js';
import type { Clock } from '../../src/domain/shared/clock.js';
import { openDb } from '../../src/store/db.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { createPgPool, migratePg } from '../../src/store/pg.js';
import { pgAccountStores } from '../../src/store/pg-ledger.js';
import { sqliteAccountStores } from '../../src/store/sqlite-ledger.js';
import type { PaymentOrderStore, RateLimiter, ReplayPolicy } from '../../src/store/ledger.js';
import type { PgCluster } from '../support/pg.js';

export const RECHARGE_URL = 'http://127.0.0.1:8787/api/payment/create';
/** One server secret for every handle (instances on one database share it). */
export const DIGESTS = new KeyedDigests('c0ffee'.repeat(11));
export const LATEST_MIGRATION = Math.max(...MIGRATIONS.map((m) => m.version));

export interface StoreHandle {
  ledger: ReturnType<typeof sqliteAccountStores>['ledger'] | ReturnType<typeof pgAccountStores>['ledger'];
  rateLimiter: RateLimiter;
  orders: PaymentOrderStore;
  accounts: AccountService;
  /** Runs raw SQL (no parameters) on this handle's connection; resolves to the rows. */
  sql(text: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

export interface FreshStore {
  /** Opens another handle on the same store (another "process"). */
  open(clock?: Clock, replays?: ReplayPolicy): Promise<StoreHandle>;
  cleanup(): Promise<void>;
}

export interface Backend {
  name: 'sqlite' | 'postgres';
  fresh(): Promise<FreshStore>;
}

export const sqliteBackend: Backend = {
  name: 'sqlite',
  async fresh() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-contract-'));
    const file = path.join(dir, 'ledger.db');
    const handles: StoreHandle[] = [];
    return {
      async open(clock, replays) {
        const db = openDb(file);
        const stores = sqliteAccountStores(db, { clock, replays });
        const h: StoreHandle = {
          ...stores,
          accounts: new AccountService(stores.ledger, { rechargeUrl: RECHARGE_URL, digests: DIGESTS }),
          sql: async (text) => {
            const stmt = db.prepare(text);
            if (stmt.reader) return stmt.all() as Record<string, unknown>[];
            stmt.run();
            return [];
          },
          close: async () => {
            if (db.open) db.close();
          },
        };
        handles.push(h);
        return h;
      },
      async cleanup() {
        for (const h of handles) await h.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

let dbCounter = 0;

export function pgBackend(cluster: () => PgCluster): Backend {
  return {
    name: 'postgres',
    async fresh() {
      const url = cluster().createDatabase(`contract_${process.pid}_${++dbCounter}`);
      const handles: StoreHandle[] = [];
      return {
        async open(clock, replays) {
          const pool = createPgPool(url, { max: 5 });
          await migratePg(pool);
          const stores = pgAccountStores(pool, { clock, replays });
          const h: StoreHandle = {
            ...stores,
            accounts: new AccountService(stores.ledger, { rechargeUrl: RECHARGE_URL, digests: DIGESTS }),
            sql: async (text) => (await pool.query(text)).rows as Record<string, unknown>[],
            close: async () => {
              if (!pool.ended) await pool.end();
            },
          };
          handles.push(h);
          return h;
        },
        async cleanup() {
          for (const h of handles) await h.close();
        },
      };
    },
  };
}
