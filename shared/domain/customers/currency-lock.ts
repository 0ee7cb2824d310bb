import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import type { TransactItem } from '../../db/transactions';
import { RuleViolation } from '../../errors';
import { customerItemKey, type CurrencyLockReason, type CustomerItem } from './customer';

/**
 * More changes to the customer item, made by the same Update as the lock: a transaction may hold only one
 * operation per item, so whatever must change the customer alongside its lock says so here.
 */
export interface CustomerAlso {
  /** Attributes to set (e.g. the default payment method). */
  set?: Record<string, unknown>;
  /** Attributes that must still hold these values when the lock is written; `null` means null or absent. */
  expect?: Record<string, string | number | boolean | null>;
}

/**
 * The customer's currency is locked once it has an invoice, a wallet or a saved payment method. Whatever
 * creates one of those puts this item in its own transaction: it records the reason, requires the customer to
 * still have `currency`, and bumps the customer's version so a concurrent currency change retries and sees it.
 * `also` adds attributes to set and conditions to hold on the same customer item (optional).
 */
export function currencyLockItem(ctx: Ctx, customerId: string, reason: CurrencyLockReason, currency: string, also: CustomerAlso = {}): TransactItem {
  const names: Record<string, string> = { '#v': '_version' };
  const values: Record<string, unknown> = { ':reason': new Set([reason]), ':one': 1, ':currency': currency, ':null': 'NULL' };
  const sets = ['#v = #v + :one'];
  const conditions = ['attribute_exists(pk) AND currency = :currency AND attribute_type(deleted_at, :null)'];
  Object.entries(also.set ?? {}).forEach(([name, value], i) => {
    names[`#s${i}`] = name;
    values[`:s${i}`] = value;
    sets.push(`#s${i} = :s${i}`);
  });
  Object.entries(also.expect ?? {}).forEach(([name, value], i) => {
    names[`#e${i}`] = name;
    if (value === null) {
      conditions.push(`(attribute_not_exists(#e${i}) OR attribute_type(#e${i}, :null))`);
    } else {
      values[`:e${i}`] = value;
      conditions.push(`#e${i} = :e${i}`);
    }
  });
  return {
    Update: {
      TableName: tableName(),
      Key: customerItemKey(ctx, customerId),
      UpdateExpression: `ADD currency_locks :reason SET ${sets.join(', ')}`,
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

export const isCurrencyLocked = (item: CustomerItem): boolean => (item.currency_locks?.size ?? 0) > 0;

export function assertCurrencyChangeAllowed(current: CustomerItem, nextCurrency: string | null): void {
  if (nextCurrency === current.currency || !isCurrencyLocked(current)) return;
  const reasons = [...current.currency_locks!].map((r) => r.replace('_', ' ')).join(', ');
  throw new RuleViolation('currency_locked', `The currency cannot change: the customer already has ${reasons} records in ${current.currency}.`);
}
