/**
 * The intelligence picture (SVG) as an MCP resource, robotparts://charts/intelligence; the REST twin
 * is GET /api/intelligence.svg (src/http/intelligence-chart.ts). Both draw the document get_analytics returns.
 */
import type { Deps } from '../deps.js';
import { renderIntelligenceSvg, type ChartDocument } from '../domain/analytics/chart.js';
import { getAnalytics } from '../domain/analytics/index.js';

export const INTELLIGENCE_CHART_URI = 'robotparts://charts/intelligence';

/** The picture for the whole catalogue or one category (unknown category -> unknown_category). */
export async function intelligenceSvg(deps: Deps, category?: string): Promise<string> {
  const doc = getAnalytics(deps.analytics, category) as unknown as ChartDocument;
  return renderIntelligenceSvg(doc, deps.analytics.tables.momentum.colours);
}

/** The chart's entry in resources/list (read through readResource in serve.ts). */
export const INTELLIGENCE_CHART_RESOURCE = {
  uri: INTELLIGENCE_CHART_URI,
  name: 'intelligence-chart',
  title: 'Intelligence picture: TRL distribution and momentum by category (SVG)',
  description: 'Bar charts of the records per TRL level (and unknown) and the mean momentum per category, drawn from the intelligence document. REST: GET /api/intelligence.svg',
  mimeType: 'image/svg+xml',
};
