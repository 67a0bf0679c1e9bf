import { z } from 'zod';
import { findPart, quarantineHint } from '../domain/catalogue/parts.js';
import { screenEntity } from '../domain/knowledge/redlines.js';
import { ScreeningResultSchema } from '../domain/knowledge/redlines-schema.js';
import { partsContext } from './context.js';
import { defineTool, READ_ONLY } from './define.js';
import { EntityId, recordMeta } from './schemas.js';

export const screenPartTool = defineTool({
  name: 'screen_part',
  errors: ['not_found'],
  title: 'Screen a part for red lines',
  description:
    "Red lines RL-01..06 on a part's declared values (torque density, peak/rated, backlash without load, repeatability vs accuracy, IP scope, encoder as accuracy): " +
    'fires, not, or cannot_evaluate (value missing), with numbers and questions for the vendor. Not verdicts.',
  inputSchema: z.object({ id: EntityId }),
  outputSchema: ScreeningResultSchema.extend({
    note: z.string(),
    quarantine_hint: z.string().nullable(),
    meta: z.object({ license: z.string(), attribution: z.string() }),
  }),
  annotations: READ_ONLY,
  rest: [{ method: 'GET', path: '/api/parts/:id/screen', summary: 'Red lines RL-01..RL-06 on one part (screening marks, not verdicts)' }],
  handler: async ({ id }, ctx) => {
    const entity = await findPart(partsContext(ctx), id); // not_found with did_you_mean
    return { ...screenEntity(entity), quarantine_hint: quarantineHint(entity), meta: recordMeta(entity) };
  },
  text: (o) =>
    `${o.note}\n${o.id} (${o.name}): ${o.summary.fires} fire, ${o.summary.does_not_fire} do not fire, ${o.summary.cannot_evaluate} cannot be evaluated.\n` +
    o.red_lines.map((r) => `${r.id} ${r.status}: ${r.reason}`).join('\n'),
});
