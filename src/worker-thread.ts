/**
 * Starts a worker thread on a module beside the caller: `<name>.js` when built, `<name>.ts` from
 * source (tests, tsx), where the worker registers tsx's loader before importing the TypeScript entry.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** @param base the caller's import.meta.url; @param name the entry's file name without extension */
export function startWorkerModule(base: string, name: string, opts: WorkerOptions): Worker {
  if (!base.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, base), opts);
  // tsx's ESM API (the require condition resolves to its CommonJS twin beside it).
  const tsx = pathToFileURL(createRequire(base).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const entry = new URL(`./${name}.ts`, base).href;
  return new Worker(`import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); })`, { ...opts, eval: true });
}
