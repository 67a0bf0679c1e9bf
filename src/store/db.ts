/**
 * SQLite connection with versioned migrations. Each migration runs once, in order, inside
 * a transaction; the applied version is kept in `schema_migrations`.
 * SQL is kept portable (no SQLite-only types beyond INTEGER/TEXT/REAL) for a later PostgreSQL backend.
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { MIGRATIONS, migrationSql } from './migrations.js';

export type Db = Database.Database;

/** Database files hold account digests and balances: created readable by the owner only (0600). */
export const DB_FILE_MODE = 0o600;

/** SQLite `synchronous` levels by the number the pragma reads back. */
const SYNCHRONOUS_LEVELS = ['off', 'normal', 'full', 'extra'] as const;
export type SqliteSynchronous = 'full' | 'normal';

export interface OpenDbOptions {
  /**
   * The ledger's durability (default full): with FULL every commit (a debit, a payment credit)
   * is on disk before it is answered, also across an OS crash or power cut; NORMAL in WAL mode
   * survives a killed process but may lose the last commits on power loss. NORMAL exists for
   * `npm run bench` to measure what FULL costs (ROBOT_PARTS_SQLITE_SYNCHRONOUS).
   */
  synchronous?: SqliteSynchronous;
}

/** The durability settings in force on a connection, as the pragmas read back. */
export function durability(db: Db): { journal_mode: string; synchronous: string } {
  const level = db.pragma('synchronous', { simple: true }) as number;
  return { journal_mode: String(db.pragma('journal_mode', { simple: true })).toLowerCase(), synchronous: SYNCHRONOUS_LEVELS[level] ?? String(level) };
}

export function openDb(file: string, opts: OpenDbOptions = {}): Db {
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
  // Set explicitly: better-sqlite3 builds SQLite with SQLITE_DEFAULT_WAL_SYNCHRONOUS=1 (NORMAL).
  const synchronous = opts.synchronous ?? 'full';
  db.pragma(`synchronous = ${synchronous.toUpperCase()}`);
  const inForce = durability(db).synchronous;
  if (inForce !== synchronous) {
    db.close();
    throw new Error(`SQLite ${file}: synchronous is ${inForce} after setting it to ${synchronous}`);
  }
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
      db.exec(migrationSql(m, 'sqlite'));
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
