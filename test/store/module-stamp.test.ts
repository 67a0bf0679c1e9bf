/**
 * moduleStamp (src/store/module-stamp.ts): the modules reachable from the entries by relative
 * static imports, and a SHA-256 over their paths, lengths and bytes, computed again here.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { moduleStamp } from '../../src/store/module-stamp.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** The stamp's hash as its comment defines it: each module's relative path, length and bytes, in the order listed. */
function expectedHash(dir: string, files: string[]): string {
  const h = createHash('sha256');
  for (const f of files) {
    const bytes = fs.readFileSync(path.join(dir, f));
    h.update(`${f}\0${bytes.length}\0`);
    h.update(bytes);
  }
  return h.digest('hex');
}

describe('moduleStamp', () => {
  it('follows relative static imports (a specifier with non-ASCII letters too, cycles once, missing modules left out) and hashes what it found', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-stamp-'));
    dirs.push(dir);
    fs.mkdirSync(path.join(dir, 'lib'));
    fs.writeFileSync(path.join(dir, 'a.js'), `import { b } from './lib/b.js';\nimport "./ü-größe.js";\nimport x from 'node:fs';\nexport const a = 1; // "é"\n`);
    fs.writeFileSync(path.join(dir, 'lib/b.js'), `export { a } from '../a.js';\nimport './missing.js';\nexport const b = 2;\n`);
    fs.writeFileSync(path.join(dir, 'ü-größe.js'), `export const u = 'ü';\n`);
    fs.writeFileSync(path.join(dir, 'unrelated.js'), `export const z = 0;\n`);
    const stamp = moduleStamp([path.join(dir, 'a.js')]);
    expect(stamp?.files).toEqual(['a.js', 'lib/b.js', 'ü-größe.js']);
    expect(stamp?.sha256).toBe(expectedHash(dir, ['a.js', 'lib/b.js', 'ü-größe.js']));
    // One byte of an imported module changed: another stamp.
    fs.writeFileSync(path.join(dir, 'ü-größe.js'), `export const u = 'Ü';\n`);
    const after = moduleStamp([path.join(dir, 'a.js')]);
    expect(after?.sha256).toBe(expectedHash(dir, ['a.js', 'lib/b.js', 'ü-größe.js']));
    expect(after?.sha256).not.toBe(stamp?.sha256);
    // An entry that cannot be read: no stamp.
    expect(moduleStamp([path.join(dir, 'nope.js')])).toBeNull();
  });
});
