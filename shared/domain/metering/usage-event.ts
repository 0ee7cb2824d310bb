import type { Ctx } from '../../context';
import type { PropertyValue } from './aggregator';
import { shardOf as shardOfId } from '../../db/shards';

/** The `_type` of a stored usage event: the stream turns its changes into usage (apply-usage.ts). */
export const USAGE_EVENT = 'usage_event';

/** Events with a timestamp older than this are refused (Stripe's meter events take 35 days too). */
export const PAST_HORIZON_MS = 35 * 24 * 3_600_000;
/** …or later than this ahead of the clock (client clocks drift). */
export const FUTURE_SKEW_MS = 5 * 60_000;
/** Raw events are kept this long after their timestamp (TTL), longer than any billing period plus the horizon. */
export const RETENTION_DAYS = 400;
/**
 * The customer's event index (gsi2) is split into this many partitions by a hash of the record id: one partition
 * takes about 1,000 writes/s, so one customer may send about EVENT_INDEX_SHARDS × 1,000 events/s (docs/metering.md).
 * Raising it keeps older events readable: a read queries every shard, and the old ones are among them.
 */
export const EVENT_INDEX_SHARDS = 8;

/** An event as the service keeps it: the latest version sent under its `record.id`. */
export interface UsageEvent {
  /** The caller's `record.id`. */
  id: string;
  customer_id: string;
  event_type: string;
  /** ISO 8601 UTC with milliseconds. */
  timestamp: string;
  /** The record's members other than `id`. */
  properties: Record<string, PropertyValue>;
  ingested_at: string;
}

export interface UsageEventItem extends UsageEvent {
  pk: string;
  sk: string;
  _type: typeof USAGE_EVENT;
  gsi2pk: string;
  gsi2sk: string;
  /** Epoch seconds: DynamoDB's TTL removes the raw event after RETENTION_DAYS (its usage stays in the buckets). */
  ttl: number;
  /** Set when ingestion asked for `with_price_calculation`: the stream then emits `event.price_calculated`. */
  price_calculation?: PriceCalculation | null;
}

/** What `event.price_calculated` carries (price-calculation.ts). */
export interface PriceCalculation {
  event_id: string;
  customer_id: string;
  product_id: string;
  aggregator_id: string;
  quantity: number;
  amount: number;
  currency: string;
}

const ws = (ctx: Ctx) => `WS#${ctx.workspaceId}`;

/** One partition per record id: a resend replaces the event, and writes of one customer spread over partitions. */
export const usageEventKey = (ctx: Ctx, recordId: string) => ({ pk: `${ws(ctx)}#UEVT#${recordId}`, sk: 'UEVT' });

/** A record id's index shard: the shared FNV-1a spread (shared/db/shards.ts) over EVENT_INDEX_SHARDS. */
export const shardOf = (recordId: string, shards = EVENT_INDEX_SHARDS): number => shardOfId(recordId, shards);

/** The customer's events by time, in EVENT_INDEX_SHARDS partitions: `gsi2sk` = `<timestamp>#<record id>`. */
export const customerEventsPartition = (ctx: Ctx, customerId: string, shard: number) => `${ws(ctx)}#UEVTCUS#${customerId}#${shard}`;

export const eventIndexKeys = (ctx: Ctx, customerId: string, timestamp: string, recordId: string) => ({
  gsi2pk: customerEventsPartition(ctx, customerId, shardOf(recordId)),
  gsi2sk: `${timestamp}#${recordId}`,
});

/** The public form: the record as sent (`id` and its properties), the customer resolved to its `cus_` id. */
export const toUsageEvent = (item: UsageEventItem) => ({
  id: item.id,
  customer_id: item.customer_id,
  event_type: item.event_type,
  timestamp: item.timestamp,
  record: { id: item.id, ...item.properties },
  ingested_at: item.ingested_at,
});

export type PublicUsageEvent = ReturnType<typeof toUsageEvent>;
