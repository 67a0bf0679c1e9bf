import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { renderReadme } from '../../scripts/readme-tools.js';

it('README.md tool table is generated from the registry (run `npm run docs` after changing tools)', () => {
  const file = path.resolve(import.meta.dirname, '../../README.md');
  const text = fs.readFileSync(file, 'utf8');
  expect(renderReadme(text)).toBe(text);
});
