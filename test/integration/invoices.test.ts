import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';

let api: TestApi;
let client: Client;

beforeAll(async () => {
  api = await startTestApi();
  client = await api.client();
  await withEntity(client, { name: 'Acme SAS', country: 'FR', currency: 'EUR', tax_id: 'FR40303265045', invoice_footer: 'Acme SAS, 1 rue de Paris' });
});
afterAll(() => api.close());

const customer = async (body: Record<string, unknown> = {}) =>
  (await client.post('/v1/customers', { name: 'Globex', currency: 'EUR', billing_address: { country: 'FR', city: 'Lyon' }, billing_email: 'ap@globex.test', ...body })).body;
const product = async (body: Record<string, unknown> = {}) => (await client.post('/v1/products', { name: 'Platform fee', type: 'flat_fee', ...body })).body;
const feePrice = async (productId: string, amount: number, body: Record<string, unknown> = {}) =>
  (await client.post('/v1/price-configurations', { product_id: productId, currency: 'EUR', type: 'fee', prices: [{ amount }], ...body })).body;
const invoice = async (body: Record<string, unknown>) => {
  const reply = await client.post('/v1/invoices', body);
  expect([reply.status, reply.body.code]).toEqual([201, undefined]);
  return reply.body;
};

describe('POST /v1/invoices', () => {
  it('prices catalog and custom lines, taxes each line half-up and snapshots seller and customer', async () => {
    const buyer = await customer();
    const fee = await product();
    const config = await feePrice(fee.id, 4_999, { billing_interval: { period: 'months', count: 1 } });
    const created = await invoice({
      customer_id: buyer.id,
      line_items: [
        { price_configuration_id: config.id, quantity: 3 },
        { name: 'Onboarding', unit_amount: 12_345 },
        { name: 'Stickers', unit_amount: 10, quantity: 1 },
      ],
      purchase_order: 'PO-7',
      properties: { crm: 'x1' },
    });
    expect(created).toMatchObject({
      id: expect.stringMatching(/^inv_/), number: null, type: 'invoice', status: 'draft', currency: 'EUR', source: 'api', customer_id: buyer.id,
      tax_scheme: 'standard', tax_rate: 20, purchase_order: 'PO-7', properties: { crm: 'x1' }, amount_paid: 0, transactions: [], coupons: [],
      customer: { id: buyer.id, name: 'Globex', email: 'ap@globex.test', address: expect.objectContaining({ country: 'FR', city: 'Lyon' }) },
      seller: { name: 'Acme SAS', tax_id: 'FR40303265045', address: expect.objectContaining({ country: 'FR' }) },
      footer: 'Acme SAS, 1 rue de Paris', public_url: expect.stringMatching(/\/pages\/invoices\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/),
    });
    const [platform, onboarding, stickers] = created.line_items;
    expect(platform).toMatchObject({
      id: expect.stringMatching(/^ili_/), entry_type: 'product', product_id: fee.id, product_type: 'flat_fee', name: 'Platform fee', units_count: 3,
      unit_amount: 4_999, amount_excluding_tax: 14_997, tax_rate: 20, tax_amount: 2_999, amount: 17_996, revenue_type: 'recurring',
      revenue_interval_count: 1, revenue_interval_period: 'months',
    });
    expect(onboarding).toMatchObject({ entry_type: 'custom', product_id: null, amount_excluding_tax: 12_345, tax_amount: 2_469, amount: 14_814 });
    expect(stickers).toMatchObject({ amount_excluding_tax: 10, tax_amount: 2, amount: 12 });
    expect(created).toMatchObject({
      amount_excluding_tax: 27_352, tax_amount: 5_470, total_amount: 32_822, amount_due: 32_822, discount_amount: 0, amount_fixed: 17_996,
    });
    expect((await client.get(`/v1/invoices/${created.id}`)).body).toEqual(created);
  });

  it('creates a to_pay invoice numbered at once, with due_at from the payment delay', async () => {
    const buyer = await customer({ custom_payment_delay: 15 });
    const created = await invoice({ customer_id: buyer.id, status: 'to_pay', line_items: [{ name: 'Audit', unit_amount: 50_000 }] });
    expect(created).toMatchObject({ status: 'to_pay', number: expect.stringMatching(/^INV-\d+$/), grace_period_ended_at: null });
    expect(Date.parse(created.due_at) - Date.parse(created.emitted_at)).toBe(15 * 86_400_000);
  });

  it('applies tax schemes: reverse charge, exempt, manual rate and the customer custom rate', async () => {
    const line = [{ name: 'Service', unit_amount: 1_000 }];
    const business = await customer({ type: 'corporate', billing_address: { country: 'DE' }, tax_ids: [{ value: 'DE123456789' }] });
    expect(await invoice({ customer_id: business.id, line_items: line })).toMatchObject({ tax_scheme: 'reverse_charge', tax_amount: 0, total_amount: 1_000 });
    const abroad = await customer({ billing_address: { country: 'US' }, currency: 'EUR' });
    expect(await invoice({ customer_id: abroad.id, line_items: line })).toMatchObject({ tax_scheme: 'exempt', tax_amount: 0 });
    expect(await invoice({ customer_id: abroad.id, line_items: line, tax_rate: 8.5 })).toMatchObject({ tax_scheme: 'manual', tax_rate: 8.5, tax_amount: 85 });
    const custom = await customer({ tax_rate_custom: 5.5 });
    expect(await invoice({ customer_id: custom.id, line_items: line })).toMatchObject({ tax_scheme: 'manual', tax_amount: 55, total_amount: 1_055 });
  });

  it('applies coupons and promotion codes through the catalog, counting the redemption in the same write', async () => {
    const buyer = await customer();
    const fee = await product({ name: 'Seats' });
    const config = await feePrice(fee.id, 1_000);
    const percent = (await client.post('/v1/coupons', { name: 'Ten off', type: 'percent', discount_percent: 10 })).body;
    const amount = (await client.post('/v1/coupons', { name: 'Five euros', type: 'amount', discount_amount: 500, currency: 'EUR', redemption_limit: 5 })).body;
    const code = (await client.post('/v1/promotion-codes', { code: `WELCOME${Date.now()}`, coupon_id: amount.id, max_redemptions: 1 })).body;
    const created = await invoice({
      customer_id: buyer.id, coupon_ids: [percent.id], promotion_code: code.code.toLowerCase(),
      line_items: [{ price_configuration_id: config.id, quantity: 2 }, { name: 'Custom', unit_amount: 1_000 }],
    });
    // 10 % of 2,000 and of 1,000 → 200 + 100; then 500 spread over what is left (1,800 and 900) → 333 + 167.
    expect(created.coupons).toEqual([
      { id: percent.id, name: 'Ten off', discount_amount: 300, discount_percent: 10, line_item_ids: created.line_items.map((l: any) => l.id) },
      { id: amount.id, name: 'Five euros', discount_amount: 500, discount_percent: null, line_item_ids: created.line_items.map((l: any) => l.id) },
    ]);
    expect(created.line_items.map((l: any) => [l.discount_amount, l.amount_excluding_tax])).toEqual([[533, 1_467], [267, 733]]);
    expect(created).toMatchObject({ discount_amount: 800, amount_excluding_tax: 2_200, tax_amount: 440, total_amount: 2_640 });
    expect((await client.get(`/v1/promotion-codes/${code.id}`)).body.current_redemptions).toBe(1);
    const again = await client.post('/v1/invoices', { customer_id: buyer.id, promotion_code: code.code, line_items: [{ name: 'X', unit_amount: 100 }] });
    expect([again.status, again.body.code]).toEqual([422, 'promotion_code_not_applicable']);
    const usd = (await client.post('/v1/coupons', { name: 'Dollars', type: 'amount', discount_amount: 100, currency: 'USD' })).body;
    const wrong = await client.post('/v1/invoices', { customer_id: buyer.id, coupon_ids: [usd.id], line_items: [{ name: 'X', unit_amount: 100 }] });
    expect([wrong.status, wrong.body.code]).toEqual([422, 'coupon_not_applicable']);
  });

  it('refuses archived products, unknown customers, customers without currency and a foreign currency, writing nothing', async () => {
    const buyer = await customer();
    const fee = await product();
    const config = await feePrice(fee.id, 100);
    await client.put(`/v1/products/${fee.id}/archive`);
    const before = (await client.get('/v1/invoices?take=0')).body.meta.total;
    const archived = await client.post('/v1/invoices', { customer_id: buyer.id, line_items: [{ price_configuration_id: config.id }] });
    expect([archived.status, archived.body.code]).toEqual([422, 'product_archived']);
    const unknown = await client.post('/v1/invoices', { customer_id: 'cus_nope', line_items: [] });
    expect([unknown.status, unknown.body.code]).toEqual([422, 'customer_not_found']);
    const noCurrency = (await client.post('/v1/customers', { name: 'No currency' })).body;
    const missing = await client.post('/v1/invoices', { customer_id: noCurrency.id, line_items: [] });
    expect([missing.status, missing.body.code]).toEqual([422, 'customer_currency_missing']);
    const foreign = await client.post('/v1/invoices', { customer_id: buyer.id, currency: 'USD', line_items: [] });
    expect([foreign.status, foreign.body.code]).toEqual([422, 'currency_mismatch']);
    const bad = await client.post('/v1/invoices', { customer_id: buyer.id, line_items: [{ unit_amount: 5 }] });
    expect([bad.status, bad.body.errors?.[0]?.path]).toEqual([400, 'body.line_items.0.name']);
    expect((await client.get('/v1/invoices?take=0')).body.meta.total).toBe(before);
  });

  it('refuses an invoice too large to store with a 422, not a 500', async () => {
    const lines = Array.from({ length: 500 }, (_, i) => ({ name: `Line ${i}`, description: 'x'.repeat(1_000), unit_amount: 1 }));
    const reply = await client.post('/v1/invoices', { customer_id: (await customer()).id, line_items: lines });
    expect([reply.status, reply.body.code]).toEqual([422, 'invoice_too_large']);
  });

  it('locks the customer currency', async () => {
    const buyer = await customer();
    await invoice({ customer_id: buyer.id, line_items: [] });
    const change = await client.put(`/v1/customers/${buyer.id}`, { currency: 'USD' });
    expect([change.status, change.body.code]).toEqual([422, 'currency_locked']);
  });
});

