/**
 * Issue 39, the worker pool's findings of the third attack run: N1 (archives unpacked on the main
 * thread before the rate-limit check), N2 (one client could take the pool, and its jobs ran on
 * after it went away). Real server on loopback; clients told apart by X-Forwarded-For from a
 * trusted loopback proxy. No timing assertions: the order of answers, the codes and /healthz's
 * pool counts.
 */
import { zipSync, strToU8 } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.js';
import { startTestServer } from '../support/http.js';

/** A valid but heavy URDF (about 1.3 MB; as in pool-findings.test.ts): lint reads all of it. */
function heavyUrdf(n = 12_000): string {
  const parts = ['<?xml version="1.0"?>\n<robot name="heavy">\n<link name="l0"/>\n'];
  for (let i = 1; i <= n; i++) parts.push(`<link name="l${i}"/>\n<joint name="j${i}" type="revolute"><parent link="l${i - 1}"/><child link="l${i}"/><axis xyz="0 0 1"/></joint>\n`);
  parts.push('</robot>\n');
  return parts.join('');
}
const HEAVY = heavyUrdf();
const SMALL = '<?xml version="1.0"?>\n<robot name="small"><link name="base"/></robot>\n';

type Server = Awaited<ReturnType<typeof startTestServer>>;
let server: Server | null = null;
afterEach(async () => {
  await server?.stop();
  server = null;
});
async function start(overrides: Partial<Config>): Promise<Server> {
  server = await startTestServer(undefined, { trustedProxies: ['127.0.0.0/8'], ...overrides } as Partial<Config>);
  return server;
}

const as = (ip: string) => ({ 'x-forwarded-for': ip });
const lint = (url: string, ip: string, content: string, signal?: AbortSignal) =>
  fetch(`${url}/api/oss/lint`, { method: 'POST', headers: { 'content-type': 'application/json', ...as(ip) }, body: JSON.stringify({ content }), signal });

interface Pool {
  busy: number;
  queued: number;
  completed: number;
  cancelled: number;
  rejected_client_share: number;
  workers_replaced: number;
  clients: number;
}
const pool = async (url: string, ip = '198.51.100.99') => ((await (await fetch(`${url}/healthz`, { headers: as(ip) })).json()) as { status: string; pool: Pool });

