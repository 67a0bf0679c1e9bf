import { z } from 'zod';
import { checkCompatibility, CompatibilityResult } from '../domain/compatibility/index.js';
import { findPart } from '../domain/catalogue/parts.js';
import { DomainError } from '../domain/shared/errors.js';
import { partsContext } from './context.js';
import { defineTool, READ_ONLY } from './define.js';
import { EntityId } from './schemas.js';

export const checkCompatibilityTool = defineTool({
  name: 'check_compatibility',
  errors: ['not_found'],
  title: 'Check two parts for compatibility',
  description:
    'Two parts by id, four dimensions with evidence: mechanical (ISO 9409-1 flanges), electrical (voltage), communication (buses, protocols, bridges), software (ROS, SDKs). ' +
    'Unknown is never compatible; non-physical: applicable=false.',
  inputSchema: z.object({
    a: EntityId.describe('First part, e.g. "ACT-001"'),
    b: EntityId.describe('Second part'),
  }),
  outputSchema: CompatibilityResult,
  annotations: READ_ONLY,
  rest: [
    { method: 'POST', path: '/api/compatibility', summary: 'Four-dimension compatibility of two parts' },
    { method: 'GET', path: '/api/compatibility', summary: 'Four-dimension compatibility of two parts' },
  ],
  handler: async ({ a, b }, ctx) => {
    const load = async (id: string, field: 'a' | 'b') => {
      try {
        return await findPart(partsContext(ctx), id);
      } catch (err) {
        if (err instanceof DomainError && err.code === 'not_found') {
          throw new DomainError('not_found', `${field}: ${err.message}`, { ...err.details, field });
        }
        throw err;
      }
    };
    const ea = await load(a, 'a');
    const eb = await load(b, 'b');
    return checkCompatibility(ea, eb, { ...ctx.deps.knowledge, baseUrl: partsContext(ctx).baseUrl });
  },
  // Leads with the decisive fact: the adapters or bridges the pair needs, else the verdict; then the dimensions by verdict.
  text: (o) => {
    if (!o.applicable || o.dimensions === null) return `Not applicable: ${o.reason}`;
    const dims = Object.entries(o.dimensions as Record<string, { verdict: string; adapters: string[] }>);
    const adapters = [...new Set(dims.flatMap(([, d]) => d.adapters))];
    const head = adapters.length > 0 ? `Needs ${adapters.join(' + ')}` : o.verdict === 'compatible' ? 'Compatible in every dimension' : `${o.verdict === 'unknown' ? 'Not settled by the data' : o.verdict === 'incompatible' ? 'Incompatible' : 'Adapter required'}`;
    const by = (v: string) => dims.filter(([, d]) => d.verdict === v).map(([k]) => k);
    const groups = ['incompatible', 'adapter_required', 'unknown', 'compatible'].map((v) => [v, by(v)] as const).filter(([, ks]) => ks.length > 0);
    return `${head} (${o.a.id} + ${o.b.id}); overall ${o.verdict}: ${groups.map(([v, ks]) => `${v.replace('_', ' ')} ${ks.join(', ')}`).join('; ')}.`;
  },
});
