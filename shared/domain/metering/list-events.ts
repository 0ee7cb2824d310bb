import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Ctx } from '../../context';
import { db, tableName } from '../../db/client';
import { MergedReader, type PageReader } from '../../db/shards';
import { InvalidRequest, NotFound } from '../../errors';
import { resolveCustomers } from './customer-refs';
import { customerEventsPartition, EVENT_INDEX_SHARDS, toUsageEvent, type PublicUsageEvent, type UsageEventItem } from './usage-event';

export interface EventListQuery {
  customer_id: string;
  event_type?: string;
  timestamp__gte?: string;
  timestamp__lt?: string;
  take: number;
  skip: number;
}

/**
 * `GET /v1/events`: one customer's events, newest first. Events are indexed per customer only (gsi2, in
 * EVENT_INDEX_SHARDS partitions by record id, sorted `<timestamp>#<record id>`), so the customer is required: a page is
 * one Query per shard on the time range, merged newest first (shards.ts); a workspace-wide listing would be a Scan.
 * `event_type` filters inside those Queries. No total: counting would read every event of the customer.
 */
export async function listEvents(ctx: Ctx, query: EventListQuery): Promise<{ meta: { taken: number; skipped: number; has_more: boolean }; data: PublicUsageEvent[] }> {
  const customerId = await customerOf(ctx, query.customer_id);
  const lo = query.timestamp__gte ? new Date(query.timestamp__gte).toISOString() : '0';
  // `<to>#<id>` sorts after `<to>`: an event exactly at timestamp__lt is left out, one at timestamp__gte kept.
  const hi = query.timestamp__lt ? new Date(query.timestamp__lt).toISOString() : '~';
  if (lo >= hi) {
    throw new InvalidRequest('Invalid query: query.timestamp__lt must be later than query.timestamp__gte.', [{ path: 'query.timestamp__lt', message: 'must be later than timestamp__gte' }]);
  }
  const readers = Array.from({ length: EVENT_INDEX_SHARDS }, (_, shard) => shardReader(customerEventsPartition(ctx, customerId, shard), lo, hi, query.event_type));
  const merged = await new MergedReader(readers, (e) => e.gsi2sk, true).take(query.skip + query.take + 1);
  const page = merged.slice(query.skip, query.skip + query.take);
  return { meta: { taken: page.length, skipped: query.skip, has_more: merged.length > query.skip + query.take }, data: page.map(toUsageEvent) };
}

async function customerOf(ctx: Ctx, ref: string): Promise<string> {
  const resolved = (await resolveCustomers(ctx, [ref])).get(ref)!;
  if ('problem' in resolved) throw new NotFound('customer', ref);
  return resolved.customerId;
}

function shardReader(partition: string, lo: string, hi: string, eventType: string | undefined): PageReader<UsageEventItem> {
  return async (limit, cursor) => {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi2',
        KeyConditionExpression: 'gsi2pk = :p AND gsi2sk BETWEEN :lo AND :hi',
        ...(eventType && { FilterExpression: 'event_type = :t' }),
        ExpressionAttributeValues: { ':p': partition, ':lo': lo, ':hi': hi, ...(eventType && { ':t': eventType }) },
        ScanIndexForward: false,
        Limit: limit,
        ExclusiveStartKey: cursor,
      }),
    );
    return { items: (page.Items ?? []) as UsageEventItem[], cursor: page.LastEvaluatedKey };
  };
}
