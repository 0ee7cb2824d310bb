import fc from 'fast-check';
import { makeCtx } from '../../shared/context';
import type { AggregateOperation, AggregatorItem } from '../../shared/domain/metering/aggregator';
import { applyDeltas, bucketWork, type UsageChange } from '../../shared/domain/metering/apply-usage';
import { bucketOf, emptyBucket, mergeShards, valueOf, type BucketState } from '../../shared/domain/metering/bucket';
import { BUCKET_SHARDS, hourOf } from '../../shared/domain/metering/bucket-item';
import { contributionOf } from '../../shared/domain/metering/contribution';
import type { UsageEventItem } from '../../shared/domain/metering/usage-event';

const ctx = makeCtx('ws_unit', 'test');
const OPERATIONS: AggregateOperation[] = ['count', 'sum', 'max', 'unique_count', 'latest'];
const RANKED: AggregateOperation[] = ['max', 'latest'];

const aggregator = (operation: AggregateOperation): AggregatorItem => ({
  pk: 'p', sk: `agg_${operation}`, _type: 'aggregator', _version: 1, id: `agg_${operation}`, name: operation, event_type: 'api_call', operation,
  property: operation === 'count' ? null : 'units', filters: [], unit_name: null, created_at: '', updated_at: '', deleted_at: null,
});

const event = (id: string, hour: number, minute: number, units: number): UsageEventItem => ({
  pk: `WS#ws_unit#UEVT#${id}`, sk: 'UEVT', _type: 'usage_event', gsi2pk: '', gsi2sk: '', ttl: 0,
  id, customer_id: 'cus_1', event_type: 'api_call', timestamp: `2026-11-01T0${hour}:${String(minute).padStart(2, '0')}:00.000Z`,
  properties: { units }, ingested_at: '',
});

/**
 * The stream's usage changes applied as apply-usage.ts applies them, each batch's work on an hour written to the shard
 * `shardOf(batch, hour)` picks (the writer's choice: shard 0, the batch's own, or the next after a conflict), a retried
 * batch possibly to another. Markers are per change and hour, whatever the shard. Returns each hour's shard states.
 */
function applySharded(operation: AggregateOperation, changes: UsageChange[], cuts: number[], shardOf: (batch: number, hour: string) => number, redeliver: boolean[]) {
  const agg = aggregator(operation);
  const hours = new Map<string, Map<number, BucketState>>();
  const applied = new Set<string>();
  let at = 0;
  for (let b = 0; at < changes.length; b++) {
    const batch = changes.slice(at, at + cuts[b % cuts.length]!);
    at += batch.length;
    for (let round = 0; round < (redeliver[b] ? 2 : 1); round++) {
      for (const work of bucketWork(ctx, [agg], batch)) {
        const fresh = work.deltas.filter((d) => !applied.has(`${d.changeId}|${work.hour}`));
        if (fresh.length === 0) continue;
        const shards = hours.get(work.hour) ?? new Map<number, BucketState>();
        const shard = shardOf(b * 2 + round, work.hour);
        // What spreadBeyond answers: does the hour hold another shard item? (Asked for ranked removals only.)
        const ranked = RANKED.includes(operation) && fresh.some((d) => d.sign === -1);
        const spread = ranked && [...shards.keys()].some((s) => s !== shard);
        shards.set(shard, applyDeltas(operation, shards.get(shard) ?? emptyBucket(), fresh, spread));
        hours.set(work.hour, shards);
        for (const d of fresh) applied.add(`${d.changeId}|${work.hour}`);
      }
    }
  }
  return hours;
}

const version = fc.record({ id: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), hour: fc.integer({ min: 0, max: 1 }), minute: fc.integer({ min: 0, max: 59 }), units: fc.integer({ min: -3, max: 30 }) });
const history = fc.array(version, { minLength: 1, maxLength: 40 });

function changesOf(sent: Array<{ id: string; hour: number; minute: number; units: number }>) {
  const store = new Map<string, UsageEventItem>();
  const changes: UsageChange[] = sent.map((v, i) => {
    const after = event(v.id, v.hour, v.minute, v.units);
    const change = { changeId: `chg${i}`, before: store.get(v.id), after };
    store.set(v.id, after);
    return change;
  });
  return { changes, latest: [...store.values()] };
}

describe('a hot hour spread over bucket shards, summed on read', () => {
  it.each(OPERATIONS)('%s: the shards added up equal the unsharded bucket, however batches pick their shards and are retried', (operation) => {
    fc.assert(
      fc.property(
        history, fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 6 }), fc.array(fc.boolean(), { maxLength: 20 }),
        fc.array(fc.integer({ min: 0, max: BUCKET_SHARDS - 1 }), { minLength: 1, maxLength: 30 }),
        (sent, cuts, redeliver, picks) => {
          const agg = aggregator(operation);
          const { changes, latest } = changesOf(sent);
          const sharded = applySharded(operation, changes, cuts, (b, hour) => picks[(b + Number(hour.slice(-1))) % picks.length]!, redeliver);
          const unsharded = applySharded(operation, changes, cuts, () => 0, redeliver);
          for (const hour of new Set([...sharded.keys(), ...unsharded.keys()])) {
            const merged = mergeShards(operation, [...(sharded.get(hour)?.values() ?? [])]);
            const single = unsharded.get(hour)?.get(0) ?? emptyBucket();
            const raw = latest.filter((e) => hourOf(e.timestamp) === hour).flatMap((e) => contributionOf(agg, e) ?? []);
            // The additive parts are exact in every shard layout: the sum over shards is the unsharded total.
            expect([merged.count, merged.sum, merged.values]).toEqual([single.count, single.sum, single.values]);
            expect(merged.count).toBe(raw.length);
            if (!RANKED.includes(operation)) expect(merged.stale).toBe(false);
            // A stale hour is recomputed from its raw events on read; any other must be right as it is.
            const readable = merged.stale ? bucketOf(operation, raw) : merged;
            expect(valueOf(operation, [readable])).toBe(valueOf(operation, [bucketOf(operation, raw)]));
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
