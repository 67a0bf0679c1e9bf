import { z } from 'zod';
import { requireAccount } from './access.js';
import { defineTool, READ_ONLY } from './define.js';
import { ApiKey } from './schemas.js';

export const getBalanceTool = defineTool({
  name: 'get_balance',
  access: { key: 'required' },
  title: 'Credit balance',
  description: 'Credits left, plan and number of paid calls of an API key. The key: api_key or the transport\'s.',
  inputSchema: z.object({ api_key: ApiKey.optional() }),
  outputSchema: z.object({ credits: z.number().int(), plan: z.string(), api_calls: z.number().int() }),
  annotations: READ_ONLY,
  rest: [{ method: 'POST', path: '/api/credits/balance', summary: 'Balance of a key' }],
  handler: async (input, ctx) => {
    const { account } = await requireAccount(ctx, input);
    return { credits: account.credits, plan: account.plan, api_calls: account.api_calls };
  },
  text: (o) => `${o.credits} credits, plan ${o.plan}, ${o.api_calls} paid calls.`,
});
