import type { Ctx } from '../../context';
import { getItem } from '../../db/items';
import { batchGet } from '../../db/pagination';
import { customerItemKey, subscriptionSummaries, type CustomerItem } from '../customers/customer';
import { subscriptionKey, type SubscriptionItem } from '../subscriptions/subscription';

/**
 * A customer's active subscriptions, for pricing its events: the customer item carries a summary of each of its
 * subscriptions (written in every subscription write's transaction, customers/customer.ts), so this is one GetItem
 * and one BatchGetItem of the subscriptions it names as active, both strongly consistent. No index is needed.
 */
export async function activeSubscriptionsOf(ctx: Ctx, customerId: string): Promise<SubscriptionItem[]> {
  const customer = await getItem<CustomerItem>(customerItemKey(ctx, customerId), true);
  if (!customer) return [];
  const ids = subscriptionSummaries(customer).filter((s) => s.status === 'active').map((s) => s.id);
  const items = (await batchGet(ids.map((id) => subscriptionKey(ctx, id)), true)) as unknown as SubscriptionItem[];
  return items.filter((s) => s.status === 'active').sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
