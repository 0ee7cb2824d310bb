import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { routes } from '../../functions/routes';
import { startTestApi, type Client, type TestApi } from '../support/api';
import { pricedProduct, subscribe, subscriber } from '../support/subscriptions';

/**
 * Issue 36's done-when: the request examples of Hyperline's API reference (test/fixtures/hyperline/, each with its
 * source address) replayed through HTTP are accepted, and each answer holds the members Hyperline documents for it,
 * with the documented types and enums.
 */
interface Member { type: string | string[]; enum?: string[] }
interface Example { name: string; path?: Record<string, string>; query?: string; body?: Record<string, unknown> | unknown[]; expect?: Record<string, unknown> }
interface Fixture {
  route: string; ours: string; setup: string[]; examples: Example[];
  /** `item_members`: those of each item of a `{meta, data}` list or of a bare array; `content_type`: a file (a PDF), not JSON members. */
  response: { status: number; members?: Record<string, Member>; item_members?: Record<string, Member>; content_type?: string };
}

const dir = 'test/fixtures/hyperline';
const fixtures = readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => ({ file: f, ...JSON.parse(readFileSync(join(dir, f), 'utf8')) }))
  .filter((f): f is Fixture & { file: string } => typeof f.route === 'string');

let api: TestApi;
let client: Client;

beforeAll(async () => {
  // With the event pipeline: the message log (list-webhook-messages.json) is written by it.
  api = await startTestApi({ events: true });
  client = await api.client();
});
afterAll(() => api.close());

