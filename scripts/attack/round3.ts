/**
 * Attack classes of the third run (issue 39) against the real `serve` binary, each under the
 * /healthz liveness probe of heavy.ts (worst wait must stay under 1 s):
 * - hostile zips: the 99 KB zip of one deflate stream of zeros behind 40 entries, a 105 KB one
 *   behind 400, one stream of zeros declaring 1,000 bytes, 40 separate zero streams, a false
 *   declared size, a bad CRC-32 and a duplicate name, each POSTed 20 times; every one must be
 *   refused (4xx naming the defect or limit) while /healthz keeps answering;
 * - log amplification: 3,000 requests with a 15 KB Origin; the server's log must stay under 64 KB;
 * - replay storm: one session's stream replayed 2,000 times (GET /mcp with Last-Event-ID, each
 *   dropped after its head) on a 30-per-hour window; at most the window's calls are admitted.
 */
import http from 'node:http';
import path from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import { startServe, tempDir, type ServeChild } from './common.js';
import { MAX_HEALTHZ_WAIT_MS, probe, type HeavyCase } from './heavy.js';

interface Local {
  name: string;
  data: Buffer;
  crc: number;
  size: number;
}

const le16 = (n: number) => Buffer.from([n & 0xff, (n >>> 8) & 0xff]);
const le32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};

/** A zip of deflated local records and central entries that may point at any record with any declared values. */
function zip(locals: Local[], centrals: { name: string; local: number; crc?: number; size?: number }[]): Buffer {
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let at = 0;
  for (const l of locals) {
    const name = Buffer.from(l.name);
    const h = Buffer.concat([le32(0x04034b50), le16(20), le16(0), le16(8), le16(0), le16(0), le32(l.crc), le32(l.data.length), le32(l.size), le16(name.length), le16(0), name]);
    offsets.push(at);
    parts.push(h, l.data);
    at += h.length + l.data.length;
  }
  const cd = at;
  for (const c of centrals) {
    const l = locals[c.local]!;
    const name = Buffer.from(c.name);
    const r = Buffer.concat([le32(0x02014b50), le16(20), le16(20), le16(0), le16(8), le16(0), le16(0), le32(c.crc ?? l.crc), le32(l.data.length), le32(c.size ?? l.size), le16(name.length), le16(0), le16(0), le16(0), le16(0), le32(0), le32(offsets[c.local]!), name]);
    parts.push(r);
    at += r.length;
  }
  parts.push(Buffer.concat([le32(0x06054b50), le16(0), le16(0), le16(centrals.length), le16(centrals.length), le32(at - cd), le32(cd), le16(0)]));
  return Buffer.concat(parts);
}

const deflated = (name: string, raw: Buffer): Local => ({ name, data: deflateRawSync(raw, { level: 9 }), crc: crc32(raw) >>> 0, size: raw.length });

function hostileZips(): { name: string; body: Buffer }[] {
  const zeros = Buffer.alloc(100 * 1024 * 1024);
  const stream = deflated('f0.urdf', zeros);
  const robot = Buffer.from('<robot name="r"><link name="base"/></robot>\n');
  const good = deflated('robot.urdf', robot);
  const small = deflated('p.urdf', Buffer.alloc(60 * 1024));
  return [
    { name: 'one zero stream behind 40 entries', body: zip([{ ...stream, size: 1000 }], Array.from({ length: 40 }, (_, i) => ({ name: `f${i}.urdf`, local: 0 }))) },
    { name: 'one zero stream behind 400 entries', body: zip([{ ...stream, size: 1000 }], Array.from({ length: 400 }, (_, i) => ({ name: `f${i}.urdf`, local: 0 }))) },
    { name: 'one zero stream declaring 1,000 bytes', body: zip([{ ...stream, size: 1000 }], [{ name: 'f0.urdf', local: 0 }]) },
    { name: '40 separate zero streams', body: zip(Array.from({ length: 40 }, (_, i) => ({ ...small, name: `p${i}.urdf` })), Array.from({ length: 40 }, (_, i) => ({ name: `p${i}.urdf`, local: i }))) },
    { name: 'false declared size', body: zip([good], [{ name: 'robot.urdf', local: 0, size: 10 }]) },
    { name: 'bad CRC-32', body: zip([good], [{ name: 'robot.urdf', local: 0, crc: (good.crc ^ 1) >>> 0 }]) },
    { name: 'duplicate name', body: zip([good, good], [{ name: 'robot.urdf', local: 0 }, { name: 'robot.urdf', local: 1 }]) },
  ];
}

