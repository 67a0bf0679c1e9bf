/** MCP resources: dataset documents and the parts/catalogue templates, with completion. */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Deps } from '../deps.js';
import { toSummary } from '../domain/entity.js';
import { DomainError } from '../domain/errors.js';
import { getPart, listParts } from '../domain/parts.js';
import { ATTRIBUTION, LICENSE, recordMeta } from '../tools/schemas.js';
import { DATASETS } from './datasets.js';
import { datasetUri } from './define.js';

const COMPLETION_MAX = 100;

function json(uri: URL, body: unknown) {
  return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(body, null, 2) }] };
}

function one(v: string | string[] | undefined): string {
  return decodeURIComponent(Array.isArray(v) ? (v[0] ?? '') : (v ?? ''));
}

export function registerResources(server: McpServer, deps: Deps): void {
  for (const d of DATASETS) {
    server.registerResource(d.name, datasetUri(d.name), { title: d.title, description: d.description, mimeType: 'application/json' }, async (uri) =>
      json(uri, await d.build(deps)),
    );
  }

  const parts = { catalogue: deps.catalogue, index: deps.index, specs: deps.specs, baseUrl: deps.config.publicBaseUrl };

  server.registerResource(
    'part',
    new ResourceTemplate('robotparts://parts/{id}', {
      list: undefined,
      complete: {
        id: async (value) => deps.catalogue.idsWithPrefix(value ?? '', COMPLETION_MAX),
      },
    }),
    {
      title: 'Robot part',
      description: 'One catalogue entity by id: free-tier fields, locked paid field names and quarantine hint',
      mimeType: 'application/json',
    },
    async (uri, vars) => {
      const r = await getPart(parts, one(vars.id)).catch((e: unknown) => {
        if (e instanceof DomainError) throw new Error(`${e.code}: ${e.message}`);
        throw e;
      });
      return json(uri, { ...r, meta: recordMeta(r.entity) });
    },
  );

  server.registerResource(
    'catalogue-category',
    new ResourceTemplate('robotparts://catalogue/{category}', {
      list: async () => ({
        resources: (await deps.catalogue.categories()).map((c) => ({
          uri: `robotparts://catalogue/${c.slug}`,
          name: `catalogue-${c.slug}`,
          title: `${c.name} (${c.count})`,
          mimeType: 'application/json',
        })),
      }),
      complete: {
        category: async (value) => {
          const v = (value ?? '').toLowerCase();
          return (await deps.catalogue.categories()).map((c) => c.slug).filter((s) => s.toLowerCase().startsWith(v)).slice(0, COMPLETION_MAX);
        },
      },
    }),
    {
      title: 'Catalogue category',
      description: 'Summary fields of every non-quarantined entity of one category',
      mimeType: 'application/json',
    },
    async (uri, vars) => {
      const r = await listParts(parts, { category: one(vars.category), limit: 1000 }).catch((e: unknown) => {
        if (e instanceof DomainError) throw new Error(`${e.code}: ${e.message}`);
        throw e;
      });
      return json(uri, { count: r.total, data: r.items.map(toSummary), meta: { category: r.category, license: LICENSE, attribution: ATTRIBUTION } });
    },
  );
}
