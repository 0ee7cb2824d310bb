import { makeCtx } from '../../shared/context';
import { transactWrite } from '../../shared/db/transactions';
import { currencyLockItem } from '../../shared/domain/customers/currency-lock';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';

/**
 * Wallets, invoices and payment methods (later issues) lock the customer's currency by putting
 * currencyLockItem in their own transaction; here it is put on its own, as they will.
 */
let api: TestApi;
let client: Client;
beforeAll(async () => {
  api = await startTestApi();
  client = await api.client();
  await withEntity(client);
});
afterAll(() => api.close());

const lock = (customerId: string, reason: 'wallet' | 'invoice' | 'payment_method', currency: string) =>
  transactWrite([currencyLockItem(makeCtx(client.workspace, 'test'), customerId, reason, currency)]);

describe('currency lock', () => {
  it('refuses a currency change once locked, with 422 currency_locked, and changes nothing', async () => {
    const customer = (await client.post('/v1/customers', { name: 'Locked', currency: 'EUR' })).body;
    await lock(customer.id, 'wallet', 'EUR');
    const reply = await client.put(`/v1/customers/${customer.id}`, { currency: 'USD', name: 'Renamed' });
    expect(reply.status).toBe(422);
    expect(reply.body.code).toBe('currency_locked');
    expect((await client.get(`/v1/customers/${customer.id}`)).body).toMatchObject({ currency: 'EUR', name: 'Locked' });
    const same = await client.put(`/v1/customers/${customer.id}`, { currency: 'EUR', name: 'Renamed' });
    expect(same.status).toBe(200);
    expect((await client.put(`/v1/customers/${customer.id}`, { currency: null })).status).toBe(422);
  });

  it('cannot lock a currency the customer does not have', async () => {
    const customer = (await client.post('/v1/customers', { name: 'C', currency: 'EUR' })).body;
    await expect(lock(customer.id, 'invoice', 'USD')).rejects.toThrow();
  });

  it('never lets a currency change and a lock both win a race', async () => {
    for (let round = 0; round < 5; round++) {
      const customer = (await client.post('/v1/customers', { name: `Race ${round}`, currency: 'EUR' })).body;
      const [change, locked] = await Promise.allSettled([
        client.put(`/v1/customers/${customer.id}`, { currency: 'USD' }),
        lock(customer.id, 'payment_method', 'EUR'),
      ]);
      const changed = change.status === 'fulfilled' && change.value.status === 200;
      const lockWon = locked.status === 'fulfilled';
      expect(changed && lockWon).toBe(false);
      const final = (await client.get(`/v1/customers/${customer.id}`)).body;
      expect(final.currency).toBe(changed ? 'USD' : 'EUR');
    }
  });
});
