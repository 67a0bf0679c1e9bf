/**
 * What /mcp's mounting (src/http/mcp.ts) and its serving (src/http/mcp-serve.ts, imported on the
 * first request) share: the options, the serving's shape and the constants the answers use.
 */
import type { Context } from 'hono';
import type { AnyTool } from '../tools/define.js';
import type { AppEnv } from './common.js';

/** The one revision of those served that requires receiving JSON-RPC batches (2025-06-18 removed them). */
export const BATCH_PROTOCOL_VERSION = '2025-03-26';

/** Retry-After (seconds) of a 429 when every session of the client's share is busy. */
export const SESSION_BUSY_RETRY_SECONDS = 5;

/** The `retry` hint (ms) of the SSE streams of stateful 2025-era sessions. */
export const SSE_RETRY_MS = 2000;

/** What the app holds of /mcp: its open sessions, and closing them all. */
export interface McpHttpHandle {
  sessions: () => number;
  closeAll: () => Promise<void>;
}

/** /mcp's serving (src/http/mcp-serve.ts): `serve` answers a request. */
export interface McpServing extends McpHttpHandle {
  serve: (c: Context<AppEnv>) => Promise<Response>;
}

/** What mountMcp is given: the limits of /mcp's bodies and the tools it serves. */
export interface McpOptions {
  stateless: boolean;
  maxBody: number;
  generalBody?: number;
  largeBodyTools?: ReadonlySet<string>;
  tools?: readonly AnyTool[];
}
