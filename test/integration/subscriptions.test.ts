import { makeCtx } from '../../shared/context';
import { tableName } from '../../shared/db/client';
import { ConditionFailed, transactWrite } from '../../shared/db/transactions';
import { prepareSubscription, prepareSubscriptionUpdate } from '../../shared/domain/subscriptions/prepare';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';
import { changeSubscription, pricedProduct, subscribe, subscriber, type PricedProduct } from '../support/subscriptions';

let api: TestApi;
let client: Client;
let fee: PricedProduct;
let seat: PricedProduct;
let usage: PricedProduct;

beforeAll(async () => {
  api = await startTestApi();
  client = await api.client();
  await withEntity(client);
  [fee, seat, usage] = await Promise.all([pricedProduct(client, 'flat_fee'), pricedProduct(client, 'seat', { amount: 500 }), pricedProduct(client, 'dynamic', { amount: 200 })]);
});
afterAll(() => api.close());

const ctx = () => makeCtx(client.workspace, 'test');
const now = () => new Date().toISOString();
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
const monthly = (over: Record<string, unknown> = {}) => async () => {
  const customer = await subscriber(client);
  return subscribe(client, { customer_id: customer.id, starts_at: now(), products: [{ ...fee, quantity: 1 }], ...over });
};

describe('a subscription written like a signed quote writes it', () => {
  it('is active from its start, with every member, and read back by GET /v2/subscriptions/{id}', async () => {
    const customer = await subscriber(client);
    const startsAt = now();
    const made = await subscribe(client, {
      customer_id: customer.id, starts_at: startsAt, quote_id: 'quo_123',
      products: [{ ...fee, quantity: 1 }, { ...seat, quantity: 3 }, { ...usage, quantity: 7 }],
    });
    const reply = await client.get(`/v2/subscriptions/${made.id}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual(made);
    const { id: entityId } = (await client.get('/v1/invoicing-entities')).body.data[0];
    expect(reply.body).toMatchObject({
      id: expect.stringMatching(/^sub_/), customer_id: customer.id, status: 'active', currency: 'EUR', invoicing_entity_id: entityId, quote_id: 'quo_123',
      plan_id: null, checkout_session_id: null, billing_interval: { period: 'months', count: 1 }, starts_at: startsAt,
      current_period_started_at: startsAt, next_billing_at: startsAt, cancel_at_period_end: false, cancelled_at: null, ends_at: null,
    });
    const end = new Date(startsAt);
    end.setUTCMonth(end.getUTCMonth() + 1);
    if (end.getUTCDate() !== new Date(startsAt).getUTCDate()) end.setUTCDate(0); // a month later, or the month's last day
    expect(reply.body.current_period_ends_at).toBe(end.toISOString());
    // Hyperline's names beside ours (docs/hyperline.md); a year of 1,000 + 3 × 500 + 7 × 200 a month.
    expect(reply.body).toMatchObject({
      name: null, purchase_order: null, minimum_invoice_fee: null, next_payment_at: startsAt, cancel_at: null, renews_at: end.toISOString(), estimated_arr: 46_800,
    });
    const monthly = { billing_interval: { period: 'months', count: 1 }, payment_interval: { period: 'months', count: 1 } };
    expect(reply.body.products).toEqual([
      { id: expect.stringMatching(/^subi_/), ...fee, name: 'flat_fee product', product_type: 'flat_fee', quantity: 1, count: 1, ...monthly, fee_timing: 'in_advance', payment_schedule: 'start', aggregator_id: null, unit_name: null },
      { id: expect.stringMatching(/^subi_/), ...seat, name: 'seat product', product_type: 'seat', quantity: 3, count: 3, ...monthly, fee_timing: 'in_advance', payment_schedule: 'start', aggregator_id: null, unit_name: null },
      { id: expect.stringMatching(/^subi_/), ...usage, name: 'dynamic product', product_type: 'dynamic', quantity: 7, count: 7, ...monthly, fee_timing: 'in_arrears', payment_schedule: 'end', aggregator_id: null, unit_name: null },
    ]);
    expect(Object.keys(reply.body)).not.toEqual(expect.arrayContaining(['pk', 'billing_index', 'gsi4sk']));
  });

  it('is pending before its start date', async () => {
    const customer = await subscriber(client);
    const made = await subscribe(client, { customer_id: customer.id, starts_at: inDays(3), products: [{ ...fee, quantity: 1 }] });
    expect(made.status).toBe('pending');
  });

  it('answers 404 for an unknown id', async () => {
    const reply = await client.get('/v2/subscriptions/sub_unknown');
    expect([reply.status, reply.body.code]).toEqual([404, 'not_found']);
  });

  it('shows in its customer\'s subscriptions, and locks the customer\'s currency', async () => {
    const customer = await subscriber(client);
    const first = await subscribe(client, { customer_id: customer.id, starts_at: now(), products: [{ ...fee, quantity: 1 }] });
    const second = await subscribe(client, { customer_id: customer.id, starts_at: inDays(10), products: [{ ...seat, quantity: 2 }] });
    const read = (await client.get(`/v1/customers/${customer.id}`)).body;
    expect(read.subscriptions).toEqual([
      { id: first.id, status: 'active', current_period_started_at: first.current_period_started_at, current_period_ends_at: first.current_period_ends_at, plan_id: null, checkout_session_id: null },
      { id: second.id, status: 'pending', current_period_started_at: second.current_period_started_at, current_period_ends_at: second.current_period_ends_at, plan_id: null, checkout_session_id: null },
    ]);
    const listed = (await client.get('/v1/customers?take=100')).body.data.find((c: { id: string }) => c.id === customer.id);
    expect(listed.subscriptions).toEqual(read.subscriptions);
    const locked = await client.put(`/v1/customers/${customer.id}`, { currency: 'USD' });
    expect([locked.status, locked.body.code]).toEqual([422, 'currency_locked']);
    // A customer update keeps the summaries (it writes the item it read, on its version).
    const renamed = await client.put(`/v1/customers/${customer.id}`, { name: 'Renamed' });
    expect(renamed.body.subscriptions).toEqual(read.subscriptions);
  });

  it('refuses what breaks a rule, writing nothing', async () => {
    const customer = await subscriber(client);
    const noCurrency = (await client.post('/v1/customers', { name: 'No currency' })).body;
    const usd = await pricedProduct(client, 'flat_fee', { currency: 'USD' });
    const weekly = await pricedProduct(client, 'flat_fee', { interval: { period: 'weeks', count: 1 } });
    const once = await pricedProduct(client, 'flat_fee', { interval: { period: 'once' } });
    const archived = await pricedProduct(client, 'flat_fee');
    await client.put(`/v1/products/${archived.product_id}/archive`);
    const archivedPrice = await pricedProduct(client, 'flat_fee');
    await client.put(`/v1/price-configurations/${archivedPrice.price_configuration_id}/archive`);
    const bpsProduct = (await client.post('/v1/products', { name: 'Payments', type: 'dynamic' })).body;
    const bps = (await client.post('/v1/price-configurations', {
      product_id: bpsProduct.id, currency: 'EUR', type: 'bps', prices: [{ from: 0, to: null, percentage: 1 }], billing_interval: { period: 'months', count: 1 },
    })).body;
    const deleted = await subscriber(client);
    await client.delete(`/v1/customers/${deleted.id}`);
    const base = { customer_id: customer.id, starts_at: now() };
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ customer_id: noCurrency.id }, 422, 'customer_currency_missing'],
      [{ customer_id: deleted.id }, 422, 'customer_not_found'],
      [{ customer_id: 'cus_unknown' }, 422, 'customer_not_found'],
      [{ products: [{ ...usd, quantity: 1 }] }, 422, 'currency_mismatch'],
      [{ products: [{ ...fee, quantity: 1 }, { ...weekly, quantity: 1 }] }, 422, 'billing_interval_mismatch'],
      [{ products: [{ ...once, quantity: 1 }] }, 422, 'subscription_not_recurring'],
      [{ products: [{ ...archived, quantity: 1 }] }, 422, 'product_archived'],
      [{ products: [{ ...archivedPrice, quantity: 1 }] }, 422, 'price_archived'],
      [{ products: [{ product_id: bpsProduct.id, price_configuration_id: bps.id, quantity: 1 }] }, 422, 'price_not_supported'],
      [{ products: [{ product_id: fee.product_id, price_configuration_id: 'prc_unknown', quantity: 1 }] }, 422, 'price_not_found'],
      [{ products: [{ product_id: seat.product_id, price_configuration_id: fee.price_configuration_id, quantity: 1 }] }, 400, 'invalid_request'],
      [{ products: [{ ...fee, quantity: 1.5 }] }, 400, 'invalid_request'],
      [{ products: [] }, 400, 'invalid_request'],
      [{ starts_at: 'tomorrow' }, 400, 'invalid_request'],
      [{ invoicing_entity_id: 'ive_unknown', products: [{ ...fee, quantity: 1 }] }, 422, 'invoicing_entity_not_found'],
    ];
    for (const [over, status, code] of cases) {
      const input = { ...base, products: [{ ...fee, quantity: 1 }], ...over } as Parameters<typeof prepareSubscription>[1];
      await expect(prepareSubscription(ctx(), input).then(() => 'prepared')).rejects.toMatchObject({ status, code });
    }
    expect((await client.get(`/v2/subscriptions?customer_id=${customer.id}`)).body.meta.total).toBe(0);
  });

  it('goes into the caller\'s transaction, touching the customer once, in few items', async () => {
    const customer = await subscriber(client);
    const { subscription, items } = await prepareSubscription(ctx(), {
      customer_id: customer.id, starts_at: now(), products: [{ ...fee, quantity: 1 }, { ...seat, quantity: 2 }, { ...seat, quantity: 1 }],
    });
    expect(items.length).toBe(3 + 2); // Put, counter, customer, one check per distinct product
    const keys = items.map((i) => JSON.stringify((i.Put?.Item && { pk: i.Put.Item.pk, sk: i.Put.Item.sk }) ?? i.Update?.Key ?? i.ConditionCheck?.Key));
    expect(new Set(keys).size).toBe(keys.length);
    // The quote's own write beside them, as a signature does.
    const quoteKey = { pk: `WS#${client.workspace}#QUO#quo_test`, sk: 'QUO' };
    await transactWrite([...items, { Put: { TableName: tableName(), Item: { ...quoteKey, _type: 'test_quote', subscription_id: subscription.id } } }]);
    expect((await client.get(`/v2/subscriptions/${subscription.id}`)).status).toBe(200);
    // A product archived between the preparation and the write fails the whole transaction.
    const archivedLater = await pricedProduct(client, 'flat_fee');
    const late = await prepareSubscription(ctx(), { customer_id: customer.id, starts_at: now(), products: [{ ...archivedLater, quantity: 1 }] });
    await client.put(`/v1/products/${archivedLater.product_id}/archive`);
    await expect(transactWrite(late.items)).rejects.toMatchObject({ index: 3 });
    expect((await client.get(`/v2/subscriptions/${late.subscription.id}`)).status).toBe(404);
  });
});

describe('GET /v2/subscriptions', () => {
  it('pages with take/skip and filters on status and customer_id', async () => {
    const other = await api.client();
    await withEntity(other);
    const price = await pricedProduct(other, 'flat_fee');
    const customers = [await subscriber(other), await subscriber(other)];
    const made = [];
    for (const [i, starts] of [now(), inDays(5), now()].entries()) {
      made.push(await subscribe(other, { customer_id: customers[i % 2]!.id, starts_at: starts, products: [{ ...price, quantity: 1 }] }));
    }
    await other.post(`/v1/subscriptions/${made[2]!.id}/cancel`, { mode: 'immediately' });
    const all = (await other.get('/v2/subscriptions')).body;
    expect(all.meta).toEqual({ total: 3, taken: 3, skipped: 0, approximateCount: false });
    expect(all.data.map((s: { id: string }) => s.id)).toEqual(made.map((s) => s.id));
    const page = (await other.get('/v2/subscriptions?take=1&skip=1')).body;
    expect([page.meta, page.data[0].id]).toEqual([{ total: 3, taken: 1, skipped: 1, approximateCount: false }, made[1]!.id]);
    const ids = async (query: string) => (await other.get(`/v2/subscriptions?${query}`)).body.data.map((s: { id: string }) => s.id);
    expect(await ids('status=active')).toEqual([made[0]!.id]);
    expect(await ids('status=pending')).toEqual([made[1]!.id]);
    expect(await ids('status__in=pending,cancelled')).toEqual([made[1]!.id, made[2]!.id]);
    expect(await ids('status__notIn=cancelled')).toEqual([made[0]!.id, made[1]!.id]);
    expect(await ids(`customer_id=${customers[0]!.id}`)).toEqual([made[0]!.id, made[2]!.id]);
    expect(await ids(`customer_id=${customers[0]!.id}&status=cancelled`)).toEqual([made[2]!.id]);
    const filtered = (await other.get(`/v2/subscriptions?customer_id=${customers[1]!.id}`)).body.meta;
    expect(filtered).toEqual({ total: 1, taken: 1, skipped: 0, approximateCount: false });
    for (const bad of ['status=frozen', 'customer=x', 'take=101']) expect((await other.get(`/v2/subscriptions?${bad}`)).status).toBe(400);
  });
});

describe('POST /v1/subscriptions/{id}/cancel', () => {
  it('immediately: cancelled now, told to its customer; cancelling again is a 409', async () => {
    const made = await monthly()();
    const reply = await client.post(`/v1/subscriptions/${made.id}/cancel`, { mode: 'immediately' });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ id: made.id, status: 'cancelled', cancel_at_period_end: false, next_billing_at: null, cancelled_at: expect.any(String) });
    expect(reply.body.ends_at).toBe(reply.body.cancelled_at);
    expect((await client.get(`/v2/subscriptions/${made.id}`)).body).toEqual(reply.body);
    expect((await client.get(`/v1/customers/${made.customer_id}`)).body.subscriptions[0].status).toBe('cancelled');
    for (const mode of ['immediately', 'end_of_period']) {
      const again = await client.post(`/v1/subscriptions/${made.id}/cancel`, { mode });
      expect([again.status, again.body.code]).toEqual([409, 'invalid_state_transition']);
    }
  });

  it('at the end of the period by default: still active until the end of its current period', async () => {
    const made = await monthly()();
    const reply = await client.post(`/v1/subscriptions/${made.id}/cancel`);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ status: 'active', cancel_at_period_end: true, ends_at: made.current_period_ends_at, cancelled_at: expect.any(String) });
    expect((await client.get(`/v1/customers/${made.customer_id}`)).body.subscriptions[0].status).toBe('active');
    const again = await client.post(`/v1/subscriptions/${made.id}/cancel`, { mode: 'end_of_period' });
    expect([again.status, again.body.code]).toEqual([409, 'invalid_state_transition']);
    const now = await client.post(`/v1/subscriptions/${made.id}/cancel`, { mode: 'immediately' });
    expect(now.body).toMatchObject({ status: 'cancelled', cancel_at_period_end: false });
  });

  it('cancels a pending subscription at once, in either mode', async () => {
    const customer = await subscriber(client);
    const pending = await subscribe(client, { customer_id: customer.id, starts_at: inDays(3), products: [{ ...fee, quantity: 1 }] });
    const reply = await client.post(`/v1/subscriptions/${pending.id}/cancel`, { mode: 'end_of_period' });
    expect(reply.body).toMatchObject({ status: 'cancelled', next_billing_at: null });
  });

  it('lets exactly one of two racing cancellations win', async () => {
    const made = await monthly()();
    const replies = await Promise.all([1, 2, 3].map(() => client.post(`/v1/subscriptions/${made.id}/cancel`, { mode: 'immediately' })));
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409, 409]);
  });

  it('answers 404 for an unknown subscription and 400 for an unknown mode', async () => {
    expect((await client.post('/v1/subscriptions/sub_unknown/cancel', {})).status).toBe(404);
    const made = await monthly()();
    expect((await client.post(`/v1/subscriptions/${made.id}/cancel`, { mode: 'later' })).status).toBe(400);
  });
});

