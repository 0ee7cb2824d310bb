import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';

/** What a Hyperline or Stripe user expects of the interface: output names accepted on input, inline prices, filters, sort. */

let api: TestApi;
let client: Client;

beforeAll(async () => {
  api = await startTestApi();
  client = await api.client();
  await withEntity(client, { name: 'Acme SAS', country: 'FR', currency: 'EUR' });
});
afterAll(() => api.close());

const customer = async (body: Record<string, unknown> = {}) =>
  (await client.post('/v1/customers', { name: 'Globex', currency: 'EUR', billing_address: { country: 'FR' }, ...body })).body;

const created = async (path: string, body: unknown) => {
  const reply = await client.post(path, body);
  expect([reply.status, reply.body.code]).toEqual([201, undefined]);
  return reply.body;
};

describe('invoice lines take the names they are read with', () => {
  it('accepts units_count, unit_amount and a per-line tax_rate, and reads them back the same', async () => {
    const buyer = await customer();
    const invoice = await created('/v1/invoices', {
      customer_id: buyer.id,
      line_items: [
        { name: 'Books', units_count: 3, unit_amount: 1_000, tax_rate: 5.5 },
        { name: 'Support', units_count: 1, unit_amount: 2_000 },
      ],
    });
    const [books, support] = invoice.line_items;
    expect(books).toMatchObject({ units_count: 3, unit_amount: 1_000, amount_excluding_tax: 3_000, tax_rate: 5.5, tax_amount: 165, amount: 3_165 });
    expect(support).toMatchObject({ units_count: 1, tax_rate: 20, tax_amount: 400 });
    expect(invoice).toMatchObject({ tax_amount: 565, total_amount: 5_565 });
    expect(books).not.toHaveProperty('own_tax_rate');

    // Re-pricing (a new invoice-wide rate) keeps the rate a line was given.
    const patched = await client.patch(`/v1/invoices/${invoice.id}`, { tax_rate: 10 });
    expect(patched.status).toBe(200);
    expect(patched.body.line_items.map((l: { tax_rate: number }) => l.tax_rate)).toEqual([5.5, 10]);
    expect(patched.body.tax_amount).toBe(165 + 200);
  });

  it('prices a line that names only a product from its one active price in the invoice currency', async () => {
    const buyer = await customer();
    const product = await created('/v1/products', {
      name: 'Seats', type: 'seat',
      price_configurations: [{ currency: 'EUR', type: 'volume', prices: [{ from: 0, to: null, amount: 1_200, unit_count: 1 }] }],
    });
    const invoice = await created('/v1/invoices', { customer_id: buyer.id, line_items: [{ product_id: product.id, units_count: 4 }] });
    expect(invoice.line_items[0]).toMatchObject({ entry_type: 'product', product_id: product.id, units_count: 4, amount_excluding_tax: 4_800 });
  });

  it('refuses a product with no price, or with several, in the invoice currency (422 naming what to give)', async () => {
    const buyer = await customer();
    const unpriced = await created('/v1/products', { name: 'Unpriced', type: 'flat_fee' });
    const none = await client.post('/v1/invoices', { customer_id: buyer.id, line_items: [{ product_id: unpriced.id }] });
    expect([none.status, none.body.code]).toEqual([422, 'price_not_found']);
    expect(none.body.message).toContain('unit_amount');

    const twice = await created('/v1/products', {
      name: 'Twice', type: 'flat_fee',
      price_configurations: [{ currency: 'EUR', type: 'fee', prices: [{ amount: 100 }] }, { currency: 'EUR', type: 'fee', prices: [{ amount: 200 }] }],
    });
    const ambiguous = await client.post('/v1/invoices', { customer_id: buyer.id, line_items: [{ product_id: twice.id }] });
    expect([ambiguous.status, ambiguous.body.code]).toEqual([422, 'price_ambiguous']);
    expect(ambiguous.body.message).toContain('price_configuration_id');
  });

  it('refuses units_count and quantity that disagree, and a tax rate with more than 4 decimals (400)', async () => {
    const buyer = await customer();
    const both = await client.post('/v1/invoices', { customer_id: buyer.id, line_items: [{ name: 'X', unit_amount: 1, units_count: 2, quantity: 3 }] });
    expect([both.status, both.body.errors?.[0]?.path]).toEqual([400, 'body.line_items.0.units_count']);
    const rate = await client.post('/v1/invoices', { customer_id: buyer.id, line_items: [{ name: 'X', unit_amount: 1, tax_rate: 5.123456 }] });
    expect([rate.status, rate.body.errors?.[0]?.path]).toEqual([400, 'body.line_items.0.tax_rate']);
  });
});

