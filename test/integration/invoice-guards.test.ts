import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';
import { pricedProduct, subscribe } from '../support/subscriptions';

/** What an invoice refuses to start from or refer to, and what discarding a draft gives back. */
let api: TestApi;
let client: Client;

beforeAll(async () => {
  api = await startTestApi();
  client = await api.client();
  await withEntity(client);
});
afterAll(() => api.close());

const customer = async (c: Client = client) => (await c.post('/v1/customers', { name: 'Guarded', currency: 'EUR', billing_address: { country: 'FR' } })).body;
const line = [{ name: 'A', unit_amount: 1_000 }];

describe('discarding a draft releases its promotion code', () => {
  it('DELETE → closed gives the redemption back to the code and its coupon, in the same write', async () => {
    const coupon = (await client.post('/v1/coupons', { name: 'Once', type: 'percent', discount_percent: 10, redemption_limit: 1 })).body;
    const code = (await client.post('/v1/promotion-codes', { code: `ONCE${Date.now()}`, coupon_id: coupon.id, max_redemptions: 1 })).body;
    const buyer = await customer();
    const draft = (await client.post('/v1/invoices', { customer_id: buyer.id, promotion_code: code.code, line_items: line })).body;
    expect((await client.get(`/v1/promotion-codes/${code.id}`)).body.current_redemptions).toBe(1);
    expect((await client.delete(`/v1/invoices/${draft.id}`)).body.status).toBe('closed');
    expect((await client.get(`/v1/promotion-codes/${code.id}`)).body.current_redemptions).toBe(0);
    expect((await client.get(`/v1/coupons/${coupon.id}`)).body.redemption_count).toBe(0);
    const again = await client.post('/v1/invoices', { customer_id: buyer.id, promotion_code: code.code, line_items: line });
    expect([again.status, again.body.coupons?.[0]?.id]).toEqual([201, coupon.id]);
  });
});

describe('an archived customer is not billed anew', () => {
  it('refuses new invoices, quotes and subscriptions with 422 customer_archived, and accepts them again once unarchived', async () => {
    const buyer = await customer();
    expect((await client.put(`/v1/customers/${buyer.id}/archive`)).body.status).toBe('archived');
    const invoice = await client.post('/v1/invoices', { customer_id: buyer.id, line_items: line });
    expect([invoice.status, invoice.body.code]).toEqual([422, 'customer_archived']);
    expect(invoice.body.message).toMatch(/unarchive/);
    const fee = await pricedProduct(client, 'flat_fee');
    const quote = await client.post('/v1/quotes', { customer_id: buyer.id, type: 'one_off', line_items: [{ ...fee, quantity: 1 }] });
    expect([quote.status, quote.body.code]).toEqual([422, 'customer_archived']);
    await expect(subscribe(client, { customer_id: buyer.id, starts_at: new Date().toISOString(), products: [{ ...fee, quantity: 1 }] })).rejects.toMatchObject({ code: 'customer_archived' });
    await client.put(`/v1/customers/${buyer.id}/unarchive`);
    expect((await client.post('/v1/invoices', { customer_id: buyer.id, line_items: line })).status).toBe(201);
  });
});

describe('payment_method_id and bank_account_id are checked', () => {
  it('accepts only a saved payment method of the invoice\'s customer, on POST and PATCH', async () => {
    const buyer = await customer();
    const method = (await client.post(`/v1/customers/${buyer.id}/payment-methods`, { token: 'tok_visa' })).body;
    const other = await customer();
    const foreign = (await client.post(`/v1/customers/${other.id}/payment-methods`, { token: 'tok_visa' })).body;
    const elsewhere = await api.client();
    await withEntity(elsewhere);
    const stranger = await customer(elsewhere);
    const strangers = (await elsewhere.post(`/v1/customers/${stranger.id}/payment-methods`, { token: 'tok_visa' })).body;
    for (const id of ['pm_madeup', foreign.id, strangers.id]) {
      const created = await client.post('/v1/invoices', { customer_id: buyer.id, payment_method_id: id, line_items: line });
      expect([created.status, created.body.code]).toEqual([422, 'payment_method_not_found']);
    }
    const draft = (await client.post('/v1/invoices', { customer_id: buyer.id, payment_method_id: method.id, line_items: line })).body;
    expect(draft.payment_method_id).toBe(method.id);
    const patched = await client.patch(`/v1/invoices/${draft.id}`, { payment_method_id: strangers.id });
    expect([patched.status, patched.body.code]).toEqual([422, 'payment_method_not_found']);
    expect((await client.get(`/v1/invoices/${draft.id}`)).body.payment_method_id).toBe(method.id);
    expect((await client.patch(`/v1/invoices/${draft.id}`, { payment_method_id: null })).body.payment_method_id).toBeNull();
  });

  it('refuses a bank account id that names no bank account', async () => {
    const buyer = await customer();
    const created = await client.post('/v1/invoices', { customer_id: buyer.id, bank_account_id: 'bac_madeup', line_items: line });
    expect([created.status, created.body.code]).toEqual([422, 'bank_account_not_found']);
    const draft = (await client.post('/v1/invoices', { customer_id: buyer.id, line_items: line })).body;
    const patched = await client.patch(`/v1/invoices/${draft.id}`, { bank_account_id: 'bac_madeup' });
    expect([patched.status, patched.body.code]).toEqual([422, 'bank_account_not_found']);
    expect((await client.patch(`/v1/invoices/${draft.id}`, { bank_account_id: null })).status).toBe(200);
  });
});

describe('the seller on an invoice', () => {
  it('is named by its legal name, with the trade name as its own member', async () => {
    const own = await api.client();
    await withEntity(own, { name: 'Acme Holding SAS', trade_name: 'Acme' });
    const buyer = await customer(own);
    const invoice = (await own.post('/v1/invoices', { customer_id: buyer.id, line_items: line })).body;
    expect(invoice.seller).toMatchObject({ name: 'Acme Holding SAS', trade_name: 'Acme' });
    const plain = await api.client();
    await withEntity(plain, { name: 'Plain SARL' });
    const other = (await plain.post('/v1/invoices', { customer_id: (await customer(plain)).id, line_items: line })).body;
    expect(other.seller).toMatchObject({ name: 'Plain SARL', trade_name: null });
  });
});

describe('tax collection per invoicing entity', () => {
  it('a US seller invoicing a US customer: 422 that names the setting, which then invoices with not_eligible', async () => {
    const own = await api.client();
    const entity = await withEntity(own, { name: 'Acme Inc', country: 'US', currency: 'USD' });
    expect(entity.tax_collection_enabled).toBe(true);
    const buyer = (await own.post('/v1/customers', { name: 'Yankee', currency: 'USD', billing_address: { country: 'US' } })).body;
    const refused = await own.post('/v1/invoices', { customer_id: buyer.id, line_items: line });
    expect([refused.status, refused.body.code]).toEqual([422, 'tax_rate_unknown']);
    expect(refused.body.message).toContain(`PUT /v1/invoicing-entities/${entity.id}`);
    expect(refused.body.message).toContain('tax_collection_enabled');
    const updated = await own.put(`/v1/invoicing-entities/${entity.id}`, { tax_collection_enabled: false });
    expect([updated.status, updated.body.tax_collection_enabled]).toEqual([200, false]);
    const invoice = await own.post('/v1/invoices', { customer_id: buyer.id, line_items: line });
    expect([invoice.status, invoice.body.tax_scheme, invoice.body.tax_amount, invoice.body.total_amount]).toEqual([201, 'not_eligible', 0, 1_000]);
  });
});
