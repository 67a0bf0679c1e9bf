/** The build's prebuilt tools/list entries (dist/mcp/tools-list.json) equal a fresh conversion of the source definitions. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { prebuiltToolEntries } from '../../src/mcp/tools-list-cache.js';
import { toolListEntry, toolTable } from '../../src/server.js';
import { TOOLS } from '../../src/tools/index.js';

const BUILT = path.resolve(import.meta.dirname, '../../dist/mcp/tools-list.json');

describe.skipIf(!fs.existsSync(BUILT))('prebuilt tools/list entries', () => {
  it('dist/mcp/tools-list.json is what converting the current definitions gives (rebuild when this fails)', () => {
    const built = JSON.parse(fs.readFileSync(BUILT, 'utf8')) as { tools: unknown[] };
    expect(built.tools).toEqual(JSON.parse(JSON.stringify(TOOLS.map(toolListEntry))));
  });
});

describe('loading prebuilt entries', () => {
  it('used only when the file lists exactly the registry\'s tools in order; unreadable or other lists give null', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-tl-'));
    const file = path.join(dir, 'tools-list.json');
    try {
      const entries = TOOLS.map(toolListEntry);
      const names = TOOLS.map((t) => t.name);
      fs.writeFileSync(file, JSON.stringify({ tools: entries }));
      expect(prebuiltToolEntries(names, file)).toEqual(JSON.parse(JSON.stringify(entries)));
      expect(prebuiltToolEntries([...names].reverse(), file)).toBeNull();
      expect(prebuiltToolEntries(names.slice(1), file)).toBeNull();
      fs.writeFileSync(file, '{"tools": [');
      expect(prebuiltToolEntries(names, file)).toBeNull();
      expect(prebuiltToolEntries(names, path.join(dir, 'absent.json'))).toBeNull();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('from src there is no prebuilt file: the registry is converted as before', () => {
    expect(prebuiltToolEntries(TOOLS.map((t) => t.name))).toBeNull();
    expect(toolTable(TOOLS).listed.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
  });
});