describe('POST /v1/products with price_configurations', () => {
  it('creates the product and its configurations in one request, embedded as GET shows them', async () => {
    const product = await created('/v1/products', {
      name: 'Platform', type: 'flat_fee',
      price_configurations: [
        { currency: 'EUR', type: 'fee', billing_interval: { period: 'months', count: 1 }, prices: [{ amount: 9_900 }] },
        { currency: 'USD', type: 'fee', prices: [{ amount: 10_900 }] },
      ],
    });
    expect(product.price_configurations).toHaveLength(2);
    expect(product.price_configurations[0]).toMatchObject({
      id: expect.stringMatching(/^prc_/), currency: 'EUR', type: 'fee', status: 'active', billing_interval: { period: 'months', count: 1 },
      prices: [{ id: expect.stringMatching(/^pri_/), amount: 9_900, type: 'fee' }],
    });
    expect((await client.get(`/v1/products/${product.id}`)).body).toEqual(product);
    const listed = await client.get(`/v1/price-configurations?product_id=${product.id}`);
    expect(listed.body.meta.total).toBe(2);
  });

  it('writes nothing when one configuration is wrong (400 naming it)', async () => {
    const before = (await client.get('/v1/products?take=0')).body.meta.total;
    const reply = await client.post('/v1/products', {
      name: 'Broken', type: 'flat_fee',
      price_configurations: [{ currency: 'EUR', type: 'fee', prices: [{ amount: 1 }] }, { currency: 'EUR', type: 'volume', prices: [{ from: 0, to: null, amount: 1, unit_count: 1 }] }],
    });
    expect([reply.status, reply.body.errors?.[0]?.path]).toEqual([400, 'body.price_configurations.1.type']);
    expect((await client.get('/v1/products?take=0')).body.meta.total).toBe(before);
  });

  it('refuses a price book that does not exist, writing nothing (422)', async () => {
    const before = (await client.get('/v1/price-configurations?take=0')).body.meta.total;
    const reply = await client.post('/v1/products', {
      name: 'Booked', type: 'flat_fee', price_configurations: [{ currency: 'EUR', type: 'fee', price_book_id: 'prib_missing', prices: [{ amount: 1 }] }],
    });
    expect([reply.status, reply.body.code]).toEqual([422, 'price_book_not_found']);
    expect((await client.get('/v1/price-configurations?take=0')).body.meta.total).toBe(before);
  });
});

describe('list filters and sort', () => {
  it("finds an invoice's credit notes and a customer's by billing_email", async () => {
    const buyer = await customer({ billing_email: 'ap@initech.test', external_id: 'crm-77' });
    const invoice = await created('/v1/invoices', { customer_id: buyer.id, status: 'to_pay', line_items: [{ name: 'Setup', unit_amount: 10_000 }] });
    const note = await created(`/v1/invoices/${invoice.id}/credit-notes`, { amount: 1_000 });
    const notes = await client.get(`/v1/invoices?original_invoice_id=${invoice.id}`);
    expect(notes.body.data.map((i: { id: string }) => i.id)).toEqual([note.id]);
    const typed = await client.get(`/v1/invoices?type=credit_note&customer_id=${buyer.id}`);
    expect(typed.body.data.map((i: { id: string }) => i.id)).toEqual([note.id]);

    const byEmail = await client.get('/v1/customers?billing_email=ap@initech.test');
    expect(byEmail.body.data.map((c: { id: string }) => c.id)).toEqual([buyer.id]);
    const byExternal = await client.get('/v1/customers?external_id=crm-77');
    expect(byExternal.body.data.map((c: { id: string }) => c.id)).toEqual([buyer.id]);
  });

  it('lists newest first with sort=-created_at, paging backwards from the newest', async () => {
    const own = await api.client();
    await withEntity(own, { name: 'Own SAS', country: 'FR', currency: 'EUR' });
    const ids: string[] = [];
    for (const name of ['first', 'second', 'third']) ids.push((await own.post('/v1/customers', { name })).body.id);
    expect(ids).toEqual([expect.stringMatching(/^cus_/), expect.stringMatching(/^cus_/), expect.stringMatching(/^cus_/)]);
    const oldest = await own.get('/v1/customers');
    expect(oldest.body.data.map((c: { id: string }) => c.id)).toEqual(ids);
    const newest = await own.get('/v1/customers?sort=-created_at&take=2');
    expect(newest.body.data.map((c: { id: string }) => c.id)).toEqual([ids[2], ids[1]]);
    expect(newest.body.meta.total).toBe(3);
    const next = await own.get('/v1/customers?sort=-created_at&take=2&skip=2');
    expect(next.body.data.map((c: { id: string }) => c.id)).toEqual([ids[0]]);
    const filtered = await own.get('/v1/customers?sort=-created_at&name__contains=i');
    expect(filtered.body.data.map((c: { id: string }) => c.id)).toEqual([ids[2], ids[0]]);
    expect((await own.get('/v1/customers?sort=name')).status).toBe(400);
  });
});
