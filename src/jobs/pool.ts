/**
 * The worker pool for CPU-heavy work (issue 23): XML parsing, xacro expansion, URDF lint and
 * extraction, large BOM checks and exports run on node:worker_threads, never on the event loop
 * that answers /healthz and every other call.
 *
 * - At most `size` workers, started on first use (a process that never lints starts none) and
 *   unreferenced while idle (an idle pool never keeps a process alive); at most `queue` jobs wait. A job beyond that is
 *   refused at once: overloaded (503) with retry_after, the seconds until the soonest running
 *   job must end — unless another client holds more jobs than the newcomer would and has one
 *   waiting: that client's newest waiting job is refused instead, so no client fills the pool alone.
 * - Per job: wall time (the worker is terminated and replaced), V8 heap (resourceLimits; the
 *   worker dies and is replaced), stack, and the JSON size of the answer (checked in the worker
 *   before it is copied back). Each is refused as limit_exceeded (422) naming the limit, its
 *   value and the setting that raises it.
 * - A worker's stdout and stderr go to the process's stderr: on stdio, stdout is the protocol.
 */
import type { Worker } from 'node:worker_threads';
import type { Config } from '../config.js';
import { DomainError, type ErrorCode } from '../domain/shared/errors.js';
import type { Logger } from '../log.js';
import { startWorkerModule } from '../worker-thread.js';
import type { Knowledge } from '../store/datasets.js';
import type { ToolJob } from './jobs.js';
import type { JobFailure, JobMessage, WorkerData, WorkerMessage } from './protocol.js';
import type { JobKind, JobOptions, JobPayloads, JobRunner, PoolLimits, PoolStats } from './types.js';

/** V8 stack of a worker, MiB (node's default): a parser recursing past it is refused as limit `stack`. */
export const JOB_STACK_MB = 4;

type LimitName = 'time_ms' | 'memory_mb' | 'output_bytes' | 'stack';

const LIMITS: Record<LimitName, { what: string; unit: string; setting: string | null }> = {
  time_ms: { what: 'time', unit: 'ms', setting: 'ROBOT_PARTS_JOB_TIME_MS (--job-time-ms)' },
  memory_mb: { what: 'memory', unit: 'MiB of heap', setting: 'ROBOT_PARTS_JOB_MEMORY_MB (--job-memory-mb)' },
  output_bytes: { what: 'answer size', unit: 'bytes of JSON', setting: 'ROBOT_PARTS_JOB_OUTPUT_BYTES (--job-output-bytes)' },
  stack: { what: 'nesting (stack)', unit: 'MiB of stack', setting: null },
};

/** limit_exceeded naming the limit, its value and what raises it. */
export function limitExceeded(label: string, limit: LimitName, value: number, detail?: string): DomainError {
  const l = LIMITS[limit];
  return new DomainError(
    'limit_exceeded',
    `${label}: the job went over its ${l.what} limit (${value} ${l.unit})${detail ? `: ${detail}` : ''}. ` +
      `Send a smaller or simpler input${l.setting ? `, or raise ${l.setting}` : ''}.`,
    { limit, limit_value: value, ...(l.setting ? { setting: l.setting.split(' ')[0] } : {}) },
  );
}

function overloaded(label: string, limits: PoolLimits, retryAfter: number): DomainError {
  return new DomainError(
    'overloaded',
    `${label}: all ${limits.size} workers are busy and ${limits.queue} job(s) are waiting; try again in ${retryAfter} s`,
    { retry_after: retryAfter, pool_size: limits.size, queue_limit: limits.queue },
  );
}

interface Pending {
  id: number;
  kind: JobKind;
  payload: unknown;
  opts: JobOptions;
  /** Whose job it is (JobOptions.client, or '' for a caller without one). */
  client: string;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
  /** Stops listening to the caller's abort signal. */
  unlisten: () => void;
}

function overloadedClient(label: string, perClient: number, retryAfter: number): DomainError {
  return new DomainError(
    'overloaded',
    `${label}: this client already has ${perClient} job(s) running or waiting in the worker pool (its fair share); try again in ${retryAfter} s, or raise ROBOT_PARTS_POOL_CLIENT_JOBS`,
    { retry_after: retryAfter, client_jobs_limit: perClient, setting: 'ROBOT_PARTS_POOL_CLIENT_JOBS' },
  );
}

