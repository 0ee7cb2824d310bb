import { difference, invoiceFacts, type Delta, type InvoiceFacts } from './facts';
import { customerMovement, customerScope, mrrDelta, subscriptionCounts, subscriptionMrr, type CustomerRevenue, type SubscriptionFacts } from './mrr';

export interface CustomerScope {
  customer: string;
  entity: string;
  currency: string;
}

export const scopeKey = (s: CustomerScope): string => `${s.customer}|${s.entity}|${s.currency}`;

/** A customer's revenue state moved by a change: written, conditioned on the version read, with the change's deltas. */
export interface CustomerUpdate {
  scope: CustomerScope;
  after: CustomerRevenue;
}

/** What one stream change does to the analytics: the items' ADDs and the customers' new states. */
export interface ChangePlan {
  deltas: Delta[];
  customers: CustomerUpdate[];
}

export const ANALYTICS_SOURCES = ['invoice', 'subscription'] as const;

/**
 * Pure: one item change (old and new image, either absent) → its plan. An invoice or credit note adds what it now
 * stands for and takes away what it stood for; a subscription moves its customer's MRR on `day` (the change's day),
 * classified against the customer's state (`customerState`: what the analytics kept, zero when none).
 */
export function planChange(
  type: string, before: unknown, after: unknown, day: string, customerState: (scope: CustomerScope) => CustomerRevenue,
): ChangePlan {
  if (type === 'invoice') return { deltas: difference(invoiceFacts(after as InvoiceFacts), invoiceFacts(before as InvoiceFacts)), customers: [] };
  if (type !== 'subscription') return { deltas: [], customers: [] };
  const [old, now] = [before as SubscriptionFacts | undefined, after as SubscriptionFacts | undefined];
  const mrrOf = new Map<string, { scope: CustomerScope; change: number }>();
  const move = (sub: SubscriptionFacts | undefined, sign: 1 | -1) => {
    if (!sub) return;
    const scope = customerScope(sub);
    const entry = mrrOf.get(scopeKey(scope)) ?? { scope, change: 0 };
    entry.change += sign * subscriptionMrr(sub);
    mrrOf.set(scopeKey(scope), entry);
  };
  move(old, -1);
  move(now, 1);
  const countsScope = customerScope((now ?? old)!);
  const plan: ChangePlan = { deltas: [], customers: [] };
  for (const { scope, change } of mrrOf.values()) {
    const state = customerState(scope);
    const { values, after: next } = change === 0 ? { values: {}, after: state } : customerMovement(state, state.mrr + change);
    const counts = scopeKey(scope) === scopeKey(countsScope) ? subscriptionCounts(old, now) : {};
    const merged = { ...values };
    for (const [name, value] of Object.entries(counts)) merged[name] = (merged[name] ?? 0) + value;
    plan.deltas.push(...mrrDelta(scope, day, merged));
    if (change !== 0) plan.customers.push({ scope, after: next });
  }
  return plan;
}
