import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';

/** The payment method summary (billing-api.md): id, status, type, last_4_digits, expiration_date, brand — everywhere. */
let api: TestApi;
let client: Client;

beforeAll(async () => {
  api = await startTestApi();
  client = await api.client();
  await withEntity(client);
});
afterAll(() => api.close());

const customer = async () => (await client.post('/v1/customers', { name: 'Summarised', currency: 'EUR', billing_address: { country: 'FR' } })).body;
const toPay = async (customerId: string) =>
  (await client.post('/v1/invoices', { customer_id: customerId, status: 'to_pay', line_items: [{ name: 'A', unit_amount: 1_000 }] })).body;
const card = (id: string) => ({ id, status: 'active', type: 'card', last_4_digits: 4242, expiration_date: expect.stringMatching(/^\d{4}-(0[1-9]|1[0-2])$/), brand: 'visa' });
const plain = (type: string, id: string | null = null) => ({ id, status: null, type, last_4_digits: null, expiration_date: null, brand: null });

describe('payment method summary', () => {
  it('is complete on the customer and on a card charge, and a refund goes back the way the money came', async () => {
    const buyer = await customer();
    const method = (await client.post(`/v1/customers/${buyer.id}/payment-methods`, { token: 'tok_visa' })).body;
    expect((await client.get(`/v1/customers/${buyer.id}`)).body.current_payment_method).toEqual(card(method.id));
    const invoice = await toPay(buyer.id);
    const charged = (await client.post(`/v1/invoices/${invoice.id}/charge`, {})).body;
    expect(charged.transactions[0].payment_method).toEqual(card(method.id));
    const note = (await client.post(`/v1/invoices/${invoice.id}/credit-notes`, { amount: 500 })).body;
    expect(note.transactions[0]).toMatchObject({ type: 'refund', payment_method: card(method.id) });
    await client.delete(`/v1/customers/${buyer.id}/payment-methods/${method.id}`);
    expect((await client.get(`/v1/customers/${buyer.id}`)).body.current_payment_method).toBeNull();
  });

  it('names the type of a payment recorded by transfer, and its refund never says "payment_method"', async () => {
    const buyer = await customer();
    const invoice = await toPay(buyer.id);
    const paid = (await client.post(`/v1/invoices/${invoice.id}/transactions`, { amount: invoice.amount_due })).body;
    expect(paid.transactions[0].payment_method).toEqual(plain('transfer'));
    const note = (await client.post(`/v1/invoices/${invoice.id}/credit-notes`, { amount: 500, refund_method: 'payment_method' })).body;
    expect(note.transactions[0].payment_method).toEqual(plain('transfer'));
  });
});
