import { InvalidRequest, type FieldError } from '../../errors';
import { AGGREGATOR_BOUNDS } from '../../schemas/bounds';
import type { AggregateOperation, Aggregator, AggregatorFilter, FilterOperator } from './aggregator';

/** The members of `POST /v1/aggregators` (types and bounds already checked by the request schema). */
export interface AggregatorCreateInput {
  name: string;
  event_type: string;
  operation: AggregateOperation;
  property?: string | null;
  filters?: AggregatorFilter[];
  unit_name?: string | null;
}

/** The members of `PUT /v1/aggregators/{id}`: all optional; the definition members only as they already are. */
export type AggregatorUpdateInput = Partial<AggregatorCreateInput>;

/** The definition: what an aggregator counts. Immutable once created, so aggregated usage keeps its meaning. */
export const DEFINITION_MEMBERS = ['event_type', 'operation', 'property', 'filters'] as const;

type ValueRule = 'none' | 'scalar' | 'list' | 'number';

const VALUE_RULES: Record<FilterOperator, ValueRule> = {
  equals: 'scalar',
  not_equals: 'scalar',
  in: 'list',
  not_in: 'list',
  greater_than: 'number',
  greater_than_or_equal: 'number',
  less_than: 'number',
  less_than_or_equal: 'number',
  exists: 'none',
  not_exists: 'none',
};

/** What is wrong with a filter's `value` for its operator, or undefined. */
function valueProblem(filter: AggregatorFilter): string | undefined {
  const rule = VALUE_RULES[filter.operator];
  const { value } = filter;
  const op = `for operator '${filter.operator}'`;
  if (rule === 'none') return value === undefined ? undefined : `must be absent ${op}`;
  if (value === undefined) return `is required ${op}`;
  if (rule === 'list') return Array.isArray(value) ? undefined : `must be an array of 1 to ${AGGREGATOR_BOUNDS.filterValues} values ${op}`;
  if (rule === 'number') return typeof value === 'number' ? undefined : `must be a number ${op}`;
  return Array.isArray(value) ? `must be a single string, number or boolean ${op} (use 'in' for a list)` : undefined;
}

const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), 'utf8');

/** Each filter's value agrees with its operator, and the filters stay within their size bound. */
export function filterErrors(filters: AggregatorFilter[] | undefined): FieldError[] {
  if (!filters) return [];
  const errors: FieldError[] = [];
  filters.forEach((filter, i) => {
    const problem = valueProblem(filter);
    if (problem) errors.push({ path: `body.filters.${i}.value`, message: problem });
  });
  const bytes = jsonBytes(filters);
  if (bytes > AGGREGATOR_BOUNDS.filtersBytes) {
    errors.push({ path: 'body.filters', message: `take ${bytes} bytes as JSON; at most ${AGGREGATOR_BOUNDS.filtersBytes}` });
  }
  return errors;
}

/** A new aggregator's rules beyond the schema: `property` for every operation but `count`, and the filters' values. */
export function definitionErrors(input: AggregatorCreateInput): FieldError[] {
  const errors: FieldError[] = [];
  const hasProperty = input.property !== undefined && input.property !== null;
  if (input.operation === 'count' && hasProperty) {
    errors.push({ path: 'body.property', message: "must be absent or null when operation is 'count' (a count aggregates no property)" });
  }
  if (input.operation !== 'count' && !hasProperty) errors.push({ path: 'body.property', message: `is required when operation is '${input.operation}'` });
  return [...errors, ...filterErrors(input.filters)];
}

export function assertNoErrors(errors: FieldError[]): void {
  if (errors.length > 0) throw new InvalidRequest(`Invalid body: ${errors[0]!.path} ${errors[0]!.message}.`, errors);
}

/** A filter as stored and returned: its members in one order, `value` only where the operator takes one. */
export const normalizeFilter = (f: AggregatorFilter): AggregatorFilter => ({
  property: f.property,
  operator: f.operator,
  ...(f.value !== undefined && { value: f.value }),
});

/**
 * One form per meaning: all filters must hold, so their order and repeats do not matter, nor do the order and
 * repeats of an `in` list's values.
 */
function canonicalFilters(filters: AggregatorFilter[]): string {
  const distinctSorted = (values: string[]) => [...new Set(values)].sort();
  const one = (f: AggregatorFilter) =>
    JSON.stringify([f.property, f.operator, Array.isArray(f.value) ? distinctSorted(f.value.map((v) => JSON.stringify(v))) : (f.value ?? null)]);
  return JSON.stringify(distinctSorted(filters.map(one)));
}

/** The definition members a PUT gives with another meaning than the aggregator has (repeating them is fine). */
export function changedDefinitionMembers(current: Aggregator, input: AggregatorUpdateInput): string[] {
  const changed: string[] = [];
  if (input.event_type !== undefined && input.event_type !== current.event_type) changed.push('event_type');
  if (input.operation !== undefined && input.operation !== current.operation) changed.push('operation');
  if (input.property !== undefined && input.property !== current.property) changed.push('property');
  if (input.filters !== undefined && canonicalFilters(input.filters) !== canonicalFilters(current.filters)) changed.push('filters');
  return changed;
}
