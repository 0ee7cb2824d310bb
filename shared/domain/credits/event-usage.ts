import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { retryOnRace } from '../../db/items';
import type { Key } from '../../db/keys';
import { BalanceChanged, EntryExists, ledgerItems, writeLedger } from '../../db/ledger';
import { creditBalanceKey, transactionKey, usageMarkerKey, type CreditBalanceItem, type CreditLotItem, type UsageMarkerItem } from './credit';
import { changeTime, creditChange, type CreditChange, type Movement } from './ledger';
import { byExpiry, drawItem, expireItem, isDue, MAX_DRAWS, planUsage } from './lots';
import { getConsistently, readBalanceAndLots } from './read';

export interface EventUsage {
  customerId: string;
  productId: string;
  /** The event's `record.id`: the usage marker's key, so an event consumes once, whatever its versions. */
  eventId: string;
  aggregatorId: string;
  /** What the event contributes to the aggregator (count: 1, sum: the property), > 0. */
  quantity: number;
}

/** Events consumed by one transaction at most (each adds a ledger entry and a marker; TransactWriteItems takes 100). */
export const MAX_EVENTS_PER_WRITE = 40;
const MAX_TRANSACTION_ITEMS = 100;

/**
 * The credits ingested events consume from ONE balance (same customer and product), in order (docs/usage-credits.md),
 * called by the stream with the batch's matching events of that balance:
 * - no balance of the product for the customer (never topped up): nothing, no marker;
 * - an event id with a marker in the balance's partition was consumed before (a redelivered batch, a concurrent
 *   duplicate, a resend or a replacement): nothing more;
 * - the others, up to MAX_EVENTS_PER_WRITE at a time, in ONE writeLedger: one `usage` entry per event, the usable
 *   credits taken earliest-expiring first (lots already due expired first) up to each event's quantity, what the
 *   balance could not cover recorded as the entry's `uncovered_count` (the balance never goes below zero, and
 *   ingestion, already answered, is never refused), and each event's marker inserted with attribute_not_exists, so
 *   two racing consumers of one event can never both commit (the loser reads again and finds the marker).
 */
export async function consumeForEvents(ctx: Ctx, usages: EventUsage[]): Promise<void> {
  // One batch may hold several versions of an event: the first one seen is the one that consumes.
  const seen = new Set<string>();
  let pending = usages.filter((u) => !seen.has(u.eventId) && seen.add(u.eventId));
  while (pending.length > 0) pending = pending.slice(await consumeChunk(ctx, pending.slice(0, MAX_EVENTS_PER_WRITE)));
}

/** Consumes a prefix of `usages` (all but the largest transactions: all); returns how many it settled. */
async function consumeChunk(ctx: Ctx, usages: EventUsage[]): Promise<number> {
  const { customerId, productId } = usages[0]!;
  const balanceKey = creditBalanceKey(ctx, customerId, productId);
  return retryOnRace(async () => {
    const [{ balance, lots }, markers] = await Promise.all([
      readBalanceAndLots(balanceKey.pk),
      getConsistently(usages.map((u) => usageMarkerKey(balanceKey.pk, u.eventId))),
    ]);
    if (!balance) return usages.length;
    const fresh = usages.filter((_, i) => !markers[i]);
    if (fresh.length === 0) return usages.length;
    const at = changeTime(ctx.clock.now(), balance);
    for (let n = fresh.length; ; n = Math.max(1, Math.floor(n / 2))) {
      const { change } = usageChange(ctx, balanceKey, balance, lots, fresh.slice(0, n), at);
      if (ledgerItems(change).length > MAX_TRANSACTION_ITEMS && n > 1) continue;
      try {
        await writeLedger(change);
      } catch (error) {
        // A lot or a marker changed under us: read again (a marker, if that was it, then answers).
        if (error instanceof EntryExists) throw new BalanceChanged();
        throw error;
      }
      return usages.indexOf(fresh[n - 1]!) + 1;
    }
  });
}

/** The ledger change that consumes `group` from `balance` at `at`. Pure. */
function usageChange(ctx: Ctx, balanceKey: Key, balance: CreditBalanceItem, lots: CreditLotItem[], group: EventUsage[], at: Date): CreditChange {
  const iso = at.toISOString();
  const { pk } = balanceKey;
  let available = coverable(lots, at);
  const covered = group.map((u) => {
    const take = Math.min(u.quantity, available);
    available -= take;
    return take;
  });
  const plan = planUsage(lots, covered.reduce((sum, c) => sum + c, 0), at);
  const movements: Movement[] = [
    ...plan.expire.map((lot): Movement => ({ type: 'expiration', credit_count: lot.remaining, expires_at: lot.expires_at, lot_id: lot.id, source: 'system' })),
    ...group.map((u, i): Movement => ({
      type: 'usage', credit_count: covered[i]!, uncovered_count: u.quantity - covered[i]!, event_id: u.eventId, aggregator_id: u.aggregatorId, source: 'system',
    })),
  ];
  const markers = group.map((u, i): UsageMarkerItem => ({
    ...usageMarkerKey(pk, u.eventId), _type: 'credit_usage_event', event_id: u.eventId,
    transaction_sk: transactionKey(pk, balance.transaction_count + plan.expire.length + i + 1).sk, created_at: iso,
  }));
  const also = [
    ...plan.expire.map((lot) => expireItem(lot, iso)),
    ...plan.draws.map(({ lot, take }) => drawItem(lot, take, iso)),
    ...markers.map((Item) => ({ Put: { TableName: tableName(), Item, ConditionExpression: 'attribute_not_exists(pk)' } })),
  ];
  return creditChange(ctx, { balanceKey, customerId: group[0]!.customerId, productId: group[0]!.productId }, balance, movements, at, { also });
}

/** The usable credits a usage can draw: those not past their expiry, from at most MAX_DRAWS lots (one transaction). */
function coverable(lots: CreditLotItem[], at: Date): number {
  return lots
    .filter((l) => l.remaining > 0 && !isDue(l, at))
    .sort(byExpiry)
    .slice(0, MAX_DRAWS)
    .reduce((sum, l) => sum + l.remaining, 0);
}
