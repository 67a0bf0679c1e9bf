/**
 * SQLite connection with versioned migrations. Each migration runs once, in order, inside
 * a transaction; the applied version is kept in `schema_migrations`.
 * SQL is kept portable (no SQLite-only types beyond INTEGER/TEXT/REAL) for a later PostgreSQL backend.
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { MIGRATIONS } from './migrations.js';

export type Db = Database.Database;

/** Database files hold account digests and balances: created readable by the owner only (0600). */
export const DB_FILE_MODE = 0o600;

export function openDb(file: string): Db {
  if (file !== ':memory:') {
    fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    // SQLite creates the -wal and -shm files with the main file's permissions: create that one
    // first, owner-only, instead of letting the umask decide (0644 by default).
    try {
      fs.closeSync(fs.openSync(file, 'wx', DB_FILE_MODE));
      fs.chmodSync(file, DB_FILE_MODE);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  const db = new Database(file);
  if (file !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  cacheStatements(db);
  return db;
}

/**
 * Makes db.prepare() return one compiled statement per SQL text. Compiling costs more than
 * running (the ledger and rate limiter prepared two to six statements per call; measured in
 * bench/README.md). Safe because no caller switches a statement's mode (pluck/raw/expand) or
 * keeps an iterator open across calls.
 */
function cacheStatements(db: Db): void {
  const compile = db.prepare.bind(db);
  const cache = new Map<string, Database.Statement>();
  db.prepare = ((sql: string) => {
    let st = cache.get(sql);
    if (!st) {
      st = compile(sql);
      cache.set(sql, st);
    }
    return st;
  }) as Db['prepare'];
}

export function migrate(db: Db): number {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
  const applied = new Set(
    (db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version),
  );
  let count = 0;
  for (const m of MIGRATIONS) {
    if (applied.has(m.version)) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        m.version,
        m.name,
        new Date().toISOString(),
      );
    })();
    count++;
  }
  return count;
}
