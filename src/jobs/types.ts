/**
 * The jobs the worker pool runs (src/jobs/pool.ts) and what a caller sees of it (deps.jobs).
 * Types and one constant: importing this module loads nothing.
 */
import type { BomCheckItem, BomExportRequest, ReferencePrice } from '../domain/bom/index.js';
import type { StoredEntity } from '../domain/catalogue/entity.js';
import type { PlateAnswer } from '../domain/plates/index.js';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { Knowledge } from '../store/datasets.js';
import type { RobotInput } from '../ingest/oss/index.js';
import type { TorqueRequest } from '../domain/sizing/torques.js';
import type { FetchedSource } from '../ingest/oss/fetch.js';
import type { SourceSpec } from '../ingest/oss/sources-file.js';

/** An offloaded tool's job: its validated arguments, and a REST archive upload to unpack into them there. */
export interface ToolJobPayload {
  name: string;
  input: Record<string, unknown>;
  archive?: Uint8Array;
}

export type SizingTorquesInput = RobotInput & TorqueRequest;

/** Job kinds and their payloads: plain data (structured-cloned into a worker). */
export interface JobPayloads {
  /** A tool defined with `offload: true`, its validated arguments passed on unchanged. */
  tool: ToolJobPayload;
  /** check_bom over records the caller read from the catalogue. */
  check_bom: { items: BomCheckItem[]; records: StoredEntity[]; baseUrl: string | null };
  /** export_bom's document (and its CSV) over records the caller read from the catalogue. */
  export_bom: { req: BomExportRequest; records: StoredEntity[]; now: string; references?: [string, { prices: ReferencePrice[]; total: number }][] };
  /** size_actuators' torques: the robot description parsed and its static gravity torques computed. */
  size_torques: { input: SizingTorquesInput; archive?: Uint8Array };
  /** An adapter plate's mesh file (binary STL or 3MF) from its design: the CSG kernel's work. */
  plate_file: { answer: PlateAnswer; format: 'stl' | '3mf' };
  /** sources refresh (issue 45): one fetched source through the extractors (extractSource), off the event loop. */
  extract_source: { source: SourceSpec; fetched: FetchedSource; seenAt: string };
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
  /**
   * Whose job it is (the client's network address, else its key): the pool caps each client's
   * running and waiting jobs and takes waiting jobs round-robin between clients. Absent: one
   * shared client (in-process callers).
   */
  client?: string | null;
  /** The caller went away (HTTP connection closed, MCP cancellation): the job is dropped, a running one's worker replaced. */
  signal?: AbortSignal;
}

/** Per-job limits and the pool's size; see README "Limits". */
export interface PoolLimits {
  /** Workers (0: jobs run on the main thread, without the time, memory and output limits). */
  size: number;
  /** Jobs that may wait for a worker; beyond it a job is refused (overloaded, 503 with Retry-After). */
  queue: number;
  /** Running and waiting jobs of one client (its fair share); beyond it that client is refused (overloaded, 503). */
  perClient: number;
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
  /** Running and waiting jobs one client may have. */
  client_jobs_limit: number;
  /** Clients with a job running or waiting now. */
  clients: number;
  workers: number;
  busy: number;
  queued: number;
  completed: number;
  rejected_queue_full: number;
  /** Jobs refused because their client had its share running or waiting. */
  rejected_client_share: number;
  /** Jobs dropped because their caller went away (running ones: worker replaced). */
  cancelled: number;
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

/** How the deps get their job runner from the composition root: given the registries once they are read. */
export type JobsFactory = (config: Config, log: Logger, knowledge: () => Knowledge) => JobRunner;
