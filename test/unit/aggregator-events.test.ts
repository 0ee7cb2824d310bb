import { makeCtx } from '../../shared/context';
import { aggregatorKey, toAggregator, type AggregatorItem } from '../../shared/domain/metering/aggregator';
import { mapChange } from '../../shared/domain/events/map-change';

const ctx = makeCtx('ws_aggregator_events', 'req');
const t0 = '2026-04-01T00:00:00.000Z';
const t1 = '2026-04-02T00:00:00.000Z';

const aggregator = (): AggregatorItem => ({
  ...aggregatorKey(ctx, 'agg_1'), _type: 'aggregator', _version: 0, id: 'agg_1', name: 'Tokens', event_type: 'llm.completion', operation: 'sum',
  property: 'tokens', filters: [{ property: 'model', operator: 'in', value: ['a', 'b'] }, { property: 'region', operator: 'exists' }],
  unit_name: 'token', created_at: t0, updated_at: t0, deleted_at: null,
});

const types = (before: AggregatorItem | undefined, after: AggregatorItem | undefined) => mapChange(before as never, after as never).map((e) => e.type);

describe('aggregator events (through the stream mapping)', () => {
  it('created with the public representation, nothing of the stored item', () => {
    const [event] = mapChange(undefined, aggregator() as never);
    expect(event).toEqual({ type: 'aggregator.created', data: toAggregator(aggregator()) });
    expect(Object.keys(event!.data).sort()).toEqual(['allow_negative_values', 'created_at', 'custom_event_name', 'description', 'entity', 'event_type', 'exposed_event_keys', 'filters', 'id', 'name', 'operation', 'property', 'type', 'unit_name', 'updated_at', 'where']);
  });

  it('updated for a visible change, nothing for a version bump or a bare updated_at', () => {
    expect(types(aggregator(), { ...aggregator(), name: 'Billable tokens', updated_at: t1, _version: 1 })).toEqual(['aggregator.updated']);
    expect(types(aggregator(), { ...aggregator(), unit_name: null, updated_at: t1 })).toEqual(['aggregator.updated']);
    expect(types(aggregator(), { ...aggregator(), updated_at: t1, _version: 1 })).toEqual([]);
  });

  it('deleted once, on the soft delete; nothing after it or for a removal', () => {
    const deleted = { ...aggregator(), deleted_at: t1, updated_at: t1 };
    expect(types(aggregator(), deleted)).toEqual(['aggregator.deleted']);
    expect(types(deleted, { ...deleted, _version: 5 })).toEqual([]);
    expect(types(aggregator(), undefined)).toEqual([]);
  });
});
