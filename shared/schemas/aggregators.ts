import { AGGREGATE_OPERATIONS, FILTER_OPERATORS, HYPERLINE_OPERATORS } from '../domain/metering/aggregator';
import { enumOf, nullable, object, out, requireAll, text, type Schema } from './common';
import { PATTERNS } from './formats';
import { pagingQuery } from './list-query';
import { AGGREGATOR_BOUNDS } from './bounds';


/** An event type or a record property name. */
export const eventName: Schema = {
  type: 'string',
  minLength: 1,
  maxLength: AGGREGATOR_BOUNDS.eventName,
  pattern: PATTERNS.eventName,
  description: '1–100 characters of letters, digits and `_ . : -`, starting with a letter, digit or `_`.',
};

const numberValue = {
  type: 'number',
  minimum: -Number.MAX_SAFE_INTEGER,
  maximum: Number.MAX_SAFE_INTEGER,
  multipleOf: Number(`1e-${AGGREGATOR_BOUNDS.numberDecimals}`),
};
const scalarValue: Schema = { anyOf: [text(AGGREGATOR_BOUNDS.stringValue), numberValue, { type: 'boolean' }] };

/**
 * One condition on a record property. Whether `value` must be there, and of which type, depends on the operator;
 * the domain checks that agreement and names each broken rule (shared/domain/metering/aggregator-input.ts).
 */
export const aggregatorFilter: Schema = object(
  {
    property: { ...eventName, description: 'The record property tested.' },
    operator: { type: 'string', enum: FILTER_OPERATORS },
    value: {
      anyOf: [scalarValue, { type: 'array', minItems: 1, maxItems: AGGREGATOR_BOUNDS.filterValues, items: scalarValue }],
      description:
        'A string (≤ 255 characters), number (±(2^53 − 1), ≤ 9 decimals) or boolean for `equals` / `not_equals`; an array of 1 to 100 of ' +
        'those for `in` / `not_in`; a number for `greater_than`, `greater_than_or_equal`, `less_than`, `less_than_or_equal`; absent for ' +
        '`exists` / `not_exists`.',
    },
  },
  ['property', 'operator'],
);

const definitionMembers: Record<string, Schema> = {
  event_type: { ...eventName, description: `The event type counted: ${eventName.description}` },
  operation: { type: 'string', enum: AGGREGATE_OPERATIONS },
  property: { ...nullable(eventName), description: 'The record property aggregated: required for every operation but `count`, which takes none (null).' },
  filters: { type: 'array', maxItems: AGGREGATOR_BOUNDS.filters, items: aggregatorFilter, description: 'At most 20 (8 KB as JSON); all must hold for an event to count.' },
};

const editableMembers: Record<string, Schema> = {
  name: text(AGGREGATOR_BOUNDS.name, 1),
  unit_name: { ...nullable(text(AGGREGATOR_BOUNDS.unitName, 1)), description: 'What one unit of the quantity is called (`token`, `GB`), shown beside usage quantities.' },
};

/** Hyperline's condition on a property: only its operators with a filter of ours (the domain names any other, 422). */
const hyperlineWhere: Schema = {
  ...nullable(
    object({
      conditional: { type: 'string', enum: ['and', 'or'], description: '`or` only with at most one field: ours all must hold.' },
      fields: {
        type: 'array',
        maxItems: AGGREGATOR_BOUNDS.filters,
        items: object({ property: eventName, operator: { ...text(50, 1), description: '`isNull` (our `not_exists`) or `isNotNull` (our `exists`).' } }, ['property', 'operator']),
      },
    }),
  ),
  description: "Hyperline's form of `filters` (not both).",
};

/** Hyperline's members (docs/hyperline.md): mapped onto ours where they mean the same, refused where they would bill otherwise. */
const hyperlineDefinitionMembers: Record<string, Schema> = {
  entity: { ...eventName, description: "Hyperline's name of `event_type` (not both unless equal)." },
  where: hyperlineWhere,
  type: { type: 'string', enum: ['metered', 'licensed'], description: 'Hyperline\'s aggregator type, `metered` only (the default): nothing here bills a `licensed` aggregator (422).' },
  allow_negative_values: { type: 'boolean', description: 'Hyperline\'s, `false` only (the default): a period\'s billed quantity is never below 0 here (422 for `true`).' },
};

const hyperlineEditableMembers: Record<string, Schema> = {
  description: { ...nullable(text(AGGREGATOR_BOUNDS.description)), description: 'Hyperline\'s, stored and answered; no effect on billing.' },
  custom_event_name: { ...nullable(text(AGGREGATOR_BOUNDS.name)), description: 'Hyperline\'s, stored and answered; no effect on billing.' },
  exposed_event_keys: { type: 'array', maxItems: AGGREGATOR_BOUNDS.filters, items: eventName, description: 'Hyperline\'s, stored and answered; no effect on billing.' },
};

const bodyMembers = { ...editableMembers, ...definitionMembers, ...hyperlineDefinitionMembers, ...hyperlineEditableMembers };

/** `event_type` or Hyperline's `entity`; `name` defaults to the event type (Hyperline's is optional). */
export const aggregatorCreateBody = object(bodyMembers, ['operation']);

/**
 * Partial. `name` and `unit_name` change freely; the definition (`event_type`, `operation`, `property`, `filters`) may
 * be repeated as it is, never changed (422 `aggregator_definition_immutable`).
 */
export const aggregatorUpdateBody = object(bodyMembers);

export const aggregatorListQuery = { type: 'object', additionalProperties: false, properties: { ...pagingQuery } };

const scalarOut = { type: ['string', 'number', 'boolean'] };

export const aggregatorFilterResource: Schema = {
  type: 'object',
  required: ['property', 'operator'],
  properties: {
    property: out.string,
    operator: enumOf(FILTER_OPERATORS),
    value: { anyOf: [scalarOut, { type: 'array', items: scalarOut }], description: 'Absent for `exists` and `not_exists`.' },
  },
};

export const aggregatorResource: Schema = requireAll({
  type: 'object',
  properties: {
    id: out.string,
    name: out.string,
    event_type: out.string,
    operation: enumOf(AGGREGATE_OPERATIONS),
    property: out.nullableString,
    filters: { type: 'array', items: aggregatorFilterResource },
    unit_name: out.nullableString,
    entity: { ...out.string, description: "Hyperline's name of `event_type`." },
    where: {
      type: 'object',
      required: ['conditional', 'fields'],
      properties: {
        conditional: enumOf(['and']),
        fields: { type: 'array', items: { type: 'object', required: ['property', 'operator'], properties: { property: out.string, operator: enumOf(HYPERLINE_OPERATORS) } } },
      },
      description: "Hyperline's form of the `exists` / `not_exists` filters (the others have no Hyperline operator).",
    },
    type: enumOf(['metered']),
    description: out.nullableString,
    allow_negative_values: { type: 'boolean', description: 'Always false: a period\'s billed quantity is never below 0.' },
    custom_event_name: out.nullableString,
    exposed_event_keys: { type: 'array', items: out.string },
    created_at: out.dateTime,
    updated_at: out.dateTime,
  },
});
