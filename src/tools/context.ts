import type { PartsContext } from '../domain/catalogue/parts.js';
import type { ToolContext } from './define.js';

export function partsContext(ctx: ToolContext): PartsContext {
  return {
    catalogue: ctx.deps.catalogue, index: ctx.deps.index, specs: ctx.deps.specs, layer: ctx.deps.ossLayer, // Over stdio no server is listening: no detail_url unless a public URL is configured.
    baseUrl: ctx.surface === 'mcp-stdio' && !ctx.deps.config.publicUrlConfigured ? null : ctx.deps.config.publicBaseUrl,
  };
}
