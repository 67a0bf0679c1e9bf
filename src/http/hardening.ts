/**
 * Start-up and transport guards of the HTTP server:
 * - the sandbox payment gateway (whose pay page lets anyone mark an order paid) is served on a
 *   loopback address only, unless explicitly allowed;
 * - a request must arrive whole within the configured time (a body that goes quiet is cut with 408);
 * - a client that aborts an upload is a client event, logged at debug level, not a server error.
 */
import type { Config } from '../config.js';
import { isLoopbackHost } from '../loopback.js';

export { isLoopbackHost };

/** Why the server must not start with this gateway on this address, or null. */
export function sandboxExposure(config: Pick<Config, 'host' | 'allowSandboxPayments'>, gatewayName: string): string | null {
  if (gatewayName !== 'sandbox' || config.allowSandboxPayments || isLoopbackHost(config.host)) return null;
  return (
    `refusing to serve the sandbox payment gateway on ${config.host}: its pay page lets anyone mark an order paid. ` +
    'Configure a real gateway (ROBOT_PARTS_PAYMENT_GATEWAY), listen on a loopback address, or pass --allow-sandbox-payments ' +
    '(ROBOT_PARTS_ALLOW_SANDBOX_PAYMENTS=1) for a test deployment'
  );
}

/**
 * The sockets' buffer mark (node's default: 16 kB). /mcp writes an answer while its socket is corked
 * (http/common.ts coalesced), so the answer's bytes wait in the socket's buffer until the tick's
 * work is done; an SSE answer over the mark made the write report a full buffer, and the HTTP
 * adapter then waited for 'drain' before it ended the stream, so the stream's end went in a second
 * write. Search answers to the 200 most frequent catalogue words are 1.6-23.7 kB as SSE (median
 * 10.8 kB), 79 of them over 16 kB; strace counted 409 extra writes per 1,000 such calls. 256 kB
 * holds an answer at the 80,000-character budget (its text and its structured copy, about twice
 * that as an event) when it is mostly ASCII; a larger one costs one more write, nothing else.
 * It is a threshold only: nothing is buffered that is not written anyway.
 */
export const SOCKET_HIGH_WATER_MARK = 256 * 1024;

/** node:http server options enforcing the request timeout, with the sockets' buffer mark. */
export function httpServerOptions(config: Pick<Config, 'requestTimeoutSeconds'>): {
  requestTimeout: number;
  headersTimeout: number;
  connectionsCheckingInterval: number;
  highWaterMark: number;
} {
  const ms = Math.max(1, config.requestTimeoutSeconds) * 1000;
  return {
    highWaterMark: SOCKET_HIGH_WATER_MARK,
    requestTimeout: ms,
    headersTimeout: Math.min(ms, 60_000),
    // How often node checks the timeouts: often enough that a short timeout is honoured.
    connectionsCheckingInterval: Math.min(1000, ms),
  };
}

/** True when an error comes from the client going away mid-request (aborted upload, reset). */
export function isClientAbort(err: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted) return true;
  const e = err as { code?: string; name?: string; message?: string; cause?: unknown } | null;
  if (!e) return false;
  if (e.code === 'ECONNRESET' || e.code === 'ERR_STREAM_PREMATURE_CLOSE' || e.code === 'ECONNABORTED') return true;
  if (e.name === 'AbortError') return true;
  if (typeof e.message === 'string' && /\baborted\b|premature(ly)? close/i.test(e.message)) return true;
  return e.cause !== undefined && e.cause !== err ? isClientAbort(e.cause) : false;
}
