import { getAnalytics } from '../domain/analytics/index.js';
import { defineDataset } from './define.js';

/** The intelligence document, computed once, on first use (deps.analytics); REST: get_analytics's GET /api/intelligence.json. */
export const intelligenceDataset = defineDataset({
  name: 'intelligence',
  title: 'Intelligence: technology readiness (TRL) and momentum',
  description:
    'TRL (1-9) from declared lifecycle statuses by a cited mapping table, momentum (0-100) by a stated formula over measured signals, per category, top ten by momentum with breakdown, ' +
    'TRL distribution, computed cross-domain insights and trend statements only where dated records support them; meta.method states every rule. Also get_analytics and GET /api/intelligence.json.',
  restPath: null,
  build: async (deps) => getAnalytics(deps.analytics),
});
