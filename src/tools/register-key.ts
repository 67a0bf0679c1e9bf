import { z } from 'zod';
import { applyRegistrationLimit } from './access.js';
import { defineTool } from './define.js';

export const registerKeyTool = defineTool({
  name: 'register_key',
  errors: ['already_registered'],
  title: 'Register a free API key',
  description:
    'A free API key (gtk_...), 100 credits, for an e-mail address; shown once. ' +
    'An address with a key: already_registered.',
  inputSchema: z.object({ email: z.string().max(320).describe("The key owner's e-mail") }),
  outputSchema: z.object({
    api_key: z.string().describe('Shown only once'),
    credits: z.number().int(),
    plan: z.string(),
    message: z.string(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  rest: [{ method: 'POST', path: '/api/register', summary: 'Register a free key (100 credits)' }],
  handler: async ({ email }, ctx) => {
    await applyRegistrationLimit(ctx); // per client address and hour, before the address is looked at
    return ctx.deps.accounts.register(email);
  },
  text: (o) => `Registered: api_key ${o.api_key} (${o.credits} credits, plan ${o.plan}). ${o.message}`,
});
