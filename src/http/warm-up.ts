/**
 * The start's warm-up (issue 47): before a new instance serves, it asks its own direct REST
 * answers (src/http/direct.ts) the requests a new instance behind a balancer gets first, the
 * most frequent words of a large catalogue (Deps.warmUpWords), over a real loopback connection.
 * node's HTTP parser and writer, the request gate, the tool's validation and run, the search, the
 * records of the first pages and their prepared bytes then run compiled and read when the first
 * real requests come: at 100,000 records, the server's own time for each of a new instance's first
 * 40 broad searches (request in to answer written) went from a median of ~0.9-1.1 ms to ~0.6-0.7 ms
 * over six alternating runs each (bench/README.md, the cold-instance rows).
 *
 * The server binds its port first (with port 0, the links the warm-up's answers prepare must carry
 * the real one) and holds the requests that arrive until the warm-up ends. The warm-up's requests
 * go to a private listener on 127.0.0.1 (an ephemeral port, closed again before the server
 * answers anything), which hands them to the same listener the server uses, marked internal
 * (ToolContext.internal: never counted against a rate limit). Only the warm-up's own connections
 * are marked: a request arriving on any other connection (its client port is not one the warm-up
 * opened) is answered 503 and its connection closed, so nothing outside the process can make an
 * internal request. The warm-up is best effort: an answer other than 200, an error or its time
 * budget ends it early (logged); the server then serves without it.
 *
 * Its second step (compileAnswers) answers cheap words again and again in the process itself, so
 * that V8 has compiled the answer path before the first real requests (COMPILE_ROUNDS).
 */
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Logger } from '../log.js';
import { RawHeaders } from './common.js';
import type { DirectListener } from './direct.js';
import type { DirectRoute, RestExchange } from './rest.js';

/** At most this long for the whole warm-up (a slow machine serves sooner with a shorter one). */
export const WARM_UP_BUDGET_MS = 2_000;
/**
 * How many times compileAnswers answers each of its words. V8 compiles a function once it has run
 * enough, and the 64 warm-up requests left much of the answer path (the tool run, the search's own
 * steps, each hit's wire) to be compiled during a new instance's first few hundred real requests:
 * at 100,000 records, 4 rounds of 64 words (~0.05-0.07 s of the start) took the server's own time
 * for each of the first 40 real broad searches, to its answer's bytes, from ~0.48 to ~0.34 ms
 * (median of five alternating runs each; bench/README.md, "Cold instance").
 */
export const COMPILE_ROUNDS = 4;
const LOOPBACK = '127.0.0.1';

/** The warm-up's requests: each route's warm-up argument (RestRoute.warmUpArgument) filled with each word. */
export function warmUpPaths(routes: readonly DirectRoute[], words: readonly string[]): string[] {
  const out: string[] = [];
  for (const r of routes) {
    if (r.warmUpArgument === undefined) continue;
    for (const w of words) out.push(`${r.path}?${encodeURIComponent(r.warmUpArgument)}=${encodeURIComponent(w)}`);
  }
  return out;
}

/**
 * Detaches one empty ArrayBuffer, which makes V8 give up, once and for the life of the process, its
 * assumption that no ArrayBuffer is ever detached (its ArrayBufferDetaching protector). Giving it
 * up throws away every optimized function that reads a typed array, and the server's first request
 * through Hono gives it up anyway (node's web streams detach the buffers of a body they read): with
 * a warm-up before, that threw away the search, selection and wire code the warm-up had just
 * compiled, so a new instance's first real broad searches ran them unoptimized again (at 100,000
 * records, 3-10 ms for the first one's candidates and selection instead of ~0.3 ms). Done before
 * the warm-up, the code it compiles is kept.
 */
function detachOneBuffer(): void {
  const buffer = new ArrayBuffer(0);
  structuredClone(buffer, { transfer: [buffer] });
}

export interface WarmUpResult {
  /** Requests answered 200. */
  answered: number;
  /** Requests asked. */
  asked: number;
  ms: number;
  /** Why it ended before its last request, when it did. */
  stopped?: string;
}

/**
 * Asks `listener` each path, one request at a time on one kept-alive loopback connection, with
 * `host` as the Host header (the server's public host: the one its clients send).
 */
