/** Shared helpers for the end-to-end account tests: temp files, HTTP calls, webhook signing. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { signPayload } from '../../src/domain/payments/signature.js';

export const WEBHOOK_SECRET = 'test-secret';

export function tempDb(): { dir: string; file: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-accounts-e2e-'));
  return { dir, file: path.join(dir, 'service.db'), cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export interface HttpResult<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export async function http<T = Record<string, unknown>>(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; json?: unknown; body?: string } = {},
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  let body = opts.body;
  if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(url, { method: opts.method ?? (body === undefined ? 'GET' : 'POST'), headers, body, redirect: 'manual' });
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

export const postJson = <T = Record<string, unknown>>(url: string, json: unknown, headers: Record<string, string> = {}) =>
  http<T>(url, { method: 'POST', json, headers });

/** The pay page's "simulate payment" URL of an order, from its pay_url (which carries the order's token). */
export function simulateUrl(payUrl: string): string {
  const u = new URL(payUrl);
  return `${u.origin}${u.pathname}/simulate${u.search}`;
}

export async function registerKey(base: string, email: string): Promise<string> {
  const r = await postJson<{ api_key: string }>(`${base}/api/register`, { email });
  if (r.status !== 200) throw new Error(`register ${email}: ${r.status} ${r.text}`);
  return r.body.api_key;
}

export async function balance(base: string, key: string): Promise<{ credits: number; plan: string; api_calls: number }> {
  const r = await postJson<{ credits: number; plan: string; api_calls: number }>(`${base}/api/credits/balance`, { api_key: key });
  if (r.status !== 200) throw new Error(`balance: ${r.status} ${r.text}`);
  return r.body;
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** POST /api/payment/webhook with a body signed by `secret` at time `at`. */
export function sendWebhook(base: string, rawBody: string, opts: { secret?: string; at?: Date; signature?: string } = {}) {
  const signature = opts.signature ?? signPayload(opts.secret ?? WEBHOOK_SECRET, rawBody, opts.at ?? new Date());
  return http(`${base}/api/payment/webhook`, {
    method: 'POST',
    body: rawBody,
    headers: { 'content-type': 'application/json', 'x-signature': signature },
  });
}

export function completionBody(order: { order_id: string; plan?: string; amount?: string | number; currency?: string }): string {
  return JSON.stringify({
    type: 'payment.succeeded',
    order_id: order.order_id,
    plan: order.plan ?? 'starter',
    amount: order.amount ?? '9.00',
    currency: order.currency ?? 'CNY',
  });
}

/** Reads account rows and ledger sums straight from a (closed) database file. */
export function readLedger(file: string): { accounts: { id: string; credits: number; api_calls: number; plan: string }[]; sum: (id: string) => number; entries: (id: string) => { delta: number; reason: string; reference: string }[]; usage: (id: string) => number } {
  const db = new Database(file, { readonly: true });
  try {
    const accounts = db.prepare('SELECT id, credits, api_calls, plan FROM accounts ORDER BY created_at').all() as { id: string; credits: number; api_calls: number; plan: string }[];
    const sums = new Map<string, number>();
    const entries = new Map<string, { delta: number; reason: string; reference: string }[]>();
    const usage = new Map<string, number>();
    for (const a of accounts) {
      sums.set(a.id, (db.prepare('SELECT COALESCE(SUM(delta), 0) AS s FROM ledger_entries WHERE account_id = ?').get(a.id) as { s: number }).s);
      entries.set(a.id, db.prepare('SELECT delta, reason, reference FROM ledger_entries WHERE account_id = ? ORDER BY id').all(a.id) as { delta: number; reason: string; reference: string }[]);
      usage.set(a.id, (db.prepare('SELECT COUNT(*) AS n FROM usage_records WHERE account_id = ?').get(a.id) as { n: number }).n);
    }
    return { accounts, sum: (id) => sums.get(id) ?? NaN, entries: (id) => entries.get(id) ?? [], usage: (id) => usage.get(id) ?? NaN };
  } finally {
    db.close();
  }
}
