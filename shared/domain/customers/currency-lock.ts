import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import type { TransactItem } from '../../db/transactions';
import { RuleViolation } from '../../errors';
import { customerItemKey, type CurrencyLockReason, type CustomerItem } from './customer';

/**
 * The customer's currency is locked once it has an invoice, a wallet or a saved payment method. Whatever
 * creates one of those puts this item in its own transaction: it records the reason, requires the customer to
 * still have `currency`, and bumps the customer's version so a concurrent currency change retries and sees it.
 */
export function currencyLockItem(ctx: Ctx, customerId: string, reason: CurrencyLockReason, currency: string): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: customerItemKey(ctx, customerId),
      UpdateExpression: 'ADD currency_locks :reason SET #v = #v + :one',
      ConditionExpression: 'attribute_exists(pk) AND currency = :currency AND attribute_type(deleted_at, :null)',
      ExpressionAttributeNames: { '#v': '_version' },
      ExpressionAttributeValues: { ':reason': new Set([reason]), ':one': 1, ':currency': currency, ':null': 'NULL' },
    },
  };
}

export const isCurrencyLocked = (item: CustomerItem): boolean => (item.currency_locks?.size ?? 0) > 0;

export function assertCurrencyChangeAllowed(current: CustomerItem, nextCurrency: string | null): void {
  if (nextCurrency === current.currency || !isCurrencyLocked(current)) return;
  const reasons = [...current.currency_locks!].map((r) => r.replace('_', ' ')).join(', ');
  throw new RuleViolation('currency_locked', `The currency cannot change: the customer already has ${reasons} records in ${current.currency}.`);
}