describe('invoice status moves', () => {
  it('validates a draft into to_pay with the next number, and refuses moves not in the table (409)', async () => {
    const buyer = await customer();
    const draft = await invoice({ customer_id: buyer.id, line_items: [{ name: 'Work', unit_amount: 700 }] });
    const paid = await client.post(`/v1/invoices/${draft.id}/uncollectible`);
    expect([paid.status, paid.body.code]).toEqual([409, 'invalid_state_transition']);
    const validated = await client.post(`/v1/invoices/${draft.id}/validate`);
    expect(validated.status).toBe(200);
    expect(validated.body).toMatchObject({ status: 'to_pay', number: expect.stringMatching(/^INV-\d+$/) });
    const twice = await client.post(`/v1/invoices/${draft.id}/validate`);
    expect([twice.status, twice.body.code]).toEqual([409, 'invalid_state_transition']);
    expect((await client.delete(`/v1/invoices/${draft.id}`)).status).toBe(409);
    const bad = await client.post(`/v1/invoices/${draft.id}/uncollectible`);
    expect([bad.status, bad.body.status]).toEqual([200, 'uncollectible']);
  });

  it('discards a draft with DELETE (closed, unnumbered)', async () => {
    const draft = await invoice({ customer_id: (await customer()).id, line_items: [] });
    const closed = await client.delete(`/v1/invoices/${draft.id}`);
    expect(closed.body).toMatchObject({ status: 'closed', number: null });
    expect((await client.post(`/v1/invoices/${draft.id}/validate`)).status).toBe(409);
  });

  it('edits lines and dates in draft, only metadata once issued', async () => {
    const buyer = await customer();
    const draft = await invoice({ customer_id: buyer.id, coupon_ids: [(await client.post('/v1/coupons', { name: 'Half', type: 'percent', discount_percent: 50 })).body.id], line_items: [{ name: 'A', unit_amount: 1_000 }] });
    const edited = await client.patch(`/v1/invoices/${draft.id}`, { line_items: [{ name: 'B', unit_amount: 3_000, quantity: 2 }], due_at: '2030-01-31T00:00:00.000Z', custom_note: 'Hi' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ custom_note: 'Hi', due_at: '2030-01-31T00:00:00.000Z', discount_amount: 3_000, amount_excluding_tax: 3_000, total_amount: 3_600 });
    expect(edited.body.line_items).toHaveLength(1);
    const issued = (await client.post(`/v1/invoices/${draft.id}/validate`)).body;
    expect(issued.due_at).toBe('2030-01-31T00:00:00.000Z');
    const refused = await client.patch(`/v1/invoices/${draft.id}`, { line_items: [] });
    expect([refused.status, refused.body.code]).toEqual([409, 'invoice_not_editable']);
    const metadata = await client.patch(`/v1/invoices/${draft.id}`, { properties: { synced: true } });
    expect([metadata.status, metadata.body.properties, metadata.body.total_amount]).toEqual([200, { synced: true }, 3_600]);
  });

  it('enters grace_period when the entity has one', async () => {
    const other = await api.client();
    await withEntity(other, { invoice_grace_period_duration: 3 });
    const buyer = (await other.post('/v1/customers', { name: 'G', currency: 'EUR' })).body;
    const draft = (await other.post('/v1/invoices', { customer_id: buyer.id, line_items: [{ name: 'A', unit_amount: 100 }] })).body;
    const validated = (await other.post(`/v1/invoices/${draft.id}/validate`)).body;
    expect(validated.status).toBe('grace_period');
    expect(Date.parse(validated.grace_period_ended_at) - Date.parse(validated.emitted_at)).toBe(3 * 86_400_000);
  });
});

