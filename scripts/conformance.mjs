#!/usr/bin/env node
// Runs the official MCP conformance server suite against `robot-parts-mcp serve` on a free
// loopback port with a throw-away database, then stops the server. Exit code: the suite's.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-conformance-'));
const server = spawn(process.execPath, [path.join(root, 'dist/cli.js'), 'serve', '--port', '0', '--db', path.join(tmp, 'c.db')], {
  stdio: ['ignore', 'ignore', 'pipe'],
  env: { ...process.env, ROBOT_PARTS_RATE_LIMIT_FREE: '0' },
});
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

const suite = spawn(
  process.execPath,
  [
    path.join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js'),
    'server',
    '--url',
    `${url}/mcp`,
    '--expected-failures',
    path.join(root, 'conformance/expected-failures.yml'),
    '-o',
    path.join(tmp, 'results'),
  ],
  { stdio: 'inherit' },
);
const code = await new Promise((resolve) => suite.on('exit', (c) => resolve(c ?? 1)));
server.kill('SIGTERM');
fs.rmSync(tmp, { recursive: true, force: true });
process.exit(code);
