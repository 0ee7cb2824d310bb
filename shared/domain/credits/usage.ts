import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { getItem, retryOnRace } from '../../db/items';
import { BalanceChanged, EntryExists, writeLedger } from '../../db/ledger';
import {
  creditBalanceKey, toCreditTransaction, transactionKey, usageMarkerKey, type CreditTransaction, type CreditTransactionItem,
  type UsageMarkerItem,
} from './credit';
import { insufficientCredits } from './errors';
import { changeTime, creditChange, type Movement } from './ledger';
import { drawItem, expireItem, planUsage } from './lots';
import { assertCreditParties, readBalanceAndLots, readParties } from './read';

export interface UsageInput {
  usage_retained: number;
  event_id?: string;
}

/**
 * Consumes `usage_retained` credits: never credits past their expiry, the earliest-expiring first, the
 * never-expiring last; more than what is usable → 422 `insufficient_credits`. Lots already due are expired by the
 * same transaction first (an `expiration` entry each), so a usage never waits for the scheduler. One writeLedger:
 * the balance on its version, the entries, each lot update conditioned on the `remaining` read, and for an
 * `event_id` a marker inserted with attribute_not_exists: the same `event_id` again returns the original
 * transaction and consumes nothing.
 */
export async function useCredits(ctx: Ctx, customerId: string, productId: string, input: UsageInput): Promise<CreditTransaction> {
  const balanceKey = creditBalanceKey(ctx, customerId, productId);
  const markerKey = input.event_id === undefined ? undefined : usageMarkerKey(balanceKey.pk, input.event_id);
  const readState = () =>
    Promise.all([readBalanceAndLots(balanceKey.pk), markerKey ? getItem<UsageMarkerItem>(markerKey, true) : Promise.resolve(undefined)]);
  const [parties, firstState] = await Promise.all([readParties(ctx, customerId, productId), readState()]);
  assertCreditParties(parties);
  const owner = { balanceKey, customerId, productId, name: parties.product.name };

  let state = firstState;
  let attempt = 0;
  return retryOnRace(async () => {
    if (attempt++ > 0) state = await readState();
    const [{ balance, lots }, marker] = state;
    if (marker) return replay(balanceKey.pk, marker);
    if (!balance) throw insufficientCredits(input.usage_retained, 0, 0);
    const at = changeTime(ctx.clock.now(), balance);
    const iso = at.toISOString();
    const plan = planUsage(lots, input.usage_retained, at);
    const movements: Movement[] = [
      ...plan.expire.map((lot): Movement => ({ type: 'expiration', credit_count: lot.remaining, expires_at: lot.expires_at, lot_id: lot.id, source: 'system' })),
      { type: 'usage', credit_count: input.usage_retained, event_id: input.event_id ?? null, source: 'api' },
    ];
    const usageSk = transactionKey(balanceKey.pk, balance.transaction_count + movements.length).sk;
    const markerItem: UsageMarkerItem | undefined = markerKey && { ...markerKey, _type: 'credit_usage_event', event_id: input.event_id!, transaction_sk: usageSk, created_at: iso };
    const also = [
      ...plan.expire.map((lot) => expireItem(lot, iso)),
      ...plan.draws.map(({ lot, take }) => drawItem(lot, take, iso)),
      ...(markerItem ? [{ Put: { TableName: tableName(), Item: markerItem, ConditionExpression: 'attribute_not_exists(pk)' } }] : []),
    ];
    const { change, entries } = creditChange(ctx, owner, balance, movements, at, { also });
    try {
      await writeLedger(change);
    } catch (error) {
      // A lot or the marker changed under us: read again (the marker, if that was it, then answers).
      if (error instanceof EntryExists) throw new BalanceChanged();
      throw error;
    }
    return toCreditTransaction(entries[entries.length - 1]!);
  });
}

async function replay(pk: string, marker: UsageMarkerItem): Promise<CreditTransaction> {
  const original = await getItem<CreditTransactionItem>({ pk, sk: marker.transaction_sk }, true);
  if (!original) throw new Error(`Usage marker ${marker.event_id} names a missing transaction ${marker.transaction_sk}`);
  return toCreditTransaction(original);
}
