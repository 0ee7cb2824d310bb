import fc from 'fast-check';
import { makeCtx } from '../../shared/context';
import type { AggregateOperation, AggregatorItem } from '../../shared/domain/metering/aggregator';
import { bucketWork, type UsageChange } from '../../shared/domain/metering/apply-usage';
import { applyContribution, bucketOf, emptyBucket, valueOf, type BucketState } from '../../shared/domain/metering/bucket';
import { contributionOf, filterHolds } from '../../shared/domain/metering/contribution';
import type { UsageEventItem } from '../../shared/domain/metering/usage-event';
import { hourOf } from '../../shared/domain/metering/bucket-item';

const ctx = makeCtx('ws_unit', 'test');
const OPERATIONS: AggregateOperation[] = ['count', 'sum', 'max', 'unique_count', 'latest'];

const aggregator = (operation: AggregateOperation, extra: Partial<AggregatorItem> = {}): AggregatorItem => ({
  pk: 'p', sk: `agg_${operation}`, _type: 'aggregator', _version: 1, id: `agg_${operation}`, name: operation, event_type: 'api_call', operation,
  property: operation === 'count' ? null : 'units', filters: [], unit_name: null, created_at: '', updated_at: '', deleted_at: null, ...extra,
});

const event = (id: string, hour: number, units: number, type = 'api_call', region = 'eu'): UsageEventItem => ({
  pk: `WS#ws_unit#UEVT#${id}`, sk: 'UEVT', _type: 'usage_event', gsi2pk: '', gsi2sk: '', ttl: 0,
  id, customer_id: 'cus_1', event_type: type, timestamp: `2026-11-0${1 + Math.floor(hour / 24)}T${String(hour % 24).padStart(2, '0')}:15:00.000Z`,
  properties: { units, region }, ingested_at: '',
});

describe('filters', () => {
  const props = { region: 'eu', tags: ['a', 'b'], units: 5, ok: true };
  it.each([
    [{ property: 'region', operator: 'equals', value: 'eu' }, true],
    [{ property: 'region', operator: 'not_equals', value: 'eu' }, false],
    [{ property: 'missing', operator: 'not_equals', value: 'eu' }, true],
    [{ property: 'tags', operator: 'equals', value: 'b' }, true],
    [{ property: 'tags', operator: 'in', value: ['x', 'a'] }, true],
    [{ property: 'tags', operator: 'not_in', value: ['x', 'a'] }, false],
    [{ property: 'units', operator: 'greater_than', value: 5 }, false],
    [{ property: 'units', operator: 'greater_than_or_equal', value: 5 }, true],
    [{ property: 'units', operator: 'less_than', value: 6 }, true],
    [{ property: 'region', operator: 'less_than', value: 6 }, false],
    [{ property: 'ok', operator: 'exists' }, true],
    [{ property: 'nope', operator: 'not_exists' }, true],
    [{ property: 'toString', operator: 'exists' }, false],
  ] as const)('%j → %s', (filter, holds) => {
    expect(filterHolds(filter as never, props)).toBe(holds);
  });

  it('counts only the event type, the filters and, for sum/max/latest, an integer property', () => {
    const sum = aggregator('sum', { filters: [{ property: 'region', operator: 'equals', value: 'eu' }] });
    expect(contributionOf(sum, event('a', 1, 7))?.value).toBe(7);
    expect(contributionOf(sum, event('a', 1, 7, 'other'))).toBeUndefined();
    expect(contributionOf(sum, event('a', 1, 7, 'api_call', 'us'))).toBeUndefined();
    expect(contributionOf(sum, event('a', 1, 1.5))).toBeUndefined();
    expect(contributionOf(aggregator('unique_count'), event('a', 1, 7))?.unique).toBe('7');
  });
});

/**
 * The exactly-once identity: whatever the order of replacements, however the changes are cut into stream batches and
 * however often a batch is delivered again, the buckets equal a recomputation from the latest version of each event.
 */
describe('bucket algebra', () => {
  it('max: a replaced best never lets a worse newcomer hide a forgotten better event', () => {
    const agg = aggregator('max');
    const c = (id: string, units: number) => contributionOf(agg, event(id, 0, units))!;
    let bucket = bucketOf('max', [c('a', 10), c('b', 9), c('c', 8), c('d', 7)], 3); // d is not remembered
    bucket = applyContribution('max', bucket, c('a', 10), -1, 3);
    bucket = applyContribution('max', bucket, c('a', 1), 1, 3);
    bucket = applyContribution('max', bucket, c('b', 9), -1, 3);
    bucket = applyContribution('max', bucket, c('c', 8), -1, 3);
    // d (7) is the max now; the bucket cannot know it, so it must say so (stale) rather than answer 1.
    expect(bucket.stale || valueOf('max', [bucket]) === 7).toBe(true);
  });

  const versions = fc.array(fc.record({ id: fc.constantFrom(...'abcdefghijkl'.split('')), hour: fc.integer({ min: 0, max: 1 }), units: fc.integer({ min: -3, max: 40 }), type: fc.constantFrom('api_call', 'api_call', 'other') }), { minLength: 1, maxLength: 60 });

  // A small `top` makes the max/latest fallbacks (the best replaced, a bucket gone stale) happen often.
  const TOP = 3;
  it.each(OPERATIONS)('%s: applied changes equal a recomputation from the latest versions', (operation) => {
    fc.assert(
      fc.property(versions, fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 10 }), fc.array(fc.boolean(), { maxLength: 20 }), (sent, cuts, redeliver) => {
        const agg = aggregator(operation);
        const store = new Map<string, UsageEventItem>();
        const changes: UsageChange[] = sent.map((v, i) => {
          const after = event(v.id, v.hour, v.units, v.type);
          const change = { changeId: `chg${i}`, before: store.get(v.id), after };
          store.set(v.id, after);
          return change;
        });
        const buckets = new Map<string, BucketState>();
        const applied = new Set<string>();
        // Cut the changes into batches; some batches are delivered twice (a retried stream batch).
        let at = 0;
        for (let b = 0; at < changes.length; b++) {
          const batch = changes.slice(at, at + cuts[b % cuts.length]!);
          at += batch.length;
          for (let round = 0; round < (redeliver[b] ? 2 : 1); round++) {
            for (const work of bucketWork(ctx, [agg], batch)) {
              const id = `${work.key.pk}|${work.key.sk}`;
              const fresh = work.deltas.filter((d) => !applied.has(`${d.changeId}|${id}`));
              buckets.set(id, fresh.reduce((s, d) => applyContribution(operation, s, d.contribution, d.sign, TOP), buckets.get(id) ?? emptyBucket()));
              for (const d of fresh) applied.add(`${d.changeId}|${id}`);
            }
          }
        }
        const reference = bucketOf(operation, [...store.values()].flatMap((e) => contributionOf(agg, e) ?? []), TOP);
        const states = [...buckets.values()];
        // A stale bucket is recomputed from its hour's raw events when read: the others must be right as they are.
        const hourEvents = (id: string) => [...store.values()].filter((e) => id.endsWith(`H#${hourOf(e.timestamp)}`)).flatMap((e) => contributionOf(agg, e) ?? []);
        const readable = [...buckets].map(([id, s]) => (s.stale ? bucketOf(operation, hourEvents(id), TOP) : s));
        expect(valueOf(operation, readable)).toBe(valueOf(operation, [reference]));
        expect(states.reduce((n, s) => n + s.count, 0)).toBe(reference.count);
      }),
      { numRuns: 300 },
    );
  });
});
