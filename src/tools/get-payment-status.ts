import { z } from 'zod';
import { defineTool, READ_ONLY } from './define.js';

export const getPaymentStatusTool = defineTool({
  name: 'get_payment_status',
  errors: ['not_found'],
  title: 'Payment order status',
  description: 'Status of a payment order (pending or paid), with its plan, amount, currency and credits.',
  inputSchema: z.object({ order_id: z.string().min(1).max(200).describe('From create_payment') }),
  outputSchema: z.object({
    order_id: z.string(),
    status: z.enum(['pending', 'paid']),
    plan: z.string(),
    amount: z.string(),
    currency: z.string(),
    credits: z.number().int(),
    created_at: z.string(),
    paid_at: z.string().nullable(),
  }),
  annotations: READ_ONLY,
  rest: [{ method: 'GET', path: '/api/payment/:order_id', summary: 'Payment order status' }],
  handler: async ({ order_id }, ctx) => ctx.deps.payments.gateway.status(order_id),
  text: (o) => `Order ${o.order_id}: ${o.status}${o.paid_at ? ` at ${o.paid_at}` : ''} (${o.plan}, ${o.amount} ${o.currency}, ${o.credits} credits).`,
});
