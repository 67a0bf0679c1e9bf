/** An in-memory MCP client (as test/support/mcp.ts's memoryClient) that may declare the MCP Apps extension. */
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { Deps } from '../../src/deps.js';
import { createServer } from '../../src/server.js';
import { eraOptions, type ProtocolEra } from '../support/mcp.js';

/** What a host with MCP Apps declares (the extension id and the HTML profile, written out here, not taken from the SDK). */
export const UI_EXTENSION = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };

export async function appsClient(deps: Deps, opts: { era?: ProtocolEra; extension?: boolean } = {}) {
  const [a, b] = InMemoryTransport.createLinkedPair();
  const handle = serveStdio(({ era }) => createServer(deps, { surface: 'mcp-memory', era }), { transport: a });
  const capabilities = opts.extension ? { extensions: UI_EXTENSION } : {};
  const client = new Client({ name: 'apps-test', version: '1.0.0' }, { capabilities, ...eraOptions(opts.era ?? 'legacy') } as never);
  await client.connect(b);
  return {
    client,
    close: async () => {
      await client.close();
      await handle.close();
    },
  };
}
