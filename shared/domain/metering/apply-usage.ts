import { eachLimited } from '../../concurrency';
import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { getItem } from '../../db/items';
import { queryItems } from '../../db/query';
import { ConditionFailed, transactWrite, type TransactItem } from '../../db/transactions';
import { ServiceUnavailable } from '../../errors';
import type { AggregatorItem } from './aggregator';
import { applyContribution, emptyBucket, TOP_SIZE, type BucketState } from './bucket';
import { appliedMarkerKey, BUCKET_SHARDS, bucketKey, hourOf, lastShardKey, MARKER_TTL_SECONDS, USAGE_BUCKET, type BucketItem } from './bucket-item';
import { contributionOf, type Contribution } from './contribution';
import { shardOf, type UsageEventItem } from './usage-event';

/** One stream change of a usage event: the versions before and after (absent: created / removed). */
export interface UsageChange {
  changeId: string;
  before?: UsageEventItem;
  after?: UsageEventItem;
}

export interface Delta {
  changeId: string;
  contribution: Contribution;
  sign: 1 | -1;
}

interface BucketWork {
  /** The hour's key (its shard 0): what the work is grouped by. */
  key: { pk: string; sk: string };
  aggregator: AggregatorItem;
  customerId: string;
  hour: string;
  deltas: Delta[];
}

/** A bucket transaction holds the bucket and at most this many markers (TransactWriteItems takes 100 items). */
const MARKERS_PER_WRITE = 99;
const MAX_ATTEMPTS = 25;
const PARALLEL_BUCKETS = 8;
/**
 * A batch holding this many changes of one hour's bucket is a hot customer's: they go to a shard picked by the batch
 * (its first change), so the concurrent batches of a hot customer write different items. Fewer go to shard 0.
 */
export const HOT_CHANGES = 10;

/**
 * Batched pre-aggregation (DESIGN.md §13): the changes of one stream batch and workspace, turned into the difference
 * each makes to each aggregator's hour bucket (the old version taken away, the new one added), grouped by bucket, and
 * written as one transaction per bucket: the bucket (conditioned on the version read) with one marker per change,
 * each inserted only if absent. A marker already there means that change was applied by an earlier try: it is
 * dropped and the rest written. So every change counts exactly once, however often a batch is retried, and a hot
 * customer costs one bucket write per batch, not one per event. A hot hour spreads over shard items (bucket-item.ts):
 * a batch with many of its changes, or one that found the item being written by another batch, writes another shard;
 * the markers name the hour, not the shard, so a retry that lands elsewhere still finds them.
 */
export async function applyUsageChanges(ctx: Ctx, aggregators: AggregatorItem[], changes: UsageChange[]): Promise<void> {
  await eachLimited(bucketWork(ctx, aggregators, changes), PARALLEL_BUCKETS, (work) => applyToBucket(ctx, work));
}

/** Pure: the deltas of every change, grouped by bucket. */
export function bucketWork(ctx: Ctx, aggregators: AggregatorItem[], changes: UsageChange[]): BucketWork[] {
  const byBucket = new Map<string, BucketWork>();
  const add = (aggregator: AggregatorItem, event: UsageEventItem | undefined, changeId: string, sign: 1 | -1) => {
    const contribution = event && contributionOf(aggregator, event);
    if (!event || !contribution) return;
    const hour = hourOf(event.timestamp);
    const key = bucketKey(ctx, event.customer_id, aggregator.id, hour);
    const id = `${key.pk}|${key.sk}`;
    const entry = byBucket.get(id) ?? { key, aggregator, customerId: event.customer_id, hour, deltas: [] };
    entry.deltas.push({ changeId, contribution, sign });
    byBucket.set(id, entry);
  };
  for (const change of changes) {
    for (const aggregator of aggregators) {
      add(aggregator, change.before, change.changeId, -1);
      add(aggregator, change.after, change.changeId, 1);
    }
  }
  return [...byBucket.values()];
}

async function applyToBucket(ctx: Ctx, work: BucketWork): Promise<void> {
  const changeIds = [...new Set(work.deltas.map((d) => d.changeId))];
  let shard = changeIds.length >= HOT_CHANGES ? shardOf(changeIds[0]!, BUCKET_SHARDS) : 0;
  for (let i = 0; i < changeIds.length; i += MARKERS_PER_WRITE) {
    const chunk = new Set(changeIds.slice(i, i + MARKERS_PER_WRITE));
    shard = await applyChunk(ctx, work, work.deltas.filter((d) => chunk.has(d.changeId)), shard);
  }
}

