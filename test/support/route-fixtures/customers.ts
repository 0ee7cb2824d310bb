import type { AreaFixtures } from './types';

export const customerFixtures: AreaFixtures = {
  resources: {
    '/v1/customers/{id}': async (client) => (await client.post('/v1/customers', { name: 'Owner’s customer' })).body.id,
  },
  bodies: {
    createCustomer: { name: 'C' },
    createCustomerBatch: [{ name: 'C' }],
    updateCustomer: { name: 'Changed by another workspace' },
  },
};
