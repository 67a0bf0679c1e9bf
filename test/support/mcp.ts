import { Client, InMemoryTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { Deps } from '../../src/deps.js';
import { createServer, ERROR_META_KEY, type ServerOptions } from '../../src/server.js';

export type ProtocolEra = 'legacy' | 'modern';
export const MODERN_REVISION = '2026-07-28';

/** Client options that make the v2 client speak one era: legacy (initialize) or pinned 2026-07-28. */
export function eraOptions(era: ProtocolEra) {
  return era === 'modern' ? { versionNegotiation: { mode: { pin: MODERN_REVISION } } } : {};
}

/**
 * The server as stdio serves it (serveStdio: the opening message picks the era), over an
 * in-memory pair, with the SDK's v2 client. Legacy by default; `era: 'modern'` pins 2026-07-28.
 */
export async function memoryClient(deps: Deps, opts: { era?: ProtocolEra; server?: Partial<ServerOptions> } = {}): Promise<{ client: Client; close: () => Promise<void> }> {
  const era = opts.era ?? 'legacy';
  const [a, b] = InMemoryTransport.createLinkedPair();
  const handle = serveStdio(({ era: served }) => createServer(deps, { surface: 'mcp-memory', ...opts.server, era: served }), { transport: a });
  const client = new Client({ name: 'test', version: '1.0.0' }, eraOptions(era) as never);
  await client.connect(b);
  return {
    client,
    close: async () => {
      await client.close();
      await handle.close();
    },
  };
}

export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The {error, code, ...} body of an isError result. */
export function errorBody(r: CallToolResult): Record<string, unknown> {
  if (!r.isError) throw new Error(`expected an error result, got ${JSON.stringify(r.structuredContent)}`);
  return (r._meta?.[ERROR_META_KEY] ?? {}) as Record<string, unknown>;
}

/** Both public surfaces over one set of deps: an in-memory MCP client and a loopback HTTP server. */
export async function openSurfaces(deps: Deps): Promise<{ client: Client; url: string; close: () => Promise<void> }> {
  const { startHttpServer } = await import('../../src/http/app.js');
  const mem = await memoryClient(deps);
  const srv = await startHttpServer(deps);
  return {
    client: mem.client,
    url: srv.url,
    close: async () => {
      await mem.close();
      await srv.close();
      deps.close();
    },
  };
}
