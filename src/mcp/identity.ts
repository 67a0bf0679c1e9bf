/**
 * The server's public identity for MCP clients: icon (an ISO 9409-1 flange with four bolt
 * holes, inline as a data: URI so it needs no network) and the project's website.
 */
import type { Icon } from '@modelcontextprotocol/server';

export const SERVER_WEBSITE_URL = 'https://github.com/robot-parts/robot-parts-mcp';

const ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="5" fill="none" stroke="#f59e0b" stroke-width="2"/><circle cx="8" cy="2" r="1"/><circle cx="8" cy="14" r="1"/><circle cx="2" cy="8" r="1"/><circle cx="14" cy="8" r="1"/></svg>';

export const SERVER_ICONS: Icon[] = [{ src: `data:image/svg+xml,${encodeURIComponent(ICON_SVG)}`, mimeType: 'image/svg+xml', sizes: ['any'] }];