/** The caller went away (HTTP connection closed, MCP notifications/cancelled): its job is dropped. */
function cancelled(label: string, running: boolean): DomainError {
  return new DomainError('overloaded', `${label}: the caller went away; the job was cancelled${running ? ' and its worker replaced' : ' before it ran'}`, { cancelled: true, retry_after: 1 });
}

interface Slot {
  worker: Worker;
  ready: boolean;
  job: Pending | null;
  timer: NodeJS.Timeout | null;
  deadline: number;
  /** Set when the pool stopped the worker (time limit, close): its exit is not a crash. */
  retired: boolean;
  /** The worker's last 'error' event (out of memory, an uncaught error). */
  error: (Error & { code?: string }) | null;
}

/** How a worker is started (the shipped entry; tests may start another). */
export type WorkerFactory = (data: WorkerData, resourceLimits: NonNullable<ConstructorParameters<typeof Worker>[1]>['resourceLimits']) => Worker;

/** The worker entry next to this module: worker.js when built, worker.ts from source (tests, tsx). */
export const startJobWorker: WorkerFactory = (data, resourceLimits) =>
  startWorkerModule(import.meta.url, 'worker', { workerData: data, resourceLimits, stdout: true, stderr: true });

export class WorkerPool implements JobRunner {
  private readonly slots: Slot[] = [];
  /**
   * Waiting jobs per client, in round-robin order: a worker that frees takes the first job of the
   * first client with one waiting, and that client goes to the back of the line.
   */
  private readonly waiting = new Map<string, Pending[]>();
  private queued = 0;
  /** The turn at which each client's last job was dispatched (round-robin). */
  private readonly lastServed = new Map<string, number>();
  private turn = 0;
  private nextId = 1;
  private closed = false;
  private readonly counts = { completed: 0, rejected_queue_full: 0, rejected_client_share: 0, cancelled: 0, timeouts: 0, memory_exceeded: 0, output_exceeded: 0, workers_replaced: 0 };

  constructor(
    private readonly limits: PoolLimits,
    private readonly data: WorkerData,
    private readonly log: Logger,
    private readonly knowledge: () => Knowledge,
    private readonly start: WorkerFactory = startJobWorker,
    /** Small work run on the calling thread (`inline`) that is a tool job. */
    private readonly runTool: ToolJob = NO_TOOLS,
  ) {
    if (limits.size < 1) throw new Error('WorkerPool: size must be at least 1 (use InlineJobs for 0)');
  }

  run<K extends JobKind>(kind: K, payload: JobPayloads[K], opts: JobOptions): Promise<unknown> {
    if (opts.inline) return runHere(kind, payload, opts, this.data.config, this.knowledge, this.runTool);
    if (this.closed) return Promise.reject(new DomainError('overloaded', `${opts.label}: the server is shutting down`, { retry_after: 1 }));
    if (opts.signal?.aborted) {
      this.counts.cancelled += 1;
      return Promise.reject(cancelled(opts.label, false));
    }
    const client = opts.client ?? '';
    const mine = this.clientJobs(client);
    if (mine >= this.limits.perClient) {
      this.counts.rejected_client_share += 1;
      return Promise.reject(overloadedClient(opts.label, this.limits.perClient, this.retryAfter()));
    }
    const running = this.slots.filter((s) => s.job !== null).length;
    if (running + this.queued >= this.limits.size + this.limits.queue && !this.displaceFor(client, mine)) {
      this.counts.rejected_queue_full += 1;
      return Promise.reject(overloaded(opts.label, this.limits, this.retryAfter()));
    }
    return new Promise((resolve, reject) => {
      const job: Pending = { id: this.nextId++, kind, payload, opts, client, resolve, reject, unlisten: () => {} };
      if (opts.signal) {
        const signal = opts.signal;
        const onAbort = () => this.cancel(job);
        signal.addEventListener('abort', onAbort, { once: true });
        job.unlisten = () => signal.removeEventListener('abort', onAbort);
      }
      const line = this.waiting.get(client);
      if (line) line.push(job);
      else this.waiting.set(client, [job]);
      this.queued += 1;
      this.pump();
    });
  }

