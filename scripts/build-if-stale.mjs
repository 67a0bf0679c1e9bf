// `npm start` runs this first: it builds (npm run build) only when the sources changed since the
// last build, so a start without changes takes the server's own start time, not a compile.
// Stale means: no dist/.build-stamp, or a file or folder under src/ (a deleted file changes its
// folder's time), tsconfig.json, tsconfig.build.json or package.json newer than the stamp.
// `node scripts/build-if-stale.mjs --stamp` (the end of `npm run build`) writes the stamp;
// `--unstamp` (its start) removes it, so a build that fails half-way (tsc, or the bundle after it
// removed the compiled modules) leaves no stamp and the next start builds again instead of
// serving a half-written dist/.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stamp = path.join(root, 'dist', '.build-stamp');

if (process.argv.includes('--stamp')) {
  fs.writeFileSync(stamp, `${new Date().toISOString()}\n`);
  process.exit(0);
}
if (process.argv.includes('--unstamp')) {
  fs.rmSync(stamp, { force: true });
  process.exit(0);
}

/** The newest modification time (ms) of a path and, for a folder, of everything under it. */
function newest(p) {
  let st;
  try {
    st = fs.statSync(p);
  } catch {
    return 0;
  }
  let t = st.mtimeMs;
  if (st.isDirectory()) for (const e of fs.readdirSync(p)) t = Math.max(t, newest(path.join(p, e)));
  return t;
}

const built = fs.existsSync(path.join(root, 'dist', 'cli.js')) ? newest(stamp) : 0;
const changed = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'scripts/bundle.mjs', 'scripts/browser-assets.mjs', 'scripts/app-views.mjs', 'scripts/tools-list-cache.mjs'].map((p) => newest(path.join(root, p)));
if (built > 0 && changed.every((t) => t <= built)) {
  process.stderr.write('build is up to date (no source newer than dist/.build-stamp)\n');
  process.exit(0);
}
process.stderr.write(built === 0 ? 'no finished build yet: building\n' : 'sources changed since the last build: building\n');
const r = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
process.exit(r.status ?? 1);
