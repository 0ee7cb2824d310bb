import { makeCtx } from '../../shared/context';
import { runDueWork } from '../../shared/domain/schedules/run-due';
import { billSubscription } from '../../shared/domain/subscriptions/billing';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';
import { movableClock } from '../support/clock';
import { changeSubscription, monthsAfter, pricedProduct, subscribe, subscriber, type PricedProduct } from '../support/subscriptions';

let api: TestApi;
let client: Client;
const clock = movableClock();
let fee: PricedProduct;
let seat: PricedProduct;
let usage: PricedProduct;
let setup: PricedProduct;

beforeAll(async () => {
  api = await startTestApi({ events: true });
  client = await api.client();
  await withEntity(client);
  [fee, seat, usage, setup] = await Promise.all([
    pricedProduct(client, 'flat_fee', { amount: 1_000, name: 'Platform' }),
    pricedProduct(client, 'seat', { amount: 500, name: 'Seats' }),
    pricedProduct(client, 'dynamic', { amount: 200, name: 'API calls' }),
    pricedProduct(client, 'flat_fee', { amount: 5_000, name: 'Setup', interval: { period: 'once' } }),
  ]);
});
afterAll(async () => {
  await api.close();
  clock.restore();
});

/** Scheduled work of this file's workspace only: other test files share the table. */
const mine = () => ({ workspaces: new Set([client.workspace]) });
const run = () => runDueWork(clock.now(), mine());
/** Moves the clock to one minute past `iso` (a billing date). */
const moveTo = (iso: string) => clock.advance(Date.parse(iso) + 60_000 - clock.now().getTime());

interface Line { name: string; amount_excluding_tax: number; units_count: number; period_starts_at: string | null; period_ends_at: string | null; revenue_type: string }
interface Invoice { id: string; status: string; number: string; subscription_id: string; period_starts_at: string; period_ends_at: string; amount_excluding_tax: number; total_amount: number; amount_fixed: number; line_items: Line[] }

const invoicesOf = async (customerId: string): Promise<Invoice[]> => (await client.get(`/v1/invoices?customer_id=${customerId}&take=100`)).body.data;
const subscription = async (id: string) => (await client.get(`/v2/subscriptions/${id}`)).body;
const lines = (invoice: Invoice) => invoice.line_items.map((l) => [l.name, l.amount_excluding_tax, l.period_starts_at, l.period_ends_at]);