  /**
   * The pool is full and `client` (with `mine` jobs in it) asks for a place: the client holding
   * the most jobs, if it holds more than `client` would after admission and has one waiting, gives
   * up its newest waiting job (refused as over its share), so one client filling the queue never
   * locks another out. Returns whether a place was freed.
   */
  private displaceFor(client: string, mine: number): boolean {
    let heaviest: string | null = null;
    let most = mine + 1;
    for (const other of this.waiting.keys()) {
      if (other === client) continue;
      const n = this.clientJobs(other);
      if (n > most) {
        most = n;
        heaviest = other;
      }
    }
    if (heaviest === null) return false;
    const line = this.waiting.get(heaviest)!;
    const job = this.leaveQueue(heaviest, line, line.length - 1);
    job.unlisten();
    this.counts.rejected_client_share += 1;
    const retryAfter = this.retryAfter();
    job.reject(
      new DomainError(
        'overloaded',
        `${job.opts.label}: the pool is full and this client held the most of it (${most} jobs running or waiting), so its newest waiting job gave its place to another client; try again in ${retryAfter} s`,
        { retry_after: retryAfter, client_jobs: most, displaced: true },
      ),
    );
    this.log.debug('pool: a waiting job gave its place to a client with fewer jobs', { job: job.opts.label });
    return true;
  }

  /** Takes the job at `at` out of `client`'s waiting line (the line is forgotten once empty). */
  private leaveQueue(client: string, line: Pending[], at: number): Pending {
    const [job] = line.splice(at, 1);
    if (line.length === 0) this.waiting.delete(client);
    this.queued -= 1;
    return job!;
  }

  /** A client's running and waiting jobs. */
  private clientJobs(client: string): number {
    let n = this.waiting.get(client)?.length ?? 0;
    for (const s of this.slots) if (s.job?.client === client) n += 1;
    return n;
  }

  /**
   * The next waiting job, round-robin between clients: the first job of the client served least
   * recently (a client new to the pool first; ties in arrival order).
   */
  private takeNext(): Pending | null {
    let pick: string | null = null;
    let oldest = Infinity;
    for (const client of this.waiting.keys()) {
      const served = this.lastServed.get(client) ?? -1;
      if (served < oldest) {
        oldest = served;
        pick = client;
      }
    }
    if (pick === null) return null;
    const job = this.leaveQueue(pick, this.waiting.get(pick)!, 0);
    this.lastServed.set(pick, this.turn++);
    return job;
  }

  /** Forgets when clients with nothing in the pool were last served (the map stays as small as the pool). */
  private forgetIdleClients(): void {
    if (this.lastServed.size <= this.limits.size + this.limits.queue) return;
    const active = new Set([...this.waiting.keys(), ...this.slots.filter((s) => s.job !== null).map((s) => s.job!.client)]);
    for (const c of this.lastServed.keys()) if (!active.has(c)) this.lastServed.delete(c);
  }

  /** Every waiting job, taken out of the queue. */
  private takeAll(): Pending[] {
    const all = [...this.waiting.values()].flat();
    this.waiting.clear();
    this.queued = 0;
    return all;
  }

  /**
   * The caller of `job` went away: a waiting job leaves the queue; a running one's worker is
   * stopped and replaced (a worker cannot be interrupted mid-job), so it serves the next client.
   */
  private cancel(job: Pending): void {
    const line = this.waiting.get(job.client);
    const at = line ? line.indexOf(job) : -1;
    if (line && at >= 0) {
      this.leaveQueue(job.client, line, at);
      this.counts.cancelled += 1;
      job.reject(cancelled(job.opts.label, false));
      return;
    }
    const slot = this.slots.find((s) => s.job === job);
    if (!slot) return; // already settled
    this.finish(slot);
    this.counts.cancelled += 1;
    this.retire(slot);
    job.reject(cancelled(job.opts.label, true));
    this.log.debug('pool job cancelled: its caller went away; worker replaced', { job: job.opts.label });
    this.pump();
  }

