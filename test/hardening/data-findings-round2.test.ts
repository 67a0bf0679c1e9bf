/**
 * Regression tests for the data, ledger and store findings of the second attack run (issue 23):
 * each `it` names the finding it covers. Public surfaces (the domain, the in-memory MCP client,
 * REST and MCP on loopback, the real binary), plus the database files where the finding is about them.
 */
import { execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { buildDeps, openDeps } from '../../src/deps.js';
import { neutraliseCell } from '../../src/domain/bom/csv.js';
import { startHttpServer } from '../../src/http/app.js';
import { createLogger, silentLogger } from '../../src/log.js';
import { catalogueData, sampleEntities } from '../support/factory.js';
import { testConfig } from '../support/deps.js';
import { startTestServer } from '../support/http.js';
import { call, memoryClient } from '../support/mcp.js';
import { pgTestsEnabled, startPgCluster, type PgCluster } from '../support/pg.js';
import { http, registerKey } from '../accounts-e2e/helpers.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PG = pgTestsEnabled();

function tempDir(): { dir: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-hardening2-'));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Every code point of Default_Ignorable_Code_Point and White_Space, listed by perl's own Unicode
 * tables (independent of V8's): the class the CSV neutraliser must treat as invisible.
 */
function perlClass(): number[] {
  const out = execFileSync('perl', ['-e', 'for my $c (0..0x10FFFF) { next if $c >= 0xD800 && $c <= 0xDFFF; print "$c\\n" if chr($c) =~ /[\\p{Default_Ignorable_Code_Point}\\p{White_Space}]/ }'], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  return out.trim().split('\n').map(Number);
}
/** Blank-looking code points outside both classes, and the fillers named in the finding. */
const BLANKS = [0x2800, 0x1d159, 0x3164, 0xffa0, 0x115f, 0x1160];
const FORMULA = ['=', '+', '-', '@', '＝', '＋', '－', '＠', '﹦', '﹢', '﹣', '﹫', '\u2212'];

describe('finding N8: CSV cells behind default-ignorable and blank-like code points', () => {
  const invisible = [...new Set([...perlClass(), ...BLANKS])];

  it('finding N8: every Default_Ignorable_Code_Point, White_Space and blank-looking code point before a formula character is neutralised (the whole class, and random runs of it)', () => {
    // The class perl lists is the one the finding names: it holds the Hangul fillers.
    expect(invisible.length).toBeGreaterThan(4000);
    for (const cp of [0x3164, 0xffa0, 0x115f, 0x1160, 0x200b, 0x3000, 0xe0001]) expect(invisible).toContain(cp);
    const missed: string[] = [];
    for (const cp of invisible) {
      for (const f of ['=', '＋', '-', '@']) {
        const cell = `${String.fromCodePoint(cp)}${f}HYPERLINK("http://x.example")`;
        if (!neutraliseCell(cell).startsWith("'")) missed.push(`U+${cp.toString(16).toUpperCase().padStart(4, '0')} ${f}`);
      }
    }
    expect(missed).toEqual([]);
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...invisible), { minLength: 1, maxLength: 8 }), fc.constantFrom(...FORMULA), fc.string({ maxLength: 12 }), (run, f, tail) => {
        const cell = `${String.fromCodePoint(...run)}${f}${tail}`;
        const out = neutraliseCell(cell);
        return out === `'${cell}`;
      }),
      { numRuns: 2000 },
    );
    // Visible text is left alone, also when it follows invisible code points.
    expect(neutraliseCell('\u3164Servo =1')).toBe('\u3164Servo =1');
    expect(neutraliseCell('Servo')).toBe('Servo');
  });

  it('finding N8: an exported BOM CSV quotes cells that begin with Hangul fillers or the braille blank before a formula character', async () => {
    const deps = buildDeps(testConfig(), { log: silentLogger, catalogueData: catalogueData(sampleEntities()) });
    const { client, close } = await memoryClient(deps);
    try {
      const key = ((await call(client, 'register_key', { email: 'csv-n8@example.com' })).structuredContent as { api_key: string }).api_key;
      const leads = BLANKS.map((cp) => `${String.fromCodePoint(cp)}=HYPERLINK("http://x.example","click")`);
      const items = leads.map((p, i) => ({ id: `N8-${i}`, name: p, manufacturer: p, supplier: p, price: 1, quantity: 1 }));
      const r = await call(client, 'export_bom', { api_key: key, items, currency: 'CNY' });
      expect(r.isError).toBeFalsy();
      const [header, ...rows] = parse((r.structuredContent as { csv: string }).csv, { bom: true }) as string[][];
      for (const col of ['name', 'manufacturer', 'supplier']) {
        const i = header.indexOf(col);
        expect(rows.slice(0, leads.length).map((row) => row[i])).toEqual(leads.map((p) => `'${p}`));
      }
    } finally {
      await close();
      deps.close();
    }
  });
});

