/**
 * npm run attack [-- --profile short|full] [--seed N] [--max-seconds S]
 *
 * Bounded (count and time), loopback only. Runs the fuzzer over every tool on the in-memory
 * MCP client, REST and MCP over HTTP and stdio; the kill -9 ledger check under paid load; the
 * HTTP abuse cases; the CSV read-back; the heavy cases under a /healthz liveness probe. Prints one table and exits non-zero when anything that
 * must be 0 is not (internal errors, crashes, output-schema violations, ledger mismatches,
 * CSV formula cells, failed abuse cases).
 */
import { parseArgs } from 'node:util';
import { runAbuse } from './abuse.js';
import { MAX_HEALTHZ_WAIT_MS, runHeavy } from './heavy.js';
import { runFuzz } from './fuzz.js';
import { runLedgerCheck } from './ledger.js';
import { runRound3 } from './round3.js';

const PROFILES = {
  short: { perTool: 12, kills: 3, keys: 3, maxSeconds: 150 },
  full: { perTool: 400, kills: 30, keys: 6, maxSeconds: 1500 },
} as const;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { profile: { type: 'string', default: 'short' }, seed: { type: 'string', default: '11' }, 'max-seconds': { type: 'string' } },
  });
  const profile = PROFILES[values.profile as keyof typeof PROFILES];
  if (!profile) throw new Error(`--profile must be short or full`);
  const seed = Number(values.seed);
  const maxSeconds = values['max-seconds'] ? Number(values['max-seconds']) : profile.maxSeconds;
  const started = Date.now();
  // The fuzzer gets 60% of the time budget, the kill -9 loop the rest it needs; abuse cases are fixed.
  const fuzzDeadline = started + maxSeconds * 600;
  process.stderr.write(`attack: profile ${values.profile}, seed ${seed}, at most ${maxSeconds} s\n`);

  const fuzz = await runFuzz({ perTool: profile.perTool, seed, deadline: fuzzDeadline });
  const tFuzz = Date.now();
  const ledger = await runLedgerCheck({ kills: profile.kills, keys: profile.keys, seed, deadline: started + maxSeconds * 900 });
  const tLedger = Date.now();
  const abuse = await runAbuse();
  const tAbuse = Date.now();
  const heavy = await runHeavy({ profile: values.profile as 'short' | 'full' });
  // Issue 39's classes (hostile zips, log amplification, replay storm), under the same liveness probe.
  heavy.cases.push(...(await runRound3()));
  heavy.worstWaitMs = Math.max(heavy.worstWaitMs, ...heavy.cases.map((c) => c.worstWaitMs));
  const tEnd = Date.now();

  const rows: [string, string][] = [];
  const total = [...fuzz.calls.counts.values()].reduce((a, b) => a + b, 0);
  for (const [surface, n] of [...fuzz.calls.counts.entries()].sort()) rows.push([`calls: ${surface}`, String(n)]);
  rows.push(['calls: total', String(total)]);
  for (const [code, n] of [...fuzz.codes.counts.entries()].sort((x, y) => y[1] - x[1])) rows.push([code === 'ok' ? 'answers: ok' : `tool errors: ${code}`, String(n)]);
  rows.push(['internal errors (must be 0)', String(fuzz.internal.length)]);
  rows.push(['crashes / hangs (must be 0)', String(fuzz.crashes.length)]);
  rows.push(['output-schema violations (must be 0)', String(fuzz.schemaViolations.length)]);
  rows.push(['kill -9 under paid load', String(ledger.kills)]);
  rows.push(['paid calls answered during kills', String(ledger.paidCallsAnswered)]);
  rows.push(['accounts checked', String(ledger.accounts)]);
  rows.push(['ledger mismatches (must be 0)', String(ledger.mismatches.length)]);
  rows.push(['CSV exports read back (csv-parse)', String(fuzz.csv.exports)]);
  rows.push(['CSV text cells checked', String(fuzz.csv.cells)]);
  rows.push(['CSV cells evaluated as formulas (must be 0)', String(fuzz.csv.formulas.length)]);
  rows.push(['CSV exports that failed', String(fuzz.csv.failures.length)]);
  rows.push(['HTTP abuse cases passed', `${abuse.filter((a) => a.ok).length}/${abuse.length}`]);
  rows.push(['heavy cases passed', `${heavy.cases.filter((c) => c.ok).length}/${heavy.cases.length}`]);
  rows.push([`worst /healthz wait during heavy cases, ms (must be < ${MAX_HEALTHZ_WAIT_MS})`, heavy.worstWaitMs.toFixed(0)]);
  rows.push(['server peak RSS during heavy cases, MB (VmHWM)', heavy.peakRssMb === null ? 'n/a' : heavy.peakRssMb.toFixed(0)]);
  const pool = heavy.pool ?? {};
  rows.push(['pool: jobs completed / rejected (queue full) / timeouts', `${pool.completed ?? 'n/a'} / ${pool.rejected_queue_full ?? 'n/a'} / ${pool.timeouts ?? 'n/a'}`]);
  rows.push(['pool: refused beyond a client\'s share / cancelled (caller gone)', `${pool.rejected_client_share ?? 'n/a'} / ${pool.cancelled ?? 'n/a'}`]);
  rows.push(['pool: memory / output limits hit, workers replaced', `${pool.memory_exceeded ?? 'n/a'} / ${pool.output_exceeded ?? 'n/a'} / ${pool.workers_replaced ?? 'n/a'}`]);
  rows.push(['seconds: fuzz / kill -9 / abuse / heavy', `${((tFuzz - started) / 1000).toFixed(1)} / ${((tLedger - tFuzz) / 1000).toFixed(1)} / ${((tAbuse - tLedger) / 1000).toFixed(1)} / ${((tEnd - tAbuse) / 1000).toFixed(1)}`]);

  const w = Math.max(...rows.map((r) => r[0].length));
  const lines = [`| ${'measure'.padEnd(w)} | value |`, `|${'-'.repeat(w + 2)}|-------|`, ...rows.map(([k, v]) => `| ${k.padEnd(w)} | ${v} |`)];
  process.stdout.write(lines.join('\n') + '\n\nHTTP abuse cases:\n');
  for (const a of abuse) process.stdout.write(`  ${a.ok ? 'pass' : 'FAIL'}  finding ${a.finding.padEnd(2)} ${a.name}: ${a.detail}\n`);
  process.stdout.write('\nHeavy cases (liveness: /healthz polled throughout each):\n');
  for (const c of heavy.cases) {
    process.stdout.write(`  ${c.ok ? 'pass' : 'FAIL'}  ${c.name}: ${c.answers} in ${c.seconds.toFixed(1)} s; worst /healthz wait ${c.worstWaitMs.toFixed(0)} ms over ${c.probes} probes; ${c.detail}\n`);
  }
  const show = (title: string, xs: { surface?: string; tool?: string; detail: string }[] | string[]) => {
    if (xs.length === 0) return;
    process.stdout.write(`\n${title} (${xs.length}, first 10):\n`);
    for (const x of xs.slice(0, 10)) process.stdout.write(`  ${typeof x === 'string' ? x : `${x.surface} ${x.tool}: ${x.detail}`}\n`);
  };
  show('internal errors', fuzz.internal);
  show('crashes', fuzz.crashes);
  show('output-schema violations', fuzz.schemaViolations);
  show('ledger mismatches', ledger.mismatches);
  show('CSV formula cells', fuzz.csv.formulas);
  show('CSV export failures', fuzz.csv.failures);

  const bad =
    fuzz.internal.length + fuzz.crashes.length + fuzz.schemaViolations.length + ledger.mismatches.length + fuzz.csv.formulas.length + fuzz.csv.failures.length + abuse.filter((a) => !a.ok).length +
    heavy.cases.filter((c) => !c.ok).length;
  process.stdout.write(bad === 0 ? '\nattack: all clear\n' : `\nattack: ${bad} problem(s)\n`);
  return bad === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`attack: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(2);
  },
);
