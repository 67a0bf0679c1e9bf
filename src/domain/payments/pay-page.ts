/** The sandbox pay page: plan, amount, QR code of the pay URL, and an optional "simulate payment" form. */
import type { OrderStatusView } from './gateway.js';

export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"'`=]/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface PayPageInput {
  order: OrderStatusView;
  payUrl: string;
  /** data: URL of the QR code image. */
  qrCode: string;
  /** When set, a POST form with a "Simulate payment" button targets this URL (sandbox only). */
  simulateAction?: string;
}

export function renderPayPage(p: PayPageInput): string {
  const o = p.order;
  const paid = o.status === 'paid';
  const simulate =
    p.simulateAction && !paid
      ? `<form method="post" action="${escapeHtml(p.simulateAction)}"><button type="submit">Simulate payment (sandbox)</button></form>`
      : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Pay ${escapeHtml(o.plan)} plan - order ${escapeHtml(o.order_id)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem}img{width:16rem;height:16rem;image-rendering:pixelated}dt{font-weight:600}</style>
</head>
<body>
<h1>Sandbox payment</h1>
<p>This is the built-in sandbox gateway: no real money moves.</p>
<dl>
<dt>Order</dt><dd>${escapeHtml(o.order_id)}</dd>
<dt>Plan</dt><dd>${escapeHtml(o.plan)} (${escapeHtml(o.credits)} credits)</dd>
<dt>Amount</dt><dd>${escapeHtml(o.amount)} ${escapeHtml(o.currency)}</dd>
<dt>Status</dt><dd id="status">${escapeHtml(o.status)}</dd>
</dl>
<p><img src="${escapeHtml(p.qrCode)}" alt="QR code of ${escapeHtml(p.payUrl)}"></p>
<p><a href="${escapeHtml(p.payUrl)}">${escapeHtml(p.payUrl)}</a></p>
${simulate}
</body>
</html>
`;
}
