import type { Ctx } from '../../context';
import { Conflict, RuleViolation } from '../../errors';
import { productUsableCheck } from '../catalog/usable';
import { isMetered } from './metered';
import { checkedChange, type SubscriptionProductInput } from './prepare';
import { NO_PRORATION, prorate } from './proration';
import { retryChange, settle, upToDate, type ProrationBehavior } from './settle';
import { subscriptionListFields, toSubscription, type StoredSubscriptionProduct, type Subscription, type SubscriptionItem } from './subscription';
import { findSubscriptionItem } from './write';

export interface ChangeInput {
  /** The new full product list. */
  products: SubscriptionProductInput[];
  /** `now` (default) or at the next billing date. */
  effective?: 'now' | 'next_period';
  /** A change now: `create_invoice` (default), `next_invoice` or `none`. */
  proration_behavior?: ProrationBehavior;
}

/** A period is running and billed (the current one started at a billing date): a change now prorates within it. */
const running = (s: SubscriptionItem) => (s.status === 'active' || s.status === 'paused') && s.billing_index >= 1;

/**
 * A metered product billed on its usage cannot leave or change price mid-period: its usage so far would need a
 * reading of its own. Removing or replacing one applies at the next period (422 otherwise); adding one now is fine
 * (its usage of the whole period is billed at the period's end).
 */
function assertMeteredKept(before: StoredSubscriptionProduct[], after: StoredSubscriptionProduct[]): void {
  const gone = before.filter((p) => isMetered(p) && !after.some((q) => q.id === p.id));
  if (gone.length > 0) {
    throw new RuleViolation(
      'metered_change_at_period_end',
      `Product '${gone[0]!.product_id}' is billed on its usage: remove it or change its price with effective 'next_period' (its usage is billed per whole period).`,
    );
  }
}

/**
 * `PATCH /v2/subscriptions/{id}`: a new product list, checked as at creation, applied now (prorated per
 * `proration_behavior`, settle.ts) or at the next billing date (`scheduled_change`, replacing any scheduled before).
 * A subscription not yet in a billed period (pending, in its trial) takes the change at once without proration. One
 * transaction conditioned on the version read; a lost race re-reads and decides again. 409 once cancelled.
 */
export async function changeSubscription(ctx: Ctx, id: string, input: ChangeInput): Promise<Subscription> {
  return retryChange(async () => {
    let current = await findSubscriptionItem(ctx, id);
    if (await upToDate(ctx, current)) current = await findSubscriptionItem(ctx, id);
    if (current.status === 'cancelled') throw new Conflict(`Subscription '${id}' is cancelled; it can no longer change.`);
    const checked = await checkedChange(ctx, current, input.products);
    const now = ctx.clock.now().toISOString();
    const checks = checked.productIds.map((productId) => productUsableCheck(ctx, productId));
    const base = { ...current, updated_at: now, _version: current._version + 1 };
    const later = input.effective === 'next_period' && running(current);
    if (!later && running(current)) assertMeteredKept(current.products, checked.products);
    const next: SubscriptionItem = later ? { ...base, scheduled_products: checked.products } : { ...base, products: checked.products, scheduled_products: null };
    next.lf = subscriptionListFields(next);
    const window = { starts_at: current.current_period_started_at, ends_at: current.current_period_ends_at, at: now };
    const proration = later || !running(current) ? NO_PRORATION : prorate(current.products, checked.products, window, current.advance_billed ?? true);
    const behavior = input.proration_behavior ?? 'create_invoice';
    await settle(ctx, { current, next, proration, behavior, period: { starts_at: now, ends_at: current.current_period_ends_at }, summary: false, checks });
    return toSubscription(next);
  });
}