describe('finding N6: ledger durability', () => {
  it('finding N6: the SQLite ledger runs synchronous=FULL in WAL mode, and /healthz reports what is in force', async () => {
    const t = tempDir();
    const full = await startTestServer(sampleEntities(), { dbPath: path.join(t.dir, 'full.db') });
    const normal = await startTestServer(sampleEntities(), { dbPath: path.join(t.dir, 'normal.db'), sqliteSynchronous: 'normal' });
    try {
      const h = await http<{ database: Record<string, unknown> }>(`${full.url}/healthz`);
      expect(h.status).toBe(200);
      expect(h.body.database).toMatchObject({ backend: 'sqlite', reachable: true, journal_mode: 'wal', synchronous: 'full' });
      // The bench's comparison setting is reported as what it is.
      expect((await http<{ database: Record<string, unknown> }>(`${normal.url}/healthz`)).body.database).toMatchObject({ journal_mode: 'wal', synchronous: 'normal' });
      expect(loadConfig({}).sqliteSynchronous).toBe('full');
      expect(() => loadConfig({ ROBOT_PARTS_SQLITE_SYNCHRONOUS: 'off' })).toThrow(/ROBOT_PARTS_SQLITE_SYNCHRONOUS must be full or normal, got "off"/);
    } finally {
      await full.stop();
      await normal.stop();
      t.cleanup();
    }
  });
});

describe('finding N9: a refused start writes nothing', () => {
  /** Starts `serve` in `cwd`; resolves once it listens (then stops it) or with its exit when it refuses. */
  function serve(cwd: string, env: Record<string, string> = {}): Promise<{ code: number | null; stderr: string; listened: boolean }> {
    return new Promise((resolve, reject) => {
      const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('ROBOT_PARTS_')));
      const child = spawn(process.execPath, [path.join(ROOT, 'dist/cli.js'), 'serve', '--port', '0'], { cwd, env: { ...base, ROBOT_PARTS_LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      let listened = false;
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        if (!listened && stderr.includes('"msg":"listening"')) {
          listened = true;
          child.kill('SIGTERM');
        }
      });
      child.on('error', reject);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, stderr, listened });
      });
    });
  }
  const snapshot = (dir: string) =>
    Object.fromEntries(
      fs
        .readdirSync(dir)
        .sort()
        .map((f) => [f, crypto.createHash('sha256').update(fs.readFileSync(path.join(dir, f))).digest('hex')]),
    );

  it('finding N9: with an existing database and its secret file missing, serve refuses and leaves the folder byte for byte as it was', { timeout: 90_000 }, async () => {
    const t = tempDir();
    try {
      const first = await serve(t.dir);
      expect(first.listened).toBe(true);
      expect(Object.keys(snapshot(t.dir))).toEqual(['robot-parts.db', 'robot-parts.db.secret']);
      fs.rmSync(path.join(t.dir, 'robot-parts.db.secret'));
      const before = snapshot(t.dir);
      const refused = await serve(t.dir);
      expect(refused.listened).toBe(false);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/keyed with a different server secret/);
      expect(snapshot(t.dir)).toEqual(before); // no new secret file, no -wal/-shm, the database unchanged
      // A first start on a new database still creates its secret (0600) beside it.
      const fresh = path.join(t.dir, 'fresh');
      fs.mkdirSync(fresh);
      expect((await serve(fresh)).listened).toBe(true);
      expect(fs.statSync(path.join(fresh, 'robot-parts.db.secret')).mode & 0o777).toBe(0o600);
    } finally {
      t.cleanup();
    }
  });
});

