import type { Ctx } from '../../context';
import { queryItems } from '../../db/query';
import { aggregatorsPartition, type AggregatorItem } from './aggregator';

/** Every live aggregator of the workspace: one Query of their partition. */
export async function liveAggregators(ctx: Ctx): Promise<AggregatorItem[]> {
  const { items } = await queryItems<AggregatorItem>({ KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': aggregatorsPartition(ctx) }, ConsistentRead: true });
  return items.filter((a) => !a.deleted_at);
}
