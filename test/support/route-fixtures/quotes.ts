import type { Client } from '../api';
import type { AreaFixtures } from './types';

/**
 * A customer of `currency` (an invoicing entity first, when the workspace has none), a product and its price, and a
 * quote of one line of that price, in draft unless `body` says otherwise. The price is monthly and committed for a
 * year unless `price` says otherwise (a subscription needs a recurring price).
 */
export async function quoteOf(
  client: Client,
  body: Record<string, unknown> = {},
  price: Record<string, unknown> = {},
): Promise<{ id: string; customer_id: string; line_items: { product_id: string; price_configuration_id: string }[] } & Record<string, any>> {
  if ((await client.get('/v1/invoicing-entities?take=0')).body.meta.total === 0) {
    await client.post('/v1/invoicing-entities', { name: 'Acme', country: 'FR', currency: 'EUR' });
  }
  const customer = (await client.post('/v1/customers', { name: 'Quoted', currency: 'EUR', billing_address: { country: 'FR' } })).body;
  const product = (await client.post('/v1/products', { name: 'Platform', type: 'flat_fee' })).body;
  const configuration = (
    await client.post('/v1/price-configurations', {
      product_id: product.id, currency: 'EUR', type: 'fee', prices: [{ amount: 10_000 }],
      billing_interval: { period: 'months', count: 1 }, commitment_interval: { period: 'years', count: 1 }, ...price,
    })
  ).body;
  const reply = await client.post('/v1/quotes', {
    customer_id: customer.id, type: 'subscription', line_items: [{ product_id: product.id, price_configuration_id: configuration.id, quantity: 1 }], ...body,
  });
  if (reply.status !== 201) throw new Error(`quote creation failed: ${JSON.stringify(reply.body)}`);
  return reply.body;
}

export const quoteFixtures: AreaFixtures = {
  resources: {
    '/v1/quotes/{id}': async (client) => (await quoteOf(client)).id,
  },
  bodies: {
    createQuote: { customer_id: 'cus_unknown', type: 'one_off', line_items: [{ price_configuration_id: 'prc_unknown', quantity: 1 }] },
    updateQuote: { comments: 'Thanks for your trust' },
    sendQuote: { email: 'buyer@example.com', message: 'Here is our offer' },
    signQuote: { signer_name: 'Jane Buyer' },
    voidQuote: { reason: 'Lost the deal' },
  },
};