  stats(): PoolStats {
    return {
      size: this.limits.size,
      queue_limit: this.limits.queue,
      workers: this.slots.length,
      busy: this.slots.filter((s) => s.job !== null).length,
      queued: this.queued,
      client_jobs_limit: this.limits.perClient,
      clients: new Set([...this.waiting.keys(), ...this.slots.filter((s) => s.job !== null).map((s) => s.job!.client)]).size,
      ...this.counts,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    const refusal = () => new DomainError('overloaded', 'the server is shutting down', { retry_after: 1 });
    for (const p of this.takeAll()) {
      p.unlisten();
      p.reject(refusal());
    }
    await Promise.all(
      this.slots.splice(0).map((s) => {
        s.retired = true;
        if (s.timer) clearTimeout(s.timer);
        if (s.job) {
          s.job.unlisten();
          s.job.reject(refusal());
        }
        s.job = null;
        return s.worker.terminate().catch(() => 0);
      }),
    );
  }

  /** Seconds until the soonest running job ends or is stopped (at least 1). */
  private retryAfter(): number {
    const now = Date.now();
    const ends = this.slots.filter((s) => s.job !== null).map((s) => s.deadline - now);
    return Math.max(1, Math.ceil((ends.length ? Math.min(...ends) : 1000) / 1000));
  }

  /** Hands waiting jobs to idle ready workers; starts workers while there is work and room. */
  private pump(): void {
    while (this.queued > 0) {
      const idle = this.slots.find((s) => s.ready && s.job === null && !s.retired);
      if (idle) {
        this.dispatch(idle, this.takeNext()!);
        continue;
      }
      const starting = this.slots.filter((s) => !s.ready).length;
      if (this.slots.length < this.limits.size && starting < this.queued) {
        this.spawn();
        continue;
      }
      return;
    }
  }

  private spawn(): void {
    const worker = this.start(this.data, { maxOldGenerationSizeMb: this.limits.memoryMb, stackSizeMb: JOB_STACK_MB });
    const slot: Slot = { worker, ready: false, job: null, timer: null, deadline: 0, retired: false, error: null };
    this.slots.push(slot);
    // Referenced while it starts for waiting work or runs a job; unreferenced when idle, so an
    // idle pool never keeps a process alive.
    worker.ref();
    worker.stdout?.pipe(process.stderr);
    worker.stderr?.pipe(process.stderr);
    worker.on('message', (m: WorkerMessage) => this.onMessage(slot, m));
    worker.on('error', (err: Error & { code?: string }) => {
      slot.error = err;
    });
    worker.on('exit', (code) => this.onExit(slot, code));
  }

  private dispatch(slot: Slot, job: Pending): void {
    slot.job = job;
    this.forgetIdleClients();
    slot.worker.ref();
    slot.deadline = Date.now() + this.limits.timeMs;
    slot.timer = setTimeout(() => this.onTimeout(slot), this.limits.timeMs);
    const message: JobMessage = { id: job.id, kind: job.kind, payload: job.payload };
    job.payload = null; // the worker has its copy
    try {
      slot.worker.postMessage(message);
    } catch (err) {
      // A payload that cannot be copied (never from the tools): refuse it, keep the worker.
      this.finish(slot);
      job.reject(err);
    }
  }

  private finish(slot: Slot): Pending | null {
    const job = slot.job;
    job?.unlisten();
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
    slot.worker.unref();
    return job;
  }

  private onMessage(slot: Slot, m: WorkerMessage): void {
    if (m.type === 'ready') {
      slot.ready = true;
      this.pump();
      if (slot.job === null) slot.worker.unref();
      return;
    }
    const job = slot.job;
    if (!job || job.id !== m.id) return;
    if (m.type === 'progress') {
      job.opts.onProgress?.(m.progress, m.total, m.message);
      return;
    }
    this.finish(slot);
    if (m.type === 'done') {
      this.counts.completed += 1;
      job.resolve(m.result);
    } else {
      job.reject(this.fromFailure(job, m.failure));
    }
    this.pump();
  }

  private fromFailure(job: Pending, f: JobFailure): unknown {
    switch (f.kind) {
      case 'domain':
        return new DomainError(f.code as ErrorCode, f.message, f.details);
      case 'limit':
        if (f.limit === 'output_bytes') {
          this.counts.output_exceeded += 1;
          return limitExceeded(job.opts.label, 'output_bytes', this.limits.outputBytes, f.message);
        }
        if (f.limit === 'memory_mb') {
          this.counts.memory_exceeded += 1;
          return limitExceeded(job.opts.label, 'memory_mb', this.limits.memoryMb, 'a value grew past what one job may hold');
        }
        return limitExceeded(job.opts.label, 'stack', JOB_STACK_MB, 'the input nests too deeply');
      default: {
        const err = new Error(`pool job ${job.opts.label}: ${f.message}`);
        if (f.stack) err.stack = f.stack;
        return err;
      }
    }
  }

  private onTimeout(slot: Slot): void {
    const job = this.finish(slot);
    if (!job) return;
    this.counts.timeouts += 1;
    this.retire(slot);
    job.reject(limitExceeded(job.opts.label, 'time_ms', this.limits.timeMs, 'the job was stopped'));
    this.log.warn('pool job stopped at its time limit; worker replaced', { job: job.opts.label, time_ms: this.limits.timeMs });
    this.pump();
  }

  /** Takes a worker out of the pool and terminates it (a replacement starts when work waits). */
  private retire(slot: Slot): void {
    slot.retired = true;
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    this.counts.workers_replaced += 1;
    void slot.worker.terminate().catch(() => 0);
  }

  private onExit(slot: Slot, code: number): void {
    if (slot.retired) return;
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    const job = this.finish(slot);
    const err = slot.error;
    if (job) {
      this.counts.workers_replaced += 1;
      if (err?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        this.counts.memory_exceeded += 1;
        job.reject(limitExceeded(job.opts.label, 'memory_mb', this.limits.memoryMb, 'the worker ran out of heap and was replaced'));
      } else {
        job.reject(new Error(`pool worker exited (code ${code}) during ${job.opts.label}${err ? `: ${err.message}` : ''}`));
      }
    } else if (!slot.ready && this.queued > 0 && !this.closed) {
      // A worker that cannot start (bad build, bad data dir): refuse what waits instead of looping.
      this.log.error('pool worker could not start', { code, error: err?.message });
      for (const p of this.takeAll()) {
        p.unlisten();
        p.reject(new Error(`pool worker could not start${err ? `: ${err.message}` : ''}`));
      }
      return;
    }
    if (!this.closed) this.pump();
  }
}

/** A job on the calling thread, through the same job functions a worker runs. */
async function runHere<K extends JobKind>(kind: K, payload: JobPayloads[K], opts: JobOptions, config: Config, knowledge: () => Knowledge, runTool: ToolJob): Promise<unknown> {
  // Imported on first use: the job functions pull in the BOM engines.
  const { runJob } = await import('./jobs.js');
  return runJob(kind, payload, { config, knowledge, runTool }, (p, t, m) => opts.onProgress?.(p, t, m));
}

/** The 'tool' job where none was given: offloaded tools then cannot run on this thread. */
const NO_TOOLS: ToolJob = async ({ name }) => {
  throw new Error(`${name}: this job runner was created without the tool job (createJobRunner's runTool); the composition root passes it (src/compose.ts)`);
};

/**
 * Pool size 0: jobs run on the main thread through the same job functions (no worker, so none of
 * the time, memory or output limits). For debugging, or a platform without worker threads.
 */
export class InlineJobs implements JobRunner {
  private completed = 0;
  constructor(
    private readonly config: Config,
    private readonly knowledge: () => Knowledge,
    private readonly runTool: ToolJob = NO_TOOLS,
  ) {}

