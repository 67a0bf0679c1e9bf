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
    expect(((await r.json()) as { code: string }).code).toBe('rate_limited');
    const after = (await pool(url)).pool;
    expect(after.completed).toBe(completed);
    expect(after.busy + after.queued).toBe(0);
    // Another client under its limit still gets the archive read (in the pool): the same bytes answer 400 naming body.
    const other = await fetch(`${url}/api/oss/lint?entry=robot.urdf`, { method: 'POST', headers: { 'content-type': 'application/zip', ...as('203.0.113.41') }, body: new Uint8Array(4096).fill(7) });
    expect(other.status).toBe(400);
    expect(((await other.json()) as { field: string }).field).toBe('body');
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
      const body = (await x.r.json()) as { code: string; error: string; client_jobs_limit: number };
      expect(body.code).toBe('overloaded');
      expect(body.error).toMatch(/ROBOT_PARTS_POOL_CLIENT_JOBS/);
      expect(body.client_jobs_limit).toBe(2);
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
    expect(after.pool.busy + after.pool.queued).toBe(0);
  });

  it('N2: a client whose share is as large as the whole pool cannot fill it alone: another client takes its newest waiting place', { timeout: 240_000 }, async () => {
    // One worker and two waiting places (3 in all) with a share of 4: the first client alone can fill the pool.
    const { url } = await start({ poolSize: 1, poolQueue: 2, poolClientJobs: 4, jobTimeMs: 200_000 } as Partial<Config>);
    const attacker = '203.0.113.70';
    // One after the other, each admitted before the next is sent: the third is the newest waiting job.
    const fired: Promise<Response>[] = [];
    for (let i = 0; i < 3; i++) {
      fired.push(lint(url, attacker, HEAVY));
      await poolUntil(url, (p) => p.busy + p.queued === i + 1);
    }
    // A client with nothing in the pool arrives while the attacker fills it (the old pool answered it 503).
    const victim = await lint(url, '203.0.113.71', SMALL);
    expect(victim.status).toBe(200);
    // If the pool was still full when it came (the usual case: a heavy lint runs for most of a second), the
    // attacker's newest waiting job gave its place; if the running lint had just ended, nothing was displaced.
    // Either way, no other attacker job is refused.
    const answers = await Promise.all(fired);
    const refused = answers.map((r, i) => ({ r, i })).filter(({ r }) => r.status !== 200);
    expect(refused.length).toBeLessThanOrEqual(1);
    for (const { r, i } of refused) {
      expect(i).toBe(2);
      expect(r.status).toBe(503);
      const body = (await r.json()) as { code: string; displaced?: boolean; client_jobs?: number };
      expect(body).toMatchObject({ code: 'overloaded', displaced: true, client_jobs: 3 });
      expect(r.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    expect((await pool(url)).pool.rejected_client_share).toBe(refused.length);
  });

  it('N2: a running job whose caller goes away is stopped: its worker is replaced and the next client is served', { timeout: 240_000 }, async () => {
    const { url } = await start({ poolSize: 1, poolQueue: 8, jobTimeMs: 200_000 });
    const ac = new AbortController();
    const dropped = lint(url, '203.0.113.65', HEAVY, ac.signal).then((r) => r.status, () => -1);
    await poolUntil(url, (p) => p.busy === 1 && p.queued === 0);
    const replacedBefore = (await pool(url)).pool.workers_replaced;
    ac.abort();
    expect(await dropped).toBe(-1);
    const after = await poolUntil(url, (p) => p.cancelled === 1);
    // The old code let the lint run to its end (no cancelled count; the worker kept).
    expect(after.pool.workers_replaced).toBe(replacedBefore + 1);
    expect((await lint(url, '203.0.113.66', SMALL)).status).toBe(200);
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
    // FIFO would answer a2 before b1 (the old code). (a1's answer, 12,000 joints' findings, may
    // arrive after both small answers: only the two waiting jobs' order is the pool's.)
    expect(order.filter((t) => t !== 'a1')).toEqual(['b1', 'a2']);
  });
});

