import type { Aggregator, AggregatorFilter, PropertyScalar, PropertyValue } from './aggregator';

/** The members of an event an aggregator looks at. */
export interface MeteredEvent {
  id: string;
  event_type: string;
  timestamp: string;
  properties: Record<string, PropertyValue>;
}

/** What one event adds to its aggregator's hour bucket (bucket.ts); `value` per operation, see contributionOf. */
export interface Contribution {
  id: string;
  at: string;
  /** sum, max, latest: the property's integer; count: 1. */
  value: number;
  /** unique_count: the distinct value's key (JSON, so 1 and "1" differ). */
  unique?: string;
}

type Aggregation = Pick<Aggregator, 'event_type' | 'operation' | 'property' | 'filters'>;

const isScalar = (value: unknown): value is PropertyScalar => ['string', 'number', 'boolean'].includes(typeof value);
const elements = (value: PropertyValue | undefined): PropertyScalar[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** One filter against one event; an array property holds for equals/in when any element does (docs/metering.md). */
export function filterHolds(filter: AggregatorFilter, properties: Record<string, PropertyValue>): boolean {
  const value = Object.hasOwn(properties, filter.property) ? properties[filter.property] : undefined;
  const wanted = filter.value;
  const list = Array.isArray(wanted) ? wanted : [wanted];
  switch (filter.operator) {
    case 'exists':
      return value !== undefined;
    case 'not_exists':
      return value === undefined;
    case 'equals':
      return elements(value).some((v) => v === wanted);
    case 'not_equals':
      return !elements(value).some((v) => v === wanted);
    case 'in':
      return elements(value).some((v) => list.includes(v));
    case 'not_in':
      return !elements(value).some((v) => list.includes(v));
    default:
      return typeof value === 'number' && typeof wanted === 'number' && compare(filter.operator, value, wanted);
  }
}

function compare(operator: AggregatorFilter['operator'], value: number, wanted: number): boolean {
  if (operator === 'greater_than') return value > wanted;
  if (operator === 'greater_than_or_equal') return value >= wanted;
  if (operator === 'less_than') return value < wanted;
  return value <= wanted;
}

/**
 * What `event` contributes to `aggregator`, or undefined when it does not count: another event type, a filter
 * that fails, or (sum, max, latest) a property that is missing or not a safe integer; (unique_count) one that is
 * missing or not a scalar. Pure.
 */
export function contributionOf(aggregator: Aggregation, event: MeteredEvent): Contribution | undefined {
  if (event.event_type !== aggregator.event_type) return undefined;
  if (!aggregator.filters.every((f) => filterHolds(f, event.properties))) return undefined;
  const base = { id: event.id, at: event.timestamp };
  if (aggregator.operation === 'count') return { ...base, value: 1 };
  const property = aggregator.property ?? '';
  const value = Object.hasOwn(event.properties, property) ? event.properties[property] : undefined;
  if (aggregator.operation === 'unique_count') return isScalar(value) ? { ...base, value: 1, unique: JSON.stringify(value) } : undefined;
  return Number.isSafeInteger(value) ? { ...base, value: value as number } : undefined;
}
