/**
 * Protocol consistency of the legacy (2025-era) HTTP wire, over a real loopback server:
 * - a JSON-RPC batch is refused with -32600 on a 2025-11-25 session, as a first message, and in
 *   stateless mode (batching was removed in 2025-06-18), and answered on a 2025-03-26 session;
 * - initialize negotiates the revisions the README lists, no 2024 ones;
 * - on a stateful 2025-11-25 session every SSE event carries an id (and the stream a retry hint),
 *   and a client that lost a stream gets its missed messages again with Last-Event-ID;
 * - the per-session event store is bounded and never replays another stream's events.
 */
import diagnostics_channel from 'node:diagnostics_channel';
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { EVENT_STORE_MAX_BYTES, LONG_STRING, messageBytes, SessionEventStore } from '../../src/http/event-store.js';
import { SSE_RETRY_MS } from '../../src/http/mcp-common.js';
import { startTestServer } from '../support/http.js';

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const V = '2025-11-25';
const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: V, capabilities: {}, clientInfo: { name: 't', version: '1' } } };

interface SseEvent {
  id?: string;
  retry?: string;
  data: string;
}
function events(text: string): SseEvent[] {
  return text
    .split(/\r?\n\r?\n/)
    .filter((b) => b.trim() !== '')
    .map((block) => {
      const e: SseEvent = { data: '' };
      for (const line of block.split(/\r?\n/)) {
        const i = line.indexOf(':');
        const [k, v] = [line.slice(0, i), line.slice(i + 1).replace(/^ /, '')];
        if (k === 'id') e.id = v;
        else if (k === 'retry') e.retry = v;
        else if (k === 'data') e.data += v;
      }
      return e;
    });
}

