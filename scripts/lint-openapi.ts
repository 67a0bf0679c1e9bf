/**
 * `npm run lint:openapi`: starts the server (in-memory store, shipped data, loopback, free port),
 * writes the /openapi.json it serves to a temp file and lints that file with Redocly's
 * recommended rules. Exit status: Redocly's (non-zero when an error-level rule fails).
 * Extra arguments go to `redocly lint` (e.g. `-- --format=summary`).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config.js';
import { buildDeps } from '../src/deps.js';
import { startHttpServer } from '../src/http/app.js';
import { silentLogger } from '../src/log.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The /openapi.json text a freshly started server serves. */
export async function servedOpenApiText(): Promise<string> {
  const deps = buildDeps(loadConfig({}, { dbPath: ':memory:', host: '127.0.0.1', port: 0, logLevel: 'error' }), { log: silentLogger });
  try {
    const srv = await startHttpServer(deps);
    try {
      const res = await fetch(`${srv.url}/openapi.json`);
      if (res.status !== 200) throw new Error(`/openapi.json answered ${res.status}`);
      return await res.text();
    } finally {
      await srv.close();
    }
  } finally {
    deps.close();
  }
}

/** Writes the served document into a fresh temp folder; returns the file's path. */
export async function writeServedOpenApi(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'robot-parts-openapi-'));
  const file = path.join(dir, 'openapi.json');
  fs.writeFileSync(file, await servedOpenApiText());
  return file;
}

/** `redocly lint --extends=recommended` on a file, from the dev dependency's own binary. */
export function redoclyLint(file: string, extra: string[] = []): { status: number; stdout: string; stderr: string } {
  const bin = path.join(root, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
  const r = spawnSync(process.execPath, [bin, 'lint', file, '--extends=recommended', ...extra], {
    encoding: 'utf8',
    // No usage telemetry, no update check: CI has no network beyond the registry.
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  if (r.error) throw r.error;
  return { status: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = await writeServedOpenApi();
  process.stdout.write(`Linting the served /openapi.json (written to ${file})\n`);
  const r = redoclyLint(file, process.argv.slice(2));
  process.stdout.write(r.stdout);
  process.stderr.write(r.stderr);
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  process.exit(r.status);
}
