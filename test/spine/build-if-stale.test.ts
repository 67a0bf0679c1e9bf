/**
 * scripts/build-if-stale.mjs (npm start's prestart): builds only when a source is newer than the
 * last build's stamp. Run for real in a temporary project whose `build` script only records that
 * it ran, between removing the stamp and writing it again (as the real build does), and fails
 * half-way when FAIL_BUILD is set.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildWithStampAside } from '../support/build-stamp.js';

const SCRIPT = path.resolve(import.meta.dirname, '../../scripts/build-if-stale.mjs');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-stale-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

fs.mkdirSync(path.join(dir, 'scripts'));
fs.mkdirSync(path.join(dir, 'src', 'sub'), { recursive: true });
fs.copyFileSync(SCRIPT, path.join(dir, 'scripts', 'build-if-stale.mjs'));
fs.writeFileSync(path.join(dir, 'src', 'a.ts'), 'export {};\n');
fs.writeFileSync(path.join(dir, 'src', 'sub', 'b.ts'), 'export {};\n');
fs.writeFileSync(
  path.join(dir, 'package.json'),
  JSON.stringify({
    name: 'stale-check',
    private: true,
    scripts: {
      build: `node scripts/build-if-stale.mjs --unstamp && node -e "require('fs').mkdirSync('dist',{recursive:true});require('fs').writeFileSync('dist/cli.js','');require('fs').appendFileSync('builds.log','x');process.exit(process.env.FAIL_BUILD ? 1 : 0)" && node scripts/build-if-stale.mjs --stamp`,
    },
  }),
);

const builds = () => (fs.existsSync(path.join(dir, 'builds.log')) ? fs.readFileSync(path.join(dir, 'builds.log'), 'utf8').length : 0);
function prestart(fail = false) {
  const env = { ...process.env };
  if (fail) env.FAIL_BUILD = '1';
  else delete env.FAIL_BUILD;
  const r = spawnSync(process.execPath, [path.join(dir, 'scripts', 'build-if-stale.mjs')], { cwd: dir, encoding: 'utf8', timeout: 120_000, env });
  expect(r.status, r.stderr).toBe(fail ? 1 : 0);
  return r.stderr;
}
/** Makes `p` newer than the last build: the stamp is moved a minute back, `p` half a minute back. */
function changed(p: string) {
  const now = Date.now() / 1000;
  fs.utimesSync(path.join(dir, 'dist', '.build-stamp'), now - 60, now - 60);
  fs.utimesSync(p, now - 30, now - 30);
}

describe('npm start builds only when sources changed', () => {
  it('no build yet: builds', () => {
    expect(prestart()).toContain('no finished build yet');
    expect(builds()).toBe(1);
  });
  it('nothing changed: no build', () => {
    expect(prestart()).toContain('up to date');
    expect(prestart()).toContain('up to date');
    expect(builds()).toBe(1);
  });
  it('a source file in a subfolder changed: builds, then up to date again', () => {
    changed(path.join(dir, 'src', 'sub', 'b.ts'));
    expect(prestart()).toContain('sources changed');
    expect(builds()).toBe(2);
    expect(prestart()).toContain('up to date');
    expect(builds()).toBe(2);
  });
  it('a deleted source (its folder changed) and package.json count as changes', () => {
    fs.rmSync(path.join(dir, 'src', 'a.ts'));
    changed(path.join(dir, 'src'));
    prestart();
    expect(builds()).toBe(3);
    changed(path.join(dir, 'package.json'));
    prestart();
    expect(builds()).toBe(4);
  });
  it('dist/cli.js missing (a removed build): builds even with a stamp', () => {
    fs.rmSync(path.join(dir, 'dist', 'cli.js'));
    prestart();
    expect(builds()).toBe(5);
  });
  it('a build that fails half-way leaves no stamp: the next start builds again', () => {
    changed(path.join(dir, 'src', 'sub', 'b.ts'));
    prestart(true); // fails after writing dist/cli.js, before the stamp
    expect(builds()).toBe(6);
    expect(fs.existsSync(path.join(dir, 'dist', '.build-stamp'))).toBe(false);
    expect(prestart()).toContain('no finished build yet');
    expect(builds()).toBe(7);
    expect(prestart()).toContain('up to date');
    expect(builds()).toBe(7);
  });
  it("the real build removes the stamp first and writes it last (what the project above does)", () => {
    const build = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../package.json'), 'utf8')).scripts.build.split(' && ');
    expect(build[0]).toBe('node scripts/build-if-stale.mjs --unstamp');
    expect(build.at(-1)).toBe('node scripts/build-if-stale.mjs --stamp');
  });
});

describe("the test setup's build sets the stamp aside (test/support/build-stamp.ts)", () => {
  const stamp = path.join(dir, 'dist', '.build-stamp');
  const buildDist = () => fs.writeFileSync(path.join(dir, 'dist', 'cli.js'), '// rebuilt\n');

  it('a fresh stamp is put back as it was when the build succeeds: npm start stays up to date', () => {
    prestart();
    expect(prestart()).toContain('up to date');
    const before = fs.statSync(stamp);
    const text = fs.readFileSync(stamp, 'utf8');
    const n = builds();
    let seenDuring: boolean | null = null;
    buildWithStampAside(stamp, () => {
      seenDuring = fs.existsSync(stamp);
      buildDist();
    });
    expect(seenDuring).toBe(false);
    expect(fs.readFileSync(stamp, 'utf8')).toBe(text);
    expect(fs.statSync(stamp).mtimeMs).toBe(before.mtimeMs);
    expect(fs.existsSync(`${stamp}.aside`)).toBe(false);
    expect(prestart()).toContain('up to date');
    expect(builds()).toBe(n);
  });
  it('a step that fails leaves no stamp: the next npm start builds', () => {
    const n = builds();
    expect(() =>
      buildWithStampAside(stamp, () => {
        buildDist();
        throw new Error('bundle failed half-way');
      }),
    ).toThrow('bundle failed half-way');
    expect(fs.existsSync(stamp)).toBe(false);
    expect(fs.existsSync(`${stamp}.aside`)).toBe(false);
    expect(prestart()).toContain('no finished build yet');
    expect(builds()).toBe(n + 1);
  });
  it('a stale stamp stays stale, and no stamp stays none', () => {
    changed(path.join(dir, 'src', 'sub', 'b.ts'));
    buildWithStampAside(stamp, buildDist);
    const n = builds();
    expect(prestart()).toContain('sources changed');
    expect(builds()).toBe(n + 1);
    fs.rmSync(stamp);
    buildWithStampAside(stamp, buildDist);
    expect(fs.existsSync(stamp)).toBe(false);
  });
  it('the real test setup builds through it (what the cases above check)', () => {
    const setup = fs.readFileSync(path.resolve(import.meta.dirname, '../support/global-setup.ts'), 'utf8');
    expect(setup).toMatch(/export default function setup\(\): void \{\s*const root = [^;]+;\s*buildWithStampAside\(path\.join\(root, 'dist', '\.build-stamp'\), \(\) => buildSteps\(root\)\);\s*\}/);
  });
});
