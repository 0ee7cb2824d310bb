import type { AreaFixtures } from './types';

export const invoicingEntityFixtures: AreaFixtures = {
  resources: {
    // Not the default entity, so a leaked DELETE would succeed and be caught.
    '/v1/invoicing-entities/{id}': async (client) =>
      (await client.post('/v1/invoicing-entities', { name: 'Second', country: 'FR', currency: 'EUR' })).body.id,
  },
  bodies: {
    createInvoicingEntity: { name: 'E', country: 'FR', currency: 'EUR' },
    updateInvoicingEntity: { name: 'Changed by another workspace' },
  },
};