function request(url: string, opts: { method?: string; headers?: Record<string, string>; body?: Buffer | string; agent?: http.Agent; headOnly?: boolean }): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = http.request({ host: u.hostname, port: u.port, path: u.pathname + u.search, method: opts.method ?? 'GET', headers: opts.headers, agent: opts.agent }, (res) => {
      if (opts.headOnly) {
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: '' });
        res.destroy();
        req.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', (e) => ((e as { code?: string }).code === 'ECONNRESET' && opts.headOnly ? undefined : reject(e)));
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

export async function runRound3(): Promise<HeavyCase[]> {
  const tmp = tempDir('round3');
  const cases: HeavyCase[] = [];
  let srv: ServeChild | null = null;
  const run = async (name: string, work: () => Promise<{ answers: string; ok: boolean; detail: string }>) => {
    const p = probe(srv!.url);
    const t = performance.now();
    let out: { answers: string; ok: boolean; detail: string };
    try {
      out = await work();
    } catch (err) {
      out = { answers: 'error', ok: false, detail: err instanceof Error ? err.message : String(err) };
    }
    const seconds = (performance.now() - t) / 1000;
    const live = await p.stop();
    const liveOk = live.worstMs < MAX_HEALTHZ_WAIT_MS && live.failures === 0 && !srv!.exited();
    cases.push({ name, answers: out.answers, seconds, worstWaitMs: live.worstMs, probes: live.probes, ok: out.ok && liveOk, detail: `${out.detail}${liveOk ? '' : `; liveness: worst wait ${live.worstMs.toFixed(0)} ms, ${live.failures} failed probe(s)`}` });
  };
  try {
    // A 30-per-hour window, as on a public bind.
    srv = await startServe(path.join(tmp.dir, 'round3.db'), ['--rate-limit-free', '30', '--rate-limit-paid', '0', '--pool-size', '2']);
    const url = srv.url;
    for (const z of hostileZips()) {
      await run(`zip: ${z.name} (${(z.body.length / 1024).toFixed(0)} KB) x20`, async () => {
        const tally = new Map<string, number>();
        let accepted = 0;
        for (let i = 0; i < 20; i++) {
          const r = await request(`${url}/api/oss/extract?entry=f0.urdf`, { method: 'POST', headers: { 'content-type': 'application/zip' }, body: z.body });
          let code = '';
          try {
            const j = JSON.parse(r.body) as { code?: string; defect?: string; limit?: string };
            code = `${j.code ?? ''}${j.defect ? `:${j.defect}` : j.limit ? `:${j.limit}` : ''}`;
          } catch {
            /* not JSON */
          }
          const k = `${r.status} ${code}`;
          tally.set(k, (tally.get(k) ?? 0) + 1);
          if (r.status < 400) accepted++;
        }
        return { answers: [...tally].map(([k, n]) => `${n}x ${k}`).join(', '), ok: accepted === 0, detail: accepted === 0 ? 'every upload refused' : `${accepted} accepted` };
      });
    }

    await run('log amplification: 3,000 requests with a 15 KB Origin', async () => {
      const before = srv!.logs.reduce((s, l) => s + l.length + 1, 0);
      const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
      const origin = `http://evil.example/${'x'.repeat(15 * 1024)}`;
      let refused = 0;
      for (let i = 0; i < 3000; i += 100) {
        const rs = await Promise.all(Array.from({ length: 100 }, () => request(`${url}/healthz`, { headers: { origin }, agent })));
        refused += rs.filter((r) => r.status === 403).length;
      }
      agent.destroy();
      await new Promise((r) => setTimeout(r, 200)); // the child's stderr reaches us
      const bytes = srv!.logs.reduce((s, l) => s + l.length + 1, 0) - before;
      const ok = refused === 3000 && bytes < 64 * 1024;
      return { answers: `${refused}x 403`, ok, detail: `${bytes} bytes of log (bound 65,536; 45 MB before the fix)` };
    });

    await run('replay storm: 2,000 GET /mcp with Last-Event-ID on a 30/hour window', async () => {
      const H = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const init = await request(`${url}/mcp`, { method: 'POST', headers: H, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'storm', version: '1' } } }) });
      const sid = String(init.headers['mcp-session-id']);
      const S = { ...H, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' };
      await request(`${url}/mcp`, { method: 'POST', headers: S, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
      const called = await request(`${url}/mcp`, { method: 'POST', headers: S, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_catalogue_stats', arguments: {} } }) });
      const eventId = /^id: (.+)$/m.exec(called.body)?.[1] ?? '1:1';
      const tally = new Map<number, number>();
      for (let i = 0; i < 2000; i += 50) {
        const rs = await Promise.all(
          Array.from({ length: 50 }, () => request(`${url}/mcp`, { headers: { accept: 'text/event-stream', 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18', 'last-event-id': eventId }, headOnly: true })),
        );
        for (const r of rs) tally.set(r.status, (tally.get(r.status) ?? 0) + 1);
      }
      const limited = tally.get(429) ?? 0;
      const admitted = 2000 - limited;
      const ok = admitted <= 30;
      return { answers: [...tally].map(([s, n]) => `${n}x ${s}`).join(', '), ok, detail: `${admitted} replays admitted (window 30 with the call; 11,030 in 20 s before the fix)` };
    });
    return cases;
  } finally {
    await srv?.stop();
    tmp.cleanup();
  }
}
