/**
 * Starting the real binary (dist/cli.js) as a person would, in an empty temporary folder: bad
 * flags are refused before anything is created, naming the flag; `serve` prints a readable banner
 * besides its JSON logs; on a loopback bind the free rate limit is off unless asked for; any other
 * bind keeps the spec's 30/hour (config, since this machine has only loopback to bind safely).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { CLI, startInstance, type Instance } from '../support/instances.js';

const tmps: string[] = [];
const running: Instance[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((i) => i.stop()));
  for (const t of tmps.splice(0)) fs.rmSync(t, { recursive: true, force: true });
});
function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-cli-'));
  tmps.push(d);
  return d;
}

/** Runs the binary to completion in `cwd`; ROBOT_PARTS_* from this process are not passed on. */
function run(args: string[], cwd: string, env: Record<string, string> = {}) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('ROBOT_PARTS_')));
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, env: { ...clean, HOME: cwd, ...env }, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stderr: r.stderr, stdout: r.stdout };
}

describe('bad flags are refused before anything is opened or created', () => {
  const cases: [string[], Record<string, string>, RegExp][] = [
    [['serve', '--port', '99999'], {}, /--port must be at most 65535, got "99999"/],
    [['serve', '--port', '-1'], {}, /--port/],
    [['serve', '--port', 'abc'], {}, /--port must be a non-negative integer/],
    [['serve'], { ROBOT_PARTS_PORT: '70000' }, /ROBOT_PARTS_PORT must be at most 65535/],
    [['serve', '--rate-limit-free', 'lots'], {}, /--rate-limit-free must be a non-negative integer/],
    [['serve', '--public-url', 'ftp://example.org'], {}, /--public-url/],
    [['serve', '--data', 'no-such-folder'], {}, /--data \/ ROBOT_PARTS_DATA_DIR: ".*no-such-folder" is not a folder/],
    [['--data', 'no-such-folder'], {}, /--data/],
    [['serve', '--log-level', 'loud'], {}, /--log-level must be debug, info, warn or error/],
    [['serve', '--bogus'], {}, /Unknown option '--bogus'/],
    [['--port', '1'], {}, /Unknown option '--port'/], // stdio has no port
    [['frobnicate'], {}, /unknown command "frobnicate"/],
  ];
  it.each(cases)('%j %j', (args, env, message) => {
    const dir = tmp();
    const r = run(args, dir, env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1); // one line, no stack
    expect(fs.readdirSync(dir)).toEqual([]); // no database, no secret, no home folder
  });

  it('a port already in use is named as --port, in plain words', async () => {
    const dir = tmp();
    const first = await startInstance({ cwd: dir, args: ['--db', path.join(dir, 'a.db')] });
    running.push(first);
    const port = new URL(first.url).port;
    const r = run(['serve', '--port', port, '--db', path.join(dir, 'b.db')], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--port ${port}: the port is in use on 127.0.0.1`);
  });
});

describe('serve on loopback, as `npm start` runs it', () => {
  async function started(args: string[] = []) {
    const dir = tmp();
    const inst = await startInstance({ cwd: dir, args, env: { ROBOT_PARTS_RATE_LIMIT_FREE: '', ROBOT_PARTS_RATE_LIMIT: '' } });
    running.push(inst);
    // the banner follows the "listening" line
    for (let i = 0; i < 100 && !inst.log().includes('stop with Ctrl+C'); i++) await new Promise((r) => setTimeout(r, 50));
    return { dir, inst, banner: inst.log().split('\n').filter((l) => !l.startsWith('{')) };
  }

  it('prints a banner with the URLs, the database and the limits in force; JSON logs stay one object per line', async () => {
    const { dir, inst, banner } = await started();
    const u = inst.url;
    expect(banner[0]).toBe(`robot-parts-mcp ${JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../package.json'), 'utf8')).version} is serving on ${u}`);
    const text = banner.join('\n');
    for (const s of [`${u}/ `, `${u}/docs`, `${u}/mcp`, `${u}/api/`, `${u}/openapi.json`, `${u}/healthz`]) expect(text).toContain(s);
    expect(text).toContain(`${fs.realpathSync(dir)}/robot-parts.db (SQLite)`);
    expect(text).toMatch(/free calls: no limit on this loopback address \(--rate-limit applies 30\/hour\)/);
    expect(text).toMatch(/paid plans: 1000\/hour/);
    for (const line of inst.log().split('\n').filter((l) => l.startsWith('{'))) expect(() => JSON.parse(line)).not.toThrow();
  });

  it('free calls are not limited on loopback by default: 35 searches, no 429 and no RateLimit headers', async () => {
    const { inst } = await started();
    const statuses: number[] = [];
    for (let i = 0; i < 35; i++) {
      const r = await fetch(`${inst.url}/api/search?q=motor&limit=1`);
      statuses.push(r.status);
      expect(r.headers.get('ratelimit-limit')).toBeNull();
      await r.arrayBuffer();
    }
    expect(statuses.every((s) => s === 200)).toBe(true);
  });

  it('--rate-limit applies the spec default (30/hour) on loopback: the 31st free call is refused', async () => {
    const { inst, banner } = await started(['--rate-limit']);
    expect(banner.join('\n')).toContain('free calls: 30/hour');
    let last: Response | null = null;
    for (let i = 0; i < 31; i++) {
      last = await fetch(`${inst.url}/api/search?q=motor&limit=1`);
      if (i === 0) expect(last.headers.get('ratelimit-limit')).toBe('30');
      if (i < 30) expect(last.status).toBe(200);
      await last.arrayBuffer();
    }
    expect(last!.status).toBe(429);
    expect(((await (await fetch(`${inst.url}/api/search?q=motor&limit=1`)).json()) as { code: string }).code).toBe('rate_limited');
  });
});

describe('which free limit a bind gets (config)', () => {
  it('loopback binds: off unless asked; any other bind: 30/hour; a number given always wins', () => {
    for (const host of ['127.0.0.1', 'localhost', '::1', '127.0.0.2']) {
      expect(loadConfig({}, { host }).rateLimitFree, host).toBe(0);
      expect(loadConfig({ ROBOT_PARTS_RATE_LIMIT: '1' }, { host }).rateLimitFree, host).toBe(30);
      expect(loadConfig({}, { host, rateLimit: true }).rateLimitFree, host).toBe(30);
    }
    for (const host of ['0.0.0.0', '::', '192.0.2.10', 'parts.example.com']) {
      expect(loadConfig({}, { host }).rateLimitFree, host).toBe(30);
      expect(loadConfig({ ROBOT_PARTS_HOST: host }).rateLimitFree, host).toBe(30);
    }
    expect(loadConfig({ ROBOT_PARTS_RATE_LIMIT_FREE: '7' }, { host: '127.0.0.1' }).rateLimitFree).toBe(7);
    expect(loadConfig({}, { host: '0.0.0.0', rateLimitFree: 0 }).rateLimitFree).toBe(0);
    expect(loadConfig({}).rateLimitFreeSource).toBe('loopback-off'); // default host is 127.0.0.1
  });
});
