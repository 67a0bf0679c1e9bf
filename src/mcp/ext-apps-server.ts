/**
 * ext-apps' server helpers (@modelcontextprotocol/ext-apps/server: registerAppTool,
 * registerAppResource, the capability and MIME type constants), re-exported. `npm run build`
 * bundles this file with esbuild (scripts/app-views.mjs), so dist/mcp/ext-apps-server.js holds the
 * helpers' code itself (about 600 bytes, no imports): ext-apps is a dev dependency, and a
 * production install carries neither it nor the MCP client package it names as a peer (~9 MB).
 */
export { getUiCapability, registerAppResource, registerAppTool, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
export type { McpUiReadResourceCallback, McpUiReadResourceResult } from '@modelcontextprotocol/ext-apps/server';
