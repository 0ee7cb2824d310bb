import { startTestApi, type Client, type TestApi } from '../support/api';
import { monthsAfter, pricedProduct, subscribe, subscriber } from '../support/subscriptions';
import { advanceClock, clockedClient } from '../support/test-clocks';
import { billThresholdCrossing } from '../../shared/domain/subscriptions/threshold-billing';
import { workspaceCtx } from '../../shared/domain/test-clocks/workspace-clock';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ events: true });
});
afterAll(() => api.close());

const T0 = '2031-03-10T00:00:00.000Z';
const HOUR = 3_600_000;
const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

interface Line { name: string; units_count: number; amount_excluding_tax: number; revenue_type: string }
interface Invoice { period_starts_at: string; period_ends_at: string; amount_excluding_tax: number; line_items: Line[]; created_at: string }

/** A test workspace on a clock at T0, with a `tokens` aggregator and a metered product at 10 a token. */
async function meteredSetup() {
  const { client, clockId } = await clockedClient(api, T0);
  const aggregator = (await client.post('/v1/aggregators', { name: 'Tokens', event_type: 'api_call', operation: 'sum', property: 'tokens', unit_name: 'tokens' })).body.id;
  const product = await client.post('/v1/products', { name: 'Tokens', type: 'dynamic', aggregator_id: aggregator });
  const price = await client.post('/v1/price-configurations', {
    product_id: product.body.id, currency: 'EUR', type: 'volume', prices: [{ from: 1, to: null, amount: 10, unit_count: 1, on_tier_incomplete: 'pro_rata' }],
    billing_interval: { period: 'months', count: 1 },
  });
  const customer = await subscriber(client);
  const metered = { product_id: product.body.id as string, price_configuration_id: price.body.id as string };
  return { client, clockId, customer, metered };
}

const advance = async (client: Client, clockId: string, to: string) => {
  const { started, ready } = await advanceClock(client, clockId, to);
  expect([started.status, ready.body.frozen_time]).toEqual([200, to]);
};
let records = 0;
const ingest = async (client: Client, customerId: string, at: string, tokens: number) => {
  const reply = await client.post('/v1/events', { customer_id: customerId, event_type: 'api_call', timestamp: at, record: { id: `t-${++records}`, tokens } });
  expect(reply.status).toBe(201);
  await api.events.settle();
};
const invoicesOf = async (client: Client, customerId: string): Promise<Invoice[]> =>
  ((await client.get(`/v1/invoices?customer_id=${customerId}&take=100`)).body.data as Invoice[]).sort((a, b) => a.created_at.localeCompare(b.created_at) || a.period_ends_at.localeCompare(b.period_ends_at));

describe('billing thresholds', () => {
  it('invoice the usage so far at each crossing, twice in one period, once each; the period end bills only the rest', async () => {
    const { client, clockId, customer, metered } = await meteredSetup();
    const sub = await subscribe(client, { customer_id: customer.id, starts_at: T0, products: [{ ...metered, quantity: 1 }] });
    const set = await client.patch(`/v2/subscriptions/${sub.id}/billing-terms`, { billing_thresholds: { amount_gte: 1_000 } });
    expect(set.body).toEqual({ object: 'subscription_billing_terms', subscription_id: sub.id, billing_thresholds: { amount_gte: 1_000, usage_gte: null }, minimum_invoice_fee: null, min_committed_counts: [], prepaid_commit: null, commit_balance: null });
    const day = plus(T0, 24 * HOUR);
    await advance(client, clockId, day);

    await ingest(client, customer.id, plus(T0, 1 * HOUR), 60); // 600: under the threshold
    expect(await invoicesOf(client, customer.id)).toEqual([]);
    await ingest(client, customer.id, plus(T0, 2 * HOUR), 50); // 1,100 not invoiced: crossed
    await ingest(client, customer.id, plus(T0, 3 * HOUR), 120); // 1,200 more: crossed again
    await ingest(client, customer.id, plus(T0, 4 * HOUR), 30); // 300: under
    // A retried stream batch (or a second consumer) finds nothing over the threshold any more.
    expect(await billThresholdCrossing(await workspaceCtx(client.workspace, 'test'), sub.id)).toBe(false);

    let invoices = await invoicesOf(client, customer.id);
    expect(invoices.map((i) => [i.period_starts_at, i.period_ends_at, i.amount_excluding_tax])).toEqual([[T0, day, 1_100], [T0, day, 1_200]]);
    expect(invoices.map((i) => i.line_items.map((l) => [l.name, l.units_count]))).toEqual([[['Tokens', 110]], [['Tokens', 120]]]);

    const t1 = monthsAfter(T0, 1);
    await advance(client, clockId, plus(t1, HOUR));
    invoices = await invoicesOf(client, customer.id);
    expect(invoices).toHaveLength(3);
    expect([invoices[2]!.period_starts_at, invoices[2]!.period_ends_at, invoices[2]!.amount_excluding_tax]).toEqual([T0, t1, 300]);
    expect(invoices[2]!.line_items.map((l) => [l.name, l.units_count, l.amount_excluding_tax])).toEqual([['Tokens', 30, 300]]);
    expect(invoices.reduce((sum, i) => sum + i.amount_excluding_tax, 0)).toBe(260 * 10);
    await client.delete(`/v1/test-clocks/${clockId}`);
  }, 180_000);
});

