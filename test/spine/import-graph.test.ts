/**
 * Issue 46: the house runs one way. The import graph of src/ (TypeScript's own parser and module
 * resolution, scripts/import-graph.ts; type-only imports count) has no circle, the domain imports
 * nothing but itself and the base, and no import runs up the layer order. The checker itself is
 * shown to report circles and upward imports on small trees written here.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { importCircles, importGraph, importsLeaving, layerOf, layerReport, LAYERS, loadedWith, type Layer } from '../../scripts/import-graph.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BASE = LAYERS.length - 1;

const tmpDirs: string[] = [];
afterAll(() => {
  for (const d of tmpDirs) fs.rmSync(d, { recursive: true, force: true });
});

/** A tree of files (path → text) in a temp folder; returns its root. */
function tree(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-graph-'));
  tmpDirs.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

describe('the source tree (issue 46)', () => {
  const g = importGraph(path.join(ROOT, 'src'));

  it('reads every file of src/ and the imports written in them', () => {
    // Independent count: every .ts file under src/.
    const count = (d: string): number => fs.readdirSync(d, { withFileTypes: true }).reduce((n, e) => n + (e.isDirectory() ? count(path.join(d, e.name)) : e.name.endsWith('.ts') ? 1 : 0), 0);
    expect(g.files.length).toBe(count(path.join(ROOT, 'src')));
    // A few imports read off the files themselves: a static one, a type-only one, a dynamic one.
    const has = (from: string, to: string, typeOnly?: boolean) => g.edges.some((e) => e.from === from && e.to === to && (typeOnly === undefined || e.typeOnly === typeOnly));
    expect(fs.readFileSync(path.join(ROOT, 'src/jobs/worker.ts'), 'utf8')).toMatch(/from '\.\.\/tools\/index\.js'/);
    expect(has('jobs/worker.ts', 'tools/index.ts', false)).toBe(true);
    expect(fs.readFileSync(path.join(ROOT, 'src/tools/define.ts'), 'utf8')).toMatch(/import type \{ Deps \} from '\.\.\/deps\.js'/);
    expect(has('tools/define.ts', 'deps.ts', true)).toBe(true);
    expect(fs.readFileSync(path.join(ROOT, 'src/cli.ts'), 'utf8')).toMatch(/await import\('\.\/deps\.js'\)/);
    expect(has('cli.ts', 'deps.ts')).toBe(true);
  });

  it('has no import circle, type-only imports included', () => {
    expect(importCircles(g).map((c) => c.cycle.join(' → '))).toEqual([]);
  });

  it("the HTTP app and the CLI load without the MCP SDK: /mcp's serving imports it on the first request, stdio when it starts", () => {
    const sdk = (p: string) => p === '@modelcontextprotocol/server' || p.startsWith('@modelcontextprotocol/server/');
    const app = loadedWith(g, 'http/app.ts');
    expect(app.files).toContain('http/mcp.ts'); // /mcp is mounted
    expect(app.files).not.toContain('http/mcp-serve.ts');
    expect(app.files).not.toContain('server.ts');
    expect(app.packages).toContain('hono'); // packages are seen
    expect(app.packages.filter(sdk)).toEqual([]);
    expect(loadedWith(g, 'cli.ts').packages.filter(sdk)).toEqual([]);
    // What the first /mcp request imports does load it; so does the stdio command.
    expect(g.edges).toContainEqual(expect.objectContaining({ from: 'http/mcp.ts', to: 'http/mcp-serve.ts', dynamic: true }));
    expect(loadedWith(g, 'http/mcp-serve.ts').packages.filter(sdk)).toEqual(['@modelcontextprotocol/server']);
    expect(g.packages).toContainEqual({ from: 'cli.ts', specifier: '@modelcontextprotocol/server/stdio', typeOnly: false, dynamic: true });
  });

  it('src/domain imports only src/domain and the base (config, log, lazy-require ...): its ports are declared there, the store implements them', () => {
    const out = importsLeaving(g, 'domain').filter((e) => layerOf(e.to, LAYERS) !== BASE);
    expect(out.map((e) => `${e.from} → ${e.to}`)).toEqual([]);
    // The ports: the store's modules re-export what the domain declares.
    expect(g.edges.some((e) => e.from === 'store/ledger.ts' && e.to === 'domain/accounts/ledger.ts')).toBe(true);
    expect(g.edges.some((e) => e.from === 'store/catalogue.ts' && e.to === 'domain/catalogue/store.ts')).toBe(true);
  });

  it('every file is in a layer and no import runs up the layer order; the pool and the deps know no tool', () => {
    const rep = layerReport(g, LAYERS);
    expect(rep.unplaced).toEqual([]);
    expect(rep.upward.map((e) => `${e.from} → ${e.to}`)).toEqual([]);
    const toTools = (from: (f: string) => boolean) => g.edges.filter((e) => from(e.from) && e.to.startsWith('tools/')).map((e) => `${e.from} → ${e.to}`);
    expect(toTools((f) => f === 'deps.ts')).toEqual([]);
    // Only the worker's own entry (and the composition root) import the tool layer.
    expect(toTools((f) => f.startsWith('jobs/') && f !== 'jobs/worker.ts')).toEqual([]);
    // The layer order as recorded in the closing note.
    console.log(rep.counts.map((c) => `${c.layer}: ${c.files}`).join('\n'));
  });
});

describe('the checker', () => {
  it('reports a deliberately added circle, through a type-only import and an `import()` type', () => {
    const root = tree({
      'a.ts': "import { b } from './b.js';\nexport const a = () => b();\n",
      'b.ts': "import type { C } from './c.js';\nexport const b = (): C | null => null;\n",
      'c.ts': "export type C = import('./a.js').A;\n",
      'd.ts': "import { a } from './a.js';\nexport const d = a;\n",
    });
    const circles = importCircles(importGraph(root));
    expect(circles).toHaveLength(1);
    expect(circles[0]!.files).toEqual(['a.ts', 'b.ts', 'c.ts']);
    expect(circles[0]!.cycle).toEqual(['a.ts', 'b.ts', 'c.ts', 'a.ts']);
  });

  it('reports a circle made by a dynamic import, a re-export and a self-import; none in a tree without one', () => {
    const root = tree({
      'x/one.ts': "export async function one() { return (await import('../y/two.js')).two; }\n",
      'y/two.ts': "export { one as two } from '../x/one.js';\n",
      'self.ts': "import * as me from './self.js';\nexport const s = me;\n",
    });
    const g = importGraph(root);
    expect(importCircles(g).map((c) => c.files)).toEqual([['self.ts'], ['x/one.ts', 'y/two.ts']]);
    // The dynamic import is an edge of the graph, but not loaded with its file; the re-export is.
    expect(g.edges.find((e) => e.from === 'x/one.ts')).toMatchObject({ to: 'y/two.ts', dynamic: true });
    expect(loadedWith(g, 'x/one.ts').files).toEqual(['x/one.ts']);
    expect(loadedWith(g, 'y/two.ts').files).toEqual(['x/one.ts', 'y/two.ts']);
    const clean = tree({ 'a.ts': "import { b } from './b.js';\nexport const a = b;\n", 'b.ts': 'export const b = 1;\n' });
    expect(importCircles(importGraph(clean))).toEqual([]);
  });

  it('reports an import from domain/ to a folder above it, and any import up a given layer order', () => {
    const root = tree({
      'domain/parts.ts': "import type { Catalogue } from '../store/catalogue.js';\nexport type P = Catalogue;\n",
      'domain/ok.ts': "import { x } from './parts.js';\nimport { log } from '../log.js';\nexport const ok = [x, log];\n",
      'store/catalogue.ts': 'export interface Catalogue { get(id: string): unknown }\n',
      'log.ts': 'export const log = 1;\n',
    });
    const g = importGraph(root);
    expect(importCircles(g)).toEqual([]);
    expect(importsLeaving(g, 'domain').map((e) => `${e.from} → ${e.to} ${e.typeOnly ? 'type' : 'value'}`)).toEqual(['domain/ok.ts → log.ts value', 'domain/parts.ts → store/catalogue.ts type']);
    const order: Layer[] = [{ name: 'store', paths: ['store/'] }, { name: 'domain', paths: ['domain/'] }, { name: 'base', paths: ['log.ts'] }];
    const rep = layerReport(g, order);
    expect(rep.upward.map((e) => `${e.from} → ${e.to}`)).toEqual(['domain/parts.ts → store/catalogue.ts']);
    expect(rep.counts).toEqual([{ layer: 'store', files: 1 }, { layer: 'domain', files: 2 }, { layer: 'base', files: 1 }]);
    expect(layerReport(g, order.slice(0, 2)).unplaced).toEqual(['log.ts']);
  });
});
