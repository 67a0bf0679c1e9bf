/**
 * The payment gateway seam. A deployment picks one by name (config `paymentGateway`,
 * env ROBOT_PARTS_PAYMENT_GATEWAY) with its secret (ROBOT_PARTS_WEBHOOK_SECRET).
 *
 * Plugging in a real gateway (Alipay, WeChat Pay, Stripe, ...): implement PaymentGateway:
 * - createOrder: create the order at the provider, store a PaymentOrderRecord (status
 *   pending, the provider's id as order_id or a mapping) and return its pay_url and a QR code;
 * - handleWebhook: verify the provider's signature over the raw body with its own scheme
 *   (constant-time compare, freshness check), map its notification to a PaymentClaim and
 *   call fulfilOrder(), which checks plan, amount and currency against the stored order and
 *   credits exactly once (order transition and ledger credit in one transaction);
 * - status: read the stored order (orderStatusView).
 * Then add its name to createPaymentGateway() in ./index.ts.
 */
import type { AccountRecord, PaymentOrderRecord, PaymentOrderStore } from '../accounts/ledger.js';
import { DomainError, invalidInput } from '../shared/errors.js';
import { formatMinorUnits, type Plan, type PlanCatalog } from './plans.js';

export interface CreatedOrder {
  order_id: string;
  pay_url: string;
  /** data:image/png;base64,... QR code of pay_url. */
  qr_code: string;
}

export interface WebhookRequest {
  /** Request headers; names are matched case-insensitively. */
  headers: Record<string, string | string[] | undefined>;
  /** The body exactly as received (the signature covers these bytes). */
  rawBody: string;
}

export interface WebhookResult {
  order_id: string;
  status: 'paid';
  /** False when the order was already paid (a replay): nothing was credited this time. */
  credited: boolean;
}

export interface OrderStatusView {
  order_id: string;
  status: 'pending' | 'paid';
  plan: string;
  /** Major units with 2 decimals, e.g. "9.00". */
  amount: string;
  currency: string;
  credits: number;
  created_at: string;
  paid_at: string | null;
}

export interface PaymentGateway {
  readonly name: string;
  createOrder(input: { account: AccountRecord; plan: Plan }): Promise<CreatedOrder>;
  /** Verifies and applies a completion notification; idempotent. */
  handleWebhook(req: WebhookRequest): Promise<WebhookResult>;
  /** not_found for an unknown order. */
  status(orderId: string): Promise<OrderStatusView>;
}

/** What a verified notification says was paid. */
export interface PaymentClaim {
  order_id: string;
  plan: string;
  amountMinor: number;
  currency: string;
}

export function headerValue(headers: WebhookRequest['headers'], name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() === lower) return Array.isArray(v) ? v.join(',') : v;
  }
  return undefined;
}

export function orderNotFound(orderId: string): DomainError {
  return new DomainError('not_found', `No payment order ${JSON.stringify(orderId)}`, { order_id: orderId });
}

export function orderStatusView(o: PaymentOrderRecord): OrderStatusView {
  return {
    order_id: o.order_id,
    status: o.status,
    plan: o.plan,
    amount: formatMinorUnits(o.amount_minor),
    currency: o.currency,
    credits: o.credits,
    created_at: o.created_at,
    paid_at: o.paid_at,
  };
}

/**
 * Applies a verified claim: the order must exist (not_found), belong to this gateway, and
 * match in plan, amount and currency (invalid_input naming the field). Credits the order's
 * credits and raises the plan exactly once, however often the claim is replayed.
 */
export async function fulfilOrder(
  orders: PaymentOrderStore,
  plans: PlanCatalog,
  gateway: string,
  claim: PaymentClaim,
): Promise<WebhookResult> {
  const order = await orders.order(claim.order_id);
  if (!order || order.gateway !== gateway) throw orderNotFound(claim.order_id);
  if (claim.plan !== order.plan) throw invalidInput('plan', 'does not match the order');
  if (claim.currency !== order.currency) throw invalidInput('currency', 'does not match the order');
  if (claim.amountMinor !== order.amount_minor) throw invalidInput('amount', 'does not match the order');
  const done = await orders.markPaidAndCredit(order.order_id, (current, bought) => plans.planAfterPurchase(current, bought));
  if (!done) throw orderNotFound(claim.order_id);
  return { order_id: order.order_id, status: 'paid', credited: done.transitioned };
}
