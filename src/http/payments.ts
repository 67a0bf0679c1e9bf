/**
 * Gateway-facing payment routes (not tools): the signed completion webhook, and the sandbox
 * gateway's pay page with its "simulate payment" button.
 */
import type { Hono } from 'hono';
import type { Deps } from '../deps.js';
import { DomainError } from '../domain/errors.js';
import { SandboxGateway } from '../domain/payments/sandbox.js';
import { errorResponse, type AppEnv } from './common.js';

export function mountPaymentRoutes(app: Hono<AppEnv>, deps: Deps): void {
  const { gateway } = deps.payments;

  app.post('/api/payment/webhook', async (c) => {
    // The signature covers the bytes as sent: read the raw text, never re-serialised JSON.
    const rawBody = await c.req.text();
    const headers: Record<string, string> = {};
    c.req.raw.headers.forEach((v, k) => (headers[k] = v));
    try {
      const r = await gateway.handleWebhook({ headers, rawBody });
      deps.log.info('payment webhook', { order_id: r.order_id, credited: r.credited });
      return c.json(r);
    } catch (err) {
      if (err instanceof DomainError) {
        deps.log.warn('payment webhook refused', { code: err.code, error: err.message });
        return errorResponse(c, err);
      }
      throw err;
    }
  });

  if (gateway instanceof SandboxGateway) {
    // The pay page and its button need the order's own secret token (from pay_url): an order id
    // alone (it appears in statuses and logs) opens nothing. A wrong token reads as an unknown order.
    const refuse = (id: string) => new DomainError('not_found', `No payment order ${JSON.stringify(id)} with this token; open the pay_url create_payment returned`, { order_id: id });
    app.get('/pay/:order_id', async (c) => {
      const id = c.req.param('order_id');
      try {
        if (!gateway.tokenMatches(id, c.req.query('token'))) throw refuse(id);
        const html = await gateway.payPage(id, { simulateAction: gateway.payPath(id, '/simulate') });
        c.header('Content-Security-Policy', "default-src 'none'; img-src data:; style-src 'unsafe-inline'; form-action 'self'");
        return c.html(html);
      } catch (err) {
        if (err instanceof DomainError) return errorResponse(c, err);
        throw err;
      }
    });
    app.post('/pay/:order_id/simulate', async (c) => {
      const id = c.req.param('order_id');
      try {
        if (!gateway.tokenMatches(id, c.req.query('token'))) throw refuse(id);
        await gateway.simulatePayment(id);
        return c.redirect(gateway.payPath(id), 303);
      } catch (err) {
        if (err instanceof DomainError) return errorResponse(c, err);
        throw err;
      }
    });
  }
}
