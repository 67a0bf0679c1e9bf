/**
 * kill -9 under paid load: `serve` on a database file, several keys doing paid calls
 * concurrently (export_bom with and without Idempotency-Key, deep entity lists), the process
 * killed with SIGKILL mid-load, restarted on the same file, again and again. Then the ledger
 * is checked:
 * - per account in the file: credits = sum of ledger deltas, credits >= 0, api_calls = number
 *   of usage records, debit entries = usage records with a cost;
 * - per key (through the API after the last restart): credits + paid calls = 100 (every call
 *   costs 1, replays are free), and every charge a client saw answered is recorded.
 */
import Database from 'better-sqlite3';
import path from 'node:path';
import { rng, startServe, tempDir, type ServeChild } from './common.js';

export interface LedgerReport {
  kills: number;
  paidCallsAnswered: number;
  accounts: number;
  mismatches: string[];
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: Record<string, unknown> | null; headers: Headers }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await res.text();
  let json: Record<string, unknown> | null = null;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = null;
  }
  return { status: res.status, json, headers: res.headers };
}

export async function runLedgerCheck(opts: { kills: number; keys: number; seed: number; deadline: number }): Promise<LedgerReport> {
  const tmp = tempDir('kill9');
  const db = path.join(tmp.dir, 'ledger.db');
  const r = rng(opts.seed);
  const report: LedgerReport = { kills: 0, paidCallsAnswered: 0, accounts: 0, mismatches: [] };
  const observed = new Map<string, number>(); // key -> paid calls the client saw charged
  const args = ['--rate-limit-free', '0', '--rate-limit-paid', '0'];
  let srv: ServeChild = await startServe(db, args);
  try {
    const keys: string[] = [];
    for (let i = 0; i < opts.keys; i++) {
      const reg = await post(`${srv.url}/api/register`, { email: `kill9-${i}@example.com` });
      if (reg.status !== 200) throw new Error(`register: ${reg.status} ${JSON.stringify(reg.json)}`);
      keys.push(reg.json!.api_key as string);
      observed.set(reg.json!.api_key as string, 0);
    }
    for (let k = 0; k < opts.kills && Date.now() < opts.deadline; k++) {
      const base = srv.url;
      let stop = false;
      const worker = async (key: string, w: number) => {
        let n = 0;
        while (!stop) {
          n++;
          try {
            const kind = (n + w) % 3;
            if (kind === 0) {
              const res = await fetch(`${base}/api/entities.json`, { headers: { authorization: `Bearer ${key}` } });
              await res.text();
              if (res.status === 200) observed.set(key, observed.get(key)! + 1);
              else if (res.status === 402) return;
            } else {
              const idem = kind === 1 ? { 'idempotency-key': `k${k}-${w}-${n}` } : ({} as Record<string, string>);
              const res = await post(`${base}/api/bom/export`, { format: 'json', items: [{ id: 'ACT-001', price: 1.1, quantity: n }] }, { authorization: `Bearer ${key}`, ...idem });
              if (res.status === 200 && res.headers.get('idempotent-replayed') !== 'true') observed.set(key, observed.get(key)! + 1);
              else if (res.status === 402) return;
            }
            report.paidCallsAnswered++;
          } catch {
            return; // the server was killed under us
          }
        }
      };
      const load = keys.flatMap((key, i) => [worker(key, i * 2), worker(key, i * 2 + 1)]);
      await new Promise((res) => setTimeout(res, 800 + Math.floor(r() * 2200)));
      await srv.kill9();
      report.kills++;
      stop = true;
      await Promise.all(load);
      srv = await startServe(db, args);
    }
    // Per key, through the API of the restarted server.
    for (const key of keys) {
      const b = await post(`${srv.url}/api/credits/balance`, { api_key: key });
      const credits = b.json?.credits as number;
      const calls = b.json?.api_calls as number;
      if (credits + calls !== 100) report.mismatches.push(`key ${key.slice(0, 8)}...: credits ${credits} + paid calls ${calls} != 100`);
      if (observed.get(key)! > calls) report.mismatches.push(`key ${key.slice(0, 8)}...: client saw ${observed.get(key)} charged answers, ledger has ${calls}`);
    }
  } finally {
    await srv.stop();
  }
  // The file itself, after a clean stop.
  const file = new Database(db, { readonly: true });
  try {
    const accounts = file.prepare('SELECT id, credits, api_calls FROM accounts').all() as { id: string; credits: number; api_calls: number }[];
    report.accounts = accounts.length;
    for (const a of accounts) {
      const sum = (file.prepare('SELECT COALESCE(SUM(delta), 0) AS s FROM ledger_entries WHERE account_id = ?').get(a.id) as { s: number }).s;
      const usage = (file.prepare('SELECT COUNT(*) AS n FROM usage_records WHERE account_id = ?').get(a.id) as { n: number }).n;
      const debits = (file.prepare('SELECT COUNT(*) AS n FROM ledger_entries WHERE account_id = ? AND delta < 0').get(a.id) as { n: number }).n;
      const costed = (file.prepare('SELECT COUNT(*) AS n FROM usage_records WHERE account_id = ? AND cost > 0').get(a.id) as { n: number }).n;
      if (a.credits !== sum) report.mismatches.push(`account ${a.id}: credits ${a.credits} != ledger sum ${sum}`);
      if (a.credits < 0) report.mismatches.push(`account ${a.id}: negative balance ${a.credits}`);
      if (a.api_calls !== usage) report.mismatches.push(`account ${a.id}: api_calls ${a.api_calls} != usage records ${usage}`);
      if (debits !== costed) report.mismatches.push(`account ${a.id}: ${debits} debit entries != ${costed} charged usage records`);
    }
  } finally {
    file.close();
    tmp.cleanup();
  }
  return report;
}
