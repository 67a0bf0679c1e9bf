/**
 * The import graph of a source tree, read with TypeScript's own parser and module resolution
 * (issue 46): every `import`, `import type`, `export … from`, `import('…')` (dynamic or in a type
 * position) and `require('…')` of a file in the tree is an edge; type-only imports count like any
 * other (a type shared by two layers belongs to the lower one). Packages and node built-ins are
 * not part of the tree and are left out.
 *
 *   npx tsx scripts/import-graph.ts [root=src]   prints the circles, the domain's imports out of it
 *                                                (but to the base), the files per layer and the
 *                                                imports up the layer order; exits 1 on a finding.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export interface ImportEdge {
  from: string;
  to: string;
  /** The module specifier as written. */
  specifier: string;
  typeOnly: boolean;
  /** `import('…')` or `require('…')`: loaded when that code runs, not with the file. */
  dynamic: boolean;
}

/** An import of a package or a node built-in (not part of the tree). */
export type PackageImport = Omit<ImportEdge, 'to'>;

export interface ImportGraph {
  /** Files relative to the root, '/'-separated, sorted. */
  files: string[];
  edges: ImportEdge[];
  packages: PackageImport[];
}

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((d) => {
      const p = path.join(dir, d.name);
      if (d.isDirectory()) return sourceFiles(p);
      return /\.(?:c|m)?tsx?$/.test(d.name) && !d.name.endsWith('.d.ts') ? [p] : [];
    })
    .sort();
}

function specifiers(sf: ts.SourceFile): { specifier: string; typeOnly: boolean; dynamic: boolean }[] {
  const out: { specifier: string; typeOnly: boolean; dynamic: boolean }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const c = node.importClause;
      const typeOnly = !!c && (c.isTypeOnly || (!c.name && !!c.namedBindings && ts.isNamedImports(c.namedBindings) && c.namedBindings.elements.length > 0 && c.namedBindings.elements.every((e) => e.isTypeOnly)));
      out.push({ specifier: node.moduleSpecifier.text, typeOnly, dynamic: false });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      out.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly, dynamic: false });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      out.push({ specifier: node.argument.literal.text, typeOnly: true, dynamic: false });
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
      out.push({ specifier: node.moduleReference.expression.text, typeOnly: node.isTypeOnly, dynamic: false });
    } else if (ts.isCallExpression(node) && node.arguments.length >= 1 && ts.isStringLiteralLike(node.arguments[0]!)) {
      const isImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === 'require';
      if (isImport || isRequire) out.push({ specifier: (node.arguments[0] as ts.StringLiteralLike).text, typeOnly: false, dynamic: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

const OPTIONS: ts.CompilerOptions = { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, resolveJsonModule: true, allowJs: true };

/** The graph of every TypeScript file under `root`, edges resolved as the compiler resolves them. */
export function importGraph(root: string, options: ts.CompilerOptions = OPTIONS): ImportGraph {
  const abs = path.resolve(root);
  const files = sourceFiles(abs);
  const inTree = new Set(files.map((f) => path.normalize(f)));
  const rel = (f: string) => path.relative(abs, f).split(path.sep).join('/');
  const host = ts.createCompilerHost(options);
  const edges: ImportEdge[] = [];
  const packages: PackageImport[] = [];
  for (const file of files) {
    const sf = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    for (const { specifier, typeOnly, dynamic } of specifiers(sf)) {
      if (!specifier.startsWith('.') && !specifier.startsWith('/')) {
        packages.push({ from: rel(file), specifier, typeOnly, dynamic }); // a package or a built-in
        continue;
      }
      const r = ts.resolveModuleName(specifier, file, options, host, undefined, undefined, ts.ModuleKind.ESNext).resolvedModule;
      if (!r) throw new Error(`${rel(file)}: cannot resolve ${specifier}`);
      const target = path.normalize(r.resolvedFileName);
      if (!inTree.has(target)) continue;
      edges.push({ from: rel(file), to: rel(target), specifier, typeOnly, dynamic });
    }
  }
  return { files: files.map(rel), edges, packages };
}

/**
 * What loading the file `entry` loads with it: the files its static value imports reach, and the
 * packages those import (type-only imports, erased, and dynamic ones, run later, are left out).
 */
export function loadedWith(g: ImportGraph, entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>([entry]);
  const todo = [entry];
  for (let f = todo.pop(); f !== undefined; f = todo.pop()) {
    for (const e of g.edges) {
      if (e.from !== f || e.typeOnly || e.dynamic || files.has(e.to)) continue;
      files.add(e.to);
      todo.push(e.to);
    }
  }
  const packages = new Set(g.packages.filter((p) => files.has(p.from) && !p.typeOnly && !p.dynamic).map((p) => p.specifier));
  return { files: [...files].sort(), packages: [...packages].sort() };
}

/**
 * The import circles: strongly connected components of more than one file (or a file importing
 * itself), each with one concrete cycle through it, files sorted.
 */
export function importCircles(g: ImportGraph): { files: string[]; cycle: string[] }[] {
  const next = new Map<string, string[]>(g.files.map((f) => [f, []]));
  for (const e of g.edges) next.get(e.from)!.push(e.to);
  // Tarjan, iterative.
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const comps: string[][] = [];
  for (const start of g.files) {
    if (idx.has(start)) continue;
    const work: { v: string; i: number }[] = [{ v: start, i: 0 }];
    idx.set(start, index);
    low.set(start, index++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const top = work[work.length - 1]!;
      const ns = next.get(top.v)!;
      if (top.i < ns.length) {
        const w = ns[top.i++]!;
        if (!idx.has(w)) {
          idx.set(w, index);
          low.set(w, index++);
          stack.push(w);
          onStack.add(w);
          work.push({ v: w, i: 0 });
        } else if (onStack.has(w)) low.set(top.v, Math.min(low.get(top.v)!, idx.get(w)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1]!.v;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.v)!));
      }
      if (low.get(top.v) === idx.get(top.v)) {
        const comp: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          comp.push(w);
        } while (w !== top.v);
        if (comp.length > 1 || ns.includes(top.v)) comps.push(comp.sort());
      }
    }
  }
  return comps
    .map((files) => ({ files, cycle: cycleIn(files, next) }))
    .sort((a, b) => a.files[0]!.localeCompare(b.files[0]!));
}

