/**
 * The search index of a large catalogue, built by a worker thread in parallel with the main
 * thread's reading and validating of the same file: at 100,000 records the main thread spends
 * about 0.9 s on the records and the index would take another 0.5 s after them; with the worker
 * both happen at once (2 cores or more). Small catalogues are indexed on the main thread (a
 * worker's own start costs more than their index).
 *
 * The main thread stays the authority: the worker's index is used only when it has arrived and
 * indexes exactly the validated records, in the same order; otherwise (no worker file when running
 * from src, a worker error, a call that needs the index sooner) the main thread builds it itself.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { SearchIndex, type IndexParts } from '../domain/search.js';

/** Catalogue files at least this large are indexed by a worker (about 33,000 records). */
export const INDEX_WORKER_MIN_BYTES = 32 * 1024 * 1024;

export interface IndexJob {
  /** Settles when the worker has answered, failed or stopped; never rejects. */
  settled: Promise<void>;
  /** The worker's index when it has arrived and indexes exactly `ids` in this order, else null. Once. */
  take(ids: readonly string[]): SearchIndex | null;
  /** Stops the worker if it is still running. */
  stop(): void;
}

const WORKER = new URL('./index-worker.js', import.meta.url);

export function startIndexJob(dataDir: string, minBytes = INDEX_WORKER_MIN_BYTES): IndexJob | null {
  const file = path.join(dataDir, 'catalogue', 'entities.json');
  let size: number;
  try {
    size = fs.statSync(file).size;
  } catch {
    return null;
  }
  if (size < minBytes || !fs.existsSync(fileURLToPath(WORKER))) return null;
  let worker: Worker;
  try {
    worker = new Worker(WORKER, { workerData: { file } });
  } catch {
    return null;
  }
  worker.unref();
  let parts: IndexParts | null = null;
  let running = true;
  const settled = new Promise<void>((resolve) => {
    const finish = () => {
      running = false;
      resolve();
    };
    worker.once('message', (m: { parts?: IndexParts }) => {
      parts = m.parts ?? null;
      void worker.terminate();
      finish();
    });
    worker.once('error', finish);
    worker.once('exit', finish);
  });
  return {
    settled,
    take(ids) {
      const p = parts;
      parts = null;
      if (running) void worker.terminate();
      if (!p || p.ids.length !== ids.length) return null;
      for (let i = 0; i < ids.length; i++) if (p.ids[i] !== ids[i]) return null;
      return new SearchIndex({ parts: p });
    },
    stop() {
      if (running) void worker.terminate();
    },
  };
}