/** What an example's `{placeholders}` name, made fresh for each example (a cancelled subscription is not reusable). */
async function world(needs: string[]): Promise<Record<string, string>> {
  const customer = await subscriber(client) as { id: string; invoicing_entity_id: string };
  const values: Record<string, string> = { customer_id: customer.id, invoicing_entity_id: customer.invoicing_entity_id };
  if (needs.includes('product')) Object.assign(values, await pricedProduct(client, 'flat_fee'));
  if (needs.includes('archived_customer')) expect((await client.put(`/v1/customers/${customer.id}/archive`)).status).toBe(200);
  if (needs.includes('wallet')) values.wallet_id = (await client.post('/v1/wallets', { customer_id: customer.id })).body.id;
  if (needs.some((n) => n.endsWith('subscription'))) {
    const fee = await pricedProduct(client, 'flat_fee');
    values.subscription_id = (await subscribe(client, { customer_id: customer.id, starts_at: new Date().toISOString(), products: [{ ...fee, quantity: 1 }] })).id;
  }
  if (needs.includes('hyperline_product')) values.hyperline_product_id = await hyperlineProduct();
  if (needs.includes('credit')) {
    values.credit_product_id = (await client.post('/v1/products', { name: 'API credits', type: 'credit' })).body.id;
    expect((await client.post(`/v1/customers/${customer.id}/credits/${values.credit_product_id}/topup`, { credit_count: 100 })).status).toBe(201);
  }
  if (needs.includes('coupon')) values.coupon_id = (await client.post('/v1/coupons', { name: 'Partner', type: 'amount', discount_amount: 100, currency: 'EUR', repeat: 'once' })).body.id;
  if (needs.includes('hyperline_coupon')) values.coupon_id = (await client.post('/v1/coupons', { name: 'Partner discount', type: 'amount', discount_amount: 2000, currency: 'EUR', repeat: 'once' })).body.id;
  if (needs.includes('price_configuration')) values.price_configuration_id = (await pricedProduct(client, 'flat_fee')).price_configuration_id;
  if (needs.includes('payment_method')) values.payment_method_id = (await client.post(`/v1/customers/${customer.id}/payment-methods`, { token: 'tok_visa' })).body.id;
  if (needs.includes('promotion_code')) {
    values.coupon_id = (await client.post('/v1/coupons', { name: 'Partner', type: 'amount', discount_amount: 100, currency: 'EUR', repeat: 'once' })).body.id;
    values.promotion_code_id = (await client.post('/v1/promotion-codes', { code: `P-${customer.id}`, coupon_id: values.coupon_id })).body.id;
  }
  if (needs.includes('price_book')) expect((await client.post('/v1/price-books', { name: 'Enterprise pricing' })).status).toBe(201);
  if (needs.includes('hyperline_aggregator')) values.aggregator_id = (await client.post('/v1/aggregators', { entity: 'api_calls', operation: 'count', name: 'API calls', where: { conditional: 'and', fields: [{ property: 'user_id', operator: 'isNull' }] } })).body.id;
  if (needs.includes('aggregator')) values.aggregator_id = (await client.post('/v1/aggregators', { name: 'API calls', event_type: 'api_call', operation: 'count', unit_name: 'call' })).body.id;
  values.start_date = new Date(Date.now() - 86_400_000).toISOString();
  values.end_date = new Date(Date.now() + 60_000).toISOString();
  if (needs.includes('invoice')) {
    const invoice = await client.post('/v1/invoices', { customer_id: customer.id, line_items: [{ name: 'Setup', unit_amount: 100, units_count: 1 }] });
    expect(invoice.status).toBe(201);
    values.invoice_id = invoice.body.id;
  }
  if (needs.includes('issued_invoice')) {
    const invoice = await client.post('/v1/invoices', { customer_id: customer.id, status: 'to_pay', line_items: [{ name: 'Audit', unit_amount: 100_000, units_count: 1, tax_rate: 0 }] });
    expect(invoice.status).toBe(201);
    values.invoice_id = invoice.body.id;
  }
  if (needs.includes('loaded_wallet')) {
    values.wallet_id = (await client.post('/v1/wallets', { customer_id: customer.id })).body.id;
    expect((await client.post(`/v1/wallets/${values.wallet_id}/load`, { amount_free: 2000 })).status).toBe(200);
  }
  values.now = new Date().toISOString();
  values.next_month = new Date(Date.now() + 30 * 86_400_000).toISOString();
  if (needs.includes('event')) {
    const event = { customer_id: customer.id, event_type: 'api_call', timestamp: new Date().toISOString(), record: { id: `evt-${customer.id}`, units: 1 } };
    expect((await client.post('/v1/events', event)).status).toBe(201);
  }
  if (needs.includes('quote')) {
    const { price_configuration_id } = await pricedProduct(client, 'flat_fee');
    const quote = await client.post('/v1/quotes', { customer_id: customer.id, type: 'subscription', line_items: [{ price_configuration_id, quantity: 1 }] });
    expect(quote.status).toBe(201);
    values.quote_id = quote.body.id;
  }
  if (needs.includes('invoicing_entity')) values.invoicing_entity_id = (await client.post('/v1/invoicing-entities', { name: 'To update', country: 'FR', currency: 'EUR' })).body.id;
  if (needs.includes('card')) values.payment_method_id = (await client.post(`/v1/customers/${customer.id}/payment-methods`, { token: 'tok_visa' })).body.id;
  if (needs.includes('webhook_endpoint')) values.webhook_endpoint_id = (await client.post('/v1/webhooks/endpoints', { url: 'https://example.com/webhook', rate_limit: 123 })).body.id;
  // The customer's customer.created message, logged once the event pipeline has run.
  if (needs.includes('messages')) await api.events.settle();
  if (needs.includes('paused_subscription')) expect((await client.post(`/v1/subscriptions/${values.subscription_id}/pause`, {})).status).toBe(200);
  return values;
}

/** The product of Hyperline's create-subscription example: seats at its volume prices, monthly, in EUR. */
async function hyperlineProduct(extra: Record<string, unknown> = {}): Promise<string> {
  const product = (await client.post('/v1/products', { name: 'Product name', type: 'seat', ...extra })).body.id;
  const configuration = await client.post('/v1/price-configurations', {
    product_id: product, currency: 'EUR', billing_interval: { period: 'months', count: 1 }, type: 'volume',
    prices: [{ from: 0, to: 20, amount: 200, unit_count: 1, on_tier_incomplete: 'pro_rata' }, { from: 21, to: null, amount: 150, unit_count: 1, on_tier_incomplete: 'pro_rata' }],
  });
  expect(configuration.status).toBe(201);
  return product;
}

const filled = (value: unknown, values: Record<string, string>): any => JSON.parse(JSON.stringify(value ?? null).replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? `{${name}}`));

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (Number.isInteger(value)) return 'integer';
  return typeof value;
}

