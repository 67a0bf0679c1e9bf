/**
 * Versioned schema migrations, one history for both backends (SQLite and PostgreSQL share the
 * version numbers). Append only: never edit a migration that has shipped. `sql` is portable
 * (INTEGER/TEXT, conditional UPDATEs, ON CONFLICT); where a dialect needs its own text, `pg`
 * holds PostgreSQL's beside it (identity columns, BIGINT epoch milliseconds, trigger functions).
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
  /** PostgreSQL text when `sql` is not portable; absent = `sql` runs on both. */
  pg?: string;
}

export type SqlDialect = 'sqlite' | 'pg';

/** The SQL a migration runs on a dialect. */
export function migrationSql(m: Migration, dialect: SqlDialect): string {
  return dialect === 'pg' && m.pg !== undefined ? m.pg : m.sql;
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
    pg: `
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
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts (id),
        delta INTEGER NOT NULL,
        reason TEXT NOT NULL,
        reference TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX ledger_entries_account ON ledger_entries (account_id, id);
      CREATE UNIQUE INDEX ledger_entries_payment_once ON ledger_entries (reference) WHERE reason = 'payment';
      CREATE FUNCTION ledger_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'ledger_entries is append-only'; END $$;
      CREATE TRIGGER ledger_entries_no_update BEFORE UPDATE OR DELETE ON ledger_entries
        FOR EACH ROW EXECUTE FUNCTION ledger_entries_append_only();
      CREATE TRIGGER ledger_entries_no_truncate BEFORE TRUNCATE ON ledger_entries
        FOR EACH STATEMENT EXECUTE FUNCTION ledger_entries_append_only();
      CREATE TABLE usage_records (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
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
    // Unix milliseconds overflow PostgreSQL's 4-byte INTEGER (SQLite's INTEGER is 8 bytes).
    pg: `
      CREATE TABLE rate_limit_windows (
        subject TEXT NOT NULL PRIMARY KEY,
        window_start BIGINT NOT NULL,
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
  {
    version: 9,
    name: 'oss_live_layer',
    // The live open-source layer (issue 45, `sources refresh`): each source's state (the files it
    // gave, the commit read, the last failure) and its records with first_seen, last_seen and gone.
    // Records stay when a source fails or stops producing them (gone = 1, gone_since).
    sql: `
      CREATE TABLE oss_live_sources (
        id TEXT NOT NULL PRIMARY KEY,
        position INTEGER NOT NULL,
        listed INTEGER NOT NULL,
        files TEXT,
        commit_read TEXT,
        read_at TEXT,
        attempted_at TEXT NOT NULL,
        error TEXT
      );
      CREATE TABLE oss_live_records (
        id TEXT NOT NULL PRIMARY KEY,
        source_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        doc TEXT NOT NULL,
        first_seen TEXT NOT NULL,
        last_seen TEXT NOT NULL,
        gone INTEGER NOT NULL,
        gone_since TEXT
      );
      CREATE INDEX oss_live_records_source ON oss_live_records (source_id, position);
      CREATE TABLE oss_live_runs (
        run INTEGER NOT NULL PRIMARY KEY,
        started_at TEXT NOT NULL,
        finished_at TEXT NOT NULL,
        sources_ok INTEGER NOT NULL,
        sources_attempted INTEGER NOT NULL,
        failed TEXT NOT NULL
      );
    `,
  },
];
