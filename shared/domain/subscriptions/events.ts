import type { EventDraft } from '../events/catalog';
import { changedPublicly } from '../events/changed';
import { toSubscription, type SubscriptionItem } from './subscription';

/** The members a billing run moves every period: not told as updates (the period's invoice tells it). */
const settings = (s: SubscriptionItem) => ({
  ...toSubscription(s), status: null, current_period_started_at: null, current_period_ends_at: null, next_billing_at: null, updated_at: '',
});

/**
 * `subscription.created` when written (with `subscription.activated` too when it is active from the start);
 * `subscription.activated` when it moves pending → active (the billing run of its start date); `subscription.cancelled`
 * when it becomes cancelled (at once, or at the end of its period); `subscription.updated` when its products or its
 * cancellation at period end change. A billing run moving the period is not an update. Data: the public subscription.
 */
export function subscriptionEvents(before: SubscriptionItem | undefined, after: SubscriptionItem | undefined): EventDraft[] {
  if (!after) return [];
  const data = toSubscription(after);
  if (!before) return [{ type: 'subscription.created', data }, ...(after.status === 'active' ? [{ type: 'subscription.activated' as const, data }] : [])];
  const events: EventDraft[] = [];
  if (changedPublicly(settings(before), settings(after)) && after.status !== 'cancelled') events.push({ type: 'subscription.updated', data });
  if (before.status !== after.status && after.status === 'active') events.push({ type: 'subscription.activated', data });
  if (before.status !== after.status && after.status === 'cancelled') events.push({ type: 'subscription.cancelled', data });
  return events;
}
