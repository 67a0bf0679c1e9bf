// The MCP SDK the bare baseline servers are built on: the v2 TypeScript SDK, the same major as
// ours. It is imported here only. v2 has no node:http transport (only the web-standard one), so
// StreamableHTTPServerTransport below is the web-standard 2025-era session transport with the
// node (req, res, body) call shape the baselines use: request in as a web Request, response
// streamed back to res. Ours goes through @hono/node-server for the same conversion.
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';

export { McpServer, LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/server';
export { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

export class StreamableHTTPServerTransport extends WebStandardStreamableHTTPServerTransport {
  async handleRequest(req, res, parsedBody) {
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
    const request = new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url}`, {
      method: req.method,
      headers,
      body: req.method === 'POST' ? JSON.stringify(parsedBody) : undefined,
    });
    const response = await super.handleRequest(request, parsedBody === undefined ? {} : { parsedBody });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (!response.body) {
      res.end();
      return;
    }
    for await (const chunk of response.body) res.write(chunk);
    res.end();
  }
}
