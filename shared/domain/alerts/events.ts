import type { EventDraft } from '../events/catalog';
import type { AlertTriggerItem } from './alert-check';

/** A crossing recorded (written once: alert-check.ts) → `alert.triggered`. */
export function alertTriggerEvents(before: AlertTriggerItem | undefined, after: AlertTriggerItem | undefined): EventDraft[] {
  if (before || !after) return [];
  const { alert_id, type, aggregator_id, customer_id, threshold, value, period_starts_at, period_ends_at, created_at } = after;
  return [{ type: 'alert.triggered', data: { alert_id, type, aggregator_id, customer_id, threshold, value, period_starts_at, period_ends_at, triggered_at: created_at } }];
}
