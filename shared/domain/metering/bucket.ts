import type { AggregateOperation } from './aggregator';
import type { Contribution } from './contribution';

/** How many of a bucket's best events (highest value for max, latest for latest) it remembers. */
export const TOP_SIZE = 10;

/**
 * The aggregate of one aggregator, customer and UTC hour. count and sum are plain sums; `values` counts the events
 * of each distinct value (unique_count), so a replaced event takes its value away; `top` holds the bucket's best
 * events (max, latest) so a replaced best falls back to the next. When every remembered best is gone while events
 * remain, the bucket is `stale`: a read recomputes that hour from the raw events (usage-read.ts).
 */
export interface BucketState {
  count: number;
  sum: number;
  values: Record<string, number>;
  top: Contribution[];
  stale: boolean;
}

export const emptyBucket = (): BucketState => ({ count: 0, sum: 0, values: {}, top: [], stale: false });

/** max ranks by value, latest by time; ties by record id, so the order is total and the same everywhere. */
export function better(operation: AggregateOperation, a: Contribution, b: Contribution): number {
  const primary = operation === 'latest' ? (a.at < b.at ? 1 : a.at > b.at ? -1 : 0) : b.value - a.value;
  return primary !== 0 ? primary : a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

const ranked = (operation: AggregateOperation) => operation === 'max' || operation === 'latest';
const same = (a: Contribution, b: Contribution) => a.id === b.id && a.at === b.at && a.value === b.value && a.unique === b.unique;

/**
 * The bucket with one event added (sign 1) or one earlier version taken away (sign −1). Pure.
 *
 * `spread`: the hour is spread over several shard items (bucket-item.ts, summed on read), so a version may be taken
 * away from another shard than the one it was added to. Counts, sums and distinct values are then signed parts of the
 * hour's total (a shard may hold −1); a best event taken away that this shard does not remember may be remembered by
 * another shard, so the shard says `stale` and a read recomputes the hour from its raw events. Without `spread` every
 * version is taken from where it was added, and nothing goes below zero.
 */
export function applyContribution(operation: AggregateOperation, bucket: BucketState, c: Contribution, sign: 1 | -1, topSize = TOP_SIZE, spread = false): BucketState {
  const next: BucketState = { count: bucket.count + sign, sum: bucket.sum + sign * c.value, values: { ...bucket.values }, top: bucket.top, stale: bucket.stale };
  if (c.unique !== undefined) {
    const left = (next.values[c.unique] ?? 0) + sign;
    if (left !== 0) next.values[c.unique] = left;
    else delete next.values[c.unique];
  }
  if (ranked(operation)) {
    // `top` is always the best events of the bucket: all of them while they fit, else the best few. Once some were
    // left out, a newcomer worse than the last remembered may rank below one of them: it is not remembered.
    const complete = bucket.top.length === bucket.count;
    const last = bucket.top[bucket.top.length - 1];
    if (sign === 1 && (complete || (last !== undefined && better(operation, c, last) < 0))) {
      next.top = [...bucket.top, c].sort((a, b) => better(operation, a, b)).slice(0, topSize);
    }
    if (sign === -1) {
      const index = bucket.top.findIndex((t) => same(t, c));
      next.top = index < 0 ? bucket.top : bucket.top.filter((_, i) => i !== index);
      if ((next.top.length === 0 && next.count > 0) || (index < 0 && spread)) next.stale = true;
    }
  }
  return isEmpty(next, spread) ? emptyBucket() : next;
}

/**
 * Nothing left: every event added was taken away again. In one shard of several, a count of 0 may still hold part of
 * the hour's sum or distinct values (taken away here, added elsewhere), and a spread shard's doubt (`stale`) stays.
 */
const isEmpty = (b: BucketState, spread: boolean) =>
  b.count === 0 && b.sum === 0 && Object.keys(b.values).length === 0 && b.top.length === 0 && !(spread && b.stale);

/**
 * An hour's shard items as one bucket (bucket-item.ts): counts, sums and each distinct value's events added up, the
 * best events of all, stale if any shard is. Pure; one shard is returned as it is.
 */
export function mergeShards(operation: AggregateOperation, shards: readonly BucketState[], topSize = TOP_SIZE): BucketState {
  if (shards.length === 1) return shards[0]!;
  const values: Record<string, number> = {};
  for (const shard of shards) for (const [value, n] of Object.entries(shard.values)) values[value] = (values[value] ?? 0) + n;
  for (const [value, n] of Object.entries(values)) if (n <= 0) delete values[value];
  return {
    count: shards.reduce((n, b) => n + b.count, 0),
    sum: shards.reduce((n, b) => n + b.sum, 0),
    values,
    top: shards.flatMap((b) => b.top).sort((a, b) => better(operation, a, b)).slice(0, topSize),
    stale: shards.some((b) => b.stale),
  };
}

/** A bucket recomputed from every event of its hour (a stale bucket's read, and the tests' reference). */
export function bucketOf(operation: AggregateOperation, contributions: Contribution[], topSize = TOP_SIZE): BucketState {
  return contributions.reduce((bucket, c) => applyContribution(operation, bucket, c, 1, topSize), emptyBucket());
}

/** The aggregated value of a set of buckets (a period): count, sum, max, the latest event's value, distinct values. */
export function valueOf(operation: AggregateOperation, buckets: BucketState[]): number {
  switch (operation) {
    case 'count':
      return buckets.reduce((n, b) => n + b.count, 0);
    case 'sum':
      return buckets.reduce((n, b) => n + b.sum, 0);
    case 'unique_count':
      return new Set(buckets.flatMap((b) => Object.keys(b.values))).size;
    default: {
      const best = buckets.flatMap((b) => b.top.slice(0, 1)).sort((a, b) => better(operation, a, b))[0];
      return best?.value ?? 0;
    }
  }
}
