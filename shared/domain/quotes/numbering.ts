import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { getItem } from '../../db/items';
import { counterKey } from '../../db/keys';
import type { TransactItem } from '../../db/transactions';
import { QUOTE } from './quote';

/**
 * Quote numbers are gapless per workspace: `QUO-1`, `QUO-2`, … Quotes are never deleted, so the workspace's quote
 * counter (`WS#<ws>#COUNTER` / `QUO`, whose `total` is also the list's `meta.total`) always holds the last number
 * given. A new quote takes `total + 1` and sets the counter to it in its own creating transaction, conditioned on the
 * value read: two creations can never take the same number, and a creation that fails takes none.
 */
export const formatQuoteNumber = (sequence: number): string => `QUO-${sequence}`;

export async function readQuoteCounter(ctx: Ctx): Promise<number> {
  const counter = await getItem<{ total?: number }>(counterKey(ctx, QUOTE), true);
  return Number(counter?.total ?? 0);
}

export function takeQuoteNumber(ctx: Ctx, current: number): { number: string; item: TransactItem } {
  const next = current + 1;
  return {
    number: formatQuoteNumber(next),
    item: {
      Update: {
        TableName: tableName(),
        Key: counterKey(ctx, QUOTE),
        UpdateExpression: 'SET #total = :next',
        ConditionExpression: current === 0 ? 'attribute_not_exists(#total) OR #total = :current' : '#total = :current',
        ExpressionAttributeNames: { '#total': 'total' },
        ExpressionAttributeValues: { ':next': next, ':current': current },
      },
    },
  };
}
