import type { Client } from '../api';
import { pricedProduct, subscribe, subscriber } from '../subscriptions';
import type { AreaFixtures } from './types';

/** An active monthly subscription of one flat fee (written like a signed quote writes it). */
export async function subscriptionOf(client: Client): Promise<string> {
  const customer = await subscriber(client);
  const fee = await pricedProduct(client, 'flat_fee');
  return (await subscribe(client, { customer_id: customer.id, starts_at: new Date().toISOString(), products: [{ ...fee, quantity: 1 }] })).id;
}

export const subscriptionFixtures: AreaFixtures = {
  resources: {
    '/v2/subscriptions/{id}': subscriptionOf,
    '/v1/subscriptions/{id}': async (client) => {
      const id = await subscriptionOf(client);
      return { params: { id }, read: `/v2/subscriptions/${id}` };
    },
  },
  bodies: {
    cancelSubscription: { mode: 'immediately' },
    createSubscription: { products: [{ product_id: 'prd_unknown', price_configuration_id: 'prc_unknown', quantity: 1 }], customer_id: 'cus_unknown' },
    updateSubscription: { products: [{ product_id: 'prd_unknown', price_configuration_id: 'prc_unknown', quantity: 1 }] },
    previewSubscription: { products: [{ product_id: 'prd_unknown', price_configuration_id: 'prc_unknown', quantity: 1 }], customer_id: 'cus_unknown' },
    previewSubscriptionChange: { products: [{ product_id: 'prd_unknown', price_configuration_id: 'prc_unknown', quantity: 1 }] },
    pauseSubscription: { billing: 'none' },
    resumeSubscription: { proration_behavior: 'none' },
  },
};