/** Pure: a bucket with deltas applied in order (`spread`: the hour has other shards, see applyContribution). */
export const applyDeltas = (operation: AggregatorItem['operation'], bucket: BucketState, deltas: readonly Delta[], spread: boolean): BucketState =>
  deltas.reduce((state, d) => applyContribution(operation, state, d.contribution, d.sign, TOP_SIZE, spread), bucket);

/** Writes the deltas to a shard of the hour (moving on while other batches write it); returns the shard it wrote. */
async function applyChunk(ctx: Ctx, work: BucketWork, deltas: Delta[], firstShard: number): Promise<number> {
  let pending = deltas;
  let shard = firstShard;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (pending.length === 0) return shard;
    const key = bucketKey(ctx, work.customerId, work.aggregator.id, work.hour, shard);
    const current = await getItem<BucketItem>(key, true);
    const changeIds = [...new Set(pending.map((d) => d.changeId))];
    const spread = await spreadBeyond(work, key.sk, pending);
    const state = applyDeltas(work.aggregator.operation, current ?? emptyBucket(), pending, spread);
    try {
      await transactWrite([bucketWrite(work, key, shard, state, current), ...changeIds.map((id) => markerWrite(ctx, id, work))]);
      return shard;
    } catch (error) {
      if (!(error instanceof ConditionFailed)) {
        if (!(error instanceof ServiceUnavailable)) throw error;
        shard = (shard + 1) % BUCKET_SHARDS; // a conflict with another writer of the item: the hour is hot, write the next shard
        continue;
      }
      // 0: the bucket changed since read (another batch wrote it): the next shard. Else that change was applied before.
      if (error.index > 0) {
        const applied = changeIds[error.index - 1];
        pending = pending.filter((d) => d.changeId !== applied);
      } else {
        shard = (shard + 1) % BUCKET_SHARDS;
      }
    }
  }
  throw new ServiceUnavailable(`Usage bucket ${work.key.sk} kept changing; the stream batch will be retried.`);
}

/**
 * Whether the hour has shard items besides `sk`, asked only when it matters: a best event (max, latest) taken away
 * may have been added to another shard. Every shard ever written stays (an emptied one holds zeros), and a version is
 * added before it is taken away (one item's changes in order), so a shard alone is the one the version was added to.
 */
async function spreadBeyond(work: BucketWork, sk: string, deltas: readonly Delta[]): Promise<boolean> {
  const ranked = work.aggregator.operation === 'max' || work.aggregator.operation === 'latest';
  if (!ranked || !deltas.some((d) => d.sign === -1)) return false;
  const { items } = await queryItems<Pick<BucketItem, 'sk'>>({
    KeyConditionExpression: 'pk = :p AND sk BETWEEN :a AND :b',
    ExpressionAttributeValues: { ':p': work.key.pk, ':a': work.key.sk, ':b': lastShardKey(work.hour) },
    ProjectionExpression: 'sk',
    ConsistentRead: true,
  });
  return items.some((item) => item.sk !== sk);
}

function bucketWrite(work: BucketWork, key: { pk: string; sk: string }, shard: number, state: BucketState, current: BucketItem | undefined): TransactItem {
  const item: BucketItem = {
    ...key, _type: USAGE_BUCKET, _version: (current?._version ?? 0) + 1,
    customer_id: work.customerId, aggregator_id: work.aggregator.id, hour: work.hour, ...(shard > 0 && { shard }), ...state,
  };
  const condition = current
    ? { ConditionExpression: '#v = :v', ExpressionAttributeNames: { '#v': '_version' }, ExpressionAttributeValues: { ':v': current._version } }
    : { ConditionExpression: 'attribute_not_exists(pk)' };
  return { Put: { TableName: tableName(), Item: item, ...condition } };
}

const markerWrite = (ctx: Ctx, changeId: string, work: BucketWork): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: { ...appliedMarkerKey(ctx, changeId, { customer_id: work.customerId, aggregator_id: work.aggregator.id, hour: work.hour }), _type: 'usage_applied', ttl: Math.floor(ctx.clock.now().getTime() / 1000) + MARKER_TTL_SECONDS },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});
