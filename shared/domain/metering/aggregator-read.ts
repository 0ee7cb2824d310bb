import type { Ctx } from '../../context';
import { getItem } from '../../db/items';
import { queryItems } from '../../db/query';
import type { DomainError } from '../../errors';
import { aggregatorKey, aggregatorsPartition, toAggregator, type Aggregator, type AggregatorItem } from './aggregator';
import { aggregatorMissing, aggregatorNotFound } from './aggregator-errors';

/** Strongly consistent, like every read by id; a deleted aggregator is missing. */
async function liveAggregatorItem(ctx: Ctx, id: string, missing: (id: string) => DomainError): Promise<AggregatorItem> {
  const item = await getItem<AggregatorItem>(aggregatorKey(ctx, id), true);
  if (!item || item.deleted_at) throw missing(id);
  return item;
}

/** A live aggregator of the workspace, or 404 `aggregator_not_found` (for routes that name it by a parameter). */
export const getAggregator = (ctx: Ctx, id: string): Promise<AggregatorItem> => liveAggregatorItem(ctx, id, aggregatorNotFound);

/** The same, for the aggregator's own routes: 404 `not_found`, as for every resource its path names. */
export const findAggregatorItem = (ctx: Ctx, id: string): Promise<AggregatorItem> => liveAggregatorItem(ctx, id, aggregatorMissing);

export const readAggregator = async (ctx: Ctx, id: string): Promise<Aggregator> => toAggregator(await findAggregatorItem(ctx, id));

/**
 * Every live aggregator of the workspace, oldest first (ids are ULIDs): one Query of its partition, followed across
 * pages, strongly consistent so an aggregator created by the previous request is there. Deleted ones are left out.
 */
export async function listAggregatorItems(ctx: Ctx): Promise<AggregatorItem[]> {
  const { items } = await queryItems<AggregatorItem>({
    KeyConditionExpression: 'pk = :p',
    ExpressionAttributeValues: { ':p': aggregatorsPartition(ctx) },
    ConsistentRead: true,
  });
  return items.filter((item) => !item.deleted_at);
}

export interface AggregatorPage {
  meta: { total: number; taken: number; skipped: number };
  data: Aggregator[];
}

/** A page of the live aggregators; the total is exact (a workspace has at most MAX_AGGREGATORS). */
export async function listAggregators(ctx: Ctx, query: { take: number; skip: number }): Promise<AggregatorPage> {
  const items = await listAggregatorItems(ctx);
  const data = items.slice(query.skip, query.skip + query.take).map(toAggregator);
  return { meta: { total: items.length, taken: data.length, skipped: query.skip }, data };
}
