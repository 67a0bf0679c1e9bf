import { z } from 'zod';
import { createPayment } from '../domain/payments/service.js';
import { presentedKey } from './access.js';
import { defineTool } from './define.js';
import { ApiKey } from './schemas.js';

export const createPaymentTool = defineTool({
  name: 'create_payment',
  access: { key: 'required' }, // or, with --payment-by-email, a registered e-mail alone
  errors: ['not_found'],
  title: 'Buy credits',
  description:
    'Payment order for a plan: starter (9 CNY, 500 credits), pro (29 CNY, 2000), lifetime (199 CNY, 9999); pay_url and QR code. ' +
    'Account: the API key\'s (email must match). Credits on payment (get_payment_status).',
  inputSchema: z.object({
    plan: z.enum(['starter', 'pro', 'lifetime']).describe('Plan to buy'),
    api_key: ApiKey.optional(),
    email: z.string().max(320).optional().describe('Instead of, or to confirm, the key'),
  }),
  outputSchema: z.object({ order_id: z.string(), pay_url: z.string(), qr_code: z.string() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  rest: [{ method: 'POST', path: '/api/payment/create', summary: 'Create a payment order' }],
  handler: async (input, ctx) =>
    createPayment({ plan: input.plan, apiKey: presentedKey(ctx, input), email: input.email ?? null }, { accounts: ctx.deps.accounts, ...ctx.deps.payments, allowEmailOnly: ctx.deps.config.paymentByEmail }),
  text: (o) => `Order ${o.order_id}: pay at ${o.pay_url}`,
});
