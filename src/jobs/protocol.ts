/** Messages between the pool (main thread) and its workers. */
import type { JobKind } from './types.js';

export interface WorkerData {
  config: import('../config.js').Config;
  outputBytes: number;
}

export interface JobMessage {
  id: number;
  kind: JobKind;
  payload: unknown;
}

/** Why a job failed, as plain data. */
export type JobFailure =
  | { kind: 'domain'; code: string; message: string; details: Record<string, unknown> }
  /** A limit the worker itself hit: V8's stack, a string or array too long for V8, the answer's size. */
  | { kind: 'limit'; limit: 'stack' | 'memory_mb' | 'output_bytes'; message: string; bytes?: number }
  | { kind: 'internal'; message: string; stack?: string };

export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'progress'; id: number; progress: number; total?: number; message?: string }
  | { type: 'done'; id: number; result: unknown; bytes: number }
  | { type: 'failed'; id: number; failure: JobFailure };
