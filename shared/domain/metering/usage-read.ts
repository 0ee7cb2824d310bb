import { pushTo } from '../../concurrency';
import type { Ctx } from '../../context';
import { queryItems } from '../../db/query';
import type { AggregatorItem } from './aggregator';
import { bucketOf, mergeShards, valueOf, type BucketState } from './bucket';
import { bucketPartition, hourOf, hourStart, lastShardKey, type BucketItem } from './bucket-item';
import { contributionOf, type Contribution } from './contribution';
import { customerEventsPartition, EVENT_INDEX_SHARDS, type UsageEventItem } from './usage-event';

const HOUR_MS = 3_600_000;

export interface Usage {
  value: number;
  /** How many events (of the aggregator's type, matching its filters) the value comes from. */
  count: number;
  /** Per UTC day of the period, in order: the value of the part of that day inside the period. */
  days: Array<{ date: string; value: number }>;
}

interface HourBucket {
  hour: string;
  state: BucketState;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The usage of `[from, to)`: whole UTC hours from their pre-aggregated buckets (one Query, however many events they
 * hold; a hot hour's shard items added up), the partial hours at either end from the raw events of those minutes (the
 * customer's event index), and a bucket marked stale (its best events for max/latest were all replaced) recomputed
 * from its hour's raw events.
 */
export async function readUsage(ctx: Ctx, customerId: string, aggregator: AggregatorItem, from: string, to: string): Promise<Usage> {
  const start = Date.parse(from);
  const end = Date.parse(to);
  const firstWhole = Math.ceil(start / HOUR_MS) * HOUR_MS;
  const lastWhole = Math.floor(end / HOUR_MS) * HOUR_MS;
  const edges: Array<[number, number]> = firstWhole >= lastWhole ? [[start, end]] : [[start, firstWhole], [lastWhole, end]];
  const [stored, ...edgeEvents] = await Promise.all([
    firstWhole < lastWhole ? storedBuckets(ctx, customerId, aggregator, hourOf(iso(firstWhole)), hourOf(iso(lastWhole - HOUR_MS))) : Promise.resolve([]),
    ...edges.filter(([a, b]) => a < b).map(([a, b]) => rawEvents(ctx, customerId, iso(a), iso(b))),
  ]);
  const recomputed = await Promise.all(
    stored.map(async (bucket) =>
      bucket.state.stale ? { hour: bucket.hour, state: fromEvents(aggregator, await rawEvents(ctx, customerId, hourStart(bucket.hour), iso(Date.parse(hourStart(bucket.hour)) + HOUR_MS))) } : bucket,
    ),
  );
  const partial = edgeEvents.flatMap((events) => byHour(aggregator, events));
  const buckets = [...recomputed, ...partial].sort((a, b) => (a.hour < b.hour ? -1 : a.hour > b.hour ? 1 : 0));
  const states = buckets.map((b) => b.state);
  return { value: valueOf(aggregator.operation, states), count: states.reduce((n, b) => n + b.count, 0), days: perDay(aggregator, buckets, start, end) };
}

/** The stored hours of the range, each hour's shard items as one bucket. */
async function storedBuckets(ctx: Ctx, customerId: string, aggregator: AggregatorItem, firstHour: string, lastHour: string): Promise<HourBucket[]> {
  const { items } = await queryItems<BucketItem>({
    KeyConditionExpression: 'pk = :p AND sk BETWEEN :a AND :b',
    ExpressionAttributeValues: { ':p': bucketPartition(ctx, customerId, aggregator.id), ':a': `H#${firstHour}`, ':b': lastShardKey(lastHour) },
  });
  const shards = new Map<string, BucketState[]>();
  for (const item of items) pushTo(shards, item.hour, item);
  return [...shards].map(([hour, states]) => ({ hour, state: mergeShards(aggregator.operation, states) }));
}

/** The customer's raw events of [from, to), every index shard queried at once (`<timestamp>#<id>` sorts by time). */
export async function rawEvents(ctx: Ctx, customerId: string, from: string, to: string): Promise<UsageEventItem[]> {
  const shards = await Promise.all(
    Array.from({ length: EVENT_INDEX_SHARDS }, (_, shard) =>
      queryItems<UsageEventItem>({
        IndexName: 'gsi2',
        KeyConditionExpression: 'gsi2pk = :p AND gsi2sk BETWEEN :a AND :b',
        ExpressionAttributeValues: { ':p': customerEventsPartition(ctx, customerId, shard), ':a': from, ':b': to },
      }),
    ),
  );
  return shards.flatMap((s) => s.items).filter((e) => e.timestamp >= from && e.timestamp < to);
}

function contributions(aggregator: AggregatorItem, events: UsageEventItem[]): Contribution[] {
  return events.flatMap((e) => contributionOf(aggregator, e) ?? []);
}

const fromEvents = (aggregator: AggregatorItem, events: UsageEventItem[]) => bucketOf(aggregator.operation, contributions(aggregator, events));

function byHour(aggregator: AggregatorItem, events: UsageEventItem[]): HourBucket[] {
  const hours = new Map<string, Contribution[]>();
  for (const c of contributions(aggregator, events)) pushTo(hours, hourOf(c.at), c);
  return [...hours].map(([hour, list]) => ({ hour, state: bucketOf(aggregator.operation, list) }));
}

/** Every UTC day the period touches, with the value of its buckets (0 for a day without usage). */
function perDay(aggregator: AggregatorItem, buckets: HourBucket[], start: number, end: number): Usage['days'] {
  const byDate = new Map<string, BucketState[]>();
  for (const b of buckets) pushTo(byDate, b.hour.slice(0, 10), b.state);
  const days: Usage['days'] = [];
  for (let day = Math.floor(start / 86_400_000) * 86_400_000; day < end; day += 86_400_000) {
    const date = iso(day).slice(0, 10);
    days.push({ date, value: valueOf(aggregator.operation, byDate.get(date) ?? []) });
  }
  return days;
}
