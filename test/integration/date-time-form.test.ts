import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';

/** Every date-time the API returns has the documented form, 2026-01-31T12:00:00.000Z, whatever form it was given in. */
let api: TestApi;
let client: Client;

beforeAll(async () => {
  api = await startTestApi();
  client = await api.client();
  await withEntity(client);
});
afterAll(() => api.close());

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const customer = async () => (await client.post('/v1/customers', { name: 'Dated', currency: 'EUR', billing_address: { country: 'FR' } })).body;

describe('date-time form', () => {
  it('stores and returns auto_load_next_date with milliseconds in UTC', async () => {
    const wallet = (await client.post('/v1/wallets', { customer_id: (await customer()).id })).body;
    const updated = await client.put(`/v1/wallets/${wallet.id}`, {
      is_auto_load_enabled: true, auto_load_type: 'free', auto_load_amount: 1_000, auto_load_next_date: '2030-01-01T01:00:00+01:00', auto_load_interval: { period: 'months', count: 1 },
    });
    expect([updated.status, updated.body.code]).toEqual([200, undefined]);
    expect(updated.body.auto_load_next_date).toBe('2030-01-01T00:00:00.000Z');
    expect((await client.get(`/v1/wallets/${wallet.id}`)).body.auto_load_next_date).toMatch(ISO_MS);
  });

  it('normalises the dates given to an invoice, its lines and its payments', async () => {
    const invoice = (await client.post('/v1/invoices', {
      customer_id: (await customer()).id, emitted_at: '2030-02-01T10:00:00Z', due_at: '2030-03-01T10:00:00.5+02:00', period_starts_at: '2030-02-01T00:00:00Z',
      line_items: [{ name: 'A', unit_amount: 100, period_starts_at: '2030-02-01T00:00:00Z', period_ends_at: '2030-02-28T00:00:00Z' }],
    })).body;
    expect([invoice.emitted_at, invoice.due_at, invoice.period_starts_at]).toEqual(['2030-02-01T10:00:00.000Z', '2030-03-01T08:00:00.500Z', '2030-02-01T00:00:00.000Z']);
    expect([invoice.line_items[0].period_starts_at, invoice.line_items[0].period_ends_at]).toEqual(['2030-02-01T00:00:00.000Z', '2030-02-28T00:00:00.000Z']);
    await client.post(`/v1/invoices/${invoice.id}/validate`);
    const paid = (await client.post(`/v1/invoices/${invoice.id}/transactions`, { amount: 10, process_at: '2030-02-02T00:00:00Z' })).body;
    expect(paid.transactions[0].process_at).toBe('2030-02-02T00:00:00.000Z');
  });
});
