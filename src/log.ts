/** Structured JSON logs, to stderr only: stdout belongs to the stdio transport. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /** False when debug lines are dropped: a caller can skip building their fields (absent: unknown, build them). */
  readonly debugEnabled?: boolean;
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/**
 * Longest string a log line carries per value (a header, a message, an error text): the rest is
 * cut and counted, so a client sending a 15 KB header cannot make a line of it. A stack trace
 * (field `stack`) keeps up to MAX_LOG_STACK_CHARS.
 */
export const MAX_LOG_VALUE_CHARS = 256;
export const MAX_LOG_STACK_CHARS = 4096;

/** `s` cut to `max` characters, with how much was left out. */
export function cutLogValue(s: string, max = MAX_LOG_VALUE_CHARS): string {
  return s.length <= max ? s : `${s.slice(0, max)}…(+${s.length - max} chars)`;
}

function bounded(v: unknown, key: string, depth: number): unknown {
  if (typeof v === 'string') return cutLogValue(v, key === 'stack' ? MAX_LOG_STACK_CHARS : MAX_LOG_VALUE_CHARS);
  if (v === null || typeof v !== 'object' || depth >= 4) return v;
  if (Array.isArray(v)) {
    const out = v.slice(0, 32).map((x) => bounded(x, '', depth + 1));
    if (v.length > 32) out.push(`…(+${v.length - 32} items)`);
    return out;
  }
  const out: Record<string, unknown> = {};
  let n = 0;
  for (const [k, x] of Object.entries(v)) {
    if (++n > 32) {
      out['…'] = `+${Object.keys(v).length - 32} fields`;
      break;
    }
    out[k] = bounded(x, k, depth + 1);
  }
  return out;
}

export function createLogger(level: LogLevel = 'info', write: (line: string) => void = (l) => process.stderr.write(l)): Logger {
  const emit = (lvl: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[lvl] < ORDER[level]) return;
    const f = fields === undefined ? undefined : (bounded(fields, '', 0) as Record<string, unknown>);
    write(JSON.stringify({ time: new Date().toISOString(), level: lvl, msg: cutLogValue(msg), ...f }) + '\n');
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    debugEnabled: ORDER.debug >= ORDER[level],
  };
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {}, debugEnabled: false };

/** Default sampling interval of repeated warnings. */
export const LOG_SAMPLE_INTERVAL_MS = 60_000;

interface SampleWindow {
  start: number;
  suppressed: number;
  timer: ReturnType<typeof setTimeout> | null;
}

/**
 * Repeated warnings, sampled: the first warning of a cause in an interval is written with its
 * fields; the others of that interval are only counted, and one line `<cause> (repeated)` with
 * `count` and `interval_s` is written when the interval ends (a timer that keeps no process
 * alive). A client refused 3,000 times a second writes two lines a minute, not 3,000.
 */
export class LogSampler {
  private readonly windows = new Map<string, SampleWindow>();

  constructor(
    private readonly log: Logger,
    private readonly intervalMs = LOG_SAMPLE_INTERVAL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  warn(cause: string, fields?: Record<string, unknown>): void {
    const t = this.now();
    let w = this.windows.get(cause);
    if (w && t - w.start >= this.intervalMs) {
      this.flushOne(cause, w);
      w = undefined;
    }
    if (!w) {
      this.windows.set(cause, { start: t, suppressed: 0, timer: null });
      this.log.warn(cause, fields);
      return;
    }
    w.suppressed += 1;
    if (w.timer === null) {
      const win = w;
      win.timer = setTimeout(() => this.flushOne(cause, win), Math.max(0, win.start + this.intervalMs - t));
      win.timer.unref?.();
    }
  }

  /** Writes the counts of every open interval now (shutdown, tests). */
  flush(): void {
    for (const [cause, w] of [...this.windows]) this.flushOne(cause, w);
  }

  private flushOne(cause: string, w: SampleWindow): void {
    if (this.windows.get(cause) !== w) return;
    this.windows.delete(cause);
    if (w.timer !== null) clearTimeout(w.timer);
    if (w.suppressed > 0) this.log.warn(`${cause} (repeated)`, { count: w.suppressed, interval_s: Math.round(this.intervalMs / 1000) });
  }
}

const samplers = new WeakMap<Logger, LogSampler>();

/** The sampler of repeated warnings for this logger (one per logger, shared by its callers). */
export function sampledWarnings(log: Logger): LogSampler {
  let s = samplers.get(log);
  if (!s) samplers.set(log, (s = new LogSampler(log)));
  return s;
}
