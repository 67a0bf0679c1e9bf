/**
 * The server's public identity for MCP clients: icon (an ISO 9409-1 flange with four bolt
 * holes, inline as a data: URI so it needs no network) and the project's website.
 */
import type { Icon } from '@modelcontextprotocol/server';

export const SERVER_WEBSITE_URL = 'https://github.com/robot-parts/robot-parts-mcp';

export const SERVER_ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="#1f2937"/><circle cx="32" cy="32" r="14" fill="none" stroke="#f59e0b" stroke-width="5"/><g fill="#f59e0b"><circle cx="32" cy="10" r="4"/><circle cx="32" cy="54" r="4"/><circle cx="10" cy="32" r="4"/><circle cx="54" cy="32" r="4"/></g></svg>';

export const SERVER_ICONS: Icon[] = [
  { src: 'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCA2NCA2NCI+PHJlY3Qgd2lkdGg9IjY0IiBoZWlnaHQ9IjY0IiByeD0iMTIiIGZpbGw9IiMxZjI5MzciLz48Y2lyY2xlIGN4PSIzMiIgY3k9IjMyIiByPSIxNCIgZmlsbD0ibm9uZSIgc3Ryb2tlPSIjZjU5ZTBiIiBzdHJva2Utd2lkdGg9IjUiLz48ZyBmaWxsPSIjZjU5ZTBiIj48Y2lyY2xlIGN4PSIzMiIgY3k9IjEwIiByPSI0Ii8+PGNpcmNsZSBjeD0iMzIiIGN5PSI1NCIgcj0iNCIvPjxjaXJjbGUgY3g9IjEwIiBjeT0iMzIiIHI9IjQiLz48Y2lyY2xlIGN4PSI1NCIgY3k9IjMyIiByPSI0Ii8+PC9nPjwvc3ZnPg==', mimeType: 'image/svg+xml', sizes: ['any'] },
];
