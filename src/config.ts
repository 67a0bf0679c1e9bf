/** Runtime configuration: defaults, overridden by environment, overridden by CLI flags. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isLoopbackHost } from './loopback.js';
import type { LogLevel } from './log.js';

/** The forwarding headers an operator can name (--forwarded-header); the default is X-Forwarded-For. */
export const FORWARDED_HEADERS = ['x-forwarded-for', 'forwarded'] as const;
export type ForwardedHeader = (typeof FORWARDED_HEADERS)[number];

export interface Config {
  host: string;
  port: number;
  /** SQLite file; ':memory:' for an in-memory store. */
  dbPath: string;
  /**
   * postgres://... : accounts, ledger, rate limits and orders live in this shared PostgreSQL
   * database (several instances behind a balancer); null = the SQLite file above.
   */
  databaseUrl: string | null;
  /** PostgreSQL connections per instance. */
  databasePoolSize: number;
  /**
   * SQLite ledger durability: full (default; every debit and credit on disk before it is
   * answered, across power loss) or normal (WAL: survives kill -9, may lose the last commits on
   * power loss). normal is for measuring what full costs (npm run bench), not for serving.
   */
  sqliteSynchronous: 'full' | 'normal';
  /** Record this instance's dataset version in the shared database even when another one is recorded. */
  adoptDataset: boolean;
  /** Folder of shipped datasets (data/ in the package). */
  dataDir: string;
  /** Base URL used in detail_url and pay_url; derived from host/port when not set. */
  publicBaseUrl: string;
  /** True when publicBaseUrl was configured (ROBOT_PARTS_PUBLIC_URL or an override): only then do stdio answers carry links. */
  publicUrlConfigured?: boolean;
  /** Extra Host header values accepted besides loopback names. */
  allowedHosts: string[];
  /** Extra Origin values accepted besides loopback origins. */
  allowedOrigins: string[];
  /** Maximum request body in bytes. */
  bodyLimitBytes: number;
  /** Streamable HTTP without sessions, for load-balanced deployments. */
  stateless: boolean;
  /** An MCP session unused this long (seconds) is closed. */
  sessionIdleSeconds: number;
  /** At most this many MCP sessions at once; a new one beyond it is refused (503). */
  maxSessions: number;
  /**
   * Requests per hour for free access (0 disables). Default 30 (the spec's), except on a loopback
   * bind, where it is 0 unless `rateLimit` asks for it or a number is given.
   */
  rateLimitFree: number;
  /** Apply the default free rate limit on a loopback bind too (--rate-limit, ROBOT_PARTS_RATE_LIMIT=1). */
  rateLimit?: boolean;
  /** Where rateLimitFree came from, for the start banner: set explicitly, the default, or off because the bind is loopback. */
  rateLimitFreeSource?: 'explicit' | 'default' | 'loopback-off';
  /** Requests per hour for paid plans (0 disables). */
  rateLimitPaid: number;
  /** Key presented by the stdio client through ROBOT_PARTS_API_KEY. */
  stdioApiKey: string | null;
  paymentGateway: string;
  webhookSecret: string | null;
  logLevel: LogLevel;
  /**
   * Server secret keying the e-mail and API-key digests (HMAC-SHA256) and the sandbox pay-page
   * tokens. When null it is read from `secretFile`, which is created (mode 0600) on first start.
   */
  secret: string | null;
  /** Where the server secret lives; null = next to the database (`<db>.secret`; random per process for ':memory:'). */
  secretFile: string | null;
  /** Peers whose X-Forwarded-For / Forwarded headers are believed (addresses or CIDR blocks). */
  trustedProxies: string[];
  /** The one forwarding header believed from a trusted proxy (the other is ignored): x-forwarded-for (default) or forwarded (RFC 7239). */
  forwardedHeader: ForwardedHeader;
  /** Browser origins allowed to call /mcp and /api cross-origin (CORS); exact origins such as https://inspector.example:6274. */
  corsOrigins: string[];
  /** At most this many open MCP sessions per client address (after trusted-proxy resolution); 0 = no per-client share. */
  maxSessionsPerClient: number;
  /**
   * Keys one client address may register per hour (register_key; 429 with Retry-After beyond).
   * Default 5, except on a loopback bind, where it is 0 (off) unless `rateLimit` asks for limits
   * or a number is given, as with rateLimitFree.
   */
  registrationsPerHour: number;
  /** IPv6 clients are one client per prefix of this length (rate limits, registrations, session shares); IPv4 is per address. */
  ipv6Prefix: number;
  /** Stored Idempotency-Key replays expire after this many hours (a later retry is a new call). */
  replayTtlHours: number;
  /** At most this many stored replays per account (the oldest go first). */
  maxReplaysPerAccount: number;
  /** What counts as one mailbox for "one free key per address" (see MAILBOX_RULES). */
  mailboxRules: string[];
  /** create_payment with an e-mail alone (no key): off by default, because it tells anyone whether an address is registered. */
  paymentByEmail: boolean;
  /** Serve the sandbox gateway on a non-loopback address (it lets anyone mark an order paid). */
  allowSandboxPayments: boolean;
  /** A request (headers and body) must arrive within this many seconds, else 408 and the connection closes. */
  requestTimeoutSeconds: number;
  /** Finished answers of cacheable catalogue tools kept in memory (src/store/answer-cache.ts); 0 turns the cache off. */
  answerCacheEntries: number;
  /** Worker threads for CPU-heavy jobs (lint, extract, large BOM checks and exports; src/jobs/pool.ts); 0 runs them on the main thread. */
  poolSize: number;
  /** Jobs that may wait for a worker; beyond it a call is refused (overloaded, 503 with Retry-After). */
  poolQueue: number;
  /** Running and waiting jobs of one client (address, else key) in the pool; beyond it that client gets overloaded (503). At least 1. */
  poolClientJobs: number;
  /** Wall time of one job, ms; beyond it the worker is stopped and replaced (limit_exceeded). */
  jobTimeMs: number;
  /** V8 heap of one worker, MiB (limit_exceeded when a job needs more). */
  jobMemoryMb: number;
  /** JSON size of one job's answer, bytes (limit_exceeded beyond). */
  jobOutputBytes: number;
}

