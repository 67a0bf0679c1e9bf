/** Versioned schema migrations. Append only: never edit a migration that has shipped. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'catalogue',
    sql: `
      CREATE TABLE catalogue_entities (
        id TEXT NOT NULL,
        id_lower TEXT NOT NULL PRIMARY KEY,
        category TEXT NOT NULL,
        quarantine INTEGER NOT NULL,
        doc TEXT NOT NULL
      );
      CREATE INDEX catalogue_entities_category ON catalogue_entities (category, id_lower);
      CREATE TABLE catalogue_categories (
        slug TEXT NOT NULL PRIMARY KEY,
        name TEXT NOT NULL,
        spec_name TEXT,
        position INTEGER NOT NULL
      );
      CREATE TABLE catalogue_meta (
        key TEXT NOT NULL PRIMARY KEY,
        value TEXT NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: 'accounts_ledger',
    sql: `
      CREATE TABLE accounts (
        id TEXT NOT NULL PRIMARY KEY,
        key_digest TEXT NOT NULL UNIQUE,
        email_digest TEXT NOT NULL UNIQUE,
        plan TEXT NOT NULL,
        credits INTEGER NOT NULL CHECK (credits >= 0),
        api_calls INTEGER NOT NULL DEFAULT 0 CHECK (api_calls >= 0),
        created_at TEXT NOT NULL
      );
      CREATE TABLE ledger_entries (
        id INTEGER PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts (id),
        delta INTEGER NOT NULL,
        reason TEXT NOT NULL,
        reference TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX ledger_entries_account ON ledger_entries (account_id, id);
      CREATE UNIQUE INDEX ledger_entries_payment_once ON ledger_entries (reference) WHERE reason = 'payment';
      CREATE TRIGGER ledger_entries_no_update BEFORE UPDATE ON ledger_entries
        BEGIN SELECT RAISE(ABORT, 'ledger_entries is append-only'); END;
      CREATE TRIGGER ledger_entries_no_delete BEFORE DELETE ON ledger_entries
        BEGIN SELECT RAISE(ABORT, 'ledger_entries is append-only'); END;
      CREATE TABLE usage_records (
        id INTEGER PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts (id),
        reason TEXT NOT NULL,
        reference TEXT NOT NULL,
        cost INTEGER NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX usage_records_account ON usage_records (account_id, id);
      CREATE TABLE idempotency_records (
        account_id TEXT NOT NULL REFERENCES accounts (id),
        idempotency_key TEXT NOT NULL,
        reason TEXT NOT NULL,
        reference TEXT NOT NULL,
        result TEXT NOT NULL,
        charged INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (account_id, idempotency_key)
      );
    `,
  },
  {
    version: 3,
    name: 'rate_limits',
    sql: `
      CREATE TABLE rate_limit_windows (
        subject TEXT NOT NULL PRIMARY KEY,
        window_start INTEGER NOT NULL,
        hits INTEGER NOT NULL
      );
      CREATE INDEX rate_limit_windows_start ON rate_limit_windows (window_start);
    `,
  },
  {
    version: 4,
    name: 'payment_orders',
    sql: `
      CREATE TABLE payment_orders (
        order_id TEXT NOT NULL PRIMARY KEY,
        gateway TEXT NOT NULL,
        account_id TEXT NOT NULL REFERENCES accounts (id),
        plan TEXT NOT NULL,
        amount_minor INTEGER NOT NULL,
        currency TEXT NOT NULL,
        credits INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'paid')),
        created_at TEXT NOT NULL,
        paid_at TEXT
      );
      CREATE INDEX payment_orders_account ON payment_orders (account_id);
    `,
  },
  {
    version: 5,
    name: 'idempotency_first_balance',
    // A replay answers exactly as the first call did, including the balance that call reported.
    sql: `ALTER TABLE idempotency_records ADD COLUMN credits_remaining INTEGER;`,
  },
  {
    version: 6,
    name: 'oss_entities',
    // Open-source-layer records (data/oss/): resolvable by id wherever a part id is accepted,
    // never part of catalogue listings, search, counts or categories.
    sql: `
      CREATE TABLE oss_entities (
        id TEXT NOT NULL,
        id_lower TEXT NOT NULL PRIMARY KEY,
        doc TEXT NOT NULL
      );
    `,
  },
  {
    version: 7,
    name: 'keyed_digests_replay_expiry',
    // digest_version 1: plain SHA-256 (rows before this migration); 2: HMAC-SHA256 under the
    // server secret of the SHA-256 digest. Startup re-keys version-1 rows (Ledger.adoptDigestSecret).
    // The indexes serve the expiry and the per-account cap of stored Idempotency-Key replays.
    sql: `
      ALTER TABLE accounts ADD COLUMN digest_version INTEGER NOT NULL DEFAULT 1;
      CREATE INDEX idempotency_records_age ON idempotency_records (created_at);
      CREATE INDEX idempotency_records_account_age ON idempotency_records (account_id, created_at);
    `,
  },
  {
    version: 8,
    name: 'server_meta',
    // Facts about the database itself, e.g. the fingerprint of the digest secret it is keyed with.
    sql: `
      CREATE TABLE server_meta (
        key TEXT NOT NULL PRIMARY KEY,
        value TEXT NOT NULL
      );
    `,
  },
];
