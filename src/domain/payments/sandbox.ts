/**
 * The built-in `sandbox` gateway: real orders in the database, a local pay page at
 * `<publicBaseUrl>/pay/<order_id>` with a QR code of that URL, and completion through a
 * webhook signed as described in ./signature.ts. The webhook body is JSON:
 *
 *   {"type":"payment.succeeded","order_id":"ord_...","plan":"starter","amount":"9.00","currency":"CNY"}
 *
 * (`amount` in major units, as a decimal string or number with at most 2 decimals).
 */
import crypto from 'node:crypto';
import { z } from 'zod';
import type { AccountRecord, PaymentOrderStore } from '../accounts/ledger.js';
import { systemClock, type Clock } from '../shared/clock.js';
import { invalidInput } from '../shared/errors.js';
import {
  fulfilOrder,
  headerValue,
  orderNotFound,
  orderStatusView,
  type CreatedOrder,
  type OrderStatusView,
  type PaymentGateway,
  type WebhookRequest,
  type WebhookResult,
} from './gateway.js';
import { renderPayPage } from './pay-page.js';
import { toMinorUnits, type Plan, type PlanCatalog } from './plans.js';
import { SIGNATURE_HEADER, SIGNATURE_TOLERANCE_SECONDS, signPayload, verifySignature } from './signature.js';

/** The QR code of a pay URL as a data: URL (qrcode and its PNG encoder are loaded on the first order, not at start). */
async function qrDataUrl(url: string): Promise<string> {
  const { default: QRCode } = await import('qrcode');
  return QRCode.toDataURL(url);
}

export interface SandboxGatewayOptions {
  orders: PaymentOrderStore;
  plans: PlanCatalog;
  /** Shared webhook secret (HMAC-SHA256 key). */
  secret: string;
  /** Base of pay_url, e.g. http://127.0.0.1:8787 (no trailing slash needed). */
  publicBaseUrl: string;
  clock?: Clock;
  toleranceSeconds?: number;
  /**
   * The secret token of an order, bound to its id (e.g. an HMAC under the server secret). The
   * pay URL carries it and the pay page and its button require it, so knowing an order id is
   * not enough to pay it. Default: a random per-gateway key (tokens die with the process).
   */
  payToken?: (orderId: string) => string;
}

/** The sandbox protocol's webhook body (also documented in /openapi.json). */
export const WebhookBodySchema = z.object({
  type: z.literal('payment.succeeded'),
  order_id: z.string().min(1).max(200),
  plan: z.string().min(1).max(100),
  amount: z.union([z.string(), z.number()]),
  currency: z.string().min(1).max(10),
});

export function newOrderId(): string {
  return 'ord_' + crypto.randomBytes(16).toString('base64url');
}

export class SandboxGateway implements PaymentGateway {
  readonly name = 'sandbox';
  private readonly clock: Clock;

  constructor(private readonly opts: SandboxGatewayOptions) {
    if (!opts.secret) throw new Error('sandbox gateway: a webhook secret is required');
    this.clock = opts.clock ?? systemClock;
    const fallbackKey = crypto.randomBytes(32);
    this.tokenOf =
      opts.payToken ?? ((id) => crypto.createHmac('sha256', fallbackKey).update(id, 'utf8').digest('base64url').slice(0, 32));
  }

  private readonly tokenOf: (orderId: string) => string;

  /** Does `token` open the pay page of `orderId`? (constant-time) */
  tokenMatches(orderId: string, token: string | null | undefined): boolean {
    if (typeof token !== 'string' || token === '') return false;
    const want = Buffer.from(this.tokenOf(orderId), 'utf8');
    const got = Buffer.from(token, 'utf8');
    return want.length === got.length && crypto.timingSafeEqual(want, got);
  }

  /** Path of the pay page with its token: /pay/<order_id>?token=<token>. */
  payPath(orderId: string, suffix = ''): string {
    return `/pay/${encodeURIComponent(orderId)}${suffix}?token=${encodeURIComponent(this.tokenOf(orderId))}`;
  }

  payUrl(orderId: string): string {
    // Read at call time: the public URL may be settled only once the server listens (port 0).
    return `${this.opts.publicBaseUrl.replace(/\/+$/, '')}${this.payPath(orderId)}`;
  }

  async createOrder(input: { account: AccountRecord; plan: Plan }): Promise<CreatedOrder> {
    const orderId = newOrderId();
    await this.opts.orders.insertOrder({
      order_id: orderId,
      gateway: this.name,
      account_id: input.account.id,
      plan: input.plan.plan,
      amount_minor: input.plan.amountMinor,
      currency: input.plan.currency,
      credits: input.plan.credits,
      status: 'pending',
      created_at: this.clock().toISOString(),
      paid_at: null,
    });
    const payUrl = this.payUrl(orderId);
    return { order_id: orderId, pay_url: payUrl, qr_code: await qrDataUrl(payUrl) };
  }

  async handleWebhook(req: WebhookRequest): Promise<WebhookResult> {
    verifySignature(
      this.opts.secret,
      headerValue(req.headers, SIGNATURE_HEADER),
      req.rawBody,
      this.clock(),
      this.opts.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS,
    );
    let json: unknown;
    try {
      json = JSON.parse(req.rawBody);
    } catch {
      throw invalidInput('body', 'must be JSON');
    }
    const parsed = WebhookBodySchema.safeParse(json);
    if (!parsed.success) {
      const field = parsed.error.issues[0]?.path.join('.') || 'body';
      throw invalidInput(field, parsed.error.issues[0]?.message ?? 'invalid webhook body');
    }
    const amountMinor = toMinorUnits(parsed.data.amount);
    if (amountMinor === null) throw invalidInput('amount', 'must be a non-negative amount with at most 2 decimals');
    return fulfilOrder(this.opts.orders, this.opts.plans, this.name, {
      order_id: parsed.data.order_id,
      plan: parsed.data.plan,
      amountMinor,
      currency: parsed.data.currency,
    });
  }

  async status(orderId: string): Promise<OrderStatusView> {
    const o = await this.opts.orders.order(orderId);
    if (!o || o.gateway !== this.name) throw orderNotFound(orderId);
    return orderStatusView(o);
  }

  /** HTML of the pay page; not_found for an unknown order. */
  async payPage(orderId: string, opts: { simulateAction?: string } = {}): Promise<string> {
    const order = await this.status(orderId);
    const payUrl = this.payUrl(orderId);
    return renderPayPage({ order, payUrl, qrCode: await qrDataUrl(payUrl), simulateAction: opts.simulateAction });
  }

  /** The webhook request the sandbox "provider" sends when the order is paid (signed now). */
  async completionRequest(orderId: string): Promise<WebhookRequest> {
    const o = await this.status(orderId);
    const rawBody = JSON.stringify({
      type: 'payment.succeeded',
      order_id: o.order_id,
      plan: o.plan,
      amount: o.amount,
      currency: o.currency,
    });
    return {
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signPayload(this.opts.secret, rawBody, this.clock()) },
      rawBody,
    };
  }

  /** For the pay page's "simulate payment" button: sends the signed completion to itself. */
  async simulatePayment(orderId: string): Promise<WebhookResult> {
    return this.handleWebhook(await this.completionRequest(orderId));
  }
}
