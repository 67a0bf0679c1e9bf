/**
 * create_payment: which account an order is for.
 * - api_key (already resolved from every place a key can be presented): that account;
 *   missing/unknown key errors as usual.
 * - email alone: refused (missing_credentials) unless the deployment allows it
 *   (`allowEmailOnly`, ROBOT_PARTS_PAYMENT_BY_EMAIL=1): an answer that differs between a
 *   registered and an unregistered address tells anyone whether an address is registered.
 *   When allowed: the account registered with that e-mail; not_found when none has it.
 * - both: the e-mail must belong to the key's account, else invalid_input (field email).
 * - neither: missing_credentials.
 */
import { DomainError, invalidInput } from '../shared/errors.js';
import type { AccountService } from '../accounts/service.js';
import type { CreatedOrder, PaymentGateway } from './gateway.js';
import type { PlanCatalog } from './plans.js';

export interface CreatePaymentInput {
  plan: unknown;
  apiKey?: string | null;
  email?: string | null;
}

export interface PaymentDeps {
  accounts: AccountService;
  gateway: PaymentGateway;
  plans: PlanCatalog;
  /** Accept an e-mail without a key (an account-existence oracle; off by default). */
  allowEmailOnly?: boolean;
}

const blank = (v: string | null | undefined): v is null | undefined => v === null || v === undefined || v.trim() === '';

export async function createPayment(input: CreatePaymentInput, deps: PaymentDeps): Promise<CreatedOrder> {
  const plan = deps.plans.require(input.plan);
  let account;
  if (!blank(input.apiKey)) {
    account = await deps.accounts.authenticate(input.apiKey);
    if (!blank(input.email)) {
      const byEmail = await deps.accounts.accountByEmail(input.email);
      if (!byEmail || byEmail.id !== account.id) throw invalidInput('email', 'does not belong to the account of the API key');
    }
  } else if (!blank(input.email) && deps.allowEmailOnly) {
    account = await deps.accounts.accountByEmail(input.email);
    if (!account) throw new DomainError('not_found', 'No account is registered with this e-mail address');
  } else {
    throw new DomainError(
      'missing_credentials',
      deps.allowEmailOnly
        ? 'create_payment needs an api_key or the e-mail address of a registered account'
        : 'create_payment needs an api_key (an e-mail alone is not accepted; send it with the key to confirm the account)',
    );
  }
  return deps.gateway.createOrder({ account, plan });
}
