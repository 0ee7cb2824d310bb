import type { EventDraft, EventType } from '../events/catalog';
import { toCreditBalance, toCreditTransaction, type CreditBalanceItem, type CreditTransactionItem } from './credit';

/**
 * Balance changes → `credit.created` (the first top-up of a customer for a product creates the balance),
 * `credit.low_balance` (the balance crosses down to its `low_count_threshold`: before > threshold ≥ after) and
 * `credit.balance_at_zero` (before > 0, after = 0). Both may come from one change (a usage that empties a balance
 * above its threshold). Every later change of the balance emits Hyperline's `credit.updated` (docs/hyperline.md), first.
 * The data is the balance.
 */
export function creditBalanceEvents(before: CreditBalanceItem | undefined, after: CreditBalanceItem | undefined): EventDraft[] {
  if (!after) return [];
  const data = toCreditBalance(after);
  if (!before) return [{ type: 'credit.created', data }];
  const events: EventDraft[] = before.balance !== after.balance ? [{ type: 'credit.updated', data }] : [];
  if (before.balance > after.low_count_threshold && after.balance <= after.low_count_threshold) events.push({ type: 'credit.low_balance', data });
  if (before.balance > 0 && after.balance === 0) events.push({ type: 'credit.balance_at_zero', data });
  return events;
}

const CREATED: Record<CreditTransactionItem['type'], EventType> = {
  topup: 'credit.topup_transaction_created',
  usage: 'credit.usage_transaction_created',
  expiration: 'credit.expiration_transaction_created',
};

/** A ledger entry insert → `credit.<type>_transaction_created` with the transaction. Entries never change. */
export function creditTransactionEvents(before: CreditTransactionItem | undefined, after: CreditTransactionItem | undefined): EventDraft[] {
  if (before || !after) return [];
  return [{ type: CREATED[after.type], data: toCreditTransaction(after) }];
}
