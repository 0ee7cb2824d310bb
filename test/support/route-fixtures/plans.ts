import type { Client } from '../api';
import { pricedProduct, subscriber } from '../subscriptions';
import type { AreaFixtures } from './types';

/** A plan of one monthly fee, and a monthly subscription to it (so a migration has something to move). */
async function planOf(client: Client): Promise<{ id: string; versionId: string }> {
  const fee = await pricedProduct(client, 'flat_fee');
  const plan = (await client.post('/v1/plans', { name: 'Team', currency: 'EUR', products: [{ ...fee, quantity: 1 }] })).body;
  const customer = await subscriber(client);
  await client.post('/v2/subscriptions', { customer_id: customer.id, plan_id: plan.id });
  return { id: plan.id, versionId: plan.latest_version.id };
}

async function featureOf(client: Client): Promise<string> {
  return (await client.post('/v1/features', { code: `sso-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`, name: 'SSO', type: 'boolean' })).body.id;
}

export const planFixtures: AreaFixtures = {
  resources: {
    '/v1/plans/{id}': async (client) => (await planOf(client)).id,
    '/v1/plan-versions/{id}': async (client) => (await planOf(client)).versionId,
    '/v1/plan-migrations/{id}': async (client) => {
      const plan = await planOf(client);
      return (await client.post(`/v1/plans/${plan.id}/migrations`, { to_version_id: plan.versionId })).body.id;
    },
    '/v1/features/{id}': featureOf,
    '/v1/customers/{id}/entitlements/{featureId}': async (client) => {
      const customer = (await client.post('/v1/customers', { name: 'Owner’s customer' })).body.id as string;
      const featureId = await featureOf(client);
      await client.put(`/v1/customers/${customer}/entitlements/${featureId}`, { value: true });
      return { params: { id: customer, featureId }, read: `/v1/customers/${customer}/entitlements` };
    },
  },
  bodies: {
    createPlan: { products: [{ product_id: 'prd_unknown', price_configuration_id: 'prc_unknown', quantity: 1 }], name: 'P', currency: 'EUR' },
    updatePlan: { name: 'Changed by another workspace' },
    createPlanVersion: { products: [{ product_id: 'prd_unknown', price_configuration_id: 'prc_unknown', quantity: 1 }] },
    previewPlanMigration: { to_version_id: 'plv_unknown' },
    createPlanMigration: { to_version_id: 'plv_unknown' },
    createFeature: { code: 'sso', name: 'SSO', type: 'boolean' },
    updateFeature: { name: 'Changed by another workspace' },
    overrideEntitlement: { value: false },
  },
};
