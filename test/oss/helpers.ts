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
