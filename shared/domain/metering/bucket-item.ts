import type { Ctx } from '../../context';
import type { BucketState } from './bucket';

export const USAGE_BUCKET = 'usage_bucket';

/**
 * A bucket as stored: one item per customer, aggregator and UTC hour, in the partition of the pair; a hot hour
 * spreads over up to BUCKET_SHARDS items (shard 0 keeps the plain key), which a read adds up (bucket.ts, mergeShards).
 */
export interface BucketItem extends BucketState {
  pk: string;
  sk: string;
  _type: typeof USAGE_BUCKET;
  _version: number;
  customer_id: string;
  aggregator_id: string;
  hour: string;
  /** Absent on shard 0. */
  shard?: number;
}

/**
 * Shard items an hour's bucket may spread over. A stream batch writes its changes of one hour to one shard (one or
 * two transactions), so concurrent batches of a hot customer write different items: one item takes about 40
 * transactions a second (one at a time, ~25 ms each), so one hour takes about 8 × 40 × 99 changes a second
 * (docs/metering.md, "Limits and scale").
 */
export const BUCKET_SHARDS = 8;

/** `2026-11-23T16`: the UTC hour of an ISO timestamp, which sorts like the time itself. */
export const hourOf = (iso: string): string => iso.slice(0, 13);

/** The ISO start of an hour key. */
export const hourStart = (hour: string): string => `${hour}:00:00.000Z`;

export const bucketPartition = (ctx: Ctx, customerId: string, aggregatorId: string) => `WS#${ctx.workspaceId}#USAGE#${customerId}#${aggregatorId}`;

/** `H#<hour>` for shard 0 (every quiet hour), `H#<hour>#<shard>` for the others: an hour's shards sort together. */
export const bucketKey = (ctx: Ctx, customerId: string, aggregatorId: string, hour: string, shard = 0) => ({
  pk: bucketPartition(ctx, customerId, aggregatorId),
  sk: shard === 0 ? `H#${hour}` : `H#${hour}#${shard}`,
});

/** The last sort key of an hour's shards: a range of hours ends here (`#` then digits sort after the bare hour). */
export const lastShardKey = (hour: string) => `H#${hour}#~`;

/**
 * Marks one stream change as applied to one bucket, written in the bucket's own transaction: a retried stream batch
 * finds the marker and skips the change there. Keyed by the change (spread over partitions, never hot) and kept two
 * days, longer than the stream keeps a record (24 h).
 */
export const appliedMarkerKey = (ctx: Ctx, changeId: string, bucket: Pick<BucketItem, 'customer_id' | 'aggregator_id' | 'hour'>) => ({
  pk: `WS#${ctx.workspaceId}#UAPPLIED#${changeId}`,
  sk: `${bucket.customer_id}#${bucket.aggregator_id}#H#${bucket.hour}`,
});
export const MARKER_TTL_SECONDS = 2 * 86_400;
