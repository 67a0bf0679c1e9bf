/**
 * Acceptance of issue 15: three `serve --stateless` processes on one PostgreSQL database,
 * driven over HTTP as a load balancer would spread the traffic. Credits, idempotent replays,
 * payment webhooks and rate limits hold across instances; kill -9 of one instance under paid
 * load keeps the ledger invariant and the others serving; a lost database answers 503
 * store_unavailable and the instances recover on their own.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { bearer, completionBody, http, postJson, registerKey, sendWebhook, WEBHOOK_SECRET } from '../accounts-e2e/helpers.js';
import { startInstance, type Instance } from '../support/instances.js';
import { pgTestsEnabled, startPgCluster, type PgCluster } from '../support/pg.js';

const PG = pgTestsEnabled();
const FREE_LIMIT = 400; // above the 3N paid calls of one key (N = the 100-credit registration grant)
const LATEST = Math.max(...MIGRATIONS.map((m) => m.version));
const PAID = '/api/entities.json?limit=1'; // deep list with a key: 1 credit

/**
 * Runs fn(0..count-1) with at most `width` calls in flight (hundreds of simultaneous sockets
 * from one test process only measure the kernel's accept queue and keep-alive races).
 */
async function parallel<T>(count: number, fn: (i: number) => Promise<T>, width = 48): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, count) }, async () => {
      while (next < count) {
        const i = next++;
        out[i] = await fn(i);
      }
    }),
  );
  return out;
}

