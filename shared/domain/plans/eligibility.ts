import type { SubscriptionItem } from '../subscriptions/subscription';
import type { PlanMigrationItem } from './migration';

type Rule = Pick<PlanMigrationItem, 'id' | 'plan_id' | 'from_version_id' | 'to_version_id'>;

/**
 * Whether a migration moves this subscription, decided on the subscription as read (and again on each retry of the
 * write): of the plan, not cancelled, on `from_version_id` when given, not already going to the target version, and
 * not moved by this migration or a later one (migration ids are ULIDs: `last_migration_id` ≥ this id means done).
 * This is what makes a migration apply once per subscription however often a page is worked.
 */
export function migrates(m: Rule, s: SubscriptionItem): boolean {
  if (s.plan_id !== m.plan_id || s.status === 'cancelled') return false;
  if ((s.last_migration_id ?? '') >= m.id) return false;
  if (m.from_version_id && s.plan_version_id !== m.from_version_id) return false;
  return (s.scheduled_plan_version_id ?? s.plan_version_id) !== m.to_version_id;
}
