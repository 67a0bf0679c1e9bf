import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Deps } from '../../src/deps.js';
import { createServer, ERROR_META_KEY } from '../../src/server.js';

export async function memoryClient(deps: Deps): Promise<{ client: Client; close: () => Promise<void> }> {
  const server = createServer(deps, { surface: 'mcp-memory' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(b);
  return { client, close: async () => { await client.close(); await server.close(); } };
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
