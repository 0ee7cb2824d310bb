import type { AreaFixtures } from './types';

/** Subscribed to an event these tests never cause, so nothing is ever queued for delivery to it. */
const quietEndpoint = { url: 'https://hooks.example.com/matrix', event_types: ['payment_method.deleted'] };

export const webhookFixtures: AreaFixtures = {
  resources: {
    '/v1/webhooks/endpoints/{id}': async (client) => (await client.post('/v1/webhooks/endpoints', quietEndpoint)).body.id,
    '/v1/webhooks/messages/{id}': async (client, api) => {
      await client.post('/v1/customers', { name: 'Makes a message' });
      await api.events.settle();
      return (await client.get('/v1/webhooks/messages?limit=1')).body.data[0].id;
    },
  },
  bodies: {
    createWebhookEndpoint: quietEndpoint,
    updateWebhookEndpoint: { description: 'Changed by another workspace' },
  },
};
