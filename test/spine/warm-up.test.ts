/**
 * The start's warm-up (src/http/warm-up.ts): a large catalogue's server asks its own direct REST
 * answers the most frequent searches before it listens, over a private loopback listener, never
 * counted against a rate limit; nothing but the warm-up's own connections can make such a request.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDeps, type Deps } from '../../src/deps.js';
import { createApp, startHttpServer } from '../../src/http/app.js';
import type { DirectListener } from '../../src/http/direct.js';
import { compileAnswers, COMPILE_ROUNDS, warmUp, warmUpPaths } from '../../src/http/warm-up.js';
import type { DirectRoute } from '../../src/http/rest.js';
import { createLogger, silentLogger } from '../../src/log.js';
import { catalogueDir, removeCatalogueDirs } from '../support/catalogue-dir.js';
import { testConfig } from '../support/deps.js';
import { rawRequest } from '../support/http.js';
import { startInstance } from '../support/instances.js';

afterAll(removeCatalogueDirs);

/** A catalogue read lazily (its index built on a worker), which is what a server warms. */
function largeDeps(overrides: Parameters<typeof testConfig>[0] = {}, log = silentLogger): Deps {
  const { dir } = catalogueDir({ copies: 2, order: 'shuffled', seed: 11, suffix: 'W' });
  return buildDeps(testConfig({ dataDir: dir, ...overrides }), { log, indexWorker: true });
}

describe('warmUpPaths', () => {
  it("fills each route's warm-up argument with each word, percent-encoded; routes without one ask nothing", () => {
    const routes = [
      { path: '/api/search', warmUpArgument: 'q' },
      { path: '/api/categories' },
    ] as unknown as Parameters<typeof warmUpPaths>[0];
    expect(warmUpPaths(routes, ['motor', '传感器', 'a&b c'])).toEqual(['/api/search?q=motor', '/api/search?q=%E4%BC%A0%E6%84%9F%E5%99%A8', '/api/search?q=a%26b%20c']);
    expect(warmUpPaths(routes, [])).toEqual([]);
  });
});

describe('a large catalogue served after its warm-up', () => {
  it('asks its most frequent words before it listens, uncounted by the rate limit: the first real request has the whole hourly allowance', async () => {
    const lines: Record<string, unknown>[] = [];
    const log = createLogger('debug', (l) => lines.push(JSON.parse(l) as Record<string, unknown>));
    const deps = largeDeps({ rateLimitFree: 5 }, log);
    const server = await startHttpServer(deps);
    try {
      const words = deps.warmUpWords();
      expect(words.length).toBe(64);
      // Each asked over the direct answers before the server listened, each answered 200 (far more than the limit of 5).
      const warmed = lines.find((l) => l.msg === 'answers warmed');
      expect(warmed, JSON.stringify(lines.filter((l) => l.level !== 'debug'))).toMatchObject({ answered: 64 });
      expect(lines.filter((l) => l.msg === 'request' && l.path === '/api/search')).toHaveLength(64);
      // Then the cheap words, each answered COMPILE_ROUNDS times in the process (no request, so no request line).
      const narrow = deps.warmUpNarrowWords();
      expect(narrow.length).toBeGreaterThan(0);
      const compiled = lines.findIndex((l) => l.msg === 'answers compiled');
      expect(lines[compiled]).toMatchObject({ answered: narrow.length * COMPILE_ROUNDS });
      expect(compiled).toBeGreaterThan(lines.indexOf(warmed!));
      // The answer cache (on, 128 entries) holds the 64 likely first searches and none of the compile step's answers.
      expect(deps.config.answerCacheEntries).toBe(128);
      expect(deps.answers.size).toBe(64);
      const r = await rawRequest(`${server.url}/api/search?q=${encodeURIComponent(words[0]!)}`, {});
      expect(r.status).toBe(200);
      expect(r.headers['ratelimit-limit']).toBe('5');
      expect(r.headers['ratelimit-remaining']).toBe('4');
    } finally {
      await server.close();
      deps.close();
    }
  });

  it('binds its port before the warm-up (with port 0, the links it prepares carry the real one); a request that arrives meanwhile waits for its end, then is answered', async () => {
    const lines: Record<string, unknown>[] = [];
    const log = createLogger('debug', (l) => lines.push(JSON.parse(l) as Record<string, unknown>));
    const deps = largeDeps({ port: 0 }, log);
    const starting = startHttpServer(deps);
    // The port is known (publicBaseUrl set from it) while the warm-up is still asking.
    while (deps.config.publicBaseUrl.endsWith(':0')) await new Promise((r) => setTimeout(r, 1));
    const boundAt = lines.length;
    expect(lines.some((l) => l.msg === 'answers warmed')).toBe(false);
    const early = rawRequest(`${deps.config.publicBaseUrl}/healthz`, {});
    const server = await starting;
    try {
      expect(server.url).toBe(deps.config.publicBaseUrl);
      expect((await early).status).toBe(200);
      const warmed = lines.findIndex((l) => l.msg === 'answers warmed');
      const compiled = lines.findIndex((l) => l.msg === 'answers compiled');
      const answered = lines.findIndex((l) => l.msg === 'request' && l.path === '/healthz');
      // Bound before the warm-up ended; the early request answered after both of its steps.
      expect(boundAt).toBeLessThan(warmed);
      expect(compiled).toBeGreaterThan(warmed);
      expect(answered).toBeGreaterThan(compiled);
    } finally {
      await server.close();
      deps.close();
    }
  });

  it('a start that fails after binding its port lets the port go and says why', async () => {
    const deps = buildDeps(testConfig({ port: 0 }));
    // The start's last step fails (the subscription that compacts after lazy builds).
    deps.onLazyBuild = () => {
      throw new Error('subscription refused');
    };
    try {
      await expect(startHttpServer(deps)).rejects.toThrow('subscription refused');
      // The port was bound (its URL known), and is free again: nothing answers there.
      expect(deps.config.publicBaseUrl).not.toMatch(/:0$/);
      await expect(rawRequest(`${deps.config.publicBaseUrl}/healthz`, {})).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      deps.close();
    }
  });

  it('a small catalogue (read at start) has no warm-up words and asks nothing', async () => {
    const lines: string[] = [];
    const deps = buildDeps(testConfig(), { log: createLogger('debug', (l) => lines.push(l)) });
    const server = await startHttpServer(deps);
    try {
      expect(deps.warmUpWords()).toEqual([]);
      expect(deps.warmUpNarrowWords()).toEqual([]);
      expect(lines.some((l) => l.includes('answers warmed') || l.includes('answers compiled'))).toBe(false);
    } finally {
      await server.close();
      deps.close();
    }
  });
});

