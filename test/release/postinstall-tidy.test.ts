/**
 * scripts/postinstall-tidy.mjs, run for real on a copy of this checkout's better-sqlite3 laid out
 * as an install (node_modules/robot-parts-mcp beside node_modules/better-sqlite3): the compiler
 * intermediates and the SQLite source go, the addon stays and still opens a database; in a clone
 * (no node_modules above the package) and with ROBOT_PARTS_NO_TIDY=1 nothing is touched.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-tidy-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function layout(name: string) {
  const nm = path.join(tmp, name, 'node_modules');
  for (const dep of ['better-sqlite3', 'bindings', 'file-uri-to-path']) fs.cpSync(path.join(root, 'node_modules', dep), path.join(nm, dep), { recursive: true });
  const pkg = path.join(nm, 'robot-parts-mcp');
  fs.mkdirSync(path.join(pkg, 'scripts'), { recursive: true });
  fs.copyFileSync(path.join(root, 'package.json'), path.join(pkg, 'package.json'));
  fs.copyFileSync(path.join(root, 'scripts', 'postinstall-tidy.mjs'), path.join(pkg, 'scripts', 'postinstall-tidy.mjs'));
  return { nm, pkg, sqlite: path.join(nm, 'better-sqlite3') };
}
const run = (cwd: string, env: Record<string, string> = {}) => spawnSync(process.execPath, ['scripts/postinstall-tidy.mjs'], { cwd, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 60_000 });
const opens = (sqlite: string) => spawnSync(process.execPath, ['-e', `const D=require(${JSON.stringify(sqlite)});console.log(new D(':memory:').prepare('select 40+2 v').get().v)`], { encoding: 'utf8' }).stdout.trim();

describe('postinstall tidy of better-sqlite3', () => {
  it('removes the build intermediates and the SQLite source of an installed copy; the addon still works', () => {
    const { pkg, sqlite } = layout('installed');
    const hadObj = fs.existsSync(path.join(sqlite, 'build', 'Release', 'obj'));
    const r = run(pkg);
    expect(r.status).toBe(0);
    if (hadObj) expect(r.stderr).toMatch(/removed [\d.]+ MB of better-sqlite3 build intermediates/);
    for (const p of ['build/Release/obj', 'build/Release/obj.target', 'build/Release/.deps', 'deps/sqlite3/sqlite3.c']) expect(fs.existsSync(path.join(sqlite, p)), p).toBe(false);
    expect(fs.existsSync(path.join(sqlite, 'build', 'Release', 'better_sqlite3.node'))).toBe(true);
    expect(opens(sqlite)).toBe('42');
    expect(run(pkg).stderr).toBe(''); // a second run finds nothing to remove
  });

  it('ROBOT_PARTS_NO_TIDY=1, and a package that is not inside node_modules (a clone), touch nothing', () => {
    const { pkg, sqlite } = layout('opted-out');
    const before = fs.readdirSync(path.join(sqlite, 'deps', 'sqlite3')).sort();
    expect(run(pkg, { ROBOT_PARTS_NO_TIDY: '1' }).status).toBe(0);
    expect(fs.readdirSync(path.join(sqlite, 'deps', 'sqlite3')).sort()).toEqual(before);
    // the checkout itself: its own node_modules stay whole
    const own = fs.readdirSync(path.join(root, 'node_modules', 'better-sqlite3', 'deps', 'sqlite3')).sort();
    expect(run(root).status).toBe(0);
    expect(fs.readdirSync(path.join(root, 'node_modules', 'better-sqlite3', 'deps', 'sqlite3')).sort()).toEqual(own);
  });
});
