/** Shared helpers for the BOM end-to-end tests: servers, raw HTTP, keys, CSV and cents arithmetic. */
import { parse } from 'csv-parse/sync';
import type { Config } from '../../src/config.js';
import type { Deps } from '../../src/deps.js';
import type { StoredEntity } from '../../src/domain/catalogue/entity.js';
import { startHttpServer } from '../../src/http/app.js';
import { realDeps } from '../support/deps.js';
import { startTestServer } from '../support/http.js';

export interface Server {
  url: string;
  deps: Deps;
  stop: () => Promise<void>;
}

/** The shipped data/ catalogue behind a real HTTP server on loopback port 0. */
export async function startRealServer(overrides: Partial<Config> = {}): Promise<Server> {
  const deps = realDeps(overrides);
  const s = await startHttpServer(deps);
  return { url: s.url, deps, stop: async () => { await s.close(); deps.close(); } };
}

/** Synthetic entities behind a real HTTP server. */
export async function startSyntheticServer(entities: StoredEntity[]): Promise<Server> {
  const s = await startTestServer(entities);
  return { url: s.url, deps: s.deps, stop: s.stop };
}

export interface Raw {
  status: number;
  headers: Headers;
  /** The body bytes exactly as sent (fetch's text() would drop a UTF-8 BOM). */
  bytes: Buffer;
  /** Parsed JSON, or null when the body is not JSON. */
  json: Record<string, unknown> | null;
}

export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Raw> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  let json: Record<string, unknown> | null = null;
  try {
    json = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
  } catch {
    json = null;
  }
  return { status: res.status, headers: res.headers, bytes, json };
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** A well-formed key nobody registered. */
export const UNKNOWN_KEY = 'gtk_' + 'Z'.repeat(32);

let emails = 0;
/** A fresh key with the free grant (100 credits), registered through the account service. */
export async function newKey(deps: Deps, label = 'bom'): Promise<string> {
  emails++;
  return (await deps.accounts.register(`${label}-${emails}-${process.pid}@example.com`)).api_key;
}

/** Spends every credit of a key through the account service (the path a paid call takes). */
export async function drain(deps: Deps, key: string): Promise<void> {
  const { credits } = await deps.accounts.balance(key);
  await deps.accounts.charge({ key, cost: credits, reason: 'test.drain', reference: 'drain', run: async () => null });
}

/** The balance as the REST endpoint reports it. */
export async function restBalance(url: string, key: string): Promise<number> {
  const r = await post(`${url}/api/credits/balance`, { api_key: key });
  if (r.status !== 200) throw new Error(`balance: ${r.status} ${r.bytes.toString('utf8')}`);
  return r.json!.credits as number;
}

/** CSV rows keyed by header, read with a real CSV parser (the BOM stripped by the parser). */
export function parseCsv(bytes: Buffer | string): Record<string, string>[] {
  return parse(bytes, { columns: true, bom: true, relax_quotes: false }) as Record<string, string>[];
}

/** CSV rows as arrays, header first. */
export function parseCsvRows(bytes: Buffer | string): string[][] {
  return parse(bytes, { bom: true }) as string[][];
}

export const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** Integer cents of a decimal price literal (the test's own exact arithmetic; at most 2 decimals). */
export function cents(price: number): number {
  const [whole, frac = ''] = String(price).split('.');
  if (frac.length > 2 || /e/i.test(whole)) throw new Error(`not a cents price: ${price}`);
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
}

/** Integer cents of exact decimal text such as "40.08" or "0.3"; throws on anything else. */
export function textCents(text: string): number {
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!m) throw new Error(`not an exact cents decimal: ${JSON.stringify(text)}`);
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** Cell values that a spreadsheet could read as a formula (OWASP CSV injection). */
export const DANGEROUS_START = /^[=+\-@\t\r]/;
