/**
 * A tools/call answer's message JSON joined from what its text block was built of
 * (src/mcp/prepared-message.ts) is JSON.stringify's, byte for byte, for every kind of answer the
 * tools give; the prepared path is taken for successful tool results and nothing else; and a
 * session transport's SSE writer with it writes the bytes the SDK's own writer writes.
 */
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { WebStandardStreamableHTTPServerTransport, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../src/deps.js';
import { writesPreparedJson } from '../../src/http/mcp-serve.js';
import { isPreparedResult, messageJson } from '../../src/mcp/prepared-message.js';
import { createServer } from '../../src/server.js';
import { outputEscaped, outputEscapedPieces, outputJson, writeAll } from '../../src/wire/prepared.js';
import { realDeps } from '../support/deps.js';

let deps: Deps;
beforeAll(() => {
  deps = realDeps({ answerCacheEntries: 0 });
});
afterAll(() => deps.close());

/** A client on a server with prepared messages, recording every message the server sends. */
async function recordingClient(d: Deps): Promise<{ client: Client; sent: JSONRPCMessage[]; close: () => Promise<void> }> {
  const [a, b] = InMemoryTransport.createLinkedPair();
  const sent: JSONRPCMessage[] = [];
  const send = a.send.bind(a);
  a.send = (m, o) => {
    sent.push(m);
    return send(m, o);
  };
  const handle = serveStdio(({ era }) => createServer(d, { surface: 'mcp-memory', era, preparedMessages: true }), { transport: a });
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(b);
  return {
    client,
    sent,
    close: async () => {
      await client.close();
      await handle.close();
    },
  };
}

const CALLS: [string, Record<string, unknown>][] = [
  ['search_parts', { q: 'servo' }],
  ['search_parts', { q: 'humanoid', limit: 50 }],
  ['search_parts', { q: '雷赛智能' }],
  ['search_parts', { q: 'xyzzyplonk' }],
  ['search_parts', { q: 'motor', where: 'torque_rated>=1 N·m' }],
  ['search_parts', { q: 'actuator', include_quarantine: true, offset: 5, limit: 7 }],
  ['get_part', { id: 'ACT-001' }],
  ['list_parts', { category: 'actuators', limit: 30 }],
  ['get_catalogue_stats', {}],
  ['list_spec_fields', {}],
  ['find_alternatives', { id: 'ACT-001' }],
  ['compare_parts', { ids: ['ACT-016', 'ACT-001'] }],
  ['check_compatibility', { a: 'ACT-001', b: 'ACT-002' }],
  ['extract_robot_parts', { content: '| Item | Qty |\n|---|---|\n| Motor "A" \\ 谐波 | 2 |\n' }],
  ['get_part', { id: 'NOPE-404' }], // an error result: never prepared
  ['search_parts', { q: 'servo', bogus: 1 }], // refused arguments
];

describe('prepared tool messages', () => {
  it('are JSON.stringify of the message, byte for byte, for every kind of answer; only successful tool results take the prepared path', async () => {
    const { client, sent, close } = await recordingClient(deps);
    try {
      let prepared = 0;
      for (const [name, args] of CALLS) {
        const before = sent.length;
        const r = await client.callTool({ name, arguments: args });
        const answers = sent.slice(before).filter((m) => 'result' in m || 'error' in m);
        expect(answers, name).toHaveLength(1);
        const m = answers[0]!;
        expect(messageJson(m), `${name} ${JSON.stringify(args)}`).toBe(JSON.stringify(m));
        const result = (m as { result?: object }).result;
        const isPrepared = result !== undefined && isPreparedResult(result);
        expect(isPrepared, name).toBe(r.isError !== true);
        if (isPrepared) prepared++;
      }
      expect(prepared).toBeGreaterThanOrEqual(12);
      // Messages that are not tool results: JSON.stringify's.
      for (const m of sent) expect(messageJson(m)).toBe(JSON.stringify(m));
    } finally {
      await close();
    }
  });

  it('a result whose members differ from what the handler noted is serialised whole', async () => {
    const { client, sent, close } = await recordingClient(deps);
    try {
      await client.callTool({ name: 'search_parts', arguments: { q: 'servo' } });
      const m = sent.find((x) => 'result' in x && (x.result as { structuredContent?: unknown }).structuredContent !== undefined) as { result: Record<string, unknown> } & JSONRPCMessage;
      expect(isPreparedResult(m.result)).toBe(true);
      // A copy of the message with a changed text: the prepared parts would no longer be its JSON.
      const text = (m.result.content as { text: string }[])[0]!.text;
      const changed = { ...m, result: { ...m.result, content: [{ type: 'text', text: `${text} ` }] } };
      expect(messageJson(changed)).toBe(JSON.stringify(changed));
      // The same result object with members added after it was adopted: still exact.
      const extra = { ...m, extra: { a: [1, 'x"y'] }, skipped: undefined };
      expect(messageJson(extra)).toBe(JSON.stringify(extra));
    } finally {
      await close();
    }
  });

  it('escaped text equals what JSON.stringify writes, for outputs with quotes, backslashes, control characters, CJK and lone surrogates', () => {
    const outputs: Record<string, unknown>[] = [
      { a: 'plain' },
      { q: 'say "hi" \\ there\n\t\u0001', list: ['谐波减速器', '\ud83e\udd16 robot', 'lone \ud800 x', 'end \udfff'] },
      { nested: { deep: [{ x: '\u2028\u2029' }] }, n: -0, big: 1e21, nothing: null, gone: undefined },
    ];
    for (const o of outputs) {
      for (const prefix of ['', 'summary "quoted"\n', 'lone \ud83e…\n']) {
        const text = outputJson(o, prefix);
        expect(text).toBe(prefix + JSON.stringify(o));
        const escaped = outputEscaped(o, prefix);
        expect(`"${escaped}"`).toBe(JSON.stringify(text));
        // The same escaped text as the bytes the SSE writer copies.
        expect(writeAll(outputEscapedPieces(o, prefix)).toString('utf8')).toBe(escaped);
      }
    }
  });
});

describe("a session transport's SSE writer", () => {
  it("writes what the SDK's own writer writes, for tool results and other messages", async () => {
    const { client, sent, close } = await recordingClient(deps);
    try {
      await client.callTool({ name: 'search_parts', arguments: { q: 'servo' } });
      await client.callTool({ name: 'get_part', arguments: { id: 'ACT-001' } });
      await client.callTool({ name: 'get_part', arguments: { id: 'NOPE-404' } });
    } finally {
      await close();
    }
    const original = (WebStandardStreamableHTTPServerTransport.prototype as unknown as { writeSSEEvent: (...a: unknown[]) => boolean }).writeSSEEvent;
    expect(typeof original).toBe('function');
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => 'x' });
    expect(writesPreparedJson(transport)).toBe(true);
    const ours = (transport as unknown as { writeSSEEvent: (...a: unknown[]) => boolean }).writeSSEEvent;
    const written = (write: (...a: unknown[]) => boolean, self: unknown, message: unknown, eventId?: string) => {
      const chunks: Uint8Array[] = [];
      const controller = { enqueue: (c: Uint8Array) => chunks.push(c) };
      expect(write.call(self, controller, new TextEncoder(), message, eventId)).toBe(true);
      return Buffer.concat(chunks).toString('hex');
    };
    expect(sent.some((m) => 'result' in m && isPreparedResult(m.result as object))).toBe(true);
    for (const m of sent) {
      for (const id of [undefined, 'stream-1:7']) expect(written(ours, transport, m, id)).toBe(written(original, transport, m, id));
    }
  });
});
