import type { Client } from '../api';
import type { AreaFixtures } from './types';

/** A customer with a currency (an invoicing entity first, when the workspace has none) and its wallet. */
export async function walletOf(client: Client): Promise<{ id: string; customer_id: string }> {
  if ((await client.get('/v1/invoicing-entities?take=0')).body.meta.total === 0) {
    await client.post('/v1/invoicing-entities', { name: 'Acme', country: 'FR', currency: 'EUR' });
  }
  const customer = (await client.post('/v1/customers', { name: 'Wallet owner', currency: 'EUR' })).body;
  return (await client.post('/v1/wallets', { customer_id: customer.id })).body;
}

export const walletFixtures: AreaFixtures = {
  resources: {
    '/v1/wallets/{id}': async (client) => (await walletOf(client)).id,
    '/v1/wallets/{id}/transactions/{transactionId}': async (client) => {
      const wallet = await walletOf(client);
      await client.post(`/v1/wallets/${wallet.id}/load`, { type: 'free', amount: 1000 });
      const transaction = (await client.get(`/v1/wallets/${wallet.id}/transactions`)).body.data[0];
      return { params: { id: wallet.id, transactionId: transaction.id }, read: `/v1/wallets/${wallet.id}/transactions` };
    },
  },
  bodies: {
    createWallet: { customer_id: 'cus_unknown' },
    updateWallet: { state: 'paused' },
    loadWallet: { type: 'free', amount: 500 },
  },
};
