import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { getItem, retryOnRace } from '../../db/items';
import { BalanceChanged, EntryExists, writeLedger } from '../../db/ledger';
import { creditBalanceKey, transactionKey, usageMarkerKey, type UsageMarkerItem } from './credit';
import { changeTime, creditChange, type Movement } from './ledger';
import { byExpiry, drawItem, expireItem, isDue, MAX_DRAWS, planUsage } from './lots';
import { readBalanceAndLots } from './read';

export interface EventUsage {
  customerId: string;
  productId: string;
  /** The event's `record.id`: the usage marker's key, so an event consumes once, whatever its versions. */
  eventId: string;
  aggregatorId: string;
  /** What the event contributes to the aggregator (count: 1, sum: the property), ≥ 0. */
  quantity: number;
}

export type EventUsageOutcome = 'consumed' | 'already_consumed' | 'no_balance';

/**
 * The credits an ingested event consumes (docs/usage-credits.md), called by the stream for each matching event:
 * - no balance of the product for the customer (never topped up): nothing, no marker;
 * - a marker of this event id in the balance's partition: consumed before (a redelivered batch, a concurrent
 *   duplicate, a resend or a replacement): nothing;
 * - else ONE writeLedger: the usable credits taken earliest-expiring first (lots already due expired first), up to
 *   the event's quantity; what the balance could not cover is `uncovered_count` on the same `usage` entry (the
 *   balance never goes below zero, and ingestion, already answered, is never refused). The marker is inserted in the
 *   same transaction (attribute_not_exists), so two racing consumers of one event can never both commit.
 */
export async function consumeForEvent(ctx: Ctx, usage: EventUsage): Promise<EventUsageOutcome> {
  const balanceKey = creditBalanceKey(ctx, usage.customerId, usage.productId);
  const markerKey = usageMarkerKey(balanceKey.pk, usage.eventId);
  return retryOnRace(async () => {
    const [{ balance, lots }, marker] = await Promise.all([readBalanceAndLots(balanceKey.pk), getItem<UsageMarkerItem>(markerKey, true)]);
    if (marker) return 'already_consumed';
    if (!balance) return 'no_balance';
    const at = changeTime(ctx.clock.now(), balance);
    const iso = at.toISOString();
    const covered = Math.min(usage.quantity, coverable(lots, at));
    const plan = planUsage(lots, covered, at);
    const movements: Movement[] = [
      ...plan.expire.map((lot): Movement => ({ type: 'expiration', credit_count: lot.remaining, expires_at: lot.expires_at, lot_id: lot.id, source: 'system' })),
      {
        type: 'usage', credit_count: covered, uncovered_count: usage.quantity - covered, event_id: usage.eventId, aggregator_id: usage.aggregatorId, source: 'system',
      },
    ];
    const usageSk = transactionKey(balanceKey.pk, balance.transaction_count + movements.length).sk;
    const markerItem: UsageMarkerItem = { ...markerKey, _type: 'credit_usage_event', event_id: usage.eventId, transaction_sk: usageSk, created_at: iso };
    const also = [
      ...plan.expire.map((lot) => expireItem(lot, iso)),
      ...plan.draws.map(({ lot, take }) => drawItem(lot, take, iso)),
      { Put: { TableName: tableName(), Item: markerItem, ConditionExpression: 'attribute_not_exists(pk)' } },
    ];
    const { change } = creditChange(ctx, { balanceKey, customerId: usage.customerId, productId: usage.productId }, balance, movements, at, { also });
    try {
      await writeLedger(change);
    } catch (error) {
      // A lot or the marker changed under us: read again (the marker, if that was it, then answers).
      if (error instanceof EntryExists) throw new BalanceChanged();
      throw error;
    }
    return 'consumed';
  });
}

/** The usable credits one usage can draw: those not past their expiry, from at most MAX_DRAWS lots (one transaction). */
function coverable(lots: Parameters<typeof planUsage>[0], at: Date): number {
  return lots
    .filter((l) => l.remaining > 0 && !isDue(l, at))
    .sort(byExpiry)
    .slice(0, MAX_DRAWS)
    .reduce((sum, l) => sum + l.remaining, 0);
}
