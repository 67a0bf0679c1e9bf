// CI proof of the published artifact (nothing here can publish): `npm pack`, install the tarball
// with --omit=dev into an empty folder, then run the INSTALLED binary over stdio (initialize,
// tools/list, search_parts) and as `serve` (/healthz, a REST search). Prints the tarball size,
// the install time and the production node_modules size, and fails when node_modules is larger
// than MAX_MB (default 40; env TARBALL_MAX_MB).
//
//   node scripts/tarball-check.mjs [--keep]     (npm run build first; --keep leaves the folder)
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MAX_MB = Number(process.env.TARBALL_MAX_MB ?? 40);
const keep = process.argv.includes('--keep');
const say = (m) => process.stdout.write(`tarball: ${m}\n`);
class CheckFailed extends Error {}
const fail = (m) => {
  throw new CheckFailed(m);
};

/** Bytes on disk under a folder (allocated blocks, as `du` counts them) and its apparent size. */
function diskUsage(dir) {
  let blocks = 0;
  let apparent = 0;
  const seen = new Set(); // hard links count once, as du counts them
  const walk = (p) => {
    const st = fs.lstatSync(p);
    const key = `${st.dev}:${st.ino}`;
    if (seen.has(key)) return;
    seen.add(key);
    blocks += st.blocks * 512;
    apparent += st.size;
    if (st.isDirectory()) for (const e of fs.readdirSync(p)) walk(path.join(p, e));
  };
  walk(dir);
  return { blocks, apparent };
}
const mb = (b) => (b / 1024 / 1024).toFixed(1);

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-tarball-'));
let server = null;
try {
  if (!fs.existsSync(path.join(root, 'dist', 'cli.js'))) fail('no dist/: run npm run build first');
  // --ignore-scripts: the build is already there (prepare would compile again)
  const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: root, encoding: 'utf8' }));
  const tgz = path.join(work, packed[0].filename);
  const files = packed[0].files.map((f) => f.path);
  say(`${packed[0].filename}: ${(fs.statSync(tgz).size / 1024).toFixed(0)} kB packed, ${mb(packed[0].unpackedSize)} MB unpacked, ${files.length} files`);
  for (const f of ['dist/cli.js', 'server.json', 'package.json', 'README.md']) if (!files.includes(f)) fail(`${f} is not in the tarball`);
  const stray = files.filter((f) => (/^(src|test|bench|scripts|conformance|\.ci)\//.test(f) && f !== 'scripts/postinstall-tidy.mjs') || f.endsWith('.map'));
  if (stray.length) fail(`the tarball carries files that are not for users: ${stray.slice(0, 5).join(', ')}`);

  const app = path.join(work, 'app');
  fs.mkdirSync(app);
  fs.writeFileSync(path.join(app, 'package.json'), '{"name":"tarball-check","private":true}\n');
  const t0 = Date.now();
  execFileSync('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error', tgz], { cwd: app, stdio: ['ignore', 'inherit', 'inherit'] });
  const installSeconds = (Date.now() - t0) / 1000;
  const nm = path.join(app, 'node_modules');
  const size = diskUsage(nm);
  const top = fs
    .readdirSync(nm)
    .filter((d) => !d.startsWith('.'))
    .flatMap((d) => (d.startsWith('@') ? fs.readdirSync(path.join(nm, d)).map((s) => `${d}/${s}`) : [d]))
    .map((d) => [d, diskUsage(path.join(nm, d)).blocks])
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6);
  say(`install --omit=dev: ${installSeconds.toFixed(1)} s`);
  say(`production node_modules: ${mb(size.blocks)} MB on disk (${mb(size.apparent)} MB apparent); largest: ${top.map(([d, b]) => `${d} ${mb(b)}`).join(', ')}`);
  const devOnly = ['vitest', 'typescript', 'tsx', 'playwright-core', '@modelcontextprotocol/client', 'ajv-formats'].filter((d) => fs.existsSync(path.join(nm, d)));
  if (devOnly.length) fail(`dev dependencies were installed: ${devOnly.join(', ')}`);

  const bin = path.join(nm, '.bin', 'robot-parts-mcp');
  if (!fs.existsSync(bin)) fail('node_modules/.bin/robot-parts-mcp is missing');
  const version = execFileSync(bin, ['--version'], { cwd: app, encoding: 'utf8' }).trim();
  const pkgVersion = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version;
  if (version !== pkgVersion) fail(`--version says ${version}, package.json ${pkgVersion}`);

  // stdio: newline-delimited JSON-RPC, as a desktop agent speaks it
  const home = path.join(work, 'home');
  fs.mkdirSync(home);
  const env = { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('ROBOT_PARTS_'))), HOME: home };
  const answers = await new Promise((resolve, reject) => {
    const p = spawn(bin, [], { cwd: app, env, stdio: ['pipe', 'pipe', 'pipe'] });
    const got = new Map();
    let buf = '';
    let err = '';
    const timer = setTimeout(() => {
      p.kill('SIGKILL');
      reject(new Error(`stdio: no answer in 60 s; stderr: ${err}`));
    }, 60_000);
    p.stderr.on('data', (d) => (err += d));
    p.stdout.on('data', (d) => {
      buf += d;
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        if (!line.trim()) continue;
        const m = JSON.parse(line);
        if (m.id !== undefined) got.set(m.id, m);
        if (got.size === 3) {
          clearTimeout(timer);
          p.stdin.end();
          resolve(got);
        }
      }
    });
    p.on('exit', (code) => got.size < 3 && reject(new Error(`stdio exited ${code}; stderr: ${err}`)));
    const send = (m) => p.stdin.write(`${JSON.stringify(m)}\n`);
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'tarball-check', version: '1' } } });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'search_parts', arguments: { q: 'motor', limit: 3 } } });
  });
  const init = answers.get(1).result;
  if (init?.serverInfo?.name !== 'robot-parts-mcp' || init.serverInfo.version !== pkgVersion) fail(`stdio initialize: ${JSON.stringify(answers.get(1))}`);
  const tools = answers.get(2).result?.tools ?? [];
  if (!tools.some((t) => t.name === 'search_parts')) fail(`stdio tools/list has no search_parts: ${JSON.stringify(answers.get(2)).slice(0, 300)}`);
  const search = answers.get(3).result;
  const hits = search?.structuredContent?.data;
  if (search?.isError || !Array.isArray(hits) || hits.length === 0) fail(`stdio search_parts: ${JSON.stringify(answers.get(3)).slice(0, 300)}`);
  say(`stdio: initialize ${init.protocolVersion}, tools/list ${tools.length} tools, search_parts "motor" ${hits.length} hits (first ${hits[0].id})`);

  // serve: /healthz and a REST search on a free loopback port
  server = spawn(bin, ['serve', '--port', '0', '--db', path.join(work, 'serve.db')], { cwd: app, env, stdio: ['ignore', 'ignore', 'pipe'] });
  const url = await new Promise((resolve, reject) => {
    let log = '';
    const timer = setTimeout(() => reject(new Error(`serve did not listen in 60 s: ${log}`)), 60_000);
    server.stderr.on('data', (d) => {
      log += d;
      const m = /"msg":"listening","url":"([^"]+)"/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    server.on('exit', (code) => reject(new Error(`serve exited ${code}: ${log}`)));
  });
  const health = await fetch(`${url}/healthz`);
  const healthBody = await health.json();
  if (health.status !== 200) fail(`/healthz ${health.status}: ${JSON.stringify(healthBody)}`);
  const rest = await fetch(`${url}/api/search?q=motor&limit=3`);
  const restBody = await rest.json();
  const restHits = restBody.data;
  if (rest.status !== 200 || !Array.isArray(restHits) || restHits.length === 0) fail(`GET /api/search ${rest.status}: ${JSON.stringify(restBody).slice(0, 300)}`);
  say(`serve: /healthz ${health.status}, GET /api/search?q=motor ${rest.status} with ${restHits.length} hits`);

  if (size.blocks > MAX_MB * 1024 * 1024) fail(`production node_modules is ${mb(size.blocks)} MB, more than ${MAX_MB} MB`);
  say(`ok: production node_modules ${mb(size.blocks)} MB <= ${MAX_MB} MB`);
} catch (err) {
  process.stderr.write(`tarball: FAILED: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
} finally {
  if (server && server.exitCode === null) server.kill('SIGTERM');
  if (!keep) fs.rmSync(work, { recursive: true, force: true });
  else say(`kept ${work}`);
}
