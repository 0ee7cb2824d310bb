import type { AreaFixtures } from './types';

const event = { customer_id: 'matrix-customer', event_type: 'api_call', timestamp: new Date().toISOString(), record: { id: 'matrix-1', units: 1 } };

export const meteringFixtures: AreaFixtures = {
  // `/v1/customers/{id}/usage` is served by the customer fixture (`/v1/customers/{id}`).
  resources: {},
  bodies: {
    ingestEvent: event,
    ingestEventBatch: [event],
  },
  queries: {
    listEvents: '?customer_id=cus_matrix',
    getCustomerUsage: `?aggregator_id=agg_matrix&from=2026-01-01T00:00:00.000Z&to=2026-02-01T00:00:00.000Z`,
  },
};
