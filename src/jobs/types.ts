/**
 * The jobs the worker pool runs (src/jobs/pool.ts) and what a caller sees of it (deps.jobs).
 * Types and one constant: importing this module loads nothing.
 */
import type { BomCheckItem, BomExportRequest, ReferencePrice } from '../domain/bom/index.js';
import type { StoredEntity } from '../domain/catalogue/entity.js';

/** Job kinds and their payloads: plain data (structured-cloned into a worker). */
export interface JobPayloads {
  /** A tool defined with `offload: true`, its validated arguments passed on unchanged. */
  tool: { name: string; input: Record<string, unknown> };
  /** check_bom over records the caller read from the catalogue. */
  check_bom: { items: BomCheckItem[]; records: StoredEntity[]; baseUrl: string | null };
  /** export_bom's document (and its CSV) over records the caller read from the catalogue. */
  export_bom: { req: BomExportRequest; records: StoredEntity[]; now: string; references?: [string, { prices: ReferencePrice[]; total: number }][] };
}
export type JobKind = keyof JobPayloads;

/**
 * BOM checks and exports of fewer items run on the calling thread (tens of milliseconds at most);
 * from this many on, in the pool.
 */
export const POOL_MIN_BOM_ITEMS = 100;

export interface JobOptions {
  /** Named in limit messages (the tool's name). */
  label: string;
  /** Small work: run it here, on the calling thread, through the same job function. */
  inline?: boolean;
  /** Progress the job reports (export_bom lines, a tool's progress notifications). */
  onProgress?: (progress: number, total?: number, message?: string) => void;
}

/** Per-job limits and the pool's size; see README "Limits". */
export interface PoolLimits {
  /** Workers (0: jobs run on the main thread, without the time, memory and output limits). */
  size: number;
  /** Jobs that may wait for a worker; beyond it a job is refused (overloaded, 503 with Retry-After). */
  queue: number;
  /** Wall time of one job in a worker, ms; beyond it the worker is stopped and replaced. */
  timeMs: number;
  /** V8 heap (old generation) of one worker, MiB. */
  memoryMb: number;
  /** JSON size of one job's answer, bytes. */
  outputBytes: number;
}

/** Counters since start (/healthz `pool`). */
export interface PoolStats {
  size: number;
  queue_limit: number;
  workers: number;
  busy: number;
  queued: number;
  completed: number;
  rejected_queue_full: number;
  timeouts: number;
  memory_exceeded: number;
  output_exceeded: number;
  workers_replaced: number;
}

export interface JobRunner {
  /** Runs one job; rejects with DomainError (limit_exceeded, overloaded, or the job's own error). */
  run<K extends JobKind>(kind: K, payload: JobPayloads[K], opts: JobOptions): Promise<unknown>;
  stats(): PoolStats;
  /** Stops the workers; waiting and running jobs are refused. */
  close(): Promise<void>;
}
