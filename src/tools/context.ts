import type { PartsContext } from '../domain/parts.js';
import type { ToolContext } from './define.js';

export function partsContext(ctx: ToolContext): PartsContext {
  return { catalogue: ctx.deps.catalogue, index: ctx.deps.index, baseUrl: ctx.deps.config.publicBaseUrl, layer: ctx.deps.ossLayer };
}
