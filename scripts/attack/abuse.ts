/**
 * HTTP abuse cases against the real `serve` binary on loopback: one row per case of the
 * attack run's findings, each pass or fail with what was seen.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { BIN, startServe, tempDir, type ServeChild } from './common.js';

export interface AbuseCase {
  finding: string;
  name: string;
  ok: boolean;
  detail: string;
}

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'abuse', version: '1' } } };

function rawExchange(port: number, chunks: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const got: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(`(still open after 30 s) ${Buffer.concat(got).toString('latin1')}`);
    }, 30_000);
    socket.on('data', (d) => got.push(d));
    socket.on('error', (e) => ((e as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(e)));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(got).toString('latin1'));
    });
    socket.on('connect', () => chunks.forEach((c) => socket.write(c)));
  });
}

function nodeRequest(url: string, opts: http.RequestOptions, body?: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, opts, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    /* not JSON */
  }
  return { status: res.status, json, headers: res.headers };
}

export async function runAbuse(): Promise<AbuseCase[]> {
  const out: AbuseCase[] = [];
  const add = (finding: string, name: string, ok: boolean, detail: string) => out.push({ finding, name, ok, detail });
  const tmp = tempDir('abuse');
  const dbA = path.join(tmp.dir, 'limited.db');
  const dbB = path.join(tmp.dir, 'open.db');
  let a: ServeChild | null = null;
  let b: ServeChild | null = null;
  try {
    a = await startServe(dbA, ['--rate-limit-free', '3'], { ROBOT_PARTS_MAX_SESSIONS_PER_CLIENT: '5' });
    b = await startServe(dbB, ['--rate-limit-free', '0', '--rate-limit-paid', '0'], {
      ROBOT_PARTS_MAX_SESSIONS_PER_CLIENT: '5',
      ROBOT_PARTS_REQUEST_TIMEOUT_SECONDS: '2',
    });

    // 6: resources/read and completion/complete are rate limited (free limit 3).
    {
      const init = await fetch(`${a.url}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: JSON.stringify(INIT) });
      const sid = init.headers.get('mcp-session-id')!;
      await init.body?.cancel();
      const h = { ...MCP_HEADERS, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' };
      await fetch(`${a.url}/mcp`, { method: 'POST', headers: h, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
      let refused = 0;
      for (let i = 0; i < 10; i++) {
        const method = i % 2 ? 'completion/complete' : 'resources/read';
        const params = i % 2 ? { ref: { type: 'ref/resource', uri: 'robotparts://parts/{id}' }, argument: { name: 'id', value: 'A' } } : { uri: 'robotparts://parts/ACT-001' };
        const res = await fetch(`${a.url}/mcp`, { method: 'POST', headers: h, body: JSON.stringify({ jsonrpc: '2.0', id: 10 + i, method, params }) });
        const text = await res.text();
        if (text.includes('rate_limited')) refused++;
      }
      add('6', 'resources/read + completion/complete, free limit 3', refused === 7, `${10 - refused} of 10 answered, ${refused} rate_limited`);
    }
    // 14: X-Forwarded-For from an untrusted peer does not open a new window.
    {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await fetch(`${a.url}/api/search?q=servo`, { headers: { 'x-forwarded-for': `198.51.100.${i}` } })).status);
      add('14', 'spoofed X-Forwarded-For (no trusted proxy configured)', statuses.every((s) => s === 429), `statuses ${statuses.join(',')}`);
    }
    // 8: a 100k-term query (as many as fit the 1 MiB body limit) over MCP, 18 terms over REST.
    {
      const q = Array.from({ length: 100_000 }, (_, i) => `t${i.toString(36)}`).join(' ');
      const init = await fetch(`${b.url}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: JSON.stringify(INIT) });
      const sid = init.headers.get('mcp-session-id') ?? '';
      await init.body?.cancel();
      const t0 = Date.now();
      const res = await fetch(`${b.url}/mcp`, {
        method: 'POST',
        headers: { ...MCP_HEADERS, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_parts', arguments: { q } } }),
      });
      const text = await res.text();
      const ms = Date.now() - t0;
      await fetch(`${b.url}/mcp`, { method: 'DELETE', headers: { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' } });
      const rest = await fetch(`${b.url}/api/search?q=${encodeURIComponent('a b c d e f g h i j k l m n o p q r')}`);
      const refused = text.includes('invalid_input');
      add('8', 'search_parts with 100k terms (MCP) / 18 terms (REST)', rest.status === 400 && refused, `REST 18 terms: ${rest.status}; MCP 100k terms: ${refused ? 'invalid_input' : `${res.status} ${text.slice(0, 80)}`} in ${ms} ms`);
    }
    // 2: one address opening sessions gets its share, then 429.
    {
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) {
        const r = await fetch(`${b.url}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: JSON.stringify(INIT) });
        statuses.push(r.status);
        await r.body?.cancel();
      }
      const opened = statuses.filter((s) => s === 200).length;
      const health = (await fetch(`${b.url}/healthz`)).status;
      add('2', '40 initialize from one address (share 5): each new one closes the least recently used idle session (issue 40)', statuses.every((s) => s === 200) && health === 200, `${opened} opened, ${statuses.filter((s) => s === 429).length} x 429, /healthz ${health}`);
    }
    // 9: a body that goes quiet is cut.
    {
      const t0 = Date.now();
      const answer = await rawExchange(b.port, ['POST /api/bom/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n', '{"items":']);
      add('9', 'body silent after the first chunk (timeout 2 s)', /^HTTP\/1\.1 408/.test(answer), `${answer.split('\r\n')[0] || '(no answer)'} after ${Date.now() - t0} ms`);
    }
    // 10: after an early 413 the connection closes and the next request works.
    {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      let good = 0;
      let closeHeader = 0;
      let answered = 0;
      let uploadResets = 0;
      const big = JSON.stringify({ items: [{ id: 'x'.repeat(2_000_000), quantity: 1 }] }); // over the 1 MiB default limit
      for (let i = 0; i < 10; i++) {
        // The oversize upload itself may be cut while the client is still writing (the server has
        // answered 413 and closes): that is the intended close, counted apart. The finding is
        // about the NEXT request on the agent, which must always be answered.
        try {
          const first = await nodeRequest(`${b.url}/api/bom/check`, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(big) } }, big);
          answered++;
          if (first.status === 413 && first.headers.connection === 'close') closeHeader++;
        } catch {
          uploadResets++;
        }
        try {
          const next = await nodeRequest(`${b.url}/api/stats`, { agent });
          if (next.status === 200) good++;
        } catch {
          /* reset: counted as a failure */
        }
      }
      agent.destroy();
      add('10', '413 then the next request on the agent, x10', good === 10 && answered > 0 && closeHeader === answered, `${closeHeader}/${answered} answered uploads said Connection: close (${uploadResets} cut while uploading), ${good}/10 next requests answered`);
    }
    // 11: aborted uploads are not server errors.
    {
      const before = b.logs.filter((l) => l.includes('"level":"error"')).length;
      for (let i = 0; i < 50; i++) {
        await new Promise<void>((resolve) => {
          const socket = net.connect(b!.port, '127.0.0.1', () => {
            socket.write('POST /api/bom/export HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"items":[');
            setTimeout(() => socket.destroy(), 10);
          });
          socket.on('close', () => resolve());
          socket.on('error', () => {});
        });
      }
      await new Promise((r) => setTimeout(r, 300));
      const after = b.logs.filter((l) => l.includes('"level":"error"')).length;
      add('11', '50 aborted uploads', after === before, `${after - before} error-level log lines`);
    }
    // 12: two keys in one request.
    {
      const k1 = (await postJson(`${b.url}/api/register`, { email: 'abuse-1@example.com' })).json.api_key as string;
      const k2 = (await postJson(`${b.url}/api/register`, { email: 'abuse-2@example.com' })).json.api_key as string;
      const q = await fetch(`${b.url}/api/entities.json?key=${k1}&key=${k2}`);
      const qBody = (await q.json()) as { code?: string };
      const two = await nodeRequest(`${b.url}/api/entities.json`, { headers: { authorization: [`Bearer ${k1}`, `Bearer ${k2}`] as unknown as string } });
      const twoCode = (JSON.parse(two.body) as { code?: string }).code;
      add('12', '?key=A&key=B and two Authorization headers', q.status === 400 && qBody.code === 'conflicting_credentials' && two.status === 400 && twoCode === 'conflicting_credentials', `query: ${q.status} ${qBody.code}; headers: ${two.status} ${twoCode}`);

      // 3: pay page needs the order's token.
      const order = (await postJson(`${b.url}/api/payment/create`, { plan: 'lifetime' }, { authorization: `Bearer ${k1}` })).json as { order_id: string; pay_url: string };
      const bare = (await fetch(`${b.url}/pay/${order.order_id}`)).status;
      const bareSim = (await fetch(`${b.url}/pay/${order.order_id}/simulate`, { method: 'POST', redirect: 'manual' })).status;
      const withToken = (await fetch(order.pay_url)).status;
      const bal = (await postJson(`${b.url}/api/credits/balance`, {}, { authorization: `Bearer ${k1}` })).json;
      add('3', 'pay page / simulate with the order id only', bare === 404 && bareSim === 404 && withToken === 200 && bal.credits === 100, `page ${bare}, simulate ${bareSim}, with token ${withToken}; credits ${bal.credits}`);

      // 5: e-mail oracle and mailbox aliases.
      const known = await postJson(`${b.url}/api/payment/create`, { plan: 'starter', email: 'abuse-1@example.com' });
      const unknown = await postJson(`${b.url}/api/payment/create`, { plan: 'starter', email: 'nobody-here@example.com' });
      add('5', 'create_payment e-mail oracle', known.status === unknown.status && JSON.stringify(known.json) === JSON.stringify(unknown.json), `registered ${known.status}, unregistered ${unknown.status}`);
      let aliases = 0;
      await postJson(`${b.url}/api/register`, { email: 'mail.box@gmail.com' });
      for (const e of ['mailbox@gmail.com', 'mail.box+1@gmail.com', 'm.a.i.l.b.o.x@googlemail.com', 'MAILBOX+x@GMAIL.com']) {
        if ((await postJson(`${b.url}/api/register`, { email: e })).status === 200) aliases++;
      }
      add('5', 'free keys from one gmail mailbox (4 aliases)', aliases === 0, `${aliases} extra keys`);

      // 7: price 1e308.
      const inf = await postJson(`${b.url}/api/bom/export`, { format: 'json', items: [{ id: 'ACT-001', price: 1e308, quantity: 2 }, { id: 'ACT-001', price: 1e308, quantity: 2 }] }, { authorization: `Bearer ${k2}` });
      const bal2 = (await postJson(`${b.url}/api/credits/balance`, {}, { authorization: `Bearer ${k2}` })).json;
      add('7', 'price 1e308 x 2', inf.status === 400 && inf.json.field === 'items.0.price' && bal2.credits === 100, `${inf.status} ${inf.json.code} ${inf.json.field}; credits ${bal2.credits}`);
    }
    // 13: file modes.
    {
      const modes = [dbB, `${dbB}-wal`, `${dbB}-shm`, `${dbB}.secret`].filter((f) => fs.existsSync(f)).map((f) => `${path.basename(f)} ${(fs.statSync(f).mode & 0o777).toString(8)}`);
      add('13', 'database, WAL, SHM and secret file modes', modes.length === 4 && modes.every((m) => m.endsWith(' 600')), modes.join(', '));
    }
    // 4: replay records are bounded (cap 100 per account by default; expiry is covered by the test suite).
    {
      const k = (await postJson(`${b.url}/api/register`, { email: 'replays@example.com' })).json.api_key as string;
      for (let i = 0; i < 3; i++) await postJson(`${b.url}/api/bom/export`, { format: 'json', items: [{ id: 'ACT-001', price: 1, quantity: 1 }] }, { authorization: `Bearer ${k}`, 'idempotency-key': `r${i}` });
      const replay = await postJson(`${b.url}/api/bom/export`, { format: 'json', items: [{ id: 'ACT-001', price: 1, quantity: 1 }] }, { authorization: `Bearer ${k}`, 'idempotency-key': 'r0' });
      add('4', 'Idempotency-Key replays (TTL 24 h, cap 100 per account)', replay.headers.get('idempotent-replayed') === 'true', `replay answered ${replay.status}, replayed=${replay.headers.get('idempotent-replayed')}`);
    }
  } finally {
    await a?.stop();
    await b?.stop();
  }
  // 3: the sandbox refuses a non-loopback address (it never listens).
  {
    const run = promisify(execFile);
    const res = await run(process.execPath, [BIN, 'serve', '--host', '0.0.0.0', '--port', '0', '--db', path.join(tmp.dir, 'public.db')], {
      env: { ...process.env, ROBOT_PARTS_ALLOW_SANDBOX_PAYMENTS: '', ROBOT_PARTS_PAYMENT_GATEWAY: 'sandbox' },
      timeout: 20_000,
    }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code?: number; stderr?: string }) => ({ code: e.code ?? -1, stderr: e.stderr ?? '' }),
    );
    add('3', 'serve --host 0.0.0.0 with the sandbox gateway', res.code === 2 && /refusing to serve the sandbox/.test(res.stderr), `exit ${res.code}`);
  }
  tmp.cleanup();
  return out;
}