  async run<K extends JobKind>(kind: K, payload: JobPayloads[K], opts: JobOptions): Promise<unknown> {
    const result = await runHere(kind, payload, opts, this.config, this.knowledge, this.runTool);
    this.completed += 1;
    return result;
  }

  stats(): PoolStats {
    return { size: 0, queue_limit: 0, client_jobs_limit: 0, clients: 0, workers: 0, busy: 0, queued: 0, completed: this.completed, rejected_queue_full: 0, rejected_client_share: 0, cancelled: 0, timeouts: 0, memory_exceeded: 0, output_exceeded: 0, workers_replaced: 0 };
  }

  async close(): Promise<void> {}
}

export function poolLimits(config: Config): PoolLimits {
  return { size: config.poolSize, queue: config.poolQueue, perClient: config.poolClientJobs, timeMs: config.jobTimeMs, memoryMb: config.jobMemoryMb, outputBytes: config.jobOutputBytes };
}

/** The configuration a job sees: the secrets stay with the main thread. */
export function withoutSecrets(config: Config): Config {
  return { ...config, secret: null, webhookSecret: null, stdioApiKey: null, databaseUrl: null };
}

export interface JobRunnerOptions {
  /** The 'tool' job on this thread (pool size 0, inline work): from whoever holds the tool registry. */
  runTool?: ToolJob;
  /** How a worker is started (the shipped entry; tests may start another). */
  start?: WorkerFactory;
}

/**
 * The job runner of a configuration: a worker pool, or the main thread for pool size 0. Created
 * by the composition root (src/compose.ts) and handed to the handlers through the deps. Secrets
 * stay in the main thread: a worker gets the configuration without them.
 */
export function createJobRunner(config: Config, log: Logger, knowledge: () => Knowledge, opts: JobRunnerOptions = {}): JobRunner {
  const limits = poolLimits(config);
  const workerConfig = withoutSecrets(config);
  if (limits.size === 0) return new InlineJobs(workerConfig, knowledge, opts.runTool);
  return new WorkerPool(limits, { config: workerConfig, outputBytes: limits.outputBytes }, log, knowledge, opts.start, opts.runTool);
}
