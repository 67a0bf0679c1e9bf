/** `/docs`: Swagger UI over this server's /openapi.json, its bundle served by the process (no CDN). */
import { html, type PageContent } from './html.js';
import type { PageRequest } from './types.js';

export async function docsPage(_r: PageRequest): Promise<PageContent> {
  return {
    title: 'API reference',
    current: '/docs',
    styles: ['/assets/vendor/swagger-ui.css'],
    scripts: ['/assets/vendor/swagger-ui-bundle.js', '/assets/docs.js'],
    body: html`<h1>API reference</h1>
<p>The REST API, described by <a href="/openapi.json">/openapi.json</a>. Every route is a tool of the MCP server with the same arguments and answers.</p>
<noscript><p>The interactive reference needs JavaScript; <a href="/openapi.json">/openapi.json</a> is the same description as JSON.</p></noscript>
<div id="swagger"></div>`,
  };
}