describe.skipIf(!PG)('findings N6 and N10 on PostgreSQL', () => {
  let cluster: PgCluster;
  beforeAll(async () => {
    cluster = await startPgCluster(); // its postgresql.conf sets synchronous_commit = off
  }, 120_000);
  afterAll(() => cluster?.destroy());

  async function serveOn(url: string, lines: string[] = []) {
    const config = testConfig({ databaseUrl: url, secret: 'b2'.repeat(32), rateLimitFree: 1000, rateLimitPaid: 1000 });
    const deps = await openDeps(config, { log: createLogger('info', (l) => lines.push(l)), catalogueData: catalogueData(sampleEntities()) });
    const running = await startHttpServer(deps);
    return { url: running.url, stop: async () => { await running.close(); await deps.close(); } };
  }

  it('finding N6: every connection commits with synchronous_commit on, though the server is configured off; /healthz says so', async () => {
    const url = cluster.createDatabase('n6');
    const plain = new pg.Client({ connectionString: url });
    await plain.connect();
    try {
      expect((await plain.query('SHOW synchronous_commit')).rows[0].synchronous_commit).toBe('off');
    } finally {
      await plain.end();
    }
    const srv = await serveOn(url);
    try {
      const h = await http<{ database: Record<string, unknown> }>(`${srv.url}/healthz`);
      expect(h.status).toBe(200);
      expect(h.body.database).toMatchObject({ backend: 'postgres', reachable: true, synchronous_commit: 'on' });
    } finally {
      await srv.stop();
    }
  });

  it('finding N10: a PostgreSQL outage logs one line going down and one coming back with the number of calls refused, not one per call', { timeout: 90_000 }, async () => {
    const lines: string[] = [];
    const srv = await serveOn(cluster.createDatabase('n10'), lines);
    try {
      const key = await registerKey(srv.url, 'outage@example.com');
      expect((await http(`${srv.url}/api/search?q=servo`)).status).toBe(200);
      let refused = 0;
      cluster.stop();
      try {
        for (let i = 0; i < 12; i++) {
          const r = await http(i % 2 ? `${srv.url}/api/search?q=servo` : `${srv.url}/api/credits/balance`, i % 2 ? {} : { json: { api_key: key } });
          expect(r.status).toBe(503);
          refused++;
        }
        expect((await http(`${srv.url}/healthz`)).status).toBe(503);
      } finally {
        cluster.start();
      }
      // Back: a stale pooled connection may cost a refused call or two more.
      let r = await http(`${srv.url}/api/search?q=servo`);
      for (let i = 0; r.status === 503 && i < 10; i++) {
        refused++;
        r = await http(`${srv.url}/api/search?q=servo`);
      }
      expect(r.status).toBe(200);
      const logged = lines.map((l) => JSON.parse(l) as { level: string; msg: string; store?: string; refused_calls?: number });
      const down = logged.filter((l) => /^store unavailable/.test(l.msg));
      const up = logged.filter((l) => /^store available again/.test(l.msg));
      expect(down).toHaveLength(1);
      expect(down[0]).toMatchObject({ level: 'error', store: 'postgres' });
      expect(up).toHaveLength(1);
      expect(up[0]).toMatchObject({ store: 'postgres', refused_calls: refused });
      expect(logged.filter((l) => l.level === 'error' || l.level === 'warn').length).toBeLessThanOrEqual(3);
    } finally {
      await srv.stop();
    }
  });
});
