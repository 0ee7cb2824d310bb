import type { AreaFixtures } from './types';

const apiCalls = { name: 'API calls', event_type: 'api_call', operation: 'count', unit_name: 'call' };

export const aggregatorFixtures: AreaFixtures = {
  resources: {
    '/v1/aggregators/{id}': async (client) => (await client.post('/v1/aggregators', apiCalls)).body.id,
  },
  bodies: {
    createAggregator: apiCalls,
    updateAggregator: { name: 'Changed by another workspace' },
  },
};
