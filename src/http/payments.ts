/**
 * Gateway-facing payment routes (not tools): the signed completion webhook, and the sandbox
 * gateway's pay page with its "simulate payment" button.
 */
import type { Hono } from 'hono';
import type { Deps } from '../deps.js';
import { DomainError } from '../domain/shared/errors.js';
import { SandboxGateway, WebhookBodySchema } from '../domain/payments/sandbox.js';
import { SIGNATURE_HEADER } from '../domain/payments/signature.js';
import { sampledWarnings } from '../log.js';
import { errorResponse, type AppEnv } from './common.js';
import { FREE, htmlPage, json, jsonSchema, operation, type OpenApiPaths } from './openapi.js';

/** Mounts the payment routes; returns their OpenAPI description (the pay page only with the sandbox gateway). */
export function mountPaymentRoutes(app: Hono<AppEnv>, deps: Deps): OpenApiPaths {
  const { gateway } = deps.payments;
  const sandbox = gateway instanceof SandboxGateway;

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
        sampledWarnings(deps.log).warn('payment webhook refused', { code: err.code, error: err.message });
        return errorResponse(c, err);
      }
      throw err;
    }
  });

  const docs: OpenApiPaths = {
    '/api/payment/webhook': {
      post: operation({
        operationId: 'payment_webhook',
        summary: 'Payment completion notification from the gateway (signed)',
        description:
          `Called by the payment gateway, not by clients: credits the order's account exactly once. The signature covers the raw body` +
          (sandbox ? ` (sandbox protocol: ${SIGNATURE_HEADER}: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>, within 5 minutes).` : '.'),
        security: FREE,
        parameters: sandbox ? [{ name: SIGNATURE_HEADER, in: 'header', required: true, schema: { type: 'string' }, description: 't=<unix seconds>,v1=<hex HMAC-SHA256>' }] : [],
        requestBody: { required: true, content: json(sandbox ? jsonSchema(WebhookBodySchema, 'input') : { type: 'object', description: "The gateway's own notification format" }) },
        responses: {
          '200': {
            description: 'The order is paid; credited is false when it already was (a replay)',
            content: json({
              type: 'object',
              required: ['order_id', 'status', 'credited'],
              properties: { order_id: { type: 'string' }, status: { type: 'string', enum: ['paid'] }, credited: { type: 'boolean' } },
            }),
          },
        },
        errors: ['invalid_input', 'bad_signature', 'not_found'],
      }),
    },
  };

  if (gateway instanceof SandboxGateway) {
    // The pay page and its button need the order's own secret token (from pay_url): an order id
    // alone (it appears in statuses and logs) opens nothing. A wrong token reads as an unknown order.
    const refuse = (id: string) => new DomainError('not_found', `No payment order ${JSON.stringify(id)} with this token; open the pay_url create_payment returned`, { order_id: id });
    app.get('/pay/:order_id', async (c) => {
      const id = c.req.param('order_id');
      try {
        if (!gateway.tokenMatches(id, c.req.query('token'))) throw refuse(id);
        const html = await gateway.payPage(id, { simulateAction: gateway.payPath(id, '/simulate') });
        c.header('Content-Security-Policy', "default-src 'none'; img-src data:; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'");
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
    const orderParams = [
      { name: 'order_id', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'token', in: 'query', required: true, schema: { type: 'string' }, description: "The order's secret token, from the pay_url create_payment returned" },
    ];
    docs['/pay/{order_id}'] = {
      get: htmlPage({
        operationId: 'sandbox_pay_page',
        summary: 'Sandbox pay page of an order (HTML, with a "simulate payment" button)',
        description: 'Served only by the sandbox payment gateway. The pay_url of create_payment opens it.',
        parameters: orderParams,
        errors: ['not_found'],
      }),
    };
    docs['/pay/{order_id}/simulate'] = {
      post: operation({
        operationId: 'sandbox_simulate_payment',
        summary: 'Sandbox: mark the order paid (the pay page\'s button), then back to the pay page',
        description: 'Served only by the sandbox payment gateway; it sends the signed webhook a real gateway would send.',
        security: FREE,
        parameters: orderParams,
        responses: { '303': { description: 'Paid; see the pay page', headers: { Location: { description: 'The pay page', required: true, schema: { type: 'string' } } } } },
        errors: ['not_found'],
      }),
    };
  }
  return docs;
}
