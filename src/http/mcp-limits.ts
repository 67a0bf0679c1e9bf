/**
 * Hourly rate limits for MCP requests that are not tool calls but read catalogue data:
 * `resources/read` (except the published datasets, which are free on REST too) and
 * `completion/complete`. Tool calls are limited inside runTool; these never reach it, so the
 * /mcp handler asks `limitMcpReads` before handing a POST body to the transport. Same windows,
 * same limits and same subjects (key, else client address) as tool calls.
 */
import type { Context } from 'hono';
import type { Deps } from '../deps.js';
import { DomainError, isDomainError } from '../domain/shared/errors.js';
import { datasetUri } from '../resources/define.js';
import { DATASETS } from '../resources/datasets.js';
import { applyRateLimit } from '../tools/access.js';
import type { PresentedKey } from '../tools/define.js';
import type { AppEnv } from './common.js';

const FREE_URIS = new Set(DATASETS.map((d) => datasetUri(d.name)));

/** JSON-RPC error code for a refused request (implementation-defined server error range). */
export const RATE_LIMITED_RPC_CODE = -32029;

interface RpcRequest {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: { uri?: unknown } | null;
}

/**
 * A stream replay (GET /mcp with Last-Event-ID) counts as one request of the caller's window: it
 * re-sends every event after that id, as much work as the calls that made them. Refused: HTTP 429
 * with Retry-After and a JSON-RPC error naming the limit. Null when it may proceed.
 */
export async function limitMcpReplay(c: Context<AppEnv>, deps: Deps, caller: { credentials: PresentedKey[]; clientAddress: string | null }): Promise<Response | null> {
  const headers: Record<string, string> = {};
  let refusal: DomainError | null = null;
  try {
    await applyRateLimit(
      { deps, surface: 'mcp-http', credentials: caller.credentials, clientAddress: caller.clientAddress, idempotencyKey: null, progress: async () => {}, setHeader: (k, v) => (headers[k] = v) },
      {},
    );
  } catch (err) {
    if (!isDomainError(err)) throw err;
    refusal = err;
  }
  for (const [k, v] of Object.entries(headers)) c.header(k, v);
  if (refusal === null) return null;
  const code = refusal.code === 'rate_limited' ? RATE_LIMITED_RPC_CODE : -32602;
  return c.json({ jsonrpc: '2.0', id: null, error: { code, message: `${refusal.code}: ${refusal.message}`, data: refusal.toBody() } }, refusal.status as 429);
}

/** Is this JSON-RPC message a request counted against the caller's window? */
export function isLimitedMcpRead(m: unknown): boolean {
  const r = m as RpcRequest | null;
  if (!r || typeof r !== 'object' || r.id === undefined || r.id === null) return false; // notifications and responses are not
  if (r.method === 'completion/complete') return true;
  if (r.method === 'resources/read') return !(typeof r.params?.uri === 'string' && FREE_URIS.has(r.params.uri));
  return false;
}

/**
 * Counts each limited request in `body`; when one is refused, the response to send instead:
 * HTTP 200 with a JSON-RPC error per request of the message (code RATE_LIMITED_RPC_CODE,
 * message `rate_limited: ...`, data {code, retry_after, ...}) and Retry-After / RateLimit-* headers.
 * Null when the body may proceed.
 */
export async function limitMcpReads(
  c: Context<AppEnv>,
  deps: Deps,
  body: unknown,
  caller: { credentials: PresentedKey[]; clientAddress: string | null },
): Promise<Response | null> {
  const messages = Array.isArray(body) ? body : [body];
  const limited = messages.filter(isLimitedMcpRead);
  if (limited.length === 0) return null;
  const headers: Record<string, string> = {};
  let refusal: DomainError | null = null;
  for (let i = 0; i < limited.length && refusal === null; i++) {
    try {
      await applyRateLimit(
        {
          deps,
          surface: 'mcp-http',
          credentials: caller.credentials,
          clientAddress: caller.clientAddress,
          idempotencyKey: null,
          progress: async () => {},
          setHeader: (k, v) => (headers[k] = v),
        },
        {},
      );
    } catch (err) {
      if (!isDomainError(err)) throw err;
      refusal = err; // rate_limited, or conflicting_credentials
    }
  }
  for (const [k, v] of Object.entries(headers)) c.header(k, v);
  if (refusal === null) return null;
  const code = refusal.code === 'rate_limited' ? RATE_LIMITED_RPC_CODE : -32602;
  const errors = messages
    .filter((m) => (m as RpcRequest | null)?.id !== undefined && (m as RpcRequest | null)?.id !== null)
    .map((m) => ({ jsonrpc: '2.0', id: (m as RpcRequest).id, error: { code, message: `${refusal.code}: ${refusal.message}`, data: refusal.toBody() } }));
  return c.json(Array.isArray(body) ? errors : errors[0]);
}
