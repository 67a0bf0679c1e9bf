/**
 * Purchasable plans, as data (data/plans.json). Prices are in major units of the plan's
 * currency (2 decimals assumed, as for CNY); the service works in integer minor units (fen).
 * The order of the list is the plan ranking: a later plan is "higher" (free is below all).
 */
import { z } from 'zod';
import { invalidInput } from '../shared/errors.js';
import { PARSE_ONCE } from '../shared/parse-once.js';

export const FREE_PLAN = 'free';

const PlanEntrySchema = z.object({
  plan: z.string().regex(/^[a-z][a-z0-9_]*$/),
  price: z.number().positive(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  credits: z.number().int().positive(),
});

const PlansFileSchema = z.object({ plans: z.array(PlanEntrySchema).min(1) });

export interface Plan {
  plan: string;
  /** Major units, e.g. 9 (CNY). */
  price: number;
  /** Integer minor units, e.g. 900. */
  amountMinor: number;
  currency: string;
  credits: number;
}

export class PlanCatalog {
  private readonly byName = new Map<string, Plan>();
  private readonly rank = new Map<string, number>([[FREE_PLAN, 0]]);

  constructor(readonly plans: readonly Plan[]) {
    plans.forEach((p, i) => {
      if (p.plan === FREE_PLAN || this.byName.has(p.plan)) throw new Error(`plans: duplicate or reserved plan "${p.plan}"`);
      this.byName.set(p.plan, p);
      this.rank.set(p.plan, i + 1);
    });
  }

  names(): string[] {
    return this.plans.map((p) => p.plan);
  }

  get(name: string): Plan | undefined {
    return this.byName.get(name);
  }

  /** The plan, or invalid_input naming the field and the valid values. */
  require(name: unknown): Plan {
    const p = typeof name === 'string' ? this.byName.get(name) : undefined;
    if (!p) throw invalidInput('plan', `must be one of ${this.names().join(', ')}`);
    return p;
  }

  /** The plan an account ends on after buying `bought`: never a downgrade (lifetime stays lifetime). */
  planAfterPurchase(current: string, bought: string): string {
    const rc = this.rank.get(current) ?? 0;
    const rb = this.rank.get(bought) ?? 0;
    return rb >= rc ? bought : current;
  }
}

/** Integer minor units from a major-unit number or decimal string with at most 2 decimals; null if not one. */
export function toMinorUnits(value: unknown): number | null {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return null;
    const minor = Math.round(value * 100);
    return Math.abs(value * 100 - minor) < 1e-6 && Number.isSafeInteger(minor) ? minor : null;
  }
  if (typeof value === 'string' && /^\d{1,12}(\.\d{1,2})?$/.test(value)) {
    const [whole, frac = ''] = value.split('.');
    return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
  }
  return null;
}

/** "9.00" from 900. */
export function formatMinorUnits(minor: number): string {
  return `${Math.trunc(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
}

export function parsePlans(json: unknown): PlanCatalog {
  const parsed = PlansFileSchema.parse(json, PARSE_ONCE);
  return new PlanCatalog(
    parsed.plans.map((p) => {
      const amountMinor = toMinorUnits(p.price);
      if (amountMinor === null) throw new Error(`plans: price of "${p.plan}" must have at most 2 decimals`);
      return { ...p, amountMinor };
    }),
  );
}