describe('legacy HTTP wire', () => {
  let srv: Awaited<ReturnType<typeof startTestServer>>;
  let stateless: Awaited<ReturnType<typeof startTestServer>>;
  let sid: string;
  const post = (url: string, body: unknown, extra: Record<string, string> = {}) => fetch(`${url}/mcp`, { method: 'POST', headers: { ...HEADERS, ...extra }, body: JSON.stringify(body) });
  const onSession = () => ({ 'mcp-session-id': sid, 'mcp-protocol-version': V });

  beforeAll(async () => {
    srv = await startTestServer();
    stateless = await startTestServer(undefined, { stateless: true });
    const r = await post(srv.url, INIT);
    expect(r.status).toBe(200);
    sid = r.headers.get('mcp-session-id')!;
    await r.text();
    expect((await post(srv.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, onSession())).status).toBe(202);
  });
  afterAll(async () => {
    await srv?.stop();
    await stateless?.stop();
  });

  it('a batch on an open 2025-11-25 session is refused with -32600 and serves none of its messages', async () => {
    const r = await post(srv.url, [{ jsonrpc: '2.0', id: 2, method: 'tools/list' }, { jsonrpc: '2.0', id: 3, method: 'ping' }], onSession());
    expect(r.status).toBe(400);
    expect(await r.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('batches are served only on sessions of protocol revision 2025-03-26') } });
    // the session still serves single messages
    const ok = await post(srv.url, { jsonrpc: '2.0', id: 4, method: 'ping' }, onSession());
    expect(ok.status).toBe(200);
    expect(events(await ok.text()).some((e) => e.data.includes('"id":4'))).toBe(true);
  });

  it('a batch holding initialize opens no session; stateless mode refuses batches too', async () => {
    const r = await post(srv.url, [INIT]);
    expect(r.status).toBe(400);
    expect(r.headers.get('mcp-session-id')).toBeNull();
    expect(((await r.json()) as { error: { code: number } }).error.code).toBe(-32600);
    const s = await post(stateless.url, [{ jsonrpc: '2.0', id: 5, method: 'tools/list' }], { 'mcp-protocol-version': V });
    expect(s.status).toBe(400);
    expect(((await s.json()) as { error: { code: number } }).error.code).toBe(-32600);
  });

  it('SSE events carry ids and a retry hint; Last-Event-ID replays the missed answer', async () => {
    const r = await post(srv.url, { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'search_parts', arguments: { q: 'servo' } } }, onSession());
    expect(r.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const evs = events(await r.text());
    expect(evs.length).toBeGreaterThanOrEqual(2);
    for (const e of evs) expect(e.id, JSON.stringify(e)).toMatch(/\S/);
    expect(evs[0]!.data).toBe(''); // the priming event
    expect(evs[0]!.retry).toBe(String(SSE_RETRY_MS));
    const answer = evs.find((e) => e.data.includes('"id":6'))!;
    expect(JSON.parse(answer.data).result.structuredContent).toBeDefined();

    // The client "lost" the stream after the priming event: it resumes from there.
    const ac = new AbortController();
    const g = await fetch(`${srv.url}/mcp`, { headers: { accept: 'text/event-stream', ...onSession(), 'last-event-id': evs[0]!.id! }, signal: ac.signal });
    expect(g.status).toBe(200);
    const reader = g.body!.getReader();
    let text = '';
    while (!text.includes('"id":6')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    ac.abort();
    const replayed = events(text).find((e) => e.data.includes('"id":6'))!;
    expect(replayed.id).toBe(answer.id);
    // The same bytes, not only the same JSON value.
    expect(replayed.data).toBe(answer.data);
  });

  it("an SSE answer leaves the server in one write to the socket (headers, events and the stream's end), one over 16 kB too", async () => {
    // The server's side of each connection, seen through Node's own channel: its writes counted
    // (Writable's _write and _writev, the calls that reach the socket), the bytes still written.
    const writes = new Map<net.Socket, number>();
    const spy = (m: unknown) => {
      const socket = (m as { socket: net.Socket }).socket;
      if (writes.has(socket)) return;
      writes.set(socket, 0);
      for (const name of ['_write', '_writev'] as const) {
        const own = socket[name] as (...a: unknown[]) => void;
        socket[name] = function (this: net.Socket, ...a: unknown[]) {
          writes.set(socket, writes.get(socket)! + 1);
          return own.apply(this, a);
        } as never;
      }
    };
    const channel = diagnostics_channel.channel('http.server.request.start');
    channel.subscribe(spy);
    try {
      const counts: number[] = [];
      const sizes: number[] = [];
      // The last answer (tools/list) is larger than a socket's default buffer mark (16 kB):
      // written while the socket is corked, it must not make the stream's end wait for a drain.
      const search = (q: string) => ({ method: 'tools/call', params: { name: 'search_parts', arguments: { q } } });
      const messages = [search('servo'), search('harmonic drive'), search('zzzz-no-match'), { method: 'tools/list' }];
      for (const [i, m] of messages.entries()) {
        for (const k of writes.keys()) writes.set(k, 0);
        const r = await post(srv.url, { jsonrpc: '2.0', id: 40 + i, ...m }, onSession());
        expect(r.headers.get('content-type')).toMatch(/^text\/event-stream/);
        const body = await r.text();
        expect(events(body).some((e) => e.data.includes(`"id":${40 + i}`))).toBe(true);
        sizes.push(Buffer.byteLength(body));
        counts.push([...writes.values()].reduce((a, b) => a + b, 0));
      }
      expect(sizes[3]).toBeGreaterThan(16 * 1024);
      expect(counts).toEqual([1, 1, 1, 1]);
    } finally {
      channel.unsubscribe(spy);
    }
  });

  it('an unknown Last-Event-ID is refused, not answered with a partial replay', async () => {
    const g = await fetch(`${srv.url}/mcp`, { headers: { accept: 'text/event-stream', ...onSession(), 'last-event-id': 'nope:99999999' } });
    expect(g.status).toBe(400);
    expect(((await g.json()) as { error: { message: string } }).error.message).toMatch(/^Unknown event nope:99999999: this session never sent it/);
  });

  it('a Last-Event-ID the session dropped is refused as expired, not as an invalid format', async () => {
    const first = await post(srv.url, { jsonrpc: '2.0', id: 70, method: 'ping' }, onSession());
    const held = events(await first.text())[0]!.id!;
    // More answers than the store keeps (64 events) on later streams.
    for (let i = 0; i < 40; i++) await (await post(srv.url, { jsonrpc: '2.0', id: 71 + i, method: 'ping' }, onSession())).text();
    const g = await fetch(`${srv.url}/mcp`, { headers: { accept: 'text/event-stream', ...onSession(), 'last-event-id': held } });
    expect(g.status).toBe(400);
    const message = ((await g.json()) as { error: { message: string } }).error.message;
    expect(message).toMatch(new RegExp(`^Event ${held} expired`));
    expect(message).not.toMatch(/format/);
  });
});