export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The spec's free rate limit (requests per hour), in force on any non-loopback bind unless configured. */
export const DEFAULT_RATE_LIMIT_FREE = 30;

/** Keys one client address may register per hour on a non-loopback bind unless configured. */
export const DEFAULT_REGISTRATIONS_PER_HOUR = 5;

/** Upper bound of ROBOT_PARTS_ANSWER_CACHE (a 100-hit search answer and its serialised forms take up to ~0.2 MB). */
export const ANSWER_CACHE_MAX = 1024;

/**
 * Worker pool defaults, sized for a 2-core machine: two workers (the event loop keeps a core's
 * share while both run), eight waiting jobs, 10 s and 256 MiB per job, 8 MiB of JSON per answer
 * (10,000 extracted joints take about 4 MB).
 */
export const DEFAULT_POOL = { size: 2, queue: 8, clientJobs: 4, timeMs: 10_000, memoryMb: 256, outputBytes: 8 * 1024 * 1024 } as const;

const bool = (v: string | undefined) => v === '1' || v === 'true';

function intEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const host = overrides.host ?? env.ROBOT_PARTS_HOST ?? '127.0.0.1';
  const port = overrides.port ?? intEnv(env, 'ROBOT_PARTS_PORT', 8787);
  const list = (v: string | undefined) => (v ? v.split(',').map((s) => s.trim()).filter(Boolean) : []);
  const base: Config = {
    host,
    port,
    dbPath: env.ROBOT_PARTS_DB ?? path.join(process.cwd(), 'robot-parts.db'),
    databaseUrl: env.ROBOT_PARTS_DATABASE_URL || null,
    databasePoolSize: intEnv(env, 'ROBOT_PARTS_DATABASE_POOL', 10),
    sqliteSynchronous: (env.ROBOT_PARTS_SQLITE_SYNCHRONOUS || 'full').trim().toLowerCase() as Config['sqliteSynchronous'],
    adoptDataset: env.ROBOT_PARTS_ADOPT_DATASET === '1' || env.ROBOT_PARTS_ADOPT_DATASET === 'true',
    dataDir: env.ROBOT_PARTS_DATA_DIR ?? path.join(PACKAGE_ROOT, 'data'),
    publicBaseUrl: env.ROBOT_PARTS_PUBLIC_URL ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    allowedHosts: list(env.ROBOT_PARTS_ALLOWED_HOSTS),
    allowedOrigins: list(env.ROBOT_PARTS_ALLOWED_ORIGINS),
    bodyLimitBytes: intEnv(env, 'ROBOT_PARTS_BODY_LIMIT', 1_048_576),
    stateless: bool(env.ROBOT_PARTS_STATELESS),
    sessionIdleSeconds: intEnv(env, 'ROBOT_PARTS_SESSION_IDLE_SECONDS', 1800),
    maxSessions: intEnv(env, 'ROBOT_PARTS_MAX_SESSIONS', 1000),
    rateLimitFree: intEnv(env, 'ROBOT_PARTS_RATE_LIMIT_FREE', DEFAULT_RATE_LIMIT_FREE),
    rateLimitPaid: intEnv(env, 'ROBOT_PARTS_RATE_LIMIT_PAID', 1000),
    stdioApiKey: env.ROBOT_PARTS_API_KEY || null,
    paymentGateway: env.ROBOT_PARTS_PAYMENT_GATEWAY ?? 'sandbox',
    webhookSecret: env.ROBOT_PARTS_WEBHOOK_SECRET || null,
    logLevel: (env.ROBOT_PARTS_LOG_LEVEL as LogLevel) ?? 'info',
    secret: env.ROBOT_PARTS_SECRET || null,
    secretFile: env.ROBOT_PARTS_SECRET_FILE || null,
    trustedProxies: list(env.ROBOT_PARTS_TRUSTED_PROXIES),
    forwardedHeader: (env.ROBOT_PARTS_FORWARDED_HEADER || 'x-forwarded-for').trim().toLowerCase() as ForwardedHeader,
    corsOrigins: list(env.ROBOT_PARTS_CORS_ORIGINS),
    maxSessionsPerClient: intEnv(env, 'ROBOT_PARTS_MAX_SESSIONS_PER_CLIENT', 20),
    registrationsPerHour: intEnv(env, 'ROBOT_PARTS_REGISTRATIONS_PER_HOUR', DEFAULT_REGISTRATIONS_PER_HOUR),
    ipv6Prefix: intEnv(env, 'ROBOT_PARTS_IPV6_PREFIX', 64),
    replayTtlHours: intEnv(env, 'ROBOT_PARTS_REPLAY_TTL_HOURS', 24),
    maxReplaysPerAccount: intEnv(env, 'ROBOT_PARTS_MAX_REPLAYS_PER_ACCOUNT', 100),
    mailboxRules: env.ROBOT_PARTS_MAILBOX_RULES !== undefined ? list(env.ROBOT_PARTS_MAILBOX_RULES) : ['plus-tags', 'gmail-dots', 'googlemail'],
    paymentByEmail: bool(env.ROBOT_PARTS_PAYMENT_BY_EMAIL),
    allowSandboxPayments: bool(env.ROBOT_PARTS_ALLOW_SANDBOX_PAYMENTS),
    requestTimeoutSeconds: intEnv(env, 'ROBOT_PARTS_REQUEST_TIMEOUT_SECONDS', 30),
    answerCacheEntries: intEnv(env, 'ROBOT_PARTS_ANSWER_CACHE', 128),
    poolSize: intEnv(env, 'ROBOT_PARTS_POOL_SIZE', DEFAULT_POOL.size),
    poolQueue: intEnv(env, 'ROBOT_PARTS_POOL_QUEUE', DEFAULT_POOL.queue),
    poolClientJobs: intEnv(env, 'ROBOT_PARTS_POOL_CLIENT_JOBS', DEFAULT_POOL.clientJobs),
    jobTimeMs: intEnv(env, 'ROBOT_PARTS_JOB_TIME_MS', DEFAULT_POOL.timeMs),
    jobMemoryMb: intEnv(env, 'ROBOT_PARTS_JOB_MEMORY_MB', DEFAULT_POOL.memoryMb),
    jobOutputBytes: intEnv(env, 'ROBOT_PARTS_JOB_OUTPUT_BYTES', DEFAULT_POOL.outputBytes),
  };
  const merged = { ...base, ...overrides };
  // A person running the server on their own machine is not throttled by the free limit; any
  // other bind keeps the spec's default. An explicit number (flag or env) always wins.
  const explicitFree = overrides.rateLimitFree !== undefined || (env.ROBOT_PARTS_RATE_LIMIT_FREE !== undefined && env.ROBOT_PARTS_RATE_LIMIT_FREE !== '');
  merged.rateLimit = overrides.rateLimit ?? bool(env.ROBOT_PARTS_RATE_LIMIT);
  if (explicitFree) merged.rateLimitFreeSource = 'explicit';
  else if (isLoopbackHost(merged.host) && !merged.rateLimit) {
    merged.rateLimitFree = 0;
    merged.rateLimitFreeSource = 'loopback-off';
  } else merged.rateLimitFreeSource = 'default';
  const explicitRegistrations =
    overrides.registrationsPerHour !== undefined || (env.ROBOT_PARTS_REGISTRATIONS_PER_HOUR !== undefined && env.ROBOT_PARTS_REGISTRATIONS_PER_HOUR !== '');
  if (!explicitRegistrations && isLoopbackHost(merged.host) && !merged.rateLimit) merged.registrationsPerHour = 0;
  if (merged.ipv6Prefix < 1 || merged.ipv6Prefix > 128) throw new Error(`--ipv6-prefix / ROBOT_PARTS_IPV6_PREFIX must be 1 to 128, got ${merged.ipv6Prefix}`);
  if (merged.databaseUrl !== null && !/^postgres(ql)?:\/\//.test(merged.databaseUrl)) {
    throw new Error('ROBOT_PARTS_DATABASE_URL / --database-url must be a postgres:// or postgresql:// URL');
  }
  if (merged.port > 65535) throw new Error(`ROBOT_PARTS_PORT must be at most 65535, got ${merged.port}`);
  if (merged.databasePoolSize < 1) throw new Error('ROBOT_PARTS_DATABASE_POOL must be at least 1');
  if (merged.poolClientJobs < 1) throw new Error('ROBOT_PARTS_POOL_CLIENT_JOBS must be at least 1');
  if (merged.jobTimeMs < 1) throw new Error('ROBOT_PARTS_JOB_TIME_MS must be at least 1');
  if (merged.jobMemoryMb < 32) throw new Error('ROBOT_PARTS_JOB_MEMORY_MB must be at least 32');
  if (merged.jobOutputBytes < 1024) throw new Error('ROBOT_PARTS_JOB_OUTPUT_BYTES must be at least 1024');
  if (merged.sqliteSynchronous !== 'full' && merged.sqliteSynchronous !== 'normal') {
    throw new Error(`ROBOT_PARTS_SQLITE_SYNCHRONOUS must be full or normal, got "${merged.sqliteSynchronous}"`);
  }
  if (!(FORWARDED_HEADERS as readonly string[]).includes(merged.forwardedHeader)) {
    throw new Error(`--forwarded-header / ROBOT_PARTS_FORWARDED_HEADER must be ${FORWARDED_HEADERS.join(' or ')}, got "${merged.forwardedHeader}"`);
  }
  for (const o of merged.corsOrigins) {
    const bad = corsOriginProblem(o);
    if (bad) throw new Error(`--cors-origins / ROBOT_PARTS_CORS_ORIGINS: "${o}" ${bad}`);
  }
  if (merged.answerCacheEntries > ANSWER_CACHE_MAX) throw new Error(`ROBOT_PARTS_ANSWER_CACHE must be at most ${ANSWER_CACHE_MAX}`);
  merged.publicUrlConfigured = overrides.publicUrlConfigured ?? (overrides.publicBaseUrl !== undefined || env.ROBOT_PARTS_PUBLIC_URL !== undefined);
  if (overrides.publicBaseUrl === undefined && env.ROBOT_PARTS_PUBLIC_URL === undefined) {
    merged.publicBaseUrl = `http://${merged.host.includes(':') ? `[${merged.host}]` : merged.host}:${merged.port}`;
  }
  return merged;
}

/** Why a CORS allow-list entry is not an origin (scheme://host[:port], nothing after), or null when it is one. */
function corsOriginProblem(entry: string): string | null {
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    return 'is not an origin (write it as scheme://host[:port], e.g. https://inspector.example)';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http:// or https:// origin';
  if (url.origin !== entry.replace(/\/$/, '').toLowerCase()) {
    return `is not an origin: write it as ${url.origin} (no path, query or credentials)`;
  }
  return null;
}