describe('GET /v1/invoices', () => {
  it('filters by status, customer, type and date ranges', async () => {
    const buyer = await customer();
    const a = await invoice({ customer_id: buyer.id, line_items: [], emitted_at: '2026-01-10T00:00:00.000Z' });
    const b = await invoice({ customer_id: buyer.id, status: 'to_pay', line_items: [], emitted_at: '2026-02-10T00:00:00.000Z' });
    const c = await invoice({ customer_id: buyer.id, type: 'document', line_items: [], emitted_at: '2026-03-10T00:00:00.000Z' });
    const ids = async (query: string) => (await client.get(`/v1/invoices?customer_id=${buyer.id}&${query}`)).body.data.map((i: any) => i.id);
    expect(await ids('')).toEqual([a.id, b.id, c.id]);
    expect(await ids('status=to_pay')).toEqual([b.id]);
    expect(await ids('status__in=draft,to_pay')).toEqual([a.id, b.id, c.id]);
    expect(await ids('type=document')).toEqual([c.id]);
    expect(await ids('emitted_at__gte=2026-02-01&emitted_at__lt=2026-03-01')).toEqual([b.id]);
    expect(await ids(`due_at__gt=${encodeURIComponent(b.due_at)}`)).toEqual([c.id]);
    expect((await client.get('/v1/invoices?statuss=draft')).status).toBe(400);
  });
});