/** Polls /healthz (as another client) until `until` holds. */
async function poolUntil(url: string, until: (p: Pool) => boolean): Promise<{ status: string; pool: Pool }> {
  for (let i = 0; ; i++) {
    const h = await pool(url);
    if (until(h.pool)) return h;
    if (i > 20_000) throw new Error(`pool never reached the awaited state: ${JSON.stringify(h.pool)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('N1 archives are unpacked in the worker pool, after the rate-limit check', () => {
  it('N1: an upload from a client already over its rate limit is refused (429) without being unpacked', { timeout: 120_000 }, async () => {
    const { url } = await start({ rateLimitFree: 1 });
    const attacker = '203.0.113.40';
    // The client's one free call of the hour.
    expect((await lint(url, attacker, SMALL)).status).toBe(200);
    const completed = (await pool(url)).pool.completed;
    // Not an archive at all: unpacked, it is refused as invalid_input (400) naming body. Over the
    // limit it must be refused first, so the answer is 429 and no job ran. (The old code unpacked
    // before the rate-limit check and answered 400.)
    const r = await fetch(`${url}/api/oss/lint?entry=robot.urdf`, { method: 'POST', headers: { 'content-type': 'application/zip', ...as(attacker) }, body: new Uint8Array(4096).fill(7) });
    expect(r.status).toBe(429);
    expect(((await r.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
    const after = (await pool(url)).pool;
    expect(after.completed).toBe(completed);
    expect(after.busy + after.queued).toBe(0);
    // Another client under its limit still gets the archive read (in the pool): the same bytes answer 400 naming body.
    const other = await fetch(`${url}/api/oss/lint?entry=robot.urdf`, { method: 'POST', headers: { 'content-type': 'application/zip', ...as('203.0.113.41') }, body: new Uint8Array(4096).fill(7) });
    expect(other.status).toBe(400);
    expect(((await other.json()) as { error: { field: string } }).error.field).toBe('body');
  });

  it('N1: a heavy archive is read and linted in the pool: /healthz of another client answers meanwhile, and the archive waits its turn there', { timeout: 240_000 }, async () => {
    const { url } = await start({ poolSize: 1, poolQueue: 4, jobTimeMs: 200_000 });
    const zip = zipSync({ 'heavy/robot.urdf': strToU8(HEAVY) });
    let settled = 0;
    const upload = (ip: string) =>
      fetch(`${url}/api/oss/lint?entry=heavy/robot.urdf`, { method: 'POST', headers: { 'content-type': 'application/zip', ...as(ip) }, body: zip }).then(async (r) => ((settled += 1), { status: r.status, body: (await r.json()) as { summary?: { errors: number } } }));
    const first = upload('203.0.113.50');
    const second = upload('203.0.113.51');
    // Both uploads are in the pool (one running, one waiting) and neither has answered: the
    // event loop is free and the archives were not read before they got there.
    const during = await poolUntil(url, (p) => p.busy === 1 && p.queued === 1);
    expect(during.status).toBe('ok');
    expect(settled).toBe(0);
    for (const a of await Promise.all([first, second])) {
      expect(a.status).toBe(200);
      expect(a.body.summary?.errors).toBeGreaterThanOrEqual(12_000);
    }
  });
});

describe('N2 a fair share of the pool per client; jobs dropped when their client goes away', () => {
  it('N2: one client gets at most its share running or waiting; the rest is refused with 503 naming the limit, while another client still gets in', { timeout: 240_000 }, async () => {
    const { url } = await start({ poolSize: 1, poolQueue: 8, poolClientJobs: 2, jobTimeMs: 200_000 } as Partial<Config>);
    const attacker = '203.0.113.60';
    const aborts = Array.from({ length: 6 }, () => new AbortController());
    const fired = aborts.map((a) => lint(url, attacker, HEAVY, a.signal).then((r) => ({ status: r.status, r }), () => ({ status: -1, r: null })));
    await poolUntil(url, (p) => p.busy + p.queued === 2);
    // The four beyond the share are answered at once (the old code queued all six).
    const refused = (await Promise.all(fired.slice(2))) as { status: number; r: Response }[];
    for (const x of refused) {
      expect(x.status).toBe(503);
      const body = (await x.r.json()) as { error: { code: string; details?: Record<string, unknown>; message: string } };
      expect(body.error.code).toBe('overloaded');
      expect(body.error.message).toMatch(/ROBOT_PARTS_POOL_CLIENT_JOBS/);
      expect(x.r.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    expect((await pool(url)).pool.rejected_client_share).toBe(4);
    // Another client's small lint is served: it waits behind the running job only, not behind the attacker's waiting one.
    let victimDone = false;
    const victim = lint(url, '203.0.113.61', SMALL).then(async (r) => ((victimDone = true), r.status));
    // The attacker drops both connections: its running job's worker is replaced, its waiting job dropped.
    await poolUntil(url, (p) => p.queued === 2);
    for (const a of aborts.slice(0, 2)) a.abort();
    expect(await victim).toBe(200);
    expect(victimDone).toBe(true);
    const after = await poolUntil(url, (p) => p.cancelled === 2);
    expect(after.pool.workers_replaced).toBeGreaterThanOrEqual(1);
    expect(after.pool.busy + after.pool.queued).toBe(0);
  });

  it('N2: a client firing heavy lints and dropping its connections, round after round, never starves another client\'s small lints', { timeout: 300_000 }, async () => {
    const { url } = await start({ poolSize: 1, poolQueue: 8, poolClientJobs: 3, jobTimeMs: 200_000 } as Partial<Config>);
    const attacker = '203.0.113.70';
    const victim = '203.0.113.71';
    const served: number[] = [];
    for (let round = 0; round < 3; round++) {
      const aborts = Array.from({ length: 5 }, () => new AbortController());
      const fired = aborts.map((a) => lint(url, attacker, HEAVY, a.signal).then((r) => r.status, () => -1));
      await poolUntil(url, (p) => p.busy + p.queued >= 3);
      const mine = lint(url, victim, SMALL).then((r) => r.status);
      // Round-robin: the victim's job is next after the running one, ahead of the attacker's waiting ones.
      await poolUntil(url, (p) => p.queued >= 3);
      for (const a of aborts) a.abort();
      served.push(await mine);
      for (const s of await Promise.all(fired)) expect([-1, 503]).toContain(s);
      await poolUntil(url, (p) => p.busy + p.queued === 0);
    }
    expect(served).toEqual([200, 200, 200]);
    const p = (await pool(url)).pool;
    expect(p.cancelled).toBeGreaterThanOrEqual(3 * 3);
  });

  it('N2: round-robin order: with one worker, a waiting job of a second client runs before the first client\'s next one', { timeout: 240_000 }, async () => {
    const { url } = await start({ poolSize: 1, poolQueue: 8, poolClientJobs: 4, jobTimeMs: 200_000 } as Partial<Config>);
    const order: string[] = [];
    const a = (tag: string, content: string) => lint(url, '203.0.113.80', content).then((r) => (order.push(tag), r.status));
    const first = a('a1', HEAVY);
    await poolUntil(url, (p) => p.busy === 1);
    const second = a('a2', SMALL);
    await poolUntil(url, (p) => p.queued === 1);
    const b = lint(url, '203.0.113.81', SMALL).then((r) => (order.push('b1'), r.status));
    await poolUntil(url, (p) => p.queued === 2);
    expect(await Promise.all([first, second, b])).toEqual([200, 200, 200]);
    // FIFO would answer a2 before b1 (the old code).
    expect(order).toEqual(['a1', 'b1', 'a2']);
  });
});
