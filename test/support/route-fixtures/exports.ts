import type { AreaFixtures } from './types';

const journal = { kind: 'journal', format: 'csv', period: { from: '2026-11-01', to: '2026-11-30' } };

export const exportFixtures: AreaFixtures = {
  resources: {
    '/v1/exports/{id}': async (client) => (await client.post('/v1/exports', journal)).body.id,
    '/v1/exports/{id}/files/{index}': async (client) => {
      const id = (await client.post('/v1/exports', journal)).body.id;
      return { params: { id, index: '0' }, read: `/v1/exports/${id}` };
    },
  },
  bodies: { createExport: journal },
};
