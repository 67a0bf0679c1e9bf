/**
 * MCP over Streamable HTTP at /mcp, both protocol eras on the one endpoint:
 *
 * - 2026-07-28 (modern): every request carries its `_meta` envelope and is served by a fresh
 *   instance from the server factory (the SDK's createMcpHandler: server/discover, header and
 *   envelope checks, cache hints, subscriptions/listen).
 * - 2025-11-25 / 2025-06-18 / 2025-03-26 (legacy): sessions as before (Mcp-Session-Id, GET for
 *   the SSE stream, DELETE ends the session); with `stateless`, one instance per request and no
 *   sessions, for deployments behind a load balancer.
 *
 * The SDK's isLegacyRequest decides the era of each request (a request without the envelope
 * is legacy), so a client pins its revision by what it sends; nothing is configured per client.
 *
 * This module is what the app mounts; the MCP SDK and the serving itself (src/http/mcp-serve.ts)
 * are imported on the first request to /mcp, not when the server starts: a REST or page request
 * never needs them, and they are ~70 ms of a start's imports on the 2-core host (their protocol
 * schemas are built as they load). The first /mcp request waits for that import once.
 */
import type { Hono } from 'hono';
import type { Deps } from '../deps.js';
import { coalesced, type AppEnv } from './common.js';
import type { McpHttpHandle, McpOptions, McpServing } from './mcp-common.js';
import { json, KEY_OPTIONAL, operation, type OpenApiPaths } from './openapi.js';

const JSON_RPC_ERROR = {
  type: 'object',
  required: ['jsonrpc', 'error'],
  properties: {
    jsonrpc: { type: 'string', enum: ['2.0'] },
    error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'integer' }, message: { type: 'string' } } },
    id: { type: ['string', 'integer', 'null'] },
  },
};

/** /mcp as OpenAPI describes it: the MCP Streamable HTTP transport (GET and DELETE only with sessions). */
export function mcpPaths(stateless: boolean): OpenApiPaths {
  const rpcError = (description: string) => ({ description, content: json(JSON_RPC_ERROR) });
  const session = { name: 'Mcp-Session-Id', in: 'header', required: !stateless, schema: { type: 'string' }, description: 'The session initialize opened (2025-era protocol revisions)' };
  const common = { security: KEY_OPTIONAL };
  const paths: OpenApiPaths = {
    '/mcp': {
      post: operation({
        ...common,
        operationId: 'mcp_post',
        summary: 'MCP Streamable HTTP: one JSON-RPC message (initialize, tools/list, tools/call, ...)',
        description: 'The Model Context Protocol endpoint; use an MCP client. The tools are the operations of this document marked x-mcp-tool. A key (Authorization: Bearer or X-API-Key) is read from the HTTP request.',
        parameters: [{ ...session, required: false }],
        requestBody: { required: true, content: json({ type: ['object', 'array'], description: 'A JSON-RPC 2.0 message' }) },
        responses: {
          '200': { description: 'The JSON-RPC response, as JSON or as an SSE stream', content: { 'application/json': { schema: { type: 'object' } }, 'text/event-stream': { schema: { type: 'string' } } } },
          '202': { description: 'A notification or response accepted' },
          '400': rpcError('Not JSON, not a valid JSON-RPC message, or no session'),
          '404': rpcError('Unknown or expired session'),
          '429': rpcError('Too many open sessions from this client, or over the rate limit (Retry-After)'),
        },
      }),
    },
  };
  if (!stateless) {
    paths['/mcp']!.get = operation({
      ...common,
      operationId: 'mcp_get',
      summary: "MCP Streamable HTTP: the session's server-to-client SSE stream",
      parameters: [session],
      responses: { '200': { description: 'SSE stream', content: { 'text/event-stream': { schema: { type: 'string' } } } }, '400': rpcError('No session header'), '404': rpcError('Unknown or expired session') },
    });
    paths['/mcp']!.delete = operation({
      ...common,
      operationId: 'mcp_delete',
      summary: 'MCP Streamable HTTP: end the session',
      parameters: [session],
      responses: { '200': { description: 'Session ended' }, '400': rpcError('No session header'), '404': rpcError('Unknown or expired session') },
    });
  }
  return paths;
}

/**
 * Mounts /mcp: its serving (src/http/mcp-serve.ts, with the MCP SDK) is imported and made on the
 * first request; the requests that arrive meanwhile wait for the same import.
 */
export function mountMcp(app: Hono<AppEnv>, deps: Deps, opts: McpOptions): McpHttpHandle {
  let loading: Promise<McpServing> | null = null;
  let serving: McpServing | null = null;
  const load = (): Promise<McpServing> => (loading ??= import('./mcp-serve.js').then((m) => (serving = m.mcpServing(deps, opts))));
  app.all('/mcp', async (c) => coalesced(c, await (serving ?? (await load())).serve(c)));
  return {
    sessions: () => serving?.sessions() ?? 0,
    // Nothing to close unless the serving was made (or is being made: it is waited for).
    closeAll: async () => {
      const s = loading && (await loading.catch(() => null));
      await s?.closeAll();
    },
  };
}
