/**
 * The start banner of `serve`: a few plain lines on stderr for the person who started it (where
 * to point a browser, an agent or curl; which database; which limits are in force), besides the
 * JSON log lines that machines read. Pure: config and address in, text out.
 */
import path from 'node:path';
import type { Config } from './config.js';
import { DEFAULT_RATE_LIMIT_FREE } from './config.js';
import { SERVER_VERSION } from './version.js';

const perHour = (n: number) => (n === 0 ? 'off' : `${n}/hour`);

function freeLimit(config: Config): string {
  if (config.rateLimitFreeSource === 'loopback-off') return `free calls: no limit on this loopback address (--rate-limit applies ${DEFAULT_RATE_LIMIT_FREE}/hour)`;
  return `free calls: ${perHour(config.rateLimitFree)}`;
}

/** `database` is the store as the logs name it (a redacted PostgreSQL URL, or null for the SQLite file). */
export function startBanner(config: Config, url: string, database: string | null = null): string {
  const rows: [string, string][] = [
    ['pages', `${url}/  ${url}/docs`],
    ['MCP', `${url}/mcp  (Streamable HTTP, ${config.stateless ? 'stateless' : 'sessions'})`],
    ['REST', `${url}/api/  (OpenAPI: ${url}/openapi.json)`],
    ['health', `${url}/healthz`],
    ['database', database ?? `${config.dbPath === ':memory:' ? ':memory:' : path.resolve(config.dbPath)} (SQLite)`],
    ['limits', `${freeLimit(config)}; paid plans: ${perHour(config.rateLimitPaid)}; request body ${Math.round(config.bodyLimitBytes / 1024)} KiB; ${config.maxSessions} MCP sessions`],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  return [`robot-parts-mcp ${SERVER_VERSION} is serving on ${url}`, ...rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`), '  stop with Ctrl+C', ''].join('\n');
}
