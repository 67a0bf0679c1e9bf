/** Payments: plans, the gateway seam, the sandbox gateway and create_payment. */
import type { PaymentOrderStore } from '../accounts/ledger.js';
import type { Clock } from '../shared/clock.js';
import type { PaymentGateway } from './gateway.js';
import type { PlanCatalog } from './plans.js';
import { SandboxGateway } from './sandbox.js';

export * from './gateway.js';
export * from './plans.js';
export * from './signature.js';
export * from './sandbox.js';
export * from './service.js';
export { renderPayPage, escapeHtml } from './pay-page.js';

export interface GatewayOptions {
  orders: PaymentOrderStore;
  plans: PlanCatalog;
  secret: string;
  publicBaseUrl: string;
  clock?: Clock;
  /** The secret pay-page token of an order (sandbox): its pay URL carries it and the page requires it. */
  payToken?: (orderId: string) => string;
}

/** The gateway a deployment configured (config.paymentGateway). Throws for an unknown name. */
export function createPaymentGateway(name: string, opts: GatewayOptions): PaymentGateway {
  switch (name) {
    case 'sandbox':
      return new SandboxGateway(opts);
    default:
      throw new Error(`Unknown payment gateway "${name}" (available: sandbox)`);
  }
}
