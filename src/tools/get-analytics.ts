import { z } from 'zod';
import { getAnalytics } from '../domain/analytics/index.js';
import { IntelligenceDocument } from '../domain/analytics/schema.js';
import { defineTool, READ_ONLY } from './define.js';
import { Category } from './schemas.js';

export const getAnalyticsTool = defineTool({
  name: 'get_analytics',
  errors: ['unknown_category'],
  title: 'Readiness and momentum analytics',
  description:
    'Per category: TRL (1-9 from lifecycle status, cited table), momentum (0-100: year, open-source BOM use, ROS, source tier/count), ' +
    'top ten, TRL distribution, insights and trends only where dated records back them. Few signals: unknown. meta.method: rules.',
  inputSchema: z.object({ category: Category.optional() }),
  outputSchema: IntelligenceDocument,
  annotations: READ_ONLY,
  rest: [{ method: 'GET', path: '/api/intelligence.json', summary: 'Intelligence document (TRL, momentum, insights); ?category= for one category' }],
  handler: async ({ category }, ctx) => getAnalytics(ctx.deps.analytics, category) as z.infer<typeof IntelligenceDocument>,
  text: (o) =>
    `${o.meta.category ?? 'whole catalogue'}: ${o.meta.counts.entities} records, ${o.meta.counts.with_trl} with a TRL, ${o.meta.counts.with_momentum} with a momentum score` +
    (o.top_signals[0] ? `; highest momentum ${o.top_signals[0].id} (${o.top_signals[0].momentum})` : '') +
    '. Method in meta.method.',
});
