import type { Client } from '../api';
import type { AreaFixtures } from './types';

/** A customer holding a balance of a credit product (one top-up), for the routes under `/credits/{productId}`. */
export async function creditBalanceOf(client: Client, credits = 100): Promise<{ customerId: string; productId: string }> {
  const customerId = (await client.post('/v1/customers', { name: 'Credit holder' })).body.id as string;
  const productId = (await client.post('/v1/products', { name: 'API credits', type: 'credit' })).body.id as string;
  const topup = await client.post(`/v1/customers/${customerId}/credits/${productId}/topup`, { credit_count: credits });
  if (topup.status !== 201) throw new Error(`top-up failed: ${JSON.stringify(topup.body)}`);
  return { customerId, productId };
}

export const creditFixtures: AreaFixtures = {
  resources: {
    // `/v1/customers/{id}/credits` is served by the customer fixture (`/v1/customers/{id}`).
    '/v1/customers/{id}/credits/{productId}': async (client) => {
      const { customerId, productId } = await creditBalanceOf(client);
      return { params: { id: customerId, productId }, read: `/v1/customers/${customerId}/credits/${productId}/transactions` };
    },
  },
  bodies: {
    topupCustomerCredits: { credit_count: 10 },
    createCustomerCreditsUsage: { usage_retained: 1 },
  },
  queries: { listCreditBalances: '?customer_id=cus_matrix' },
};
