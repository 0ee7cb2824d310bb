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

/** Hyperline's `where` operators that have a filter of ours (valueless, as Hyperline's fields carry no value). */
export const HYPERLINE_OPERATORS = ['isNull', 'isNotNull'] as const;
export type HyperlineOperator = (typeof HYPERLINE_OPERATORS)[number];
export const FILTER_OF_HYPERLINE: Record<HyperlineOperator, FilterOperator> = { isNull: 'not_exists', isNotNull: 'exists' };

/** The filters that have a Hyperline operator, in Hyperline's form (the others have none). */
export function hyperlineFields(filters: { property: string; operator: FilterOperator }[]): { property: string; operator: HyperlineOperator }[] {
  return filters.flatMap((f) => {
    const operator = HYPERLINE_OPERATORS.find((o) => FILTER_OF_HYPERLINE[o] === f.operator);
    return operator ? [{ property: f.property, operator }] : [];
  });
}

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

/** Hyperline's descriptive members: stored and answered, read by nothing that bills (absent on older items). */
export interface AggregatorLabels {
  description?: string | null;
  custom_event_name?: string | null;
  exposed_event_keys?: string[];
}

/** The answer: ours, with Hyperline's names and constants beside (docs/hyperline.md). */
export interface AggregatorResource extends Aggregator, Required<AggregatorLabels> {
  entity: string;
  where: { conditional: 'and'; fields: { property: string; operator: HyperlineOperator }[] };
  type: 'metered';
  allow_negative_values: false;
}

export interface AggregatorItem extends StoredItem, Aggregator, AggregatorLabels {
  deleted_at: string | null;
}

export const aggregatorKey = (ctx: Ctx, id: string) => collectionKey(ctx, AGGREGATORS, id);
export const aggregatorsPartition = (ctx: Ctx) => collectionPartition(ctx, AGGREGATORS);

/** The `_type` of an aggregator item (the stream maps its changes to `aggregator.*` events). */
export const AGGREGATOR_ITEM_TYPE = 'aggregator';

/** The public representation: every member of `Aggregator` and Hyperline's, nothing of the stored item. */
export function toAggregator(item: AggregatorItem): AggregatorResource {
  return {
    id: item.id,
    name: item.name,
    event_type: item.event_type,
    operation: item.operation,
    property: item.property,
    filters: item.filters.map((f) => ({ property: f.property, operator: f.operator, ...(f.value !== undefined && { value: f.value }) })),
    unit_name: item.unit_name,
    entity: item.event_type,
    where: { conditional: 'and', fields: hyperlineFields(item.filters) },
    type: 'metered',
    description: item.description ?? null,
    allow_negative_values: false,
    custom_event_name: item.custom_event_name ?? null,
    exposed_event_keys: item.exposed_event_keys ?? [],
    created_at: item.created_at,
    updated_at: item.updated_at,
  };
}
