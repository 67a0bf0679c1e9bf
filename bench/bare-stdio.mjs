// The stdio cold-start baseline: a bare SDK server with one tool, nothing loaded.
import { z } from 'zod';
import { McpServer, StdioServerTransport } from './sdk.mjs';

const mcp = new McpServer({ name: 'bare-stdio', version: '0.0.0' });
mcp.registerTool('search_parts', { description: 'Returns nothing', inputSchema: { q: z.string() } }, async () => ({ content: [{ type: 'text', text: 'none' }] }));
await mcp.connect(new StdioServerTransport());
