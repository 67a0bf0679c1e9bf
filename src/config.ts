/** Runtime configuration: defaults, overridden by environment, overridden by CLI flags. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LogLevel } from './log.js';

export interface Config {
  host: string;
  port: number;
  /** SQLite file; ':memory:' for an in-memory store. */
  dbPath: string;
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
  /** Requests per hour for free access (0 disables). */
  rateLimitFree: number;
  /** Requests per hour for paid plans (0 disables). */
  rateLimitPaid: number;
  /** Key presented by the stdio client through ROBOT_PARTS_API_KEY. */
  stdioApiKey: string | null;
  paymentGateway: string;
  webhookSecret: string | null;
  logLevel: LogLevel;
}

export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

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
    dataDir: env.ROBOT_PARTS_DATA_DIR ?? path.join(PACKAGE_ROOT, 'data'),
    publicBaseUrl: env.ROBOT_PARTS_PUBLIC_URL ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    allowedHosts: list(env.ROBOT_PARTS_ALLOWED_HOSTS),
    allowedOrigins: list(env.ROBOT_PARTS_ALLOWED_ORIGINS),
    bodyLimitBytes: intEnv(env, 'ROBOT_PARTS_BODY_LIMIT', 1_048_576),
    stateless: env.ROBOT_PARTS_STATELESS === '1' || env.ROBOT_PARTS_STATELESS === 'true',
    sessionIdleSeconds: intEnv(env, 'ROBOT_PARTS_SESSION_IDLE_SECONDS', 1800),
    maxSessions: intEnv(env, 'ROBOT_PARTS_MAX_SESSIONS', 1000),
    rateLimitFree: intEnv(env, 'ROBOT_PARTS_RATE_LIMIT_FREE', 30),
    rateLimitPaid: intEnv(env, 'ROBOT_PARTS_RATE_LIMIT_PAID', 1000),
    stdioApiKey: env.ROBOT_PARTS_API_KEY || null,
    paymentGateway: env.ROBOT_PARTS_PAYMENT_GATEWAY ?? 'sandbox',
    webhookSecret: env.ROBOT_PARTS_WEBHOOK_SECRET || null,
    logLevel: (env.ROBOT_PARTS_LOG_LEVEL as LogLevel) ?? 'info',
  };
  const merged = { ...base, ...overrides };
  merged.publicUrlConfigured = overrides.publicUrlConfigured ?? (overrides.publicBaseUrl !== undefined || env.ROBOT_PARTS_PUBLIC_URL !== undefined);
  if (overrides.publicBaseUrl === undefined && env.ROBOT_PARTS_PUBLIC_URL === undefined) {
    merged.publicBaseUrl = `http://${merged.host.includes(':') ? `[${merged.host}]` : merged.host}:${merged.port}`;
  }
  return merged;
}
