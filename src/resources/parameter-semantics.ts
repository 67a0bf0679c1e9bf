import { buildParameterSemantics } from '../domain/knowledge/semantics.js';
import { defineDataset } from './define.js';

/**
 * The parameter semantics registry, computed on each read from the catalogue this server loaded.
 * Scope decision: every record is scanned, quarantined ones included (Catalogue.all()): their
 * declared values are catalogue content that get_part and screen_part still serve, and the
 * registry reports how many of them were in the scan (scope.quarantined_in_scan).
 */
export const parameterSemanticsDataset = defineDataset({
  name: 'parameter-semantics',
  title: 'Parameter semantics registry',
  description:
    'How vendor parameters in this catalogue are written and when they can be compared: comparability levels A-D, exact unit conversions, red lines RL-01..RL-06, ' +
    'notation and dialect counts computed from the loaded catalogue (all records, quarantined included; scope says how many), known defects and a buyer checklist.',
  restPath: '/api/parameter_semantics.json',
  build: async (deps) => buildParameterSemantics(await deps.catalogue.all(), { generatedAt: deps.clock().toISOString() }),
});