describe('commitments', () => {
  it('bill a true-up line when a period falls short of the committed count or the minimum fee, through 13 months on a test clock', async () => {
    const { client, clockId, customer, metered } = await meteredSetup();
    const fee = await pricedProduct(client, 'flat_fee', { amount: 500, name: 'Platform' });
    const sub = await subscribe(client, { customer_id: customer.id, starts_at: T0, products: [{ ...fee, quantity: 1 }, { ...metered, quantity: 1 }] });
    const set = await client.patch(`/v2/subscriptions/${sub.id}/billing-terms`, { minimum_invoice_fee: 3_000, min_committed_counts: [{ product_id: metered.product_id, count: 100 }] });
    expect(set.body).toMatchObject({ minimum_invoice_fee: 3_000, min_committed_counts: [{ product_id: metered.product_id, count: 100 }] });
    expect((await client.patch(`/v2/subscriptions/${sub.id}/billing-terms`, { min_committed_counts: [{ product_id: fee.product_id, count: 5 }] })).body.code).toBe('product_not_metered');

    await advance(client, clockId, plus(T0, HOUR));
    await ingest(client, customer.id, plus(T0, 30 * 60_000), 40); // 40 of the 100 committed
    await advance(client, clockId, plus(monthsAfter(T0, 1), HOUR));
    await ingest(client, customer.id, plus(monthsAfter(T0, 1), 30 * 60_000), 400); // over the commitment and the minimum
    await advance(client, clockId, monthsAfter(T0, 13));

    const invoices = await invoicesOf(client, customer.id);
    expect(invoices).toHaveLength(14);
    const [first, second, third, fourth] = invoices;
    expect(first!.amount_excluding_tax).toBe(500); // in advance: no period closed yet, no minimum
    // Period 0: 400 used + 600 true-up to 100 tokens, + the next fee 500 = 1,500, below the 3,000 minimum: +1,500.
    expect(second!.line_items.map((l) => [l.name, l.amount_excluding_tax])).toEqual([['Platform', 500], ['Tokens', 400], ['Tokens (minimum commitment)', 600], ['Minimum commitment', 1_500]]);
    expect(second!.amount_excluding_tax).toBe(3_000);
    // Period 1: 4,000 of usage + 500: over both.
    expect(third!.line_items.map((l) => [l.name, l.amount_excluding_tax])).toEqual([['Platform', 500], ['Tokens', 4_000]]);
    // No usage: the committed 1,000 and the minimum's rest.
    expect(fourth!.line_items.map((l) => [l.name, l.amount_excluding_tax])).toEqual([['Platform', 500], ['Tokens (minimum commitment)', 1_000], ['Minimum commitment', 1_500]]);
    expect(invoices.slice(3).every((i) => i.amount_excluding_tax === 3_000)).toBe(true);
    await client.delete(`/v1/test-clocks/${clockId}`);
  }, 180_000);
});

