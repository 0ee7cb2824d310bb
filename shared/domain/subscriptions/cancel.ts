import type { Ctx } from '../../context';
import { retryOnRace } from '../../db/items';
import { transactWrite } from '../../db/transactions';
import { Conflict } from '../../errors';
import { cancelledNow } from './billing';
import { periodStart, subscriptionListFields, toSubscription, type Subscription, type SubscriptionItem } from './subscription';
import { findSubscriptionItem, putOnVersion, summaryUpdate } from './write';

export type CancelMode = 'end_of_period' | 'immediately';

/**
 * `immediately`: cancelled now, out of the scheduling index, no further invoice. `end_of_period` (default): stays
 * active until the end of its current period (`ends_at`, `cancel_at_period_end`); the billing run bills that period's
 * in-arrears products at that date, then cancels it. A pending subscription (not started) is cancelled at once in
 * either mode: no period has started. `cancelled_at` is when the cancellation was asked.
 * One conditional write on the version read (retried on a race); cancelled already, or already set to end at its
 * period's end and asked again for `end_of_period` → 409.
 */
export async function cancelSubscription(ctx: Ctx, id: string, mode: CancelMode = 'end_of_period'): Promise<Subscription> {
  return retryOnRace(async () => {
    const current = await findSubscriptionItem(ctx, id);
    if (current.status === 'cancelled') throw new Conflict(`Subscription '${id}' is already cancelled.`);
    const now = ctx.clock.now().toISOString();
    if (mode === 'immediately' || current.status === 'pending') {
      const next = cancelledNow(current, now);
      await transactWrite([putOnVersion(next, current), summaryUpdate(ctx, next)]);
      return toSubscription(next);
    }
    if (current.cancel_at_period_end) throw new Conflict(`Subscription '${id}' is already set to end on ${current.ends_at}.`);
    const endIndex = Math.max(1, current.billing_index);
    const next: SubscriptionItem = {
      ...current, cancel_at_period_end: true, cancelled_at: now, ends_at: periodStart(current, endIndex), end_index: endIndex,
      updated_at: now, _version: current._version + 1,
    };
    next.lf = subscriptionListFields(next);
    await transactWrite([putOnVersion(next, current)]);
    return toSubscription(next);
  });
}
