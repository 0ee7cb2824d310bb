import { periodAmount, periodsPerYear } from '../subscriptions/recurring';
import type { StoredSubscriptionProduct, SubscriptionItem } from '../subscriptions/subscription';

/** A subscription product's Hyperline names beside ours (docs/hyperline.md): `count`, `payment_interval`, `payment_schedule`. */
export const hyperlineProductMembers = (p: StoredSubscriptionProduct) => ({
  count: p.quantity,
  payment_interval: p.billing_interval,
  payment_schedule: p.fee_timing === 'in_arrears' ? 'end' as const : 'start' as const,
});

/**
 * A subscription's Hyperline members beside ours (docs/hyperline.md, "The subscription resource"). Without contract
 * terms here, it renews at the end of each period until a cancellation is set (`cancel_at`); `estimated_arr` is a
 * year of its recurring products at their quantities (no usage, coupons nor tax), 0 once cancelled.
 */
export function hyperlineSubscriptionView(s: SubscriptionItem) {
  const ending = s.status === 'cancelled' || s.cancel_at_period_end;
  return {
    name: s.name ?? null,
    purchase_order: s.purchase_order ?? null,
    minimum_invoice_fee: s.minimum_invoice_fee ?? null,
    next_payment_at: s.next_billing_at,
    cancel_at: ending ? s.ends_at : null,
    renews_at: ending ? null : s.current_period_ends_at,
    estimated_arr: s.status === 'cancelled' ? 0 : Math.round(periodAmount(s.products) * periodsPerYear(s.billing_interval)),
  };
}