function expectDocumentedMembers(body: Record<string, unknown>, members: Record<string, Member>) {
  for (const [name, member] of Object.entries(members)) {
    expect({ name, present: name in body }).toEqual({ name, present: true });
    const types = [member.type].flat();
    expect({ name, type: types.includes(typeOf(body[name])) || (types.includes('number') && typeof body[name] === 'number') }).toEqual({ name, type: true });
    if (member.enum && body[name] !== null) expect(member.enum).toContain(body[name]);
  }
}

describe.each(fixtures)('$file: $route', (fixture) => {
  it('names a route of this API', () => {
    const [method, path] = fixture.route.split(' ');
    expect(routes.find((r) => r.id === fixture.ours)).toMatchObject({ method, path });
  });

  it.each(fixture.examples)('accepts "$name" and answers with the documented members', async (example) => {
    const values = await world(fixture.setup);
    const path = fixture.route.split(' ')[1]!.replace(/\{(\w+)\}/g, (_, name: string) => filled(example.path?.[name], values));
    const method = fixture.route.split(' ')[0]!.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    const reply = method === 'get' || method === 'delete' ? await client[method](path + filled(example.query ?? '', values)) : await client[method](path, example.body === undefined ? undefined : filled(example.body, values));
    expect({ status: reply.status, body: reply.body }).toMatchObject({ status: fixture.response.status });
    if (fixture.response.content_type) expect(reply.headers.get('content-type')).toContain(fixture.response.content_type);
    expectDocumentedMembers(reply.body, fixture.response.members ?? {});
    if (fixture.response.item_members) {
      // A `{meta, data}` list, or a bare array (customer usage).
      const items = Array.isArray(reply.body) ? reply.body : reply.body.data;
      expect(items.length).toBeGreaterThan(0);
      for (const item of items) expectDocumentedMembers(item, fixture.response.item_members);
    }
    if (example.expect) expect(reply.body).toMatchObject(filled(example.expect, values));
  });
});

