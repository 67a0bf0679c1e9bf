/**
 * The answer cache (src/store/answer-cache.ts, used by runTool): the same arguments to a
 * cacheable tool get the same answer as a server without the cache, while validation, the rate
 * limit and the store's health are still checked on every call.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { Deps } from '../../src/deps.js';
import { ANSWER_KEY_MAX_CHARS, AnswerCache } from '../../src/store/answer-cache.js';
import { TOOLS } from '../../src/tools/index.js';
import { runTool } from '../../src/tools/run.js';
import type { ToolContext } from '../../src/tools/define.js';
import { startTestServer } from '../support/http.js';
import { testDeps, toolContext } from '../support/deps.js';
import { call, errorBody, memoryClient } from '../support/mcp.js';

const answer = (n: number) => Object.freeze({ n });

describe('AnswerCache', () => {
  it('keeps at most maxEntries answers; 0 keeps none', () => {
    const off = new AnswerCache(0);
    off.set('a', answer(1));
    expect(off.enabled).toBe(false);
    expect(off.get('a')).toBeUndefined();
    const c = new AnswerCache(3);
    for (let i = 0; i < 10; i++) c.set(`k${i}`, answer(i));
    expect(c.size).toBe(3);
    expect(['k7', 'k8', 'k9'].map((k) => c.get(k))).toEqual([answer(7), answer(8), answer(9)]);
    expect(c.get('k0')).toBeUndefined();
  });

  it('evicts the oldest answer not used since the hand last passed it (CLOCK)', () => {
    const c = new AnswerCache(3);
    c.set('a', answer(1));
    c.set('b', answer(2));
    c.set('c', answer(3));
    expect(c.get('a')).toEqual(answer(1)); // used: survives the next eviction
    c.set('d', answer(4));
    expect(c.get('b')).toBeUndefined();
    expect([c.get('a'), c.get('c'), c.get('d')]).toEqual([answer(1), answer(3), answer(4)]);
  });

  it('replaces the answer of a key set again, without growing', () => {
    const c = new AnswerCache(2);
    c.set('a', answer(1));
    c.set('a', answer(2));
    expect(c.size).toBe(1);
    expect(c.get('a')).toEqual(answer(2));
  });

  it('does not keep an answer under a key longer than ANSWER_KEY_MAX_CHARS', () => {
    const c = new AnswerCache(2);
    c.set('x'.repeat(ANSWER_KEY_MAX_CHARS + 1), answer(1));
    c.set('y'.repeat(ANSWER_KEY_MAX_CHARS), answer(2));
    expect(c.size).toBe(1);
  });

  // runTool's use: a lookup (counted), and on a miss the answer is kept only if the cache wants it.
  const asker = (c: AnswerCache) => (k: string): boolean => {
    if (c.get(k) !== undefined) return true;
    if (c.wants(k)) c.set(k, answer(0));
    return false;
  };

  it('keeps hitting the answers it holds when calls cycle through more arguments than it holds', () => {
    const c = new AnswerCache(128);
    const ask = asker(c);
    const keys = Array.from({ length: 200 }, (_, i) => `search_parts\u0000rest\u0000{"q":"word${i}"}`);
    for (let cycle = 0; cycle < 2; cycle++) for (const k of keys) ask(k);
    let hits = 0;
    for (let cycle = 0; cycle < 20; cycle++) for (const k of keys) if (ask(k)) hits++;
    // The 128 answers kept first stay: each hits once a cycle (128 of 200 calls), none replaced
    // by an answer asked as often as it.
    expect(c.size).toBe(128);
    expect(hits).toBe(128 * 20);
    // The rule before (keep every answer, evict by CLOCK alone) hit none of these calls.
    const always = new AnswerCache(128);
    let alwaysHits = 0;
    for (let cycle = 0; cycle < 5; cycle++)
      for (const k of keys) {
        if (always.get(k) !== undefined) alwaysHits++;
        else always.set(k, answer(0));
      }
    expect(alwaysHits).toBe(0);
  });

  it('takes in an answer asked more often than the one it would evict, not a call asked once', () => {
    const c = new AnswerCache(4);
    const ask = asker(c);
    for (const k of ['a', 'b', 'c', 'd']) ask(k);
    expect(ask('e')).toBe(false); // asked once: not kept (the hand is at 'a', asked once too)
    expect(c.size).toBe(4);
    expect(ask('e')).toBe(false); // before this call asked once, as often as 'a': not kept
    expect(ask('e')).toBe(false); // before this call asked twice, more often than 'a': kept in its place
    expect(ask('e')).toBe(true);
    expect(c.size).toBe(4);
    expect(['a', 'b', 'c', 'd'].filter((k) => c.get(k) !== undefined)).toHaveLength(3);
  });

  it('keeps answers in use through a run of calls each asked once', () => {
    const c = new AnswerCache(4);
    const ask = asker(c);
    const hot = ['h1', 'h2', 'h3', 'h4'];
    for (let i = 0; i < 5; i++) for (const k of hot) ask(k);
    // 25 times as many calls as the cache holds, within the sketch's window (counts halve every
    // 160 requests at this size: answers nobody asks for any longer fade, as the next test shows).
    for (let i = 0; i < 100; i++) expect(ask(`once${i}`)).toBe(false);
    expect(hot.map((k) => ask(k))).toEqual([true, true, true, true]);
  });

  it('follows a change of what is asked: old counts fade', () => {
    const c = new AnswerCache(2);
    const ask = asker(c);
    for (let i = 0; i < 40; i++) for (const k of ['old1', 'old2']) ask(k);
    let n = 0;
    for (;;) {
      const hit1 = ask('new1');
      const hit2 = ask('new2');
      if (hit1 && hit2) break;
      expect(++n, 'the new answers never got in').toBeLessThan(200);
    }
    expect(c.get('old1')).toBeUndefined();
    expect(c.get('old2')).toBeUndefined();
  });

  it('wants nothing when off, nor under a key longer than ANSWER_KEY_MAX_CHARS', () => {
    expect(new AnswerCache(0).wants('a')).toBe(false);
    const c = new AnswerCache(2);
    const long = 'x'.repeat(ANSWER_KEY_MAX_CHARS + 1);
    expect(c.get(long)).toBeUndefined();
    expect(c.wants(long)).toBe(false);
  });

  it('refuses a negative or fractional size', () => {
    expect(() => new AnswerCache(-1)).toThrow(RangeError);
    expect(() => new AnswerCache(1.5)).toThrow(RangeError);
  });
});

describe('ROBOT_PARTS_ANSWER_CACHE', () => {
  it('defaults to 128, reads the variable, and names it when out of range', () => {
    expect(loadConfig({}).answerCacheEntries).toBe(128);
    expect(loadConfig({ ROBOT_PARTS_ANSWER_CACHE: '0' }).answerCacheEntries).toBe(0);
    expect(() => loadConfig({ ROBOT_PARTS_ANSWER_CACHE: '-3' })).toThrow(/ROBOT_PARTS_ANSWER_CACHE/);
    expect(() => loadConfig({ ROBOT_PARTS_ANSWER_CACHE: '100000' })).toThrow(/ROBOT_PARTS_ANSWER_CACHE must be at most/);
  });
});

describe('which tools are cacheable', () => {
  it('only read-only, idempotent tools whose REST routes take nothing from the caller', () => {
    const cacheable = TOOLS.filter((t) => t.cacheable);
    expect(cacheable.map((t) => t.name).sort()).toEqual(['compare_parts', 'design_adapter_plate', 'find_alternatives', 'get_catalogue_stats', 'get_part', 'list_spec_fields', 'search_parts']);
    for (const t of cacheable) {
      expect(t.annotations.readOnlyHint && t.annotations.idempotentHint, t.name).toBe(true);
      expect(t.artifact, t.name).toBeUndefined();
      expect(Object.keys(t.inputSchema.shape), t.name).not.toContain('api_key');
      for (const r of t.rest) expect(r.prepare, `${t.name} ${r.path}`).toBeUndefined();
    }
  });
});

const CALLS: [string, Record<string, unknown>][] = [
  ['search_parts', { q: 'servo' }],
  ['search_parts', { q: 'servo', limit: 2 }],
  ['search_parts', { q: 'servo', fields: ['name', 'manufacturer'] }],
  ['search_parts', { q: 'zzzz-nothing' }],
  ['get_part', { id: 'ACT-001' }],
  ['get_part', { id: 'act-001' }],
  ['find_alternatives', { id: 'ACT-001' }],
  ['compare_parts', { ids: ['ACT-001', 'ACT-002'] }],
  ['list_spec_fields', { category: 'actuators' }],
  ['get_catalogue_stats', {}],
];

describe('cacheable tools over MCP', () => {
  const open: Deps[] = [];
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of closers.splice(0)) await c();
    for (const d of open.splice(0)) d.close();
  });
  async function client(entries: number) {
    const d = testDeps(undefined, { answerCacheEntries: entries });
    open.push(d);
    const m = await memoryClient(d);
    closers.push(m.close);
    return { deps: d, client: m.client };
  }

  it('answers each call again with the same result as a server without the cache', async () => {
    const cached = await client(256);
    const plain = await client(0);
    for (const [tool, args] of CALLS) {
      const want = await call(plain.client, tool, args);
      expect(want.isError, `${tool} ${JSON.stringify(args)}`).toBeFalsy();
      const first = await call(cached.client, tool, args);
      const again = await call(cached.client, tool, args);
      expect(first, `${tool} ${JSON.stringify(args)}`).toEqual(want);
      expect(again, `${tool} ${JSON.stringify(args)}`).toEqual(want);
    }
    expect(cached.deps.answers.size).toBe(CALLS.length);
    expect(plain.deps.answers.size).toBe(0);
  });

  it('keeps no error, and nothing of a tool that is not cacheable', async () => {
    const { deps, client: c } = await client(256);
    expect(errorBody(await call(c, 'search_parts', { q: '' })).code).toBe('invalid_input');
    expect(errorBody(await call(c, 'search_parts', { q: 'servo', limit: 0 })).field).toBe('limit');
    expect(errorBody(await call(c, 'get_part', { id: 'NOPE-1' })).code).toBe('not_found');
    expect((await call(c, 'list_parts', { category: 'actuators' })).isError).toBeFalsy();
    expect((await call(c, 'convert_parameter', { value: '30 Nm', to: 'kgf·cm' })).isError).toBeFalsy();
    expect(deps.answers.size).toBe(0);
  });

  it('still answers store_unavailable for a remembered call once the store cannot be read', async () => {
    const { deps, client: c } = await client(256);
    for (const [tool, args] of CALLS) expect((await call(c, tool, args)).isError).toBeFalsy();
    deps.close();
    for (const [tool, args] of CALLS) expect(errorBody(await call(c, tool, args)).code, `${tool} ${JSON.stringify(args)}`).toBe('store_unavailable');
  });

  it('hands out frozen answers: a caller cannot change what the next one gets', async () => {
    const { deps } = await client(256);
    const tool = TOOLS.find((t) => t.name === 'search_parts')!;
    const ctx = toolContext(deps, 'mcp-memory');
    const a = await runTool(tool, { q: 'servo' }, ctx);
    const b = await runTool(tool, { q: 'servo' }, ctx);
    if (!a.ok || !b.ok) throw new Error('search failed');
    expect(b.output).toBe(a.output);
    expect(() => {
      (a.output.meta as Record<string, unknown>).total = 0;
    }).toThrow(TypeError);
    expect(() => (a.output.data as unknown[]).pop()).toThrow(TypeError);
  });
});

describe('the cache is per surface', () => {
  it('keeps the stdio answer (no detail_url) apart from the HTTP one (detail_url)', async () => {
    const deps = testDeps(undefined, { answerCacheEntries: 16 });
    try {
      const tool = TOOLS.find((t) => t.name === 'search_parts')!;
      const hits = async (surface: ToolContext['surface']) => {
        const r = await runTool(tool, { q: 'servo' }, toolContext(deps, surface));
        if (!r.ok) throw new Error(r.error.message);
        return r.output.data as { detail_url?: string }[];
      };
      for (let i = 0; i < 2; i++) {
        expect((await hits('rest')).every((h) => typeof h.detail_url === 'string')).toBe(true);
        expect((await hits('mcp-stdio')).every((h) => h.detail_url === undefined)).toBe(true);
      }
      expect(deps.answers.size).toBe(2);
    } finally {
      deps.close();
    }
  });
});

describe('cacheable tools over REST', () => {
  it('serve the same bytes as a server without the cache, and every call still counts against the rate limit', async () => {
    const limit = 3;
    // One public URL for both, so that their detail URLs are the same.
    const publicBaseUrl = 'https://parts.example';
    const cached = await startTestServer(undefined, { rateLimitFree: limit, answerCacheEntries: 256, publicBaseUrl });
    const plain = await startTestServer(undefined, { answerCacheEntries: 0, publicBaseUrl });
    try {
      const path = '/api/search?q=servo&limit=2';
      const want = await fetch(plain.url + path);
      const wantBody = await want.text();
      for (let i = 0; i < limit; i++) {
        const r = await fetch(cached.url + path);
        expect(r.status).toBe(200);
        expect(r.headers.get('content-type')).toBe(want.headers.get('content-type'));
        expect(await r.text()).toBe(wantBody);
      }
      const over = await fetch(cached.url + path);
      expect(over.status).toBe(429);
      expect(((await over.json()) as { code: string }).code).toBe('rate_limited');
      expect(cached.deps.answers.size).toBe(1);
    } finally {
      await cached.stop();
      await plain.stop();
    }
  });
});