describe('N6 adapter-plate meshes are built in the worker pool, cached on the full design', () => {
  const A50 = 'ISO9409-1-A50-4-M6';
  const A63 = 'ISO9409-1-A63-6-M6';
  const plate = async (url: string, q: Record<string, string>) => {
    const r = await fetch(`${url}/api/adapter-plate?${new URLSearchParams({ a: A50, b: A63, ...q })}`, { headers: as('203.0.113.90') });
    return { status: r.status, type: r.headers.get('content-type'), bytes: new Uint8Array(await r.arrayBuffer()) };
  };

  it('N6: an STL or 3MF is one pool job; the same design again is served from the cache; another thickness_mm is another job', { timeout: 240_000 }, async () => {
    const { url } = await start({});
    const jobs = async () => (await pool(url)).pool.completed;
    const before = await jobs();
    const stl = await plate(url, { format: 'stl' });
    expect(stl.status).toBe(200);
    expect(stl.type).toBe('model/stl');
    // Binary STL: an 80-byte header, a triangle count, 50 bytes per triangle (read off the bytes).
    const triangles = new DataView(stl.bytes.buffer, stl.bytes.byteOffset).getUint32(80, true);
    expect(triangles).toBeGreaterThan(100);
    expect(stl.bytes.length).toBe(84 + 50 * triangles);
    expect(await jobs()).toBe(before + 1); // built in the pool (the old code built it on the main thread: 0 jobs)
    const again = await plate(url, { format: 'stl' });
    expect(Buffer.from(again.bytes).equals(Buffer.from(stl.bytes))).toBe(true);
    expect(await jobs()).toBe(before + 1); // the cache: no second job
    const threeMf = await plate(url, { format: '3mf' });
    expect(threeMf.status).toBe(200);
    expect(Buffer.from(threeMf.bytes.subarray(0, 2)).toString('latin1')).toBe('PK');
    expect(await jobs()).toBe(before + 2);
    // Another thickness is another design: another job, another solid (the cache key holds every argument of the design).
    const thick = await plate(url, { format: 'stl', thickness_mm: '17.25' });
    expect(thick.status).toBe(200);
    expect(Buffer.from(thick.bytes).equals(Buffer.from(stl.bytes))).toBe(false);
    expect(await jobs()).toBe(before + 3);
    // JSON and OpenSCAD are text made on the main thread: no job.
    expect((await plate(url, { format: 'scad', thickness_mm: '17.5' })).status).toBe(200);
    expect(await jobs()).toBe(before + 3);
  });

  it('N6: a client cycling thicknesses gets its fair share of the pool, not the main thread: /healthz and another client\'s plate are served meanwhile', { timeout: 240_000 }, async () => {
    const { url } = await start({ poolSize: 1, poolQueue: 8, poolClientJobs: 2 } as Partial<Config>);
    const loop = Array.from({ length: 8 }, (_, i) =>
      fetch(`${url}/api/adapter-plate?${new URLSearchParams({ a: A50, b: A63, format: 'stl', thickness_mm: String(10 + i / 8) })}`, { headers: as('203.0.113.91') }).then((r) => r.status),
    );
    const other = fetch(`${url}/api/adapter-plate?${new URLSearchParams({ a: A50, b: A63, format: '3mf' })}`, { headers: as('203.0.113.92') }).then((r) => r.status);
    const h = await pool(url);
    expect(h.status).toBe('ok');
    const statuses = await Promise.all(loop);
    // Each within the share is built, the rest refused at once with 503 (overloaded, naming the share): never more than 2 at a time.
    for (const s of statuses) expect([200, 503]).toContain(s);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(2);
    const after = (await pool(url)).pool;
    expect(after.rejected_client_share).toBe(statuses.filter((s) => s === 503).length);
    expect(await other).toBe(200);
  });
});