export async function warmUp(listener: DirectListener, paths: readonly string[], host: string, log: Logger, budgetMs = WARM_UP_BUDGET_MS): Promise<WarmUpResult> {
  const started = performance.now();
  if (paths.length === 0) return { answered: 0, asked: 0, ms: 0 };
  detachOneBuffer();
  // The client ports of the warm-up's own connections: only their requests are internal.
  const own = new Set<number>();
  const server = createServer((req, res) => {
    const port = req.socket.remotePort;
    if (port === undefined || !own.has(port) || req.socket.remoteAddress !== LOOPBACK) {
      res.writeHead(503, { connection: 'close' }).end();
      return;
    }
    if (!listener(req, res, true)) res.writeHead(404, { connection: 'close' }).end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, LOOPBACK, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const ask = (path: string) =>
    new Promise<number>((resolve, reject) => {
      const req = request({ host: LOOPBACK, port, path, agent, headers: { host } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      });
      // The connection's client port is known once it connects, before the request is written.
      req.on('socket', (s: Socket) => {
        if (s.localPort !== undefined) own.add(s.localPort);
        else s.once('connect', () => own.add(s.localPort!));
      });
      req.setTimeout(budgetMs, () => req.destroy(new Error(`no answer within ${budgetMs} ms`)));
      req.on('error', reject);
      req.end();
    });
  let run: Asked;
  try {
    run = await inTurn(paths, started, budgetMs, async (path) => {
      const status = await ask(path);
      return status === 200 ? null : `${path} answered ${status}`;
    });
  } finally {
    agent.destroy();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
  return reported(run, started, paths.length, log, 'answers warmed', 'answer warm-up ended early; serving without the rest of it');
}

/** How far a step of the warm-up went: answers, asks, and why it ended early when it did. */
interface Asked {
  answered: number;
  asked: number;
  stopped?: string;
}

/**
 * Each item asked in turn (`ask` resolves to null when answered, else why not), until one is not
 * answered, one throws, or `budgetMs` since `started` is spent: the loop of both warm-up steps.
 */
async function inTurn<T>(items: Iterable<T>, started: number, budgetMs: number, ask: (item: T) => Promise<string | null>): Promise<Asked> {
  let answered = 0;
  let asked = 0;
  try {
    for (const item of items) {
      if (performance.now() - started > budgetMs) return { answered, asked, stopped: `time budget of ${budgetMs} ms spent` };
      asked++;
      const refused = await ask(item);
      if (refused !== null) return { answered, asked, stopped: refused };
      answered++;
    }
  } catch (err) {
    return { answered, asked, stopped: err instanceof Error ? err.message : String(err) };
  }
  return { answered, asked };
}

/** A step's result, logged: `done` (debug) when it ran to its end, `early` (a warning, with why) when not. */
function reported(run: Asked, started: number, of: number, log: Logger, done: string, early: string): WarmUpResult {
  const { answered, asked, stopped } = run;
  const ms = Math.round(performance.now() - started);
  if (stopped !== undefined) log.warn(early, { answered, of, reason: stopped });
  else log.debug(done, { answered, ms });
  return stopped === undefined ? { answered, asked, ms } : { answered, asked, ms, stopped };
}

/**
 * compileAnswers' exchange: no connection, no request headers, a signal that never aborts, marked
 * internal (ToolContext.internal: never counted against a rate limit; nothing outside the process
 * can reach it) and uncached (ToolContext.uncached: its answers are not the answer cache's, which
 * keeps the warm-up's likely first searches).
 */
class InternalExchange implements RestExchange {
  readonly headers = new RawHeaders([]);
  readonly clientAddress = null;
  readonly internal = true;
  readonly uncached = true;
  constructor(readonly signal: AbortSignal) {}
  header(): void {}
}

/**
 * The warm-up's second step: `route`'s answer to each word (its warm-up argument), `rounds` times
 * over, in the process itself (the tool run, the search and the answer's bytes, none of node's
 * HTTP): cheap words (Deps.warmUpNarrowWords) give V8 the runs it compiles on at little cost.
 * Best effort, as warmUp: an answer that is not ok, an error or the budget ends it (logged).
 */
export async function compileAnswers(route: DirectRoute, words: readonly string[], rounds: number, log: Logger, budgetMs = WARM_UP_BUDGET_MS): Promise<WarmUpResult> {
  const started = performance.now();
  const arg = route.warmUpArgument;
  if (arg === undefined || words.length === 0 || rounds <= 0) return { answered: 0, asked: 0, ms: 0 };
  const exchange = new InternalExchange(new AbortController().signal);
  const run = await inTurn(Array.from({ length: rounds }, () => words).flat(), started, budgetMs, async (w) => {
    const answer = await route.answer({ [arg]: [w] }, exchange);
    return answer.ok ? null : `${route.path} ${arg}=${w} answered ${answer.error.code}`;
  });
  return reported(run, started, words.length * rounds, log, 'answers compiled', 'answer compile step ended early; serving without the rest of it');
}
