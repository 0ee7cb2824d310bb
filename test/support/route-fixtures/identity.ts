import type { AreaFixtures } from './types';

export const identityFixtures: AreaFixtures = {
  resources: {
    // No route reads one key: the list shows whether another workspace's call changed it.
    '/v1/api-keys/{id}': async (client) => ({ params: { id: (await client.post('/v1/api-keys', { name: 'Fixture' })).body.id }, read: '/v1/api-keys' }),
  },
  bodies: { createApiKey: { name: 'CI', scopes: ['read'] } },
};
