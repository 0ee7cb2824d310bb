import type { EventDraft } from '../events/catalog';
import type { UsageEventItem } from './usage-event';

/**
 * A usage event ingested `with_price_calculation` → `event.price_calculated` (once per ingestion: a resend without
 * the flag, or a redelivered change, emits nothing more). Usage itself is applied by apply-usage.ts, not as events.
 */
export function usageEventEvents(before: UsageEventItem | undefined, after: UsageEventItem | undefined): EventDraft[] {
  const calculation = after?.price_calculation;
  if (!calculation || before?.ingested_at === after.ingested_at) return [];
  return [{ type: 'event.price_calculated', data: calculation }];
}
