import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeText } from '../../src/ingest/oss/index.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Real third-party robot files: read in place, never copied into the repository. */
export const ROBOTS = path.resolve(ROOT, '../shared/robots');
export const robotsPresent = fs.existsSync(path.join(ROBOTS, 'README.md'));
export const FIXTURES = path.join(ROOT, 'test/oss/fixtures');

export function robotBytes(rel: string): Buffer {
  return fs.readFileSync(path.join(ROBOTS, rel));
}

export function robotText(rel: string): string {
  return decodeText(robotBytes(rel)).text;
}

export function fixtureText(name: string): string {
  return decodeText(fs.readFileSync(path.join(FIXTURES, name))).text;
}

/** The files of a shared description package as {path, content}, paths relative to shared/robots/packages (read in place, never copied). */
export function sharedPackageFiles(name: string): { path: string; content: string }[] {
  const base = path.join(ROBOTS, 'packages');
  const out: { path: string; content: string }[] = [];
  const walkDir = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walkDir(p);
      else out.push({ path: path.relative(base, p), content: fs.readFileSync(p, 'utf8') });
    }
  };
  walkDir(path.join(base, name));
  return out;
}
