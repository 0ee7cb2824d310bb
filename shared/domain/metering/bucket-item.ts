import type { Ctx } from '../../context';
import type { BucketState } from './bucket';

export const USAGE_BUCKET = 'usage_bucket';

/** A bucket as stored: one item per customer, aggregator and UTC hour, in the partition of the pair. */
export interface BucketItem extends BucketState {
  pk: string;
  sk: string;
  _type: typeof USAGE_BUCKET;
  _version: number;
  customer_id: string;
  aggregator_id: string;
  hour: string;
}

/** `2026-11-23T16`: the UTC hour of an ISO timestamp, which sorts like the time itself. */
export const hourOf = (iso: string): string => iso.slice(0, 13);

/** The ISO start of an hour key. */
export const hourStart = (hour: string): string => `${hour}:00:00.000Z`;

export const bucketPartition = (ctx: Ctx, customerId: string, aggregatorId: string) => `WS#${ctx.workspaceId}#USAGE#${customerId}#${aggregatorId}`;

export const bucketKey = (ctx: Ctx, customerId: string, aggregatorId: string, hour: string) => ({ pk: bucketPartition(ctx, customerId, aggregatorId), sk: `H#${hour}` });

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