describe('recurring billing by the scheduled run', () => {
  it('invoices once per period across three monthly periods: in advance at the start, in arrears at the end; repeated and overlapping runs add nothing', async () => {
    const customer = await subscriber(client);
    const t0 = clock.now().toISOString();
    const [t1, t2, t3] = [monthsAfter(t0, 1), monthsAfter(t0, 2), monthsAfter(t0, 3)];
    const sub = await subscribe(client, {
      customer_id: customer.id, starts_at: t0,
      products: [{ ...fee, quantity: 1 }, { ...seat, quantity: 3 }, { ...usage, quantity: 5 }, { ...setup, quantity: 1 }],
    });

    await run();
    await Promise.all([run(), run()]);
    let invoices = await invoicesOf(customer.id);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({
      status: 'to_pay', number: expect.any(String), subscription_id: sub.id, period_starts_at: t0, period_ends_at: t1,
      amount_excluding_tax: 1_000 + 1_500 + 5_000, total_amount: 9_000, amount_fixed: 1_200 + 1_800,
    });
    expect(lines(invoices[0]!)).toEqual([['Platform', 1_000, t0, t1], ['Seats', 1_500, t0, t1], ['Setup', 5_000, null, null]]);
    expect(await subscription(sub.id)).toMatchObject({ status: 'active', current_period_started_at: t0, current_period_ends_at: t1, next_billing_at: t1 });

    moveTo(t1);
    await Promise.all([run(), run()]);
    await run();
    invoices = await invoicesOf(customer.id);
    expect(invoices).toHaveLength(2);
    expect(invoices[1]).toMatchObject({ subscription_id: sub.id, period_starts_at: t1, period_ends_at: t2, amount_excluding_tax: 1_000 + 1_500 + 1_000 });
    expect(lines(invoices[1]!)).toEqual([['Platform', 1_000, t1, t2], ['Seats', 1_500, t1, t2], ['API calls', 1_000, t0, t1]]);
    expect(invoices[1]!.line_items.map((l) => l.revenue_type)).toEqual(['recurring', 'recurring', 'usage']);

    moveTo(t2);
    await Promise.all([run(), run(), run()]);
    invoices = await invoicesOf(customer.id);
    expect(invoices).toHaveLength(3);
    expect(invoices[2]).toMatchObject({ period_starts_at: t2, period_ends_at: t3, amount_excluding_tax: 3_500 });
    expect(lines(invoices[2]!)).toEqual([['Platform', 1_000, t2, t3], ['Seats', 1_500, t2, t3], ['API calls', 1_000, t1, t2]]);
    expect(new Set(invoices.map((i) => i.number)).size).toBe(3);

    expect(await subscription(sub.id)).toMatchObject({ status: 'active', current_period_started_at: t2, current_period_ends_at: t3, next_billing_at: t3 });
    expect((await client.get(`/v1/customers/${customer.id}`)).body.subscriptions).toEqual([
      { id: sub.id, status: 'active', current_period_started_at: t2, current_period_ends_at: t3, plan_id: null, checkout_session_id: null },
    ]);
    await client.post(`/v1/subscriptions/${sub.id}/cancel`, { mode: 'immediately' });
  });

  it('bills a subscription started by signing a quote once per period, across three periods', async () => {
    const customer = await subscriber(client);
    const created = await client.post('/v1/quotes', { customer_id: customer.id, type: 'subscription', line_items: [{ ...fee, quantity: 2 }, { ...usage, quantity: 4 }] });
    expect(created.status).toBe(201);
    const signed = await client.post(`/v1/quotes/${created.body.id}/sign`, {});
    expect(signed.status).toBe(200);
    const sub = await subscription(signed.body.subscription_id);
    expect(sub).toMatchObject({ status: 'active', quote_id: created.body.id });
    const t0 = sub.starts_at as string;
    const dates = [t0, monthsAfter(t0, 1), monthsAfter(t0, 2)];
    for (const date of dates) {
      moveTo(date);
      await Promise.all([run(), run()]);
      await run();
    }
    const invoices = await invoicesOf(customer.id);
    expect(invoices.map((i) => [i.subscription_id, i.period_starts_at, i.amount_excluding_tax])).toEqual([
      [sub.id, dates[0], 2_000], [sub.id, dates[1], 2_000 + 800], [sub.id, dates[2], 2_000 + 800],
    ]);
    await client.post(`/v1/subscriptions/${sub.id}/cancel`, { mode: 'immediately' });
  });

  it("applies the signed quote's promotion code to the subscription's invoices as long as its coupon lasts", async () => {
    const customer = await subscriber(client);
    const twoMonths = (await client.post('/v1/coupons', { name: 'Two months -10%', type: 'percent', discount_percent: 10, repeat: 'duration', duration: { period: 'months', count: 2 } })).body;
    const firstOnly = (await client.post('/v1/coupons', { name: 'Welcome 300', type: 'amount', discount_amount: 300, currency: 'EUR', repeat: 'once' })).body;
    const codes = await Promise.all([twoMonths, firstOnly].map(async (coupon, i) => (await client.post('/v1/promotion-codes', { code: `SUB${i}${Date.now()}`, coupon_id: coupon.id })).body));
    const signedWith = async (code: string) => {
      const quote = (await client.post('/v1/quotes', { customer_id: customer.id, type: 'subscription', promotion_code: code, line_items: [{ ...fee, quantity: 2 }] })).body;
      return subscription((await client.post(`/v1/quotes/${quote.id}/sign`, {})).body.subscription_id);
    };
    const [monthly, welcomed] = [await signedWith(codes[0].code), await signedWith(codes[1].code)];
    expect(monthly.coupons).toEqual([expect.objectContaining({ id: twoMonths.id, repeat: 'duration', duration: { period: 'months', count: 2 } })]);
    const t0 = monthly.starts_at as string;
    for (const date of [t0, monthsAfter(t0, 1), monthsAfter(t0, 2)]) {
      moveTo(date);
      await run();
    }
    const bySubscription = (id: string, invoices: Invoice[]) => invoices.filter((i) => i.subscription_id === id).map((i) => i.amount_excluding_tax);
    const invoices = await invoicesOf(customer.id);
    expect(bySubscription(monthly.id, invoices)).toEqual([1_800, 1_800, 2_000]);
    expect(bySubscription(welcomed.id, invoices)).toEqual([1_700, 2_000, 2_000]);
    await Promise.all([monthly, welcomed].map((sub) => client.post(`/v1/subscriptions/${sub.id}/cancel`, { mode: 'immediately' })));
  });

  it('catches up two missed periods, one invoice each', async () => {
    const customer = await subscriber(client);
    const t0 = clock.now().toISOString();
    const sub = await subscribe(client, { customer_id: customer.id, starts_at: t0, products: [{ ...fee, quantity: 2 }] });
    await run();
    moveTo(monthsAfter(t0, 2));
    await run();
    const invoices = await invoicesOf(customer.id);
    expect(invoices.map((i) => [i.period_starts_at, i.period_ends_at, i.amount_excluding_tax])).toEqual([
      [t0, monthsAfter(t0, 1), 2_000], [monthsAfter(t0, 1), monthsAfter(t0, 2), 2_000], [monthsAfter(t0, 2), monthsAfter(t0, 3), 2_000],
    ]);
    expect((await subscription(sub.id)).next_billing_at).toBe(monthsAfter(t0, 3));
    await client.post(`/v1/subscriptions/${sub.id}/cancel`, { mode: 'immediately' });
  });

  it('bills in-arrears products on the period after: nothing at the start', async () => {
    const customer = await subscriber(client);
    const t0 = clock.now().toISOString();
    const t1 = monthsAfter(t0, 1);
    const sub = await subscribe(client, { customer_id: customer.id, starts_at: t0, products: [{ ...usage, quantity: 12 }] });
    await run();
    expect(await invoicesOf(customer.id)).toHaveLength(0);
    expect(await subscription(sub.id)).toMatchObject({ status: 'active', next_billing_at: t1, current_period_started_at: t0, current_period_ends_at: t1 });
    moveTo(t1);
    await run();
    const [invoice, ...rest] = await invoicesOf(customer.id);
    expect(rest).toHaveLength(0);
    expect(invoice).toMatchObject({ period_starts_at: t0, period_ends_at: t1, amount_excluding_tax: 2_400, amount_fixed: 0 });
    expect(invoice!.line_items[0]).toMatchObject({ units_count: 12, revenue_type: 'usage' });
    await client.post(`/v1/subscriptions/${sub.id}/cancel`, { mode: 'immediately' });
  });

  it('activates a pending subscription at its start date with its first invoice', async () => {
    const customer = await subscriber(client);
    const start = new Date(clock.now().getTime() + 2 * 86_400_000).toISOString();
    const sub = await subscribe(client, { customer_id: customer.id, starts_at: start, products: [{ ...fee, quantity: 1 }] });
    await run();
    expect((await subscription(sub.id)).status).toBe('pending');
    expect(await invoicesOf(customer.id)).toHaveLength(0);
    moveTo(start);
    await run();
    expect((await subscription(sub.id)).status).toBe('active');
    expect((await invoicesOf(customer.id)).map((i) => [i.period_starts_at, i.period_ends_at])).toEqual([[start, monthsAfter(start, 1)]]);
    await client.post(`/v1/subscriptions/${sub.id}/cancel`, { mode: 'immediately' });
    expect(await eventsOf(sub.id)).toEqual([
      ['subscription.created', 'pending'], ['subscription.activated', 'active'], ['subscription.cancelled', 'cancelled'],
    ]);
  });

  it('stops at once when cancelled immediately', async () => {
    const customer = await subscriber(client);
    const t0 = clock.now().toISOString();
    const sub = await subscribe(client, { customer_id: customer.id, starts_at: t0, products: [{ ...fee, quantity: 1 }, { ...usage, quantity: 3 }] });
    await run();
    await client.post(`/v1/subscriptions/${sub.id}/cancel`, { mode: 'immediately' });
    moveTo(monthsAfter(t0, 2));
    await run();
    expect(await invoicesOf(customer.id)).toHaveLength(1);
    expect((await subscription(sub.id)).status).toBe('cancelled');
  });

  it('at the end of the period: bills that period\'s arrears at its end, then is cancelled', async () => {
    const customer = await subscriber(client);
    const t0 = clock.now().toISOString();
    const t1 = monthsAfter(t0, 1);
    const sub = await subscribe(client, { customer_id: customer.id, starts_at: t0, products: [{ ...fee, quantity: 1 }, { ...usage, quantity: 3 }] });
    await run();
    const asked = await client.post(`/v1/subscriptions/${sub.id}/cancel`);
    expect(asked.body).toMatchObject({ status: 'active', cancel_at_period_end: true, ends_at: t1 });
    moveTo(t1);
    await Promise.all([run(), run()]);
    const invoices = await invoicesOf(customer.id);
    expect(invoices).toHaveLength(2);
    expect(invoices[1]).toMatchObject({ period_starts_at: t0, period_ends_at: t1, amount_excluding_tax: 600 });
    expect(lines(invoices[1]!)).toEqual([['API calls', 600, t0, t1]]);
    expect(await subscription(sub.id)).toMatchObject({ status: 'cancelled', next_billing_at: null, ends_at: t1, current_period_started_at: t0, current_period_ends_at: t1 });
    expect((await client.get(`/v1/customers/${customer.id}`)).body.subscriptions[0].status).toBe('cancelled');
    const events = await eventsOf(sub.id);
    // The two events of one write share its time: their order between themselves is not defined.
    expect(events.slice(0, 2).sort()).toEqual([['subscription.activated', 'active'], ['subscription.created', 'active']]);
    expect(events.slice(2, 4).sort()).toEqual([['subscription.cancellation_scheduled', 'active'], ['subscription.updated', 'active']]);
    expect(events.slice(4)).toEqual([['subscription.cancelled', 'cancelled']]);
    moveTo(monthsAfter(t0, 3));
    await run();
    expect(await invoicesOf(customer.id)).toHaveLength(2);
  });

  it('bills a change of products from the next billing date; a one-off product added later is billed once', async () => {
    const customer = await subscriber(client);
    const t0 = clock.now().toISOString();
    const sub = await subscribe(client, { customer_id: customer.id, starts_at: t0, products: [{ ...seat, quantity: 3 }] });
    await run();
    await changeSubscription(client, sub.id, [{ ...seat, quantity: 5 }, { ...setup, quantity: 1 }]);
    moveTo(monthsAfter(t0, 1));
    await run();
    moveTo(monthsAfter(t0, 2));
    await run();
    const invoices = await invoicesOf(customer.id);
    expect(invoices.map((i) => i.line_items.map((l) => [l.name, l.amount_excluding_tax]))).toEqual([
      [['Seats', 1_500]], [['Seats', 2_500], ['Setup', 5_000]], [['Seats', 2_500]],
    ]);
    await client.post(`/v1/subscriptions/${sub.id}/cancel`, { mode: 'immediately' });
  });

  it('cancels the subscription of a deleted customer instead of failing every run', async () => {
    const customer = await subscriber(client);
    const t0 = clock.now().toISOString();
    const sub = await subscribe(client, { customer_id: customer.id, starts_at: t0, products: [{ ...fee, quantity: 1 }] });
    await run();
    await client.delete(`/v1/customers/${customer.id}`);
    moveTo(monthsAfter(t0, 1));
    const result = await run();
    expect(result.failed).toBe(0);
    expect((await subscription(sub.id)).status).toBe('cancelled');
    expect(await invoicesOf(customer.id)).toHaveLength(1);
  });

  it('issues one invoice when many runs bill the same date at once', async () => {
    const customer = await subscriber(client);
    const sub = await subscribe(client, { customer_id: customer.id, starts_at: clock.now().toISOString(), products: [{ ...fee, quantity: 1 }] });
    const ctx = makeCtx(client.workspace, 'test');
    const issued = await Promise.all(Array.from({ length: 8 }, () => billSubscription(ctx, sub.id)));
    expect(issued.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await invoicesOf(customer.id)).toHaveLength(1);
    await client.post(`/v1/subscriptions/${sub.id}/cancel`, { mode: 'immediately' });
  });

  it('leaves nothing due once every subscription is billed or cancelled', async () => {
    expect((await run()).due).toBe(0);
  });
});

async function eventsOf(id: string) {
  await api.events.settle();
  const messages = (await client.get('/v1/webhooks/messages?limit=250')).body.data as Array<{ payload: { event_type: string; data: { id: string; status: string } } }>;
  return messages.filter((m) => m.payload.data.id === id).map((m) => [m.payload.event_type, m.payload.data.status]).reverse();
}
