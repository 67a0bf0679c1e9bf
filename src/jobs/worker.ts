/**
 * A pool worker's entry (node:worker_threads): runs jobs of src/jobs/jobs.ts one at a time and answers
 * with the result or a failure as plain data. Its heap is bounded by the pool (resourceLimits);
 * the answer's JSON size is checked here, before it is copied to the main thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { isDomainError } from '../domain/shared/errors.js';
import { knowledgeOf, loadDatasets, type Knowledge } from '../store/datasets.js';
import { runOffloadedTool } from '../tools/offload.js';
import { TOOLS } from '../tools/index.js';
import { runJob, type JobEnv } from './jobs.js';
import type { JobFailure, JobMessage, WorkerData, WorkerMessage } from './protocol.js';

const port = parentPort;
if (!port) throw new Error('src/jobs/worker.ts runs as a worker thread of the job pool');
const data = workerData as WorkerData;

// Read before the worker reports ready: a job's time limit counts its own work, not the worker's start.
const knowledge: Knowledge = knowledgeOf(loadDatasets(data.config.dataDir));
// The worker's own entry is the one module of the pool that imports the tool registry.
const env: JobEnv = {
  config: data.config,
  knowledge: () => knowledge,
  runTool: (job, progress) => runOffloadedTool(TOOLS, job, { config: data.config, knowledge: () => knowledge }, progress),
};

const post = (m: WorkerMessage) => port.postMessage(m);

/** A RangeError V8 throws when the job outgrew it: the deepest stack, the longest string or array. */
function v8Limit(err: unknown): JobFailure | null {
  if (!(err instanceof RangeError)) return null;
  if (/Maximum call stack size exceeded/.test(err.message)) return { kind: 'limit', limit: 'stack', message: err.message };
  if (/Invalid (string|array|typed array) length|Array buffer allocation failed/.test(err.message)) return { kind: 'limit', limit: 'memory_mb', message: err.message };
  return null;
}

function failure(err: unknown): JobFailure {
  if (isDomainError(err)) return { kind: 'domain', code: err.code, message: err.message, details: err.details };
  return v8Limit(err) ?? { kind: 'internal', message: err instanceof Error ? err.message : String(err), stack: err instanceof Error ? err.stack : undefined };
}

port.on('message', (m: JobMessage) => {
  void (async () => {
    let result: unknown;
    try {
      result = await runJob(m.kind, m.payload as never, env, (progress, total, message) => post({ type: 'progress', id: m.id, progress, total, message }));
    } catch (err) {
      post({ type: 'failed', id: m.id, failure: failure(err) });
      return;
    }
    let bytes: number;
    try {
      // Binary parts (a plate's mesh file) count their bytes, not the JSON of their numbers.
      let binary = 0;
      const json = JSON.stringify(result, (_k, v: unknown) => {
        if (ArrayBuffer.isView(v)) {
          binary += v.byteLength;
          return null;
        }
        return v;
      });
      bytes = Buffer.byteLength(json ?? '') + binary;
    } catch (err) {
      post({ type: 'failed', id: m.id, failure: v8Limit(err) ? { kind: 'limit', limit: 'output_bytes', message: 'the answer is too large to serialise' } : failure(err) });
      return;
    }
    if (bytes > data.outputBytes) {
      post({ type: 'failed', id: m.id, failure: { kind: 'limit', limit: 'output_bytes', message: `the answer is ${bytes} bytes of JSON`, bytes } });
      return;
    }
    post({ type: 'done', id: m.id, result, bytes });
  })();
});

post({ type: 'ready' });
