/**
 * ext-apps' server helpers (@modelcontextprotocol/ext-apps/server: registerAppTool,
 * registerAppResource, the capability and MIME type constants), re-exported. `npm run build`
 * bundles the compiled modules with the packages they import (scripts/bundle.mjs), so the built
 * package holds the helpers' code itself: ext-apps is a dev dependency, and a production install
 * carries neither it nor the MCP client package it names as a peer (~9 MB).
 */
export { getUiCapability, registerAppResource, registerAppTool, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
export type { McpUiReadResourceCallback, McpUiReadResourceResult } from '@modelcontextprotocol/ext-apps/server';