describe('2025-03-26 sessions and the negotiable revisions', () => {
  let srv: Awaited<ReturnType<typeof startTestServer>>;
  const post = (body: unknown, extra: Record<string, string> = {}) => fetch(`${srv.url}/mcp`, { method: 'POST', headers: { ...HEADERS, ...extra }, body: JSON.stringify(body) });
  const init = (v: string) => ({ ...INIT, params: { ...INIT.params, protocolVersion: v } });
  beforeAll(async () => {
    srv = await startTestServer();
  });
  afterAll(async () => {
    await srv?.stop();
  });

  it('a JSON-RPC batch on a 2025-03-26 session is answered, one response per request', async () => {
    const r = await post(init('2025-03-26'));
    const sid = r.headers.get('mcp-session-id')!;
    const opened = events(await r.text()).find((e) => e.data.includes('"result"'))!;
    expect(JSON.parse(opened.data).result.protocolVersion).toBe('2025-03-26');
    const on = { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-03-26' };
    expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, on)).status).toBe(202);
    const batch = await post(
      [
        { jsonrpc: '2.0', id: 'a', method: 'ping' },
        { jsonrpc: '2.0', id: 'b', method: 'tools/call', params: { name: 'search_parts', arguments: { q: 'servo' } } },
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'zz' } },
      ],
      on,
    );
    expect(batch.status).toBe(200);
    const text = await batch.text();
    const answers = (batch.headers.get('content-type')!.startsWith('text/event-stream') ? events(text).filter((e) => e.data !== '').flatMap((e) => [JSON.parse(e.data)].flat()) : [JSON.parse(text)].flat()) as { id: string; result?: { structuredContent?: unknown } }[];
    expect(answers.map((a) => a.id).sort()).toEqual(['a', 'b']);
    expect(answers.find((a) => a.id === 'b')!.result!.structuredContent).toBeDefined();
    // initialize is never part of a batch, even on a 2025-03-26 session
    const withInit = await post([init('2025-03-26')], on);
    expect(withInit.status).toBe(400);
    await withInit.text();
  });

  it('initialize negotiates exactly the revisions the README lists; 2024 ones get the latest', async () => {
    const readme = fs.readFileSync(path.resolve(import.meta.dirname, '../../README.md'), 'utf8');
    const row = readme.split('\n').find((l) => /^\| `2025-.*\| legacy \|/.test(l))!;
    const listed = [...row.split('|')[1]!.matchAll(/`([\d-]+)`/g)].map((m) => m[1]!);
    expect(listed).toEqual(['2025-11-25', '2025-06-18', '2025-03-26']);
    const negotiated = async (v: string) => {
      const r = await post(init(v));
      const sid = r.headers.get('mcp-session-id');
      const got = JSON.parse(events(await r.text()).find((e) => e.data.includes('"result"'))!.data).result.protocolVersion as string;
      if (sid) await fetch(`${srv.url}/mcp`, { method: 'DELETE', headers: { 'mcp-session-id': sid, 'mcp-protocol-version': got } });
      return got;
    };
    for (const v of listed) expect(await negotiated(v)).toBe(v);
    for (const v of ['2024-11-05', '2024-10-07']) expect(await negotiated(v)).toBe(listed[0]);
  });
});

const msgOf = (n: number) => ({ jsonrpc: '2.0' as const, method: 'notifications/message', params: { n } });

describe('SessionEventStore', () => {
  it('keeps the largest answer and the event before it, so a stream dropped before the answer resumes; dropped ones are expired', async () => {
    const s = new SessionEventStore();
    const answerOf = (n: number) => ({ jsonrpc: '2.0' as const, id: n, result: { content: [{ type: 'text' as const, text: 'x'.repeat(200_000) }], structuredContent: { pad: 'x'.repeat(199_980) } } });
    const prime = await s.storeEvent('a', {} as never);
    const big = await s.storeEvent('a', answerOf(1));
    expect(messageBytes(answerOf(1))).toBeGreaterThan(EVENT_STORE_MAX_BYTES);
    expect(s.stateOf(prime)).toBe('kept');
    const sent: string[] = [];
    await s.replayEventsAfter(prime, { send: async (id) => void sent.push(id) });
    expect(sent).toEqual([big]);
    // Four later streams write: stream a is no longer among the protected, and its events go.
    for (const st of ['b', 'c', 'd', 'e']) {
      await s.storeEvent(st, {} as never);
      await s.storeEvent(st, answerOf(2));
    }
    expect(s.stateOf(prime)).toBe('expired');
    expect(s.stateOf('a:999999')).toBe('unknown');
    expect(s.stateOf('garbage')).toBe('unknown');
    // A long stream loses its oldest events first: resuming from a kept one replays every later one.
    const t = new SessionEventStore(3, 1_000_000, 1);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await t.storeEvent('x', msgOf(i)));
    expect(ids.map((id) => t.stateOf(id))).toEqual(['expired', 'expired', 'expired', 'kept', 'kept', 'kept']);
    const replayed: string[] = [];
    await t.replayEventsAfter(ids[3]!, { send: async (id) => void replayed.push(id) });
    expect(replayed).toEqual(ids.slice(4));
  });

  const msg = (n: number, pad = 0) => ({ jsonrpc: '2.0' as const, method: 'notifications/message', params: { n, pad: 'x'.repeat(pad) } });

  it('keeps at most maxEvents and maxBytes, dropping the oldest', async () => {
    const s = new SessionEventStore(10, 1_000_000);
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) ids.push(await s.storeEvent('a', msg(i)));
    expect(s.size.events).toBe(10);
    expect(await s.getStreamIdForEventId(ids[0]!)).toBeUndefined();
    expect(await s.getStreamIdForEventId(ids[24]!)).toBe('a');

    const b = new SessionEventStore(1000, 5_000);
    for (let i = 0; i < 50; i++) await b.storeEvent('a', msg(i, 400));
    expect(b.size.bytes).toBeLessThanOrEqual(5_000);
    // Only the oldest that had to go went: one more event of the same size would not fit.
    expect(b.size.events).toBeGreaterThan(3);
    expect(b.size.bytes + b.size.bytes / b.size.events).toBeGreaterThan(5_000);
  });

  it('counts a message at the UTF-8 length of its JSON, long strings at two bytes per UTF-16 unit (unescaped), structuredContent as its text block', () => {
    const utf8 = (x: string) => new TextEncoder().encode(x).length;
    /** The expectation, from the JSON text itself: every long string's JSON replaced by its quotes and two bytes per UTF-16 unit. */
    const expected = (message: unknown): number => {
      // What JSON.stringify writes (toJSON applied, members it leaves out gone), read back as data.
      const m: unknown = JSON.parse(JSON.stringify(message));
      let n = utf8(JSON.stringify(m));
      const walk = (v: unknown): void => {
        if (typeof v === 'string') {
          if (v.length > LONG_STRING) n -= utf8(JSON.stringify(v)) - 2 * v.length - 2;
        } else if (v !== null && typeof v === 'object') for (const x of Object.values(v)) walk(x);
      };
      const r = (m as { result?: { structuredContent?: unknown; content?: { type: string; text?: string }[] } }).result;
      if (r && r.structuredContent !== null && typeof r.structuredContent === 'object') {
        // structuredContent counts as the longest text block (which carries its JSON) or, without
        // one, exactly (its strings are part of its JSON); the rest by the rule.
        const texts = (r.content ?? []).filter((b) => b.type === 'text').map((b) => b.text!);
        const longest = texts.sort((a, b) => b.length - a.length)[0];
        n += (longest === undefined ? utf8(JSON.stringify(r.structuredContent)) : 2 * longest.length) - utf8(JSON.stringify(r.structuredContent));
      }
      walk(r ? { ...m as object, result: { ...r, structuredContent: null } } : m);
      return n;
    };
    const structured = { data: [{ id: 'ACT-1', name: '谐波 "drive"', n: 1.5 }, { id: 'b', nested: { x: [1, null, true] }, long: 'q"'.repeat(300) }], meta: { q: 'x', total: 2 } };
    const long = `${'谐波 "q" \\ é 😀 \t\n\u0001 '.repeat(40)}\ud800 tail \udc00`;
    const messages = [
      msg(7, 30),
      msg(8, 400),
      { jsonrpc: '2.0' as const, id: 3, result: { content: [{ type: 'text' as const, text: `2 match(es)\n${JSON.stringify(structured)}` }], structuredContent: structured } },
      { jsonrpc: '2.0' as const, id: 4, result: { content: [], structuredContent: { a: 'é', b: [] }, isError: false } },
      { jsonrpc: '2.0' as const, id: 5, result: { structuredContent: null } },
      { jsonrpc: '2.0' as const, id: 6, result: { content: [{ type: 'text' as const, text: long }], structuredContent: { s: long } } },
      // Members JSON.stringify leaves out or writes as null, numbers of every form, nesting, a long string deep down.
      { jsonrpc: '2.0' as const, id: 'x"1', result: { a: undefined, f: () => 1, list: [undefined, () => 1, Symbol('s'), NaN, -0, 1e21, 2.5e-7, -3, true, false, null, [[long]]], deep: { é: { '"k"': 'v\u0000' } } } },
      // Not plain data: toJSON, another prototype (measured through JSON.stringify itself).
      { jsonrpc: '2.0' as const, id: 9, result: { when: new Date(0), map: new Map([['a', 1]]), set: new Set([1]), nested: [{ toJSON: () => long }] } },
      { jsonrpc: '2.0' as const, id: 10, result: { content: [{ type: 'text' as const, text: 'short' }], structuredContent: { at: new Date(0) }, list: Object.assign(Object.create(null) as object, { k: long }) } },
    ];
    for (const m of messages) expect(messageBytes(m as never)).toBe(expected(m));
  });

  it('replays only later events of the same stream, in order, and skips priming events', async () => {
    const s = new SessionEventStore();
    const prime = await s.storeEvent('a', {} as never);
    await s.storeEvent('b', msg(100));
    const a1 = await s.storeEvent('a', msg(1));
    await s.storeEvent('a', {} as never);
    const a2 = await s.storeEvent('a', msg(2));
    const sent: [string, unknown][] = [];
    const stream = await s.replayEventsAfter(prime, { send: async (id, m) => void sent.push([id, m]) });
    expect(stream).toBe('a');
    expect(sent).toEqual([
      [a1, msg(1)],
      [a2, msg(2)],
    ]);
    await expect(s.replayEventsAfter('a:999', { send: async () => {} })).rejects.toThrow(/not \(or no longer\) kept/);
  });
});
