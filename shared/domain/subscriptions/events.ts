import type { EventDraft } from '../events/catalog';
import { changedPublicly } from '../events/changed';
import { toSubscription, type SubscriptionItem } from './subscription';

/** The members a billing run moves every period: not told as updates (the period's invoice tells it). */
const settings = (s: SubscriptionItem) => ({
  ...toSubscription(s), status: null, current_period_started_at: null, current_period_ends_at: null, next_billing_at: null, updated_at: '',
  next_payment_at: null, renews_at: null, // Hyperline's names of next_billing_at and of the period's end
  // Told by their own events (paused, resumed), and a scheduled change's date moves with the cursor.
  paused_at: null, pause_billing: null, scheduled_change: s.scheduled_products ? s.scheduled_products.map((p) => [p.id, p.price_configuration_id, p.quantity]) : null,
});

/**
 * `subscription.created` when written (with `subscription.activated` too when it is active from the start);
 * `subscription.activated` when it becomes active from pending or from its trial (then with
 * `subscription.trial_ended`); `subscription.trial_ending` when the scheduler marks its trial's end near;
 * `subscription.paused` / `subscription.resumed` (with Hyperline's `subscription.reactivated`) on a pause and a resume;
 * `subscription.cancellation_scheduled` (Hyperline's) beside `updated` when a cancellation at period end is scheduled; `subscription.cancelled` when it becomes
 * cancelled (at once, or at the end of its period); `subscription.updated` when its products, its scheduled change or
 * its cancellation at period end change; `subscription.migrated` when a plan migration moves it (now, or its
 * scheduled change). A billing run moving the period is not an update. Data: the public
 * subscription.
 */
export function subscriptionEvents(before: SubscriptionItem | undefined, after: SubscriptionItem | undefined): EventDraft[] {
  if (!after) return [];
  const data = toSubscription(after);
  if (!before) return [{ type: 'subscription.created', data }, ...(after.status === 'active' ? [{ type: 'subscription.activated' as const, data }] : [])];
  const events: EventDraft[] = [];
  if (changedPublicly(settings(before), settings(after)) && after.status !== 'cancelled') events.push({ type: 'subscription.updated', data });
  if (!before.trial_ending_notified && after.trial_ending_notified) events.push({ type: 'subscription.trial_ending', data });
  if (before.status === 'trialing' && after.status !== 'trialing') events.push({ type: 'subscription.trial_ended', data });
  if (before.status !== after.status && after.status === 'paused') events.push({ type: 'subscription.paused', data });
  if (!before.cancel_at_period_end && after.cancel_at_period_end && after.status !== 'cancelled') events.push({ type: 'subscription.cancellation_scheduled', data });
  if (before.status === 'paused' && after.status === 'active') events.push({ type: 'subscription.resumed', data }, { type: 'subscription.reactivated', data });
  if (before.status !== after.status && after.status === 'active' && before.status !== 'paused') events.push({ type: 'subscription.activated', data });
  if (before.status !== after.status && after.status === 'cancelled') events.push({ type: 'subscription.cancelled', data });
  // The write that marks a plan migration is its move, written once per (migration, subscription): docs/plans.md.
  if (after.last_migration_id && after.last_migration_id !== before.last_migration_id) events.push({ type: 'subscription.migrated', data });
  return events;
}
