import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { getItem } from '../../db/items';
import type { TransactItem } from '../../db/transactions';
import { customerItemKey, subscriptionSummaryAttribute } from '../customers/customer';
import type { CustomerAlso } from '../customers/currency-lock';
import { subscriptionKey, subscriptionNotFound, subscriptionSummary, type SubscriptionItem } from './subscription';

/** Strongly consistent: the subscription as the last write left it. 404 when missing (or another workspace's). */
export async function findSubscriptionItem(ctx: Ctx, id: string): Promise<SubscriptionItem> {
  const item = await getItem<SubscriptionItem>(subscriptionKey(ctx, id), true);
  if (!item) throw subscriptionNotFound(id);
  return item;
}

/** The subscription written on the condition that nobody wrote it since `read` (its version: every write bumps it). */
export const putOnVersion = (next: SubscriptionItem, read: Pick<SubscriptionItem, '_version'>): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: next,
    ConditionExpression: '#v = :v',
    ExpressionAttributeNames: { '#v': '_version' },
    ExpressionAttributeValues: { ':v': read._version },
  },
});

/** The customer-side change of a subscription write: its summary in the customer's `subscriptions` (see customer.ts). */
export const summaryAlso = (s: SubscriptionItem): CustomerAlso => ({ set: { [subscriptionSummaryAttribute(s.id)]: subscriptionSummary(s) } });

/**
 * The summary written on its own (writes without an invoice or currency lock: cancellation, a billing date with
 * nothing to bill). Bumps the customer's version like every customer write, so a concurrent PUT retries on it.
 */
export const summaryUpdate = (ctx: Ctx, s: SubscriptionItem): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: customerItemKey(ctx, s.customer_id),
    UpdateExpression: 'SET #summary = :summary, #v = #v + :one',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeNames: { '#summary': subscriptionSummaryAttribute(s.id), '#v': '_version' },
    ExpressionAttributeValues: { ':summary': subscriptionSummary(s), ':one': 1 },
  },
});

/** Strips what a stored item carries and the next write recomputes (the scheduling keys), for a clean copy. */
export function withoutSchedule(s: SubscriptionItem): SubscriptionItem {
  const { gsi4pk: _p, gsi4sk: _s, ...rest } = s;
  return rest;
}
