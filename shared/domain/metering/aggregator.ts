import type { Ctx } from '../../context';
import type { StoredItem } from '../../db/items';
import { collectionKey, collectionPartition } from '../../db/keys';

/**
 * All aggregators of a workspace live in one partition (`WS#<ws>#AGGREGATORS`, sk = id): the usage pipeline reads
 * them all with one Query per stream batch, and a workspace has few (MAX_AGGREGATORS).
 */
export const AGGREGATORS = 'AGGREGATORS';
export const MAX_AGGREGATORS = 500;

/** How an aggregator turns the matching events of a period into one quantity (docs/metering.md). */
export const AGGREGATE_OPERATIONS = ['count', 'sum', 'max', 'unique_count', 'latest'] as const;
export type AggregateOperation = (typeof AGGREGATE_OPERATIONS)[number];

export const FILTER_OPERATORS = [
  'equals', 'not_equals', 'in', 'not_in', 'greater_than', 'greater_than_or_equal', 'less_than', 'less_than_or_equal', 'exists', 'not_exists',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** A scalar property value of an event record; a property may also hold an array of these. */
export type PropertyScalar = string | number | boolean;
export type PropertyValue = PropertyScalar | PropertyScalar[];

/** One condition on a record property; an aggregator's filters must all hold. `value` is absent for exists/not_exists. */
export interface AggregatorFilter {
  property: string;
  operator: FilterOperator;
  value?: PropertyScalar | PropertyScalar[];
}

export interface Aggregator {
  id: string;
  name: string;
  event_type: string;
  operation: AggregateOperation;
  /** The record property aggregated; null for `count` only. */
  property: string | null;
  filters: AggregatorFilter[];
  unit_name: string | null;
  created_at: string;
  updated_at: string;
}

export interface AggregatorItem extends StoredItem, Aggregator {
  deleted_at: string | null;
}

export const aggregatorKey = (ctx: Ctx, id: string) => collectionKey(ctx, AGGREGATORS, id);
export const aggregatorsPartition = (ctx: Ctx) => collectionPartition(ctx, AGGREGATORS);

/** The `_type` of an aggregator item (the stream maps its changes to `aggregator.*` events). */
export const AGGREGATOR_ITEM_TYPE = 'aggregator';

/** The public representation: every member of `Aggregator`, nothing of the stored item. */
export function toAggregator(item: AggregatorItem): Aggregator {
  return {
    id: item.id,
    name: item.name,
    event_type: item.event_type,
    operation: item.operation,
    property: item.property,
    filters: item.filters.map((f) => ({ property: f.property, operator: f.operator, ...(f.value !== undefined && { value: f.value }) })),
    unit_name: item.unit_name,
    created_at: item.created_at,
    updated_at: item.updated_at,
  };
}
