import { roundHalfUp } from '../pricing/arithmetic';
import { computePrice } from '../pricing/compute-price';
import type { SubscriptionItem } from '../subscriptions/subscription';
import type { Delta } from './facts';

export type SubscriptionFacts = Pick<SubscriptionItem, 'status' | 'customer_id' | 'currency' | 'invoicing_entity_id' | 'products'>;

/** Months per billing period, ×12 (so weeks and days stay whole): a period's amount × 12 ÷ this is its MRR. */
const TWELFTHS: Record<string, number> = { months: 12, years: 1, weeks: 52, days: 365 };

/**
 * A subscription's MRR (minor units): while `active`, each recurring product that is not metered (usage is revenue,
 * not recurring revenue) at its quantity, brought to one month (a year ÷ 12, a week × 52 ÷ 12, a day × 365 ÷ 12),
 * rounded half up per product. Trialing, paused, pending and cancelled subscriptions have none. Coupons are not
 * deducted (docs/analytics.md).
 */
export function subscriptionMrr(sub: SubscriptionFacts | undefined): number {
  if (!sub || sub.status !== 'active') return 0;
  let mrr = 0;
  for (const product of sub.products) {
    const interval = product.billing_interval;
    if (interval.period === 'once' || product.product_type === 'dynamic') continue;
    const amount = computePrice(product.price, { quantity: product.quantity }).amount;
    mrr += Number(roundHalfUp(BigInt(amount) * BigInt(TWELFTHS[interval.period]!), BigInt(12 * interval.count)));
  }
  return mrr;
}

/** A customer's MRR in one invoicing entity and currency, as the analytics keep it between changes. */
export interface CustomerRevenue {
  mrr: number;
  /** Had MRR once: its return from zero is a reactivation, not a new customer. */
  ever_active: boolean;
}

export const MOVEMENTS = ['new', 'expansion', 'contraction', 'churn', 'reactivation'] as const;

/**
 * The movement a customer's MRR change makes (from 0: new, or reactivation when it had MRR before; to 0: churn; up:
 * expansion; down: contraction), its amount signed so that the movements of a day sum to that day's change of MRR,
 * and the change of active and churned customers.
 */
export function customerMovement(before: CustomerRevenue, mrr: number): { values: Record<string, number>; after: CustomerRevenue } {
  const change = mrr - before.mrr;
  const after = { mrr, ever_active: before.ever_active || mrr > 0 };
  if (change === 0) return { values: {}, after };
  if (before.mrr === 0) return { values: { mrr: change, [before.ever_active ? 'reactivation' : 'new']: change, active_customers: 1 }, after };
  if (mrr === 0) return { values: { mrr: change, churn: change, active_customers: -1, churned_customers: 1 }, after };
  return { values: { mrr: change, [change > 0 ? 'expansion' : 'contraction']: change }, after };
}

const LIVE: ReadonlySet<string> = new Set(['active', 'paused']);

/** A subscription change's own counts on its day: active subscriptions (±1) and a churned one (live → cancelled). */
export function subscriptionCounts(before: SubscriptionFacts | undefined, after: SubscriptionFacts | undefined): Record<string, number> {
  const active = (s?: SubscriptionFacts) => (s?.status === 'active' ? 1 : 0);
  const values: Record<string, number> = {};
  if (active(after) !== active(before)) values.active_subscriptions = active(after) - active(before);
  if (before && LIVE.has(before.status) && after?.status === 'cancelled') values.churned_subscriptions = 1;
  return values;
}

/** Where a customer's revenue is kept: a subscription moves its customer's MRR in its entity and currency. */
export const customerScope = (sub: SubscriptionFacts) => ({ customer: sub.customer_id, entity: sub.invoicing_entity_id, currency: sub.currency });

/** The MRR family's delta of a day (customer movement plus the subscription's counts), or none when nothing moved. */
export function mrrDelta(scope: ReturnType<typeof customerScope>, day: string, values: Record<string, number>): Delta[] {
  const kept = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== 0));
  return Object.keys(kept).length === 0 ? [] : [{ family: 'MRR', currency: scope.currency, entity: scope.entity, day, values: kept }];
}
