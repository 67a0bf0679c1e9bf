/** OpenAPI 3.1 document generated from the same zod schemas as the MCP tools. */
import { z } from 'zod';
import type { DatasetDefinition } from '../resources/define.js';
import type { AnyTool } from '../tools/define.js';
import { SERVER_VERSION } from '../version.js';

const ERROR_BODY = {
  type: 'object',
  required: ['error', 'code'],
  properties: { error: { type: 'string' }, code: { type: 'string' } },
  additionalProperties: true,
};

export function buildOpenApi(tools: readonly AnyTool[], baseUrl: string, datasets: readonly DatasetDefinition[] = []): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const d of datasets) {
    if (d.restPath === null) continue; // its tool's route documents the path
    paths[d.restPath] = {
      get: {
        operationId: `dataset_${d.name.replace(/[^A-Za-z0-9]+/g, '_')}`,
        summary: d.title,
        description: `${d.description} Also the MCP resource robotparts://datasets/${d.name}.`,
        responses: { '200': { description: 'OK', content: { 'application/json': { schema: { type: 'object' } } } } },
      },
    };
  }
  for (const tool of tools) {
    const input = z.toJSONSchema(tool.inputSchema, { io: 'input', unrepresentable: 'any' }) as {
      properties?: Record<string, Record<string, unknown>>;
      required?: string[];
    };
    const output = z.toJSONSchema(tool.outputSchema, { io: 'output', unrepresentable: 'any' });
    for (const route of tool.rest) {
      const oaPath = route.path.replace(/:([A-Za-z_]+)/g, '{$1}');
      const pathParams = [...route.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]);
      const fixed = new Set(Object.keys(route.fixed ?? {}));
      const props = Object.entries(input.properties ?? {}).filter(([k]) => !fixed.has(k) && !pathParams.includes(k));
      const op: Record<string, unknown> = {
        operationId: `${tool.name}${tool.rest.length > 1 ? `_${oaPath.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '')}` : ''}`,
        summary: route.summary ?? tool.title,
        description: tool.description,
        'x-mcp-tool': tool.name,
        parameters: [
          ...pathParams.map((p) => ({ name: p, in: 'path', required: true, schema: input.properties?.[p] ?? { type: 'string' } })),
          ...(route.method === 'GET'
            ? props.map(([k, s]) => ({ name: k, in: 'query', required: (input.required ?? []).includes(k), schema: s, description: s.description }))
            : []),
        ],
        responses: {
          '200': { description: 'OK', content: { [route.render ? 'application/octet-stream' : 'application/json']: { schema: output } } },
          default: { description: 'Error', content: { 'application/json': { schema: ERROR_BODY } } },
        },
      };
      if (route.method === 'POST') {
        op.requestBody = {
          required: true,
          content: {
            'application/json': {
              schema: { type: 'object', properties: Object.fromEntries(props), required: (input.required ?? []).filter((k) => !fixed.has(k)) },
            },
          },
        };
      }
      paths[oaPath] = { ...(paths[oaPath] ?? {}), [route.method.toLowerCase()]: op };
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Robot Parts Data Service (robot-parts-mcp REST bridge)',
      version: SERVER_VERSION,
      license: { name: 'Code: MIT; data: CC BY 4.0 (RoboParts)' },
    },
    servers: [{ url: baseUrl }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        apiKeyQuery: { type: 'apiKey', in: 'query', name: 'key' },
      },
    },
    paths,
  };
}
