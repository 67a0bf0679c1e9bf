/**
 * GET /api/intelligence.svg (?category=): the intelligence picture, drawn from the same document
 * get_analytics returns. Not a tool (an image, not structured data); counted like a dataset read.
 */
import type { Hono } from 'hono';
import type { Deps } from '../deps.js';
import { DomainError, invalidInput } from '../domain/shared/errors.js';
import { intelligenceSvg } from '../resources/intelligence-chart.js';
import { errorResponse, type AppEnv } from './common.js';
import { FREE, operation, type OpenApiPaths } from './openapi.js';

export const INTELLIGENCE_SVG_PATH = '/api/intelligence.svg';

export function mountIntelligenceChart(app: Hono<AppEnv>, deps: Deps): OpenApiPaths {
  app.get(INTELLIGENCE_SVG_PATH, async (c) => {
    try {
      const all = c.req.queries('category');
      if (all && all.length > 1) throw invalidInput('category', 'give one category');
      const category = all?.[0];
      if (category !== undefined && (category.trim() === '' || category.length > 100)) throw invalidInput('category', 'must be a category slug or name of 1 to 100 characters');
      const svg = await intelligenceSvg(deps, category);
      return c.body(svg, 200, { 'Content-Type': 'image/svg+xml; charset=utf-8', 'Cache-Control': 'public, max-age=300' });
    } catch (err) {
      if (err instanceof DomainError) return errorResponse(c, err);
      throw err;
    }
  });
  return {
    [INTELLIGENCE_SVG_PATH]: {
      get: operation({
        operationId: 'intelligence_svg',
        summary: 'Intelligence picture (SVG bar charts); ?category= for one category',
        description: 'The charts drawn from the document GET /api/intelligence.json (get_analytics) returns.',
        security: FREE,
        parameters: [{ name: 'category', in: 'query', required: false, schema: { type: 'string', minLength: 1, maxLength: 100 }, description: 'Category slug or name; the whole catalogue when absent' }],
        responses: { '200': { description: 'The SVG image', content: { 'image/svg+xml': { schema: { type: 'string' } } } } },
        errors: ['invalid_input', 'unknown_category'],
      }),
    },
  };
}
