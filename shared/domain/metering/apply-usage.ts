import { eachLimited } from '../../concurrency';
import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { getItem } from '../../db/items';
import { ConditionFailed, transactWrite, type TransactItem } from '../../db/transactions';
import { ServiceUnavailable } from '../../errors';
import type { AggregatorItem } from './aggregator';
import { applyContribution, emptyBucket, type BucketState } from './bucket';
import { appliedMarkerKey, bucketKey, hourOf, MARKER_TTL_SECONDS, USAGE_BUCKET, type BucketItem } from './bucket-item';
import { contributionOf, type Contribution } from './contribution';
import type { UsageEventItem } from './usage-event';

/** One stream change of a usage event: the versions before and after (absent: created / removed). */
export interface UsageChange {
  changeId: string;
  before?: UsageEventItem;
  after?: UsageEventItem;
}

interface Delta {
  changeId: string;
  contribution: Contribution;
  sign: 1 | -1;
}

interface BucketWork {
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
 * Batched pre-aggregation (DESIGN.md §13): the changes of one stream batch and workspace, turned into the difference
 * each makes to each aggregator's hour bucket (the old version taken away, the new one added), grouped by bucket, and
 * written as one transaction per bucket: the bucket (conditioned on the version read) with one marker per change,
 * each inserted only if absent. A marker already there means that change was applied by an earlier try: it is
 * dropped and the rest written. So every change counts exactly once, however often a batch is retried, and a hot
 * customer costs one bucket write per batch, not one per event.
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
  for (let i = 0; i < changeIds.length; i += MARKERS_PER_WRITE) {
    const chunk = new Set(changeIds.slice(i, i + MARKERS_PER_WRITE));
    await applyChunk(ctx, work, work.deltas.filter((d) => chunk.has(d.changeId)));
  }
}

async function applyChunk(ctx: Ctx, work: BucketWork, deltas: Delta[]): Promise<void> {
  let pending = deltas;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (pending.length === 0) return;
    const current = await getItem<BucketItem>(work.key, true);
    const changeIds = [...new Set(pending.map((d) => d.changeId))];
    const state = pending.reduce<BucketState>((bucket, d) => applyContribution(work.aggregator.operation, bucket, d.contribution, d.sign), current ?? emptyBucket());
    try {
      await transactWrite([bucketWrite(work, state, current), ...changeIds.map((id) => markerWrite(ctx, id, work))]);
      return;
    } catch (error) {
      if (!(error instanceof ConditionFailed)) {
        if (error instanceof ServiceUnavailable) continue; // a conflict with another writer of the bucket: read again
        throw error;
      }
      // 0: the bucket changed since read (another shard's batch): read again. Else that change was applied before.
      if (error.index > 0) {
        const applied = changeIds[error.index - 1];
        pending = pending.filter((d) => d.changeId !== applied);
      }
    }
  }
  throw new ServiceUnavailable(`Usage bucket ${work.key.sk} kept changing; the stream batch will be retried.`);
}

function bucketWrite(work: BucketWork, state: BucketState, current: BucketItem | undefined): TransactItem {
  const item: BucketItem = {
    ...work.key, _type: USAGE_BUCKET, _version: (current?._version ?? 0) + 1,
    customer_id: work.customerId, aggregator_id: work.aggregator.id, hour: work.hour, ...state,
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
