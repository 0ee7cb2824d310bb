import { startTestApi, withEntity } from '../support/api';

type Transaction = { id: string; type: string; amount: number; reverted_by_transaction_id: string | null };
type Message = { payload: { event_type: string; data: Transaction } };

/**
 * `wallet.credited` / `wallet.debited` (also Hyperline's names, docs/hyperline.md): one message per wallet
 * transaction, through HTTP, the stream and GET /v1/webhooks/messages, with the transaction as the API lists it.
 */
describe('wallet events', () => {
  it('emits wallet.credited for each load and wallet.debited for a revert, once each', async () => {
    const api = await startTestApi({ events: true });
    try {
      const client = await api.client();
      await withEntity(client);
      const owner = (await client.post('/v1/customers', { name: 'Wallet owner', currency: 'EUR' })).body;
      const wallet = (await client.post('/v1/wallets', { customer_id: owner.id })).body;
      expect((await client.post(`/v1/wallets/${wallet.id}/load`, { type: 'free', amount: 1000 })).status).toBe(200);
      expect((await client.post(`/v1/wallets/${wallet.id}/load`, { type: 'free', amount: 500 })).status).toBe(200);
      const loads = (await client.get(`/v1/wallets/${wallet.id}/transactions?take=100`)).body.data as Transaction[];
      const first = loads.find((t) => t.amount === 1000)!;
      expect((await client.post(`/v1/wallets/${wallet.id}/transactions/${first.id}/revert`)).status).toBe(200);
      await api.events.settle();

      const ledger = (await client.get(`/v1/wallets/${wallet.id}/transactions?take=100`)).body.data as Transaction[];
      expect(ledger.map((t) => t.type).sort()).toEqual(['credit_free', 'credit_free', 'debit']);
      const messages = (await client.get('/v1/webhooks/messages?event_types=wallet.credited&event_types=wallet.debited')).body.data as Message[];
      const told = messages.map((m) => [m.payload.event_type, m.payload.data.id]).sort();
      expect(told).toEqual(ledger.map((t) => [t.type === 'debit' ? 'wallet.debited' : 'wallet.credited', t.id]).sort());
      // Each message holds the transaction as written: the revert's later mark on the first load emits nothing more.
      for (const transaction of ledger) {
        expect(messages.find((m) => m.payload.data.id === transaction.id)!.payload.data).toEqual({ ...transaction, reverted_by_transaction_id: null });
      }
    } finally {
      await api.close();
    }
  });
});
