/**
 * Regenerates the tool table and the REST route table in README.md from the registry.
 * `npm run docs` writes; test/spine/readme.test.ts fails when README.md is out of date.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TOOLS } from '../src/tools/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function toolTable(): string {
  const rows = TOOLS.map((t) => {
    const args = Object.entries(t.inputSchema.shape as Record<string, { isOptional?: () => boolean }>)
      .map(([k, s]) => (s.isOptional?.() ? `${k}?` : k))
      .join(', ');
    const routes = t.rest.map((r) => `\`${r.method} ${r.path.replace(/:([a-z_]+)/g, '{$1}')}\``).join('<br>');
    const hints = [t.annotations.readOnlyHint ? 'read-only' : 'writes', t.annotations.idempotentHint ? 'idempotent' : null, t.annotations.openWorldHint ? 'open-world' : null]
      .filter(Boolean)
      .join(', ');
    const firstSentence = t.description.split(/(?<=\.)\s+(?=[A-Z])/)[0];
    return `| \`${t.name}(${args})\` | ${firstSentence.replace(/\|/g, '\\|')} | ${hints} | ${routes || '—'} |`;
  });
  return ['| tool | what it does | hints | REST |', '|---|---|---|---|', ...rows].join('\n');
}

export function renderReadme(text: string): string {
  const start = '<!-- tools:start -->';
  const end = '<!-- tools:end -->';
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a < 0 || b < a) throw new Error('README.md lacks the tools:start / tools:end markers');
  return `${text.slice(0, a + start.length)}\n${toolTable()}\n${text.slice(b)}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = path.join(root, 'README.md');
  fs.writeFileSync(file, renderReadme(fs.readFileSync(file, 'utf8')));
  process.stdout.write('README.md tool table updated\n');
}