describe('prepaid commits', () => {
  it('invoice the commit once per period in advance, draw usage from it, bill the overage after; a threshold invoice draws first', async () => {
    const { client, clockId, customer, metered } = await meteredSetup();
    const sub = await subscribe(client, { customer_id: customer.id, starts_at: T0, products: [{ ...metered, quantity: 1 }] });
    const terms = `/v2/subscriptions/${sub.id}/billing-terms`;
    const refused = [await client.patch(terms, { prepaid_commit: { amount: 1_000, rollover: true } }), await client.patch(terms, { prepaid_commit: { amount: 1_000 }, minimum_invoice_fee: 500 })];
    expect(refused.map((r) => [r.status, r.body.code])).toEqual([[422, 'rollover_not_supported'], [422, 'commit_with_minimum_fee']]);
    expect((await client.get(terms)).body).toMatchObject({ prepaid_commit: null, minimum_invoice_fee: null });
    const set = await client.patch(terms, { prepaid_commit: { amount: 1_000 } }); // 100 tokens a period
    expect(set.body).toMatchObject({ prepaid_commit: { amount: 1_000, rollover: false }, commit_balance: null });
    const lines = (i: Invoice) => i.line_items.map((l) => [l.name, l.amount_excluding_tax]);
    const [t1, t2, t3] = [1, 2, 3].map((n) => monthsAfter(T0, n)) as [string, string, string];

    await advance(client, clockId, plus(T0, HOUR));
    await ingest(client, customer.id, plus(T0, 30 * 60_000), 60); // period 0: 600, under the commit
    await advance(client, clockId, plus(t1, HOUR));
    await ingest(client, customer.id, plus(t1, 30 * 60_000), 150); // period 1: 1,500, over by 500
    await advance(client, clockId, plus(t2, HOUR));
    let invoices = await invoicesOf(client, customer.id);
    expect(invoices.map(lines)).toEqual([
      [['Prepaid commit', 1_000]],
      [['Prepaid commit', 1_000]], // period 0's 600 drawn from its commit: no usage line
      [['Prepaid commit', 1_000], ['Tokens (overage)', 500]],
    ]);

    // Period 2, with a threshold: usage the commit covers invoices nothing; past it, the threshold bills the overage.
    await client.patch(terms, { billing_thresholds: { amount_gte: 300 } });
    await advance(client, clockId, plus(t2, 24 * HOUR));
    await ingest(client, customer.id, plus(t2, 2 * HOUR), 80); // 800: covered
    expect(await invoicesOf(client, customer.id)).toHaveLength(3);
    await ingest(client, customer.id, plus(t2, 3 * HOUR), 50); // 1,300: 300 over the commit, the threshold reached
    expect(await billThresholdCrossing(await workspaceCtx(client.workspace, 'test'), sub.id)).toBe(false); // a retry draws nothing more
    await ingest(client, customer.id, plus(t2, 4 * HOUR), 20); // 200 more: under the threshold
    expect((await client.get(terms)).body.commit_balance).toEqual({ starts_at: t2, ends_at: t3, amount: 1_000, drawn: 1_000 });
    await advance(client, clockId, plus(t3, HOUR));
    invoices = await invoicesOf(client, customer.id);
    expect(invoices.slice(3).map(lines)).toEqual([[['Tokens (overage)', 300]], [['Prepaid commit', 1_000], ['Tokens', 200]]]);
    // Each period: the commit + max(0, usage − commit); the commit once per period (4 periods invoiced in advance).
    expect(invoices.map((i) => i.amount_excluding_tax)).toEqual([1_000, 1_000, 1_500, 300, 1_200]);

    // Period 3 cancelled now: its final invoice draws from the period's commit too.
    await advance(client, clockId, plus(t3, 24 * HOUR));
    await ingest(client, customer.id, plus(t3, 2 * HOUR), 125); // 1,250: 250 over, under the threshold
    expect((await client.post(`/v1/subscriptions/${sub.id}/cancel`, { mode: 'immediately' })).status).toBe(200);
    invoices = await invoicesOf(client, customer.id);
    expect(invoices.slice(5).map(lines)).toEqual([[['Tokens (overage)', 250]]]);
    await client.delete(`/v1/test-clocks/${clockId}`);
  }, 180_000);
});

describe('alerts', () => {
  it('emit alert.triggered once per customer, threshold and billing period as usage crosses them', async () => {
    const { client, clockId, customer, metered } = await meteredSetup();
    const aggregator = (await client.get(`/v1/products/${metered.product_id}`)).body.aggregator_id as string;
    await subscribe(client, { customer_id: customer.id, starts_at: T0, products: [{ ...metered, quantity: 1 }] });
    const usage = await client.post('/v1/alerts', { name: 'Heavy user', type: 'usage', aggregator_id: aggregator, thresholds: [200, 100] });
    expect(usage.body).toMatchObject({ object: 'alert', type: 'usage', aggregator_id: aggregator, customer_id: null, thresholds: [100, 200] });
    const spend = await client.post('/v1/alerts', { name: 'Spend', type: 'spend', customer_id: customer.id, thresholds: [1_500] });
    expect((await client.post('/v1/alerts', { name: 'No meter', type: 'usage', thresholds: [1] })).body.code).toBe('aggregator_required');
    expect((await client.get('/v1/alerts')).body.data.map((a: { id: string }) => a.id).sort()).toEqual([usage.body.id, spend.body.id].sort());

    await advance(client, clockId, plus(T0, 24 * HOUR));
    await ingest(client, customer.id, plus(T0, HOUR), 150); // usage 150: crosses 100; spend 1,500: crosses 1,500
    await ingest(client, customer.id, plus(T0, 2 * HOUR), 10); // 160: nothing new
    await ingest(client, customer.id, plus(T0, 3 * HOUR), 60); // 220: crosses 200
    const t1 = monthsAfter(T0, 1);
    await advance(client, clockId, plus(t1, 24 * HOUR));
    await ingest(client, customer.id, plus(t1, HOUR), 120); // the next period: crosses 100 again

    const reply = await client.get('/v1/webhooks/messages?limit=250&event_types=alert.triggered');
    const triggered = (reply.body.data as Array<{ payload: { data: { alert_id: string; threshold: number; period_starts_at: string; customer_id: string } } }>)
      .map((m) => m.payload.data).map((d) => [d.alert_id === usage.body.id ? 'usage' : 'spend', d.threshold, d.period_starts_at, d.customer_id]).sort();
    expect(triggered).toEqual([
      ['spend', 1_500, T0, customer.id],
      ['usage', 100, T0, customer.id],
      ['usage', 100, t1, customer.id],
      ['usage', 200, T0, customer.id],
    ].sort());
    expect((await client.delete(`/v1/alerts/${usage.body.id}`)).status).toBe(200);
    expect((await client.get(`/v1/alerts/${usage.body.id}`)).status).toBe(404);
    await client.delete(`/v1/test-clocks/${clockId}`);
  }, 180_000);
});
