/**
 * Start-up and transport guards of the HTTP server:
 * - the sandbox payment gateway (whose pay page lets anyone mark an order paid) is served on a
 *   loopback address only, unless explicitly allowed;
 * - a request must arrive whole within the configured time (a body that goes quiet is cut with 408);
 * - a client that aborts an upload is a client event, logged at debug level, not a server error.
 */
import type { Config } from '../config.js';

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\]|::ffff:127(\.\d{1,3}){3})$/i;

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.test(host.trim());
}

/** Why the server must not start with this gateway on this address, or null. */
export function sandboxExposure(config: Pick<Config, 'host' | 'allowSandboxPayments'>, gatewayName: string): string | null {
  if (gatewayName !== 'sandbox' || config.allowSandboxPayments || isLoopbackHost(config.host)) return null;
  return (
    `refusing to serve the sandbox payment gateway on ${config.host}: its pay page lets anyone mark an order paid. ` +
    'Configure a real gateway (ROBOT_PARTS_PAYMENT_GATEWAY), listen on a loopback address, or pass --allow-sandbox-payments ' +
    '(ROBOT_PARTS_ALLOW_SANDBOX_PAYMENTS=1) for a test deployment'
  );
}

/** node:http server options enforcing the request timeout. */
export function httpServerOptions(config: Pick<Config, 'requestTimeoutSeconds'>): {
  requestTimeout: number;
  headersTimeout: number;
  connectionsCheckingInterval: number;
} {
  const ms = Math.max(1, config.requestTimeoutSeconds) * 1000;
  return {
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
