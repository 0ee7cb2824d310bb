import { arrayOf, dateTime, freeNumber, id, object, out, requireAll, resource, type Schema } from './common';
import { PATTERNS } from './formats';
import { pagingQuery } from './list-query';
import { EVENT_BOUNDS } from './bounds';


/** Property names: the names aggregators can name, and never one JavaScript objects treat specially. */
const propertyName = { type: 'string', maxLength: EVENT_BOUNDS.propertyName, pattern: PATTERNS.eventName, not: { enum: ['__proto__', 'constructor', 'prototype'] } };
const scalar: Schema = { anyOf: [{ type: 'string', maxLength: EVENT_BOUNDS.stringValue }, freeNumber, { type: 'boolean' }] };
const propertyValue: Schema = { anyOf: [...(scalar.anyOf as Schema[]), { type: 'array', maxItems: EVENT_BOUNDS.arrayValues, items: scalar }] };

/** Epoch milliseconds from 1970 to 9999. */
const epochMs = { type: 'integer', minimum: 0, maximum: 253_402_300_799_999 };

/** One event: the body of `POST /v1/events`, and each element of a batch (checked one by one). */
export const eventBody: Schema = object(
  {
    customer_id: { type: 'string', minLength: 1, maxLength: 255 },
    event_type: { type: 'string', minLength: 1, maxLength: EVENT_BOUNDS.eventType, pattern: PATTERNS.eventName },
    timestamp: { anyOf: [dateTime, epochMs] },
    record: {
      type: 'object',
      required: ['id'],
      maxProperties: EVENT_BOUNDS.properties + 1,
      propertyNames: propertyName,
      properties: { id: { type: 'string', minLength: 1, maxLength: EVENT_BOUNDS.recordId } },
      additionalProperties: propertyValue,
    },
  },
  ['customer_id', 'event_type', 'timestamp', 'record'],
);

/** A batch: 1 to 5,000 events, each validated on its own so one bad event never rejects the others. */
export const eventBatchBody: Schema = { type: 'array', minItems: 1, maxItems: EVENT_BOUNDS.batch, items: {} };

export const ingestionQuery: Schema = {
  type: 'object',
  additionalProperties: false,
  properties: { with_price_calculation: { type: 'boolean', default: false, description: 'Price each event against the customer’s subscription and emit `event.price_calculated`.' } },
};

export const usageEventResource: Schema = resource({
  id: { ...out.string, description: 'The record id you sent (`record.id`): sending it again replaces the event.' },
  customer_id: { ...out.string, description: 'Our `cus_` id, also when you sent the external id.' },
  event_type: out.string,
  timestamp: out.dateTime,
  record: { ...out.freeObject, description: 'The record as stored: `id` and its properties.' },
  ingested_at: out.dateTime,
});

/** Skipping reads every skipped event (the customer's index shards are merged, not counted): bounded. */
export const MAX_EVENT_SKIP = 10_000;

/** `GET /v1/events`: one customer's events, newest first, optionally of one type and within [timestamp__gte, timestamp__lt). */
export const eventListQuery: Schema = object(
  {
    customer_id: { type: 'string', minLength: 1, maxLength: 255, description: 'Required: the `cus_` id or the external id (events are indexed per customer).' },
    event_type: { type: 'string', minLength: 1, maxLength: EVENT_BOUNDS.eventType },
    timestamp__gte: dateTime,
    timestamp__lt: dateTime,
    take: pagingQuery.take,
    skip: { ...pagingQuery.skip, maximum: MAX_EVENT_SKIP },
  },
  ['customer_id'],
);

export const eventListMeta: Schema = resource({
  taken: out.integer,
  skipped: out.integer,
  has_more: { ...out.boolean, description: 'Whether events follow this page (no `total`: counting would read every event of the customer).' },
});

export const eventBatchResource: Schema = resource({
  events_created: arrayOf(usageEventResource),
  events_failed: arrayOf(
    requireAll({
      type: 'object',
      properties: {
        index: { ...out.integer, description: 'Position of the event in the batch.' },
        event: { description: 'The event as sent.' },
        error: { type: 'object', properties: { code: out.string, message: out.string } },
      },
    }),
  ),
});

/**
 * `from` and `to` (or Hyperline's `start_date` and `end_date`) bound the period [from, to) (at most MAX_USAGE_DAYS
 * apart). With `aggregator_id`: that aggregator's usage; without: Hyperline's list, one row per aggregator.
 */
export const usageQuery: Schema = object({ aggregator_id: id, from: dateTime, to: dateTime, start_date: dateTime, end_date: dateTime });

export const usageResource: Schema = resource({
  customer_id: out.string,
  aggregator_id: out.string,
  operation: out.string,
  unit_name: out.nullableString,
  from: out.dateTime,
  to: out.dateTime,
  value: { ...out.integer, description: 'The aggregated value of the period [from, to).' },
  total: { ...out.integer, description: "Hyperline's name of `value`." },
  count: { ...out.integer, description: 'How many events the value comes from.' },
  period_start: { ...out.dateTime, description: "Hyperline's name of `from`." },
  period_end: { ...out.dateTime, description: "Hyperline's name of `to`." },
  days: arrayOf(
    resource({
      date: { ...out.string, description: 'A UTC day (YYYY-MM-DD), the part of it inside the period.' },
      value: out.integer,
    }),
  ),
});

/** Hyperline's list of a customer's usage: one row per live aggregator of the workspace, in their creation order. */
export const usageRowsResource: Schema = arrayOf(
  resource({
    aggregator_id: out.string,
    name: out.string,
    unit_name: out.nullableString,
    total: { ...out.integer, description: 'The aggregated value of the period.' },
    count: { ...out.integer, description: 'How many events the total comes from.' },
  }),
);

export const customerUsageResource: Schema = { oneOf: [usageResource, usageRowsResource] };