/**
 * A real `serve` over `dir` with V8 printing when it gives up an assumption (its output and the
 * debug log in one file, in order): asked /healthz (Hono's answer: web streams read its body) and
 * a search, then stopped once `done` holds (at once without it). Resolves with the lines.
 */
async function serveTraced(dir: string, tmp: string, done: () => boolean = () => true): Promise<string[]> {
  const inst = await startInstance({
    nodeArgs: ['--trace-protector-invalidation'],
    args: ['--db', path.join(tmp, 'serve.db')],
    env: { ROBOT_PARTS_DATA_DIR: dir, ROBOT_PARTS_LOG_LEVEL: 'debug' },
    outputFile: path.join(tmp, `out-${Date.now()}.log`),
  });
  try {
    expect((await rawRequest(`${inst.url}/healthz`, {})).status).toBe(200);
    expect((await rawRequest(`${inst.url}/api/search?q=motor`, {})).status).toBe(200);
    for (const until = Date.now() + 60_000; !done() && Date.now() < until; ) await new Promise((r) => setTimeout(r, 50));
    return inst.log().split('\n');
  } finally {
    await inst.kill9();
  }
}

describe('the code the warm-up compiles is kept', () => {
  it("V8 gives up its no-detached-ArrayBuffer assumption before the warm-up, not at the server's first request through Hono (which would throw away what the warm-up compiled)", async () => {
    // A catalogue large enough to be read lazily (and so warmed); its second start reads the
    // prepared start the first one wrote (a new instance of a catalogue served before).
    const { dir } = catalogueDir({ copies: 11, order: 'shuffled', seed: 5, suffix: 'D' });
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-detach-'));
    try {
      await serveTraced(dir, tmp, () => fs.existsSync(path.join(dir, 'catalogue', 'entities.prepared')));
      const lines = await serveTraced(dir, tmp);
      const text = lines.join('\n');
      expect(text).toContain('catalogue read from its prepared start');
      const warmed = lines.findIndex((l) => l.includes('"msg":"answers warmed"'));
      const gaveUp = lines.flatMap((l, i) => (l.includes('Invalidating protector cell ArrayBufferDetaching') ? [i] : []));
      expect(warmed, text).toBeGreaterThan(-1);
      expect(gaveUp.length, text).toBeGreaterThan(0);
      // Given up before the warm-up's answers (then kept through Hono's answer and the search), never after.
      expect(gaveUp.filter((i) => i > warmed), text).toEqual([]);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('compileAnswers', () => {
  it("answers each word the given number of times through the route's own answer, in order, each ok", async () => {
    await withRoutes(async (route) => {
      const asked: string[] = [];
      const counting: DirectRoute = { ...route, answer: (queries, exchange) => (asked.push(queries.q![0]!), route.answer(queries, exchange)) };
      const result = await compileAnswers(counting, ['motor', 'hand'], 3, silentLogger);
      expect(result).toMatchObject({ answered: 6, asked: 6 });
      expect(result.stopped).toBeUndefined();
      expect(asked).toEqual(['motor', 'hand', 'motor', 'hand', 'motor', 'hand']);
    });
  });

  it('ends at the first answer that is not ok and says why', async () => {
    await withRoutes(async (route) => {
      const warnings: string[] = [];
      const log = createLogger('warn', (l) => warnings.push(l));
      // An empty q is invalid input.
      const result = await compileAnswers(route, ['motor', '', 'hand'], 2, log);
      expect(result).toMatchObject({ answered: 1, asked: 2, stopped: '/api/search q= answered invalid_input' });
      expect(warnings.join('')).toContain('answer compile step ended early');
    });
  });

  it('ends when its time budget is spent; asks nothing without words or rounds', async () => {
    await withRoutes(async (route) => {
      const spent = await compileAnswers(route, ['motor'], 2, silentLogger, 0);
      expect(spent).toMatchObject({ answered: 0, stopped: 'time budget of 0 ms spent' });
      expect(await compileAnswers(route, [], 2, silentLogger)).toEqual({ answered: 0, asked: 0, ms: 0 });
      expect(await compileAnswers(route, ['motor'], 0, silentLogger)).toEqual({ answered: 0, asked: 0, ms: 0 });
    });
  });
});

/** The direct search route of an app over a large catalogue (closed after `use`). */
async function withRoutes(use: (route: DirectRoute) => Promise<void>): Promise<void> {
  const deps = largeDeps();
  await deps.ready;
  try {
    const route = createApp(deps).directRoutes.find((r) => r.path === '/api/search');
    expect(route?.warmUpArgument).toBe('q');
    await use(route!);
  } finally {
    deps.close();
  }
}

/** The direct REST answers of an app over a large catalogue (closed after `use`). */
async function withDirect(use: (direct: DirectListener) => Promise<void>): Promise<void> {
  const deps = largeDeps();
  await deps.ready;
  try {
    await use(createApp(deps).direct);
  } finally {
    deps.close();
  }
}

describe('warmUp', () => {
  it("marks only its own connections' requests internal: another connection to its private port is answered 503 and never reaches the listener", async () => {
    await withDirect(async (direct) => {
      const calls: boolean[] = [];
      const intruder: ReturnType<typeof rawRequest>[] = [];
      const listener: DirectListener = (req, res, internal) => {
        calls.push(internal === true);
        // While the warm-up's first request is answered, another client connects to the same private port.
        if (intruder.length === 0) intruder.push(rawRequest(`http://127.0.0.1:${req.socket.localPort!}/api/search?q=motor`, {}));
        return direct(req, res, internal);
      };
      const paths = warmUpPaths([{ path: '/api/search', warmUpArgument: 'q' }] as never, ['motor', 'sensor', 'hand']);
      const result = await warmUp(listener, paths, '127.0.0.1', silentLogger);
      expect(result).toMatchObject({ answered: 3, asked: 3 });
      expect(result.stopped).toBeUndefined();
      expect((await intruder[0]!).status).toBe(503);
      expect(calls).toEqual([true, true, true]);
    });
  });

  it('ends at the first answer other than 200 and says why; the server serves without the rest', async () => {
    await withDirect(async (direct) => {
      const warnings: string[] = [];
      const log = createLogger('warn', (l) => warnings.push(l));
      // An empty q is invalid input (400): the warm-up stops there.
      const result = await warmUp(direct, ['/api/search?q=motor', '/api/search?q=', '/api/search?q=hand'], '127.0.0.1', log);
      expect(result).toMatchObject({ answered: 1, asked: 2, stopped: '/api/search?q= answered 400' });
      expect(warnings.join('')).toContain('answer warm-up ended early');
    });
  });

  it('ends when its time budget is spent', async () => {
    await withDirect(async (direct) => {
      const result = await warmUp(direct, ['/api/search?q=motor', '/api/search?q=hand'], '127.0.0.1', silentLogger, 0);
      expect(result.answered).toBe(0);
      expect(result.stopped).toBe('time budget of 0 ms spent');
    });
  });
});
