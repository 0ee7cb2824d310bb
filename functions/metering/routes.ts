import { listOf, type RouteDefinition } from '../route-definition';
import { idPath } from '../../shared/schemas/common';
import { eventBatchBody, eventBatchResource, eventBody, eventListMeta, eventListQuery, ingestionQuery, usageQuery, customerUsageResource, usageEventResource } from '../../shared/schemas/metering';

const ingestion = 'Events are kept under `(workspace, record.id)`: sending a record id again replaces the event, and usage counts its latest version only. See docs/metering.md.';

export const meteringRoutes: RouteDefinition[] = [
  {
    id: 'ingestEvent', method: 'POST', path: '/v1/events', handler: 'functions/metering/ingest-event.ts', scope: 'write', tag: 'Usage',
    summary: 'Ingest one billable event', description: `${ingestion} A refused event is a 422 whose code says why.`,
    request: { query: ingestionQuery, body: eventBody }, response: { status: 201, schema: usageEventResource },
    indexes: ['gsi3'],
  },
  {
    id: 'ingestEventBatch', method: 'POST', path: '/v1/events/batch', handler: 'functions/metering/ingest-batch.ts', scope: 'write', tag: 'Usage',
    summary: 'Ingest 1 to 5,000 billable events (the body is their array)',
    description: `${ingestion} Each event is checked on its own: the answer lists those stored and, with their position and the reason, those refused.`,
    request: { query: ingestionQuery, body: eventBatchBody }, response: { status: 201, schema: eventBatchResource },
    indexes: ['gsi3'],
  },
  {
    id: 'listEvents', method: 'GET', path: '/v1/events', handler: 'functions/metering/list-events.ts', scope: 'read', tag: 'Usage',
    summary: "List one customer's billable events, newest first",
    description: 'Events are indexed per customer, so `customer_id` is required (a workspace-wide listing would read the whole table). Optional `event_type` and `[timestamp__gte, timestamp__lt)`; `take`/`skip` pages (skip at most 10,000). See docs/metering.md.',
    request: { query: eventListQuery }, response: { status: 200, schema: listOf(usageEventResource, eventListMeta) },
    indexes: ['gsi2', 'gsi3'],
  },
  {
    id: 'getCustomerUsage', method: 'GET', path: '/v1/customers/{id}/usage', handler: 'functions/metering/get-usage.ts', scope: 'read', tag: 'Usage',
    summary: "A customer's usage over [from, to): of one aggregator with its value per UTC day, or Hyperline's row per aggregator",
    description: 'With `aggregator_id`: that aggregator\'s usage (as before, with Hyperline\'s `total`, `count`, `period_start`, `period_end` beside). Without: Hyperline\'s list `[{aggregator_id, name, unit_name, total, count}]`, one row per live aggregator. `start_date`/`end_date` are Hyperline\'s names of `from`/`to`. Compatibility: a request with `aggregator_id`, `from`, `to` answers as before (members only added); without `aggregator_id` it was a 400 and is now the list (docs/hyperline.md).',
    request: { path: idPath, query: usageQuery }, response: { status: 200, schema: customerUsageResource },
    indexes: ['gsi2'],
  },
];
