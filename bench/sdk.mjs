// The MCP SDK the bare baseline servers are built on. It is imported here only, so moving the
// baselines to another SDK major (v2) is a change to this file alone.
export { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
export { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
export { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
