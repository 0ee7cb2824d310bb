import type { Client } from '../api';
import type { AreaFixtures } from './types';

/** A customer with a currency (an invoicing entity first, when the workspace has none) and a saved sandbox card. */
export async function paymentMethodOf(client: Client, token = 'tok_visa'): Promise<{ customerId: string; id: string }> {
  if ((await client.get('/v1/invoicing-entities?take=0')).body.meta.total === 0) {
    await client.post('/v1/invoicing-entities', { name: 'Acme', country: 'FR', currency: 'EUR' });
  }
  const customerId = (await client.post('/v1/customers', { name: 'Card holder', currency: 'EUR' })).body.id as string;
  const saved = await client.post(`/v1/customers/${customerId}/payment-methods`, { token });
  if (saved.status !== 201) throw new Error(`payment method creation failed: ${JSON.stringify(saved.body)}`);
  return { customerId, id: saved.body.id };
}

export const paymentMethodFixtures: AreaFixtures = {
  resources: {
    // `/v1/customers/{id}/payment-methods` is served by the customer fixture (`/v1/customers/{id}`).
    '/v1/customers/{id}/payment-methods/{pmId}': async (client) => {
      const { customerId, id } = await paymentMethodOf(client);
      return { params: { id: customerId, pmId: id }, read: `/v1/customers/${customerId}/payment-methods/${id}` };
    },
  },
  bodies: {
    createPaymentMethod: { token: 'tok_visa' },
  },
};
