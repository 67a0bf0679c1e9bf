// postinstall of the INSTALLED package (npm install -g / npx / a dependency; never in a clone):
// better-sqlite3, when it had to compile SQLite from source (no prebuilt binary reachable), leaves
// its compiler intermediates (build/Release/obj*, sqlite3.a, ~17 MB) and the SQLite amalgamation it compiled
// (deps/sqlite3/sqlite3.c, ~9 MB) beside the one file it loads, build/Release/better_sqlite3.node.
// Once that addon loads, those are removed; nothing else is touched, and any failure leaves all
// as it was (the install never fails because of this). A later `npm rebuild better-sqlite3` from
// source then needs a fresh install of the package. ROBOT_PARTS_NO_TIDY=1 skips it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const installed = root.split(path.sep).includes('node_modules');
if (!installed || process.env.ROBOT_PARTS_NO_TIDY === '1') process.exit(0);

try {
  const dir = path.dirname(createRequire(path.join(root, 'package.json')).resolve('better-sqlite3/package.json'));
  const addon = path.join(dir, 'build', 'Release', 'better_sqlite3.node');
  if (!fs.existsSync(addon)) process.exit(0); // a prebuilt layout or not built: nothing to tidy
  // The addon must load (in a child: a crash there must not end this script) before anything goes.
  const probe = spawnSync(process.execPath, ['-e', `const D=require(${JSON.stringify(dir)});new D(':memory:').prepare('select 1').get()`], { stdio: 'ignore', timeout: 30_000 });
  if (probe.status !== 0) process.exit(0);
  const gone = [
    path.join(dir, 'build', 'Release', 'obj'),
    path.join(dir, 'build', 'Release', 'obj.target'),
    path.join(dir, 'build', 'Release', '.deps'),
    path.join(dir, 'build', 'Release', 'test_extension.node'),
    path.join(dir, 'build', 'Release', 'sqlite3.a'),
    path.join(dir, 'build', 'deps'),
    path.join(dir, 'deps', 'sqlite3', 'sqlite3.c'),
  ];
  let freed = 0;
  const size = (p) => {
    const st = fs.lstatSync(p);
    return st.isDirectory() ? fs.readdirSync(p).reduce((s, e) => s + size(path.join(p, e)), 0) : st.size;
  };
  for (const p of gone) {
    if (!fs.existsSync(p)) continue;
    freed += size(p);
    fs.rmSync(p, { recursive: true, force: true });
  }
  if (freed > 0) process.stderr.write(`robot-parts-mcp: removed ${(freed / 1048576).toFixed(1)} MB of better-sqlite3 build intermediates\n`);
} catch {
  // leave everything as it is
}
