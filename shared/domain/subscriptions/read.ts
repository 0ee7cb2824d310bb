import type { Ctx } from '../../context';
import { listPage, type Page } from '../../db/pagination';
import { buildFilter } from '../../schemas/list-query';
import { subscriptionFilters } from '../../schemas/list-filters';
import { SUBSCRIPTION, toSubscription, type Subscription, type SubscriptionItem } from './subscription';
import { currentUsage } from './metered';
import { findSubscriptionItem } from './write';

/**
 * The subscription, each metered product with `current_usage`: the usage of the current period so far (one usage read
 * per metered product, from the hour buckets), null once it ended; other products are as everywhere. Only this route
 * carries it (lists, the cancel answer and webhooks do not: it is not a state of the subscription).
 */
export async function getSubscription(ctx: Ctx, id: string): Promise<Subscription> {
  const item = await findSubscriptionItem(ctx, id);
  const usage = await currentUsage(ctx, item, ctx.clock.now().toISOString());
  const subscription = toSubscription(item);
  return { ...subscription, products: subscription.products.map((p) => (p.aggregator_id ? { ...p, current_usage: usage.get(p.id) ?? null } : p)) };
}

/** Oldest first, filtered on the list index's fields (status, customer_id). */
export const listSubscriptions = (ctx: Ctx, query: { take: number; skip: number } & Record<string, unknown>): Promise<Page<Subscription>> =>
  listPage(ctx, SUBSCRIPTION, { ...query, filter: buildFilter(subscriptionFilters, query) }, (item: SubscriptionItem) => toSubscription(item));