/** A shortest cycle through the first file of a component (breadth-first inside it). */
function cycleIn(files: string[], next: Map<string, string[]>): string[] {
  const inComp = new Set(files);
  const start = files[0]!;
  const prev = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of next.get(v)!) {
      if (!inComp.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let u = v; u !== start; u = prev.get(u)!) path.splice(1, 0, u);
        return [...path, start];
      }
      if (!prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start];
}

/** The folder a file belongs to: its first path segment ('cli.ts' → 'cli'). */
export function topFolder(file: string): string {
  return file.split('/')[0]!.replace(/\.(?:c|m)?tsx?$/, '');
}

/** Imports from under `folder` (e.g. 'domain') to a file outside it. */
export function importsLeaving(g: ImportGraph, folder: string): ImportEdge[] {
  return g.edges.filter((e) => topFolder(e.from) === folder && topFolder(e.to) !== folder);
}

/** A layer: a name and the folders ('http/') or files ('cli.ts') it holds. */
export interface Layer {
  name: string;
  paths: readonly string[];
}

/** The layer of a file: the longest path of any layer it starts with (a file before its folder), or null. */
export function layerOf(file: string, order: readonly Layer[]): number | null {
  let best: { rank: number; len: number } | null = null;
  order.forEach((l, rank) => {
    for (const p of l.paths) {
      if ((p.endsWith('/') ? file.startsWith(p) : file === p) && (!best || p.length > best.len)) best = { rank, len: p.length };
    }
  });
  return best === null ? null : (best as { rank: number }).rank;
}

/**
 * The files per layer (`order` top to bottom), the files no layer holds, and every import that
 * runs up the order (a file may import its own layer or any below it).
 */
export function layerReport(g: ImportGraph, order: readonly Layer[]): { counts: { layer: string; files: number }[]; unplaced: string[]; upward: ImportEdge[] } {
  const counts = order.map((l) => ({ layer: l.name, files: 0 }));
  const unplaced: string[] = [];
  for (const f of g.files) {
    const r = layerOf(f, order);
    if (r === null) unplaced.push(f);
    else counts[r]!.files += 1;
  }
  const upward = g.edges.filter((e) => {
    const a = layerOf(e.from, order);
    const b = layerOf(e.to, order);
    return a !== null && b !== null && b < a;
  });
  return { counts, unplaced, upward };
}

/**
 * The project's layers, top (composition roots) to bottom (README "Layers"). The domain sits on
 * the base alone: it declares the ports (catalogue, ledger) the store implements.
 */
export const LAYERS: readonly Layer[] = [
  { name: 'entries (cli, composition root, pool worker entry)', paths: ['cli.ts', 'sources-cli.ts', 'compose.ts', 'banner.ts', 'jobs/worker.ts'] },
  { name: 'http', paths: ['http/', 'compact-heap.ts'] },
  { name: 'server + mcp', paths: ['server.ts', 'mcp/'] },
  { name: 'tools + resources + prompts', paths: ['tools/', 'resources/', 'prompts/'] },
  { name: 'deps', paths: ['deps.ts', 'secret.ts'] },
  { name: 'jobs (pool)', paths: ['jobs/'] },
  { name: 'store + ingest + geometry + wire', paths: ['store/', 'ingest/', 'geometry/', 'wire/'] },
  { name: 'domain', paths: ['domain/'] },
  { name: 'base (config, log, loopback, lazy-require, version, worker-thread)', paths: ['config.ts', 'log.ts', 'loopback.ts', 'lazy-require.ts', 'version.ts', 'worker-thread.ts'] },
];

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '../src');
  const g = importGraph(root);
  const circles = importCircles(g);
  const up = importsLeaving(g, 'domain').filter((e) => layerOf(e.to, LAYERS) !== LAYERS.length - 1);
  console.log(`${g.files.length} files, ${g.edges.length} imports (${g.edges.filter((e) => e.typeOnly).length} type-only)`);
  console.log(`${circles.length} circle(s)`);
  for (const c of circles) console.log(`  ${c.files.length} files: ${c.cycle.join(' → ')}`);
  console.log(`${up.length} import(s) from domain to a folder above it`);
  for (const e of up) console.log(`  ${e.from} → ${e.to}${e.typeOnly ? ' (type)' : ''}`);
  const rep = layerReport(g, LAYERS);
  console.log('layers, top to bottom:');
  for (const c of rep.counts) console.log(`  ${c.layer}: ${c.files}`);
  if (rep.unplaced.length) console.log(`in no layer: ${rep.unplaced.join(', ')}`);
  console.log(`${rep.upward.length} import(s) up the layer order`);
  for (const e of rep.upward) console.log(`  ${e.from} → ${e.to}${e.typeOnly ? ' (type)' : ''}`);
  process.exitCode = circles.length || up.length || rep.upward.length || rep.unplaced.length ? 1 : 0;
}