describe('the meanings behind the names', () => {
  it('an imported paid invoice keeps its number as reference, is paid at settled_at, and its lines keep their periods', async () => {
    const { customer_id } = await world([]);
    const reply = await client.post('/v1/invoices', {
      customer_id, status: 'paid', number: 'OLD-7', payment_method_strategy: 'external', settled_at: '2024-01-10T10:00:00Z',
      line_items: [{ name: 'Audit', units_count: 1, unit_amount: 1000, tax_rate: 0, period_start: '2024-01-01T00:00:00Z', period_end: '2024-02-01T00:00:00Z' }],
    });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ status: 'paid', reference: 'OLD-7', amount_due: 0, amount_paid: 1000, collection_method: 'manual' });
    expect(reply.body.number).not.toBe('OLD-7');
    expect(reply.body.transactions[0]).toMatchObject({ amount: 1000, process_at: '2024-01-10T10:00:00.000Z' });
    expect(reply.body.line_items[0]).toMatchObject({ period_starts_at: '2024-01-01T00:00:00Z', period_ends_at: '2024-02-01T00:00:00Z' });
  });

  it.each([
    [{ status: 'draft', settled_at: '2024-01-10T10:00:00Z' }, 'settled_at_without_payment'],
    [{ number: 'A-1', reference: 'B-2' }, 'conflicting_members'],
    [{ line_items: [{ name: 'x', unit_amount: 1, units_count: 1, period_start: '2024-01-01T00:00:00Z', period_starts_at: '2024-01-01T00:00:00Z' }] }, 'conflicting_members'],
  ])('refuses %j (%s) and writes nothing', async (extra, code) => {
    const { customer_id } = await world([]);
    const before = (await client.get(`/v1/invoices?customer_id=${customer_id}`)).body.meta.total;
    const reply = await client.post('/v1/invoices', { customer_id, line_items: [{ name: 'x', unit_amount: 1, units_count: 1 }], ...extra });
    expect([reply.status, reply.body.code]).toEqual([422, code]);
    expect((await client.get(`/v1/invoices?customer_id=${customer_id}`)).body.meta.total).toBe(before);
  });

  it('a wallet load of both amounts credits the free part now and invoices the paid part', async () => {
    const { wallet_id, customer_id } = await world(['wallet']);
    const reply = await client.post(`/v1/wallets/${wallet_id}/load`, { amount: 3000, amount_free: 500 });
    expect(reply.status).toBe(200);
    expect(reply.body.balance).toEqual({ amount: 500 });
    const invoices = (await client.get(`/v1/invoices?customer_id=${customer_id}`)).body.data;
    expect(invoices.map((i: { status: string; total_amount: number }) => [i.status, i.total_amount])).toEqual([['to_pay', 3000]]);
    expect((await client.post(`/v1/wallets/${wallet_id}/load`, {})).status).toBe(400);
    expect((await client.post(`/v1/wallets/${wallet_id}/load`, { type: 'free', amount_free: 5 })).body.code).toBe('conflicting_members');
  });

  it("cancel_at at the current period's end schedules the cancellation; another future date is refused", async () => {
    const { subscription_id } = await world(['subscription']);
    const current = (await client.get(`/v2/subscriptions/${subscription_id}`)).body;
    const other = new Date(Date.parse(current.current_period_ends_at) - 86_400_000).toISOString();
    const refused = await client.post(`/v1/subscriptions/${subscription_id}/cancel`, { cancel_at: other });
    expect([refused.status, refused.body.code]).toEqual([422, 'unsupported_cancel_date']);
    const scheduled = await client.post(`/v1/subscriptions/${subscription_id}/cancel`, { cancel_at: current.current_period_ends_at, pro_rata: false });
    expect(scheduled.body).toMatchObject({ status: 'active', cancel_at_period_end: true });
  });

  it('GET /v1/events lists one customer\'s events newest first, filtered by type and time, a page at a time', async () => {
    const { customer_id } = await world([]);
    const base = Date.now() - 3_600_000;
    const events = Array.from({ length: 30 }, (_, i) => ({
      customer_id, event_type: i % 3 === 0 ? 'storage' : 'api_call', timestamp: new Date(base + i * 60_000).toISOString(), record: { id: `list-${customer_id}-${i}` },
    }));
    expect((await client.post('/v1/events/batch', events)).body.events_failed).toEqual([]);
    const ids = (body: { data: { id: string }[] }) => body.data.map((e) => e.id);
    const newestFirst = events.map((e) => e.record.id).reverse();
    const first = (await client.get(`/v1/events?customer_id=${customer_id}&take=12`)).body;
    const second = (await client.get(`/v1/events?customer_id=${customer_id}&take=12&skip=12`)).body;
    const last = (await client.get(`/v1/events?customer_id=${customer_id}&take=12&skip=24`)).body;
    expect([...ids(first), ...ids(second), ...ids(last)]).toEqual(newestFirst);
    expect([first.meta, last.meta]).toEqual([{ taken: 12, skipped: 0, has_more: true }, { taken: 6, skipped: 24, has_more: false }]);
    const storage = (await client.get(`/v1/events?customer_id=${customer_id}&event_type=storage`)).body;
    expect(ids(storage)).toEqual(events.filter((e) => e.event_type === 'storage').map((e) => e.record.id).reverse());
    const window = (await client.get(`/v1/events?customer_id=${customer_id}&timestamp__gte=${events[10]!.timestamp}&timestamp__lt=${events[20]!.timestamp}`)).body;
    expect(ids(window)).toEqual(newestFirst.slice(10, 20));
    expect((await client.get('/v1/events')).status).toBe(400);
    expect((await client.get('/v1/events?customer_id=cus_nobody')).status).toBe(404);
  });

  it("customer usage: Hyperline's row per aggregator without aggregator_id, the aggregator's usage (as before) with it", async () => {
    const { customer_id, aggregator_id, start_date, end_date } = await world(['aggregator']);
    // In the current hour, which the read takes from the raw events (the hour's bucket waits for the stream).
    const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000;
    const events = [1, 2, 3].map((i) => ({ customer_id, event_type: 'api_call', timestamp: new Date(hour + i).toISOString(), record: { id: `usage-${customer_id}-${i}` } }));
    expect((await client.post('/v1/events/batch', events)).body.events_failed).toEqual([]);
    const rows = (await client.get(`/v1/customers/${customer_id}/usage?start_date=${start_date}&end_date=${end_date}`)).body;
    expect(rows.find((r: { aggregator_id: string }) => r.aggregator_id === aggregator_id)).toEqual({ aggregator_id, name: 'API calls', unit_name: 'call', total: 3, count: 3 });
    const one = (await client.get(`/v1/customers/${customer_id}/usage?aggregator_id=${aggregator_id}&from=${start_date}&to=${end_date}`)).body;
    expect(one).toMatchObject({ aggregator_id, value: 3, total: 3, count: 3, from: start_date, period_start: start_date, period_end: end_date });
    expect(one.days.length).toBeGreaterThan(0);
    expect((await client.get(`/v1/customers/${customer_id}/usage?from=${start_date}&start_date=${start_date}&to=${end_date}`)).body.code).toBe('conflicting_members');
    expect((await client.get(`/v1/customers/${customer_id}/usage?start_date=${start_date}`)).status).toBe(400);
  });

  it('a batch creates each item as the single create does; a refused item rejects only itself, and a retry replays', async () => {
    const { customer_id } = await world([]);
    const headers = { authorization: `Bearer ${client.token}`, 'content-type': 'application/json', 'idempotency-key': `batch-${customer_id}` };
    const items = [{ name: 'One', currency: 'EUR' }, { name: 'Two', currency: 'nope' }, { currency: 'EUR' }, { name: 'Three', currency: 'EUR' }];
    const reply = await api.raw('POST', '/v1/customers/batch', { headers, body: JSON.stringify(items) }) as { status: number; body: any };
    expect(reply.status).toBe(201);
    expect(reply.body.customers_created.map((c: { name: string }) => c.name)).toEqual(['One', 'Three']);
    expect(reply.body.customers_failed.map((f: { index: number }) => f.index)).toEqual([1, 2]);
    expect(reply.body.customers_failed[1].error.message).toContain('[2]');
    const again = await api.raw('POST', '/v1/customers/batch', { headers, body: JSON.stringify(items) }) as { status: number; body: any };
    expect(again.body.customers_created.map((c: { id: string }) => c.id)).toEqual(reply.body.customers_created.map((c: { id: string }) => c.id));
    expect((await client.get(`/v1/customers/${reply.body.customers_created[0].id}`)).body.name).toBe('One');

    const invoices = await client.post('/v1/invoices/batch', [
      { customer_id, line_items: [{ name: 'x', unit_amount: 100, units_count: 1 }] },
      { customer_id: 'cus_nobody', line_items: [{ name: 'x', unit_amount: 100, units_count: 1 }] },
      { customer_id, status: 'draft', settled_at: '2024-01-10T10:00:00Z', line_items: [{ name: 'x', unit_amount: 1, units_count: 1 }] },
    ]);
    expect(invoices.body.invoices_created.map((i: { customer_id: string; status: string }) => [i.customer_id, i.status])).toEqual([[customer_id, 'draft']]);
    expect(invoices.body.invoices_failed.map((f: { index: number; error: { code: string } }) => [f.index, f.error.code])).toEqual([[1, 'customer_not_found'], [2, 'settled_at_without_payment']]);
    expect((await client.post('/v1/customers/batch', [])).status).toBe(400);
    expect((await client.post('/v1/customers/batch', Array.from({ length: 101 }, () => ({ name: 'x' })))).status).toBe(400);
  });

  it("a subscription from Hyperline's body: one phase, a metered product's committed count, the minimum fee, an external payment method", async () => {
    const { customer_id } = await world([]);
    const aggregator = (await client.post('/v1/aggregators', { name: 'Calls', event_type: `call-${customer_id}`, operation: 'count', unit_name: 'call' })).body.id;
    const metered = (await client.post('/v1/products', { name: 'Calls', type: 'dynamic', aggregator_id: aggregator })).body.id;
    expect((await client.post('/v1/price-configurations', {
      product_id: metered, currency: 'EUR', billing_interval: { period: 'months', count: 1 }, type: 'volume', prices: [{ from: 1, to: null, amount: 5, unit_count: 1, on_tier_incomplete: 'pro_rata' }],
    })).status).toBe(201);
    const seats = await hyperlineProduct();
    const reply = await client.post('/v2/subscriptions', {
      customer_id, payment_method_strategy: 'external', minimum_invoice_fee: 250, purchase_order: 'PO-7',
      phases: [{ name: 'Only', products: [{ id: seats, count: 3 }, { id: metered, payment_schedule: 'end', min_committed_count: 5 }] }],
    });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({
      collection_method: 'manual', purchase_order: 'PO-7', minimum_invoice_fee: 250, estimated_arr: 3 * 200 * 12, next_payment_at: reply.body.next_billing_at,
      renews_at: reply.body.current_period_ends_at, cancel_at: null,
      products: [{ product_id: seats, count: 3, quantity: 3, payment_schedule: 'start' }, { product_id: metered, count: 1, payment_schedule: 'end', fee_timing: 'in_arrears' }],
    });
    const terms = (await client.get(`/v2/subscriptions/${reply.body.id}/billing-terms`)).body;
    expect(terms).toMatchObject({ minimum_invoice_fee: 250, min_committed_counts: [{ product_id: metered, count: 5 }] });
    const cancelled = await client.post(`/v1/subscriptions/${reply.body.id}/cancel`, {});
    expect(cancelled.body).toMatchObject({ cancel_at: cancelled.body.ends_at, renews_at: null });
    expect(cancelled.body.cancel_at).not.toBeNull();
  });

  it.each([
    [{ activation_strategy: 'manually' }, 'activation_strategy_not_supported'],
    [{ activation_strategy: 'checkout' }, 'activation_strategy_not_supported'],
    [{ payment_method_strategy: 'new' }, 'payment_method_strategy_not_supported'],
    [{ payment_method_strategy: 'external', collection_method: 'automatic' }, 'conflicting_members'],
    [{ contract_terms: { renew_automatically: false } }, 'contract_end_not_supported'],
    [{ products: undefined, phases: [{ products: [{ id: '{seats}' }] }, { products: [{ id: '{seats}' }] }] }, 'phases_not_supported'],
    [{ products: undefined, phases: [{ products: [{ id: '{seats}' }], duration: { period: 'months', count: 3 } }] }, 'phases_not_supported'],
    [{ phases: [{ products: [{ id: '{seats}' }] }] }, 'conflicting_members'],
    [{ products: [{ id: '{seats}', prices: [{ type: 'volume', from: 0, to: null, amount: 100 }] }] }, 'prices_mismatch'],
    [{ products: [{ id: '{seats}', price: { type: 'fee', amount: 200 } }] }, 'prices_mismatch'],
    [{ products: [{ id: '{seats}', payment_interval: { period: 'years', count: 1 } }] }, 'price_not_found'],
    [{ products: [{ id: 'itm_nowhere' }] }, 'price_not_found'],
    [{ products: [{ id: '{seats}', payment_schedule: 'end' }] }, 'payment_schedule_mismatch'],
    [{ products: [{ id: '{seats}', min_committed_count: 2 }] }, 'product_not_metered'],
    [{ coupons: [{ id: '{coupon}', repeat: 'forever' }] }, 'coupon_terms_not_supported'],
    [{ coupons: [{ id: '{coupon}' }], coupon_ids: ['{coupon}'] }, 'conflicting_members'],
  ])("refuses Hyperline's %j (%s) and writes nothing", async (extra, code) => {
    const { customer_id, coupon_id } = await world(['coupon']);
    const seats = await hyperlineProduct();
    const body = JSON.parse(JSON.stringify({ customer_id, products: [{ id: seats, count: 1 }], ...extra }).replaceAll('{seats}', seats).replaceAll('{coupon}', coupon_id!));
    const reply = await client.post('/v2/subscriptions', body);
    expect([reply.status, reply.body.code]).toEqual([422, code]);
    expect((await client.get(`/v2/subscriptions?customer_id=${customer_id}`)).body.data).toEqual([]);
  });

  it('a product with two matching configurations needs price_configuration_id', async () => {
    const { customer_id } = await world([]);
    const { product_id, price_configuration_id } = await pricedProduct(client, 'flat_fee');
    await client.post('/v1/price-configurations', { product_id, currency: 'EUR', type: 'fee', prices: [{ amount: 5 }], billing_interval: { period: 'months', count: 1 } });
    const ambiguous = await client.post('/v2/subscriptions', { customer_id, products: [{ id: product_id }] });
    expect([ambiguous.status, ambiguous.body.code]).toEqual([422, 'ambiguous_price_configuration']);
    const named = await client.post('/v2/subscriptions', { customer_id, products: [{ id: product_id, price_configuration_id }] });
    expect([named.status, named.body.products[0].price_configuration_id]).toEqual([201, price_configuration_id]);
    const hyperline = { customer_id, products: [{ id: product_id, price: { type: 'fee', amount: 5 } }] };
    // Its preview reads the body as the creation does (the same mapping), then the creation.
    expect((await client.post('/v2/subscriptions/preview', hyperline)).body.first_invoice).toMatchObject({ amount_excluding_tax: 5 });
    expect((await client.post('/v2/subscriptions/preview', { customer_id, products: [{ id: product_id }] })).body.code).toBe('ambiguous_price_configuration');
    const byPrice = await client.post('/v2/subscriptions', hyperline);
    expect([byPrice.status, byPrice.body.estimated_arr]).toEqual([201, 60]);
  });

  it("a webhook endpoint keeps Hyperline's rate_limit, and takes its bare base64 secret with our prefix", async () => {
    const key = Buffer.alloc(32, 7).toString('base64');
    const created = await client.post('/v1/webhooks/endpoints', { url: 'https://example.com/hook', secret: key, rate_limit: 2.5 });
    expect([created.status, created.body.secret, created.body.rate_limit]).toEqual([201, `whsec_${key}`, 2.5]);
    expect((await client.put(`/v1/webhooks/endpoints/${created.body.id}`, { rate_limit: null })).body.rate_limit).toBeNull();
    expect((await client.post('/v1/webhooks/endpoints', { url: 'https://example.com/hook' })).body.rate_limit).toBeNull();
    for (const bad of [{ secret: Buffer.alloc(8).toString('base64') }, { rate_limit: 0 }]) {
      expect((await client.post('/v1/webhooks/endpoints', { url: 'https://example.com/hook', ...bad })).status).toBe(400);
    }
  });

  it("a coupon update repeating another discount, or a feature with a default other than none, is refused and changes nothing", async () => {
    const { coupon_id } = await world(['hyperline_coupon']);
    const changed = await client.put(`/v1/coupons/${coupon_id}`, { name: 'Other', type: 'amount', discount_amount: 2500, currency: 'EUR' });
    expect([changed.status, changed.body.errors.map((e: { path: string }) => e.path)]).toEqual([400, ['body.discount_amount']]);
    expect((await client.get(`/v1/coupons/${coupon_id}`)).body).toMatchObject({ name: 'Partner discount', discount_amount: 2000 });
    expect((await client.put(`/v1/coupons/${coupon_id}`, { name: 'Same terms', currency: 'EUR' })).body.name).toBe('Same terms');
    const code = `seats-${Date.now()}`;
    expect((await client.post('/v1/features', { code, name: 'Seats', value_type: 'number', default_value: 5 })).body.code).toBe('default_value_not_supported');
    expect((await client.post('/v1/features', { code, name: 'Seats', type: 'boolean', value_type: 'number' })).body.code).toBe('conflicting_members');
    const seats = await client.post('/v1/features', { code, name: 'Seats', value_type: 'number', default_value: 0 });
    expect([seats.status, seats.body.type, seats.body.value_type]).toEqual([201, 'limit', 'number']);
  });

  it("a price of another type than its configuration's is refused; Hyperline's price ids are not kept", async () => {
    const { price_configuration_id } = await world(['price_configuration']);
    const refused = await client.put(`/v1/price-configurations/${price_configuration_id}/prices`, [{ type: 'volume', amount: 5 }]);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain("configuration's type 'fee'");
    const replaced = await client.put(`/v1/price-configurations/${price_configuration_id}/prices`, [{ type: 'fee', id: 'pri_mine', amount: 5 }]);
    expect(replaced.body.prices).toEqual([{ id: expect.stringMatching(/^pri_/), amount: 5 }]);
    expect(replaced.body.prices[0].id).not.toBe('pri_mine');
    // The same through POST …/prices and in our `{prices}` form.
    expect((await client.post(`/v1/price-configurations/${price_configuration_id}/prices`, [{ type: 'volume', from: 0, amount: 5 }])).status).toBe(400);
    const typed = await client.put(`/v1/price-configurations/${price_configuration_id}/prices`, { prices: [{ type: 'fee', amount: 700 }] });
    expect(typed.body.prices).toEqual([{ id: expect.stringMatching(/^pri_/), amount: 700 }]);
  });

  it('POST …/prices replaces the prices as PUT does', async () => {
    const { price_configuration_id } = await pricedProduct(client, 'flat_fee');
    const reply = await client.post(`/v1/price-configurations/${price_configuration_id}/prices`, { prices: [{ amount: 2_500 }] });
    expect(reply.status).toBe(200);
    expect(reply.body.prices).toMatchObject([{ amount: 2_500 }]);
    expect((await client.get(`/v1/price-configurations/${price_configuration_id}`)).body.prices).toMatchObject([{ amount: 2_500 }]);
  });

  it("a quote from Hyperline's subscription: its products are the lines at catalog prices; a wrong amount or both shapes are refused", async () => {
    const { customer_id, hyperline_product_id } = await world(['hyperline_product']);
    const quotes = async () => (await client.get(`/v1/quotes?customer_id=${customer_id}`)).body.meta.total;
    const subscription = { products: [{ id: hyperline_product_id, count: 25 }] };
    const reply = await client.post('/v1/quotes', { customer_id, subscription, automatically_start_subscription: false });
    expect(reply.status).toBe(201);
    // 25 seats at the volume tier from 21: 150 each.
    expect(reply.body).toMatchObject({ type: 'subscription', amount: 25 * 150, post_signature_activation_enabled: false, automatically_start_subscription: false });
    expect(reply.body.line_items).toMatchObject([{ product_id: hyperline_product_id, quantity: 25, amount: 25 * 150 }]);
    const refused = await Promise.all([
      client.post('/v1/quotes', { customer_id, subscription, amount: 1 }),
      client.post('/v1/quotes', { customer_id, subscription, type: 'one_off' }),
      client.post('/v1/quotes', { customer_id, subscription, automatically_start_subscription: true, post_signature_activation_enabled: false }),
      client.post('/v1/quotes', { customer_id, type: 'subscription' }),
    ]);
    expect(refused.map((r) => [r.status, r.body.code])).toEqual([[422, 'amount_mismatch'], [422, 'conflicting_members'], [422, 'conflicting_members'], [400, 'invalid_request']]);
    expect(await quotes()).toBe(1);
  });

  it("an invoicing entity's quote_footer is its quotes' footer, its invoice footer until set", async () => {
    const entity = (await client.post('/v1/invoicing-entities', { name: 'Footers', country: 'FR', currency: 'EUR', invoice_footer: 'Invoices' })).body;
    expect(entity.quote_footer).toBe('Invoices');
    expect((await client.put(`/v1/invoicing-entities/${entity.id}`, { quote_footer: 'Quotes' })).body).toMatchObject({ quote_footer: 'Quotes', invoice_footer: 'Invoices' });
    expect((await client.put(`/v1/invoicing-entities/${entity.id}`, { quote_footer: null })).body.quote_footer).toBe('Invoices');
  });

  it('reactivate on a scheduled cancellation still undoes it (deprecated); uncancel is its name now', async () => {
    const { subscription_id } = await world(['subscription']);
    await client.post(`/v1/subscriptions/${subscription_id}/cancel`, {});
    expect((await client.post(`/v1/subscriptions/${subscription_id}/reactivate`)).body).toMatchObject({ status: 'active', cancel_at_period_end: false });
    await client.post(`/v1/subscriptions/${subscription_id}/cancel`, {});
    expect((await client.post(`/v1/subscriptions/${subscription_id}/uncancel`)).body).toMatchObject({ cancel_at_period_end: false });
    expect((await client.post(`/v1/subscriptions/${subscription_id}/uncancel`)).status).toBe(409);
  });
});
