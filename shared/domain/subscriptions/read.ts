import type { Ctx } from '../../context';
import { listPage, type Page } from '../../db/pagination';
import { buildFilter } from '../../schemas/list-query';
import { subscriptionFilters } from '../../schemas/subscriptions';
import { SUBSCRIPTION, toSubscription, type Subscription, type SubscriptionItem } from './subscription';
import { findSubscriptionItem } from './write';

export const getSubscription = async (ctx: Ctx, id: string): Promise<Subscription> => toSubscription(await findSubscriptionItem(ctx, id));

/** Oldest first, filtered on the list index's fields (status, customer_id). */
export const listSubscriptions = (ctx: Ctx, query: { take: number; skip: number } & Record<string, unknown>): Promise<Page<Subscription>> =>
  listPage(ctx, SUBSCRIPTION, { ...query, filter: buildFilter(subscriptionFilters, query) }, (item: SubscriptionItem) => toSubscription(item));