describe('prepareSubscriptionUpdate (subscription_update quotes)', () => {
  it('replaces the product list, keeping the ids of the products kept', async () => {
    const made = await monthly()();
    const changed = await changeSubscription(client, made.id, [{ ...fee, quantity: 2 }, { ...usage, quantity: 4 }]);
    expect(changed.products.map((p) => [p.product_id, p.quantity])).toEqual([[fee.product_id, 2], [usage.product_id, 4]]);
    expect(changed.products[0]!.id).toBe(made.products[0]!.id);
    expect((await client.get(`/v2/subscriptions/${made.id}`)).body).toEqual(changed);
  });

  it('keeps its billing interval and currency; refuses a cancelled subscription (409) or an unknown one (404)', async () => {
    const made = await monthly()();
    const weekly = await pricedProduct(client, 'flat_fee', { interval: { period: 'weeks', count: 2 } });
    await expect(prepareSubscriptionUpdate(ctx(), made.id, { products: [{ ...weekly, quantity: 1 }] })).rejects.toMatchObject({ status: 422, code: 'billing_interval_mismatch' });
    await expect(prepareSubscriptionUpdate(ctx(), 'sub_unknown', { products: [{ ...fee, quantity: 1 }] })).rejects.toMatchObject({ status: 404 });
    await client.post(`/v1/subscriptions/${made.id}/cancel`, { mode: 'immediately' });
    await expect(prepareSubscriptionUpdate(ctx(), made.id, { products: [{ ...fee, quantity: 1 }] })).rejects.toMatchObject({ status: 409, code: 'invalid_state_transition' });
  });

  it('is conditional on the version read: a change in between fails its transaction on item 0', async () => {
    const made = await monthly()();
    const first = await prepareSubscriptionUpdate(ctx(), made.id, { products: [{ ...fee, quantity: 2 }] });
    const second = await prepareSubscriptionUpdate(ctx(), made.id, { products: [{ ...fee, quantity: 3 }] });
    await transactWrite(first.items);
    const failure = await transactWrite(second.items).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConditionFailed);
    expect((failure as ConditionFailed).index).toBe(0);
    expect((await client.get(`/v2/subscriptions/${made.id}`)).body.products[0].quantity).toBe(2);
  });

  it('keeps a product archived since in the subscription, but refuses it as a new one', async () => {
    const kept = await pricedProduct(client, 'flat_fee');
    const customer = await subscriber(client);
    const made = await subscribe(client, { customer_id: customer.id, starts_at: now(), products: [{ ...kept, quantity: 1 }] });
    await client.put(`/v1/products/${kept.product_id}/archive`);
    const changed = await changeSubscription(client, made.id, [{ ...kept, quantity: 5 }, { ...seat, quantity: 1 }]);
    expect(changed.products.map((p) => p.quantity)).toEqual([5, 1]);
    const fresh = await monthly()();
    await expect(prepareSubscriptionUpdate(ctx(), fresh.id, { products: [{ ...kept, quantity: 1 }] })).rejects.toMatchObject({ code: 'product_archived' });
  });
});
