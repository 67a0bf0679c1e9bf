/**
 * One full garbage collection, run once when the server has built its immutable data and before
 * it takes requests. Building the catalogue snapshot leaves garbage several times the size of what
 * is kept (the file's bytes, each record's text and its unvalidated copy); V8 collects it only
 * when the heap grows again, which a server answering searches may not do for a long time, so
 * the process would hold it as resident memory (at 100,000 records: about 200 MB).
 *
 * The collector is reached the way test runners reach it (jest's leak detector does the same):
 * --expose-gc set at run time, and `gc` taken from a new context, so the server's own global
 * scope never gains a `gc`. Where that is refused, nothing happens (V8 collects on its own schedule).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | null | undefined;

function collector(): (() => void) | null {
  if (collect !== undefined) return collect;
  const own = (globalThis as { gc?: () => void }).gc; // node --expose-gc
  if (typeof own === 'function') return (collect = own);
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    collect = typeof gc === 'function' ? (gc as () => void) : null;
  } catch {
    collect = null;
  }
  return collect;
}

/** A full (major) collection now; false when the collector could not be reached. */
export function compactHeap(): boolean {
  const gc = collector();
  if (!gc) return false;
  gc();
  return true;
}

let soon = false;

/**
 * Two full collections as soon as the running code yields (a microtask), for garbage left by a
 * build made while serving: the spec layer's first build at 100,000 records leaves ~90 MB. The
 * first collection frees it; the second lets V8 hand the emptied pages back, which lowers the
 * resident set (at 100k: ~450 -> ~380 MB; each collection ~150 ms). The pause lands on the
 * request that made the build (which already waits ~2.8 s for it), not on a later one. Builds
 * reported before it runs are folded into it.
 */
export function compactHeapSoon(collect: () => unknown = compactHeap): void {
  if (soon) return;
  soon = true;
  queueMicrotask(() => {
    soon = false;
    collect();
    collect();
  });
}