describe.skipIf(!PG)('three instances on one PostgreSQL', () => {
  let cluster: PgCluster;
  let db: pg.Pool;
  let nodes: Instance[] = [];
  const start = (extra: string[] = []) =>
    startInstance({
      args: ['--stateless', '--database-url', cluster.url, '--rate-limit-free', String(FREE_LIMIT), '--rate-limit-paid', '0', ...extra],
      env: { ROBOT_PARTS_WEBHOOK_SECRET: WEBHOOK_SECRET, ROBOT_PARTS_SECRET: 'f00d'.repeat(16) },
    });

  beforeAll(async () => {
    cluster = await startPgCluster();
    // Started together on an empty database: the migrations race under the advisory lock.
    nodes = await Promise.all([start(), start(), start()]);
    db = new pg.Pool({ connectionString: cluster.url, max: 2 });
    db.on('error', () => {}); // its idle connections die when the database-down test stops the server
  }, 180_000);
  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.kill9()));
    await db?.end();
    cluster?.destroy();
  });

  const ledgerOf = async (key: string, base = nodes[0]!.url) => {
    const bal = await postJson<{ credits: number; api_calls: number }>(`${base}/api/credits/balance`, { api_key: key });
    expect(bal.status).toBe(200);
    const { rows } = await db.query(
      `SELECT a.id, a.credits,
              (SELECT COALESCE(SUM(delta), 0)::int FROM ledger_entries e WHERE e.account_id = a.id) AS sum,
              (SELECT COUNT(*)::int FROM ledger_entries e WHERE e.account_id = a.id AND e.delta < 0) AS debits,
              (SELECT COUNT(*)::int FROM usage_records u WHERE u.account_id = a.id) AS usage
         FROM accounts a WHERE a.credits = $1 AND a.api_calls = $2`,
      [bal.body.credits, bal.body.api_calls],
    );
    return { balance: bal.body, rows: rows as { id: string; credits: number; sum: number; debits: number; usage: number }[] };
  };

  it('every instance reports the database reachable at the latest migration, applied once', async () => {
    for (const n of nodes) {
      const h = await http<{ status: string; database: Record<string, unknown> }>(`${n.url}/healthz`);
      expect(h.status).toBe(200);
      expect(h.body.status).toBe('ok');
      expect(h.body.database).toEqual({ backend: 'postgres', reachable: true, migration_version: LATEST, synchronous_commit: 'on' });
    }
    const { rows } = await db.query('SELECT version, COUNT(*)::int AS n FROM schema_migrations GROUP BY version ORDER BY version');
    expect(rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version, n: 1 })));
    const meta = await db.query("SELECT value FROM catalogue_meta WHERE key = 'dataset_version'");
    const h = await http<{ dataset_version: string }>(`${nodes[0]!.url}/healthz`);
    expect(meta.rows).toEqual([{ value: h.body.dataset_version }]);
  });

  it('N credits, 3N parallel paid calls spread over the instances: exactly N succeed, the rest 402, balance 0, ledger sum 0', async () => {
    const key = await registerKey(nodes[1]!.url, 'fleet-n@example.com');
    const N = (await postJson<{ credits: number }>(`${nodes[2]!.url}/api/credits/balance`, { api_key: key })).body.credits;
    expect(N).toBeGreaterThan(0);
    const results = await parallel(3 * N, (i) => http(`${nodes[i % 3]!.url}${PAID}`, { headers: bearer(key) }));
    const ok = results.filter((r) => r.status === 200);
    const other = results.filter((r) => r.status !== 200 && r.status !== 402);
    expect(other.map((r) => `${r.status} ${r.text}`).slice(0, 3)).toEqual([]);
    expect(ok).toHaveLength(N);
    expect(results.filter((r) => r.status === 402)).toHaveLength(2 * N);
    expect(ok.map((r) => Number(r.headers.get('x-credits-remaining'))).sort((x, y) => x - y)).toEqual(Array.from({ length: N }, (_, i) => i));
    for (const n of nodes) {
      expect((await postJson(`${n.url}/api/credits/balance`, { api_key: key })).body).toMatchObject({ credits: 0, api_calls: N });
    }
    const l = await ledgerOf(key);
    const mine = l.rows.filter((r) => r.debits === N);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ credits: 0, sum: 0, usage: N });
  });

  it('an idempotent retry sent to another instance is free and identical', async () => {
    const key = await registerKey(nodes[0]!.url, 'fleet-idem@example.com');
    const headers = { ...bearer(key), 'idempotency-key': 'fleet-retry-1' };
    const first = await http(`${nodes[0]!.url}${PAID}`, { headers });
    expect(first.status).toBe(200);
    const retries = [await http(`${nodes[1]!.url}${PAID}`, { headers }), await http(`${nodes[2]!.url}${PAID}`, { headers })];
    for (const r of retries) {
      expect(r.status).toBe(200);
      expect(r.text).toBe(first.text);
      expect(r.headers.get('x-credits-remaining')).toBe(first.headers.get('x-credits-remaining'));
    }
    expect((await postJson(`${nodes[2]!.url}/api/credits/balance`, { api_key: key })).body).toMatchObject({
      credits: Number(first.headers.get('x-credits-remaining')),
      api_calls: 1,
    });
  });

  it('a payment webhook replayed five times across the instances credits once; the order is visible everywhere', async () => {
    const key = await registerKey(nodes[2]!.url, 'fleet-pay@example.com');
    const before = (await postJson<{ credits: number }>(`${nodes[0]!.url}/api/credits/balance`, { api_key: key })).body.credits;
    const created = await postJson<{ order_id: string }>(`${nodes[0]!.url}/api/payment/create`, { plan: 'starter' }, bearer(key));
    expect(created.status).toBe(200);
    const orderId = created.body.order_id;
    for (const n of nodes) {
      expect((await http(`${n.url}/api/payment/${orderId}`)).body).toMatchObject({ order_id: orderId, status: 'pending' });
    }
    const body = completionBody({ order_id: orderId });
    const replies = await Promise.all(Array.from({ length: 5 }, (_, i) => sendWebhook(nodes[i % 3]!.url, body)));
    for (const r of replies) expect(r.status).toBe(200);
    const status = await Promise.all(nodes.map((n) => http<{ status: string; credits: number }>(`${n.url}/api/payment/${orderId}`)));
    for (const s of status) expect(s.body).toMatchObject({ status: 'paid' });
    const granted = status[0]!.body.credits;
    expect(granted).toBeGreaterThan(0);
    for (const n of nodes) {
      expect((await postJson(`${n.url}/api/credits/balance`, { api_key: key })).body).toMatchObject({ credits: before + granted, plan: 'starter' });
    }
    const { rows } = await db.query("SELECT COUNT(*)::int AS n, SUM(delta)::int AS total FROM ledger_entries WHERE reason = 'payment' AND reference = $1", [orderId]);
    expect(rows).toEqual([{ n: 1, total: granted }]);
  });

  it('the free rate limit is one window across the instances', async () => {
    const key = await registerKey(nodes[0]!.url, 'fleet-rate@example.com');
    const EXTRA = 30;
    // Per-instance windows would admit all of these (about a third each, below the limit).
    const replies = await parallel(FREE_LIMIT + EXTRA, (i) => postJson(`${nodes[i % 3]!.url}/api/credits/balance`, { api_key: key }));
    const ok = replies.filter((r) => r.status === 200);
    const limited = replies.filter((r) => r.status === 429);
    expect(ok).toHaveLength(FREE_LIMIT);
    expect(limited).toHaveLength(EXTRA);
    // Each admitted request took its own place in the one window: remaining FREE_LIMIT-1 .. 0, each once.
    expect(ok.map((r) => Number(r.headers.get('ratelimit-remaining'))).sort((x, y) => x - y)).toEqual(Array.from({ length: FREE_LIMIT }, (_, i) => i));
    for (const r of limited) expect(r.body).toMatchObject({ code: 'rate_limited', limit: FREE_LIMIT });
    for (const n of nodes) expect((await postJson(`${n.url}/api/credits/balance`, { api_key: key })).status).toBe(429);
  });

  it('stateless MCP needs no affinity: one client session whose requests go round-robin to the instances', async () => {
    const key = await registerKey(nodes[1]!.url, 'fleet-mcp@example.com');
    let turn = 0;
    const roundRobin = (input: string | URL | Request, init?: RequestInit) => {
      const u = new URL(input instanceof Request ? input.url : String(input));
      const target = new URL(nodes[turn++ % 3]!.url);
      u.host = target.host;
      return fetch(u, init);
    };
    const transport = new StreamableHTTPClientTransport(new URL(`${nodes[0]!.url}/mcp`), {
      requestInit: { headers: bearer(key) },
      fetch: roundRobin,
    });
    const client = new Client({ name: 'fleet-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const results: CallToolResult[] = [];
      for (let i = 0; i < 3; i++) results.push((await client.callTool({ name: 'list_parts', arguments: { deep: true, limit: 1 } })) as CallToolResult);
      expect(turn).toBeGreaterThanOrEqual(5); // initialize, initialized, 3 calls: every instance served some
      const remaining = results.map((r) => (r.structuredContent as { meta: { credits_remaining: number } }).meta.credits_remaining);
      expect(remaining).toEqual([remaining[0], remaining[0]! - 1, remaining[0]! - 2]);
    } finally {
      await client.close();
    }
  });

  it('kill -9 of one instance under paid load: the ledger invariant holds and the others keep serving', async () => {
    const key = await registerKey(nodes[0]!.url, 'fleet-kill@example.com');
    const credits = (await postJson<{ credits: number }>(`${nodes[0]!.url}/api/credits/balance`, { api_key: key })).body.credits;
    const victim = nodes[2]!;
    const CALLS = Math.floor(credits * 0.6);
    let done = 0;
    let killed: Promise<void> | null = null;
    const statuses: (number | 'error')[] = [];
    // 6 workers, each sending its share in turn to the three instances; the victim dies after ~1/3 of the calls.
    await Promise.all(
      Array.from({ length: 6 }, async (_, w) => {
        for (let i = w; i < CALLS; i += 6) {
          try {
            statuses.push((await http(`${nodes[i % 3]!.url}${PAID}`, { headers: bearer(key) })).status);
          } catch {
            statuses.push('error');
          }
          if (++done === Math.floor(CALLS / 3)) killed = victim.kill9();
        }
      }),
    );
    await killed;
    expect(victim.proc.signalCode).toBe('SIGKILL');
    const ok = statuses.filter((s) => s === 200).length;
    expect(statuses.filter((s) => s !== 200 && s !== 'error')).toEqual([]); // never a 402/500 with credits left
    expect(statuses.filter((s) => s === 'error').length).toBeGreaterThan(0); // the victim really went away mid-load

    // Survivors keep serving paid calls.
    for (const n of nodes.slice(0, 2)) {
      expect((await http(`${n.url}${PAID}`, { headers: bearer(key) })).status).toBe(200);
      expect((await http(`${n.url}/healthz`)).status).toBe(200);
    }
    const l = await ledgerOf(key);
    const mine = l.rows.filter((r) => r.credits === l.balance.credits && r.debits === credits - l.balance.credits);
    expect(mine).toHaveLength(1);
    const row = mine[0]!;
    // Invariant: balance = ledger sum; every debit has its usage record; at least every answered success was debited
    // (a call the victim settled just before dying may be debited without its answer reaching the client).
    expect(row.sum).toBe(row.credits);
    expect(row.usage).toBe(row.debits);
    expect(row.debits).toBeGreaterThanOrEqual(ok + 2);
    expect(row.debits).toBeLessThanOrEqual(ok + 2 + statuses.filter((s) => s === 'error').length);
    nodes = nodes.slice(0, 2);
  });

  it('database down: paid and account calls answer 503 store_unavailable, nothing is charged; the instances recover on their own', async () => {
    const key = await registerKey(nodes[0]!.url, 'fleet-down@example.com');
    const before = (await postJson<{ credits: number }>(`${nodes[1]!.url}/api/credits/balance`, { api_key: key })).body.credits;
    let answered = 0;
    cluster.stop();
    try {
      for (const n of nodes) {
        const paid = await http(`${n.url}${PAID}`, { headers: bearer(key) });
        expect(paid.status).toBe(503);
        expect(paid.body).toMatchObject({ code: 'store_unavailable' });
        const bal = await postJson(`${n.url}/api/credits/balance`, { api_key: key });
        expect(bal.status).toBe(503);
        expect(bal.body).toMatchObject({ code: 'store_unavailable' });
        const health = await http<{ status: string; database: Record<string, unknown> }>(`${n.url}/healthz`);
        expect(health.status).toBe(503);
        expect(health.body).toMatchObject({ status: 'degraded', database: { backend: 'postgres', reachable: false, migration_version: null } });
      }
    } finally {
      cluster.start();
    }
    // Back: each instance serves again without a restart (a stale pooled connection may cost one more 503).
    for (const n of nodes) {
      let r = await http(`${n.url}${PAID}`, { headers: bearer(key) });
      for (let attempt = 0; r.status === 503 && attempt < 5; attempt++) r = await http(`${n.url}${PAID}`, { headers: bearer(key) });
      expect(r.status).toBe(200);
      answered++;
      expect((await http(`${n.url}/healthz`)).status).toBe(200);
    }
    const after = (await postJson<{ credits: number }>(`${nodes[0]!.url}/api/credits/balance`, { api_key: key })).body.credits;
    expect(after).toBe(before - answered);
    const { rows } = await db.query('SELECT COUNT(*)::int AS n FROM accounts a WHERE a.credits <> (SELECT COALESCE(SUM(delta), 0) FROM ledger_entries e WHERE e.account_id = a.id)');
    expect(rows).toEqual([{ n: 0 }]);
  });
});
