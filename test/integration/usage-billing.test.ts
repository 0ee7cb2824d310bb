import fc from 'fast-check';
import { makeCtx } from '../../shared/context';
import { runDueWork } from '../../shared/domain/schedules/run-due';
import { billSubscription } from '../../shared/domain/subscriptions/billing';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';
import { movableClock } from '../support/clock';
import { changeSubscription, monthsAfter, pricedProduct, subscribe, subscriber, type PricedProduct } from '../support/subscriptions';

let api: TestApi;
let client: Client;
const clock = movableClock();
let platform: PricedProduct;

beforeAll(async () => {
  api = await startTestApi({ events: true });
  client = await api.client();
  await withEntity(client);
  platform = await pricedProduct(client, 'flat_fee', { amount: 1_000, name: 'Platform' });
});
afterAll(async () => {
  await api.close();
  clock.restore();
});

const DAY = 86_400_000;
const mine = () => ({ workspaces: new Set([client.workspace]) });
const run = () => runDueWork(clock.now(), mine());
/** Moves the clock to `iso` + `after` ms. */
const moveTo = (iso: string, after = 60_000) => clock.advance(Date.parse(iso) + after - clock.now().getTime());
const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

interface Line { name: string; description: string | null; units_count: number; unit_amount: number; amount_excluding_tax: number; period_starts_at: string | null; period_ends_at: string | null; revenue_type: string }
interface Invoice { id: string; subscription_id: string; period_starts_at: string; period_ends_at: string; amount_excluding_tax: number; line_items: Line[] }

const invoicesOf = async (customerId: string): Promise<Invoice[]> => (await client.get(`/v1/invoices?customer_id=${customerId}&take=100`)).body.data;

let aggregatorCount = 0;
async function aggregator(body: Record<string, unknown>): Promise<string> {
  const reply = await client.post('/v1/aggregators', { name: `meter ${++aggregatorCount}`, ...body });
  expect(reply.status).toBe(201);
  return reply.body.id;
}

/** A dynamic product metered by `aggregatorId`, priced by `price` ({type, prices}) every month (or `interval`). */
async function meteredProduct(aggregatorId: string, name: string, price: Record<string, unknown>, interval: Record<string, unknown> = { period: 'months', count: 1 }): Promise<PricedProduct> {
  const product = await client.post('/v1/products', { name, type: 'dynamic', aggregator_id: aggregatorId });
  expect(product.status).toBe(201);
  const configuration = await client.post('/v1/price-configurations', { product_id: product.body.id, currency: 'EUR', ...price, billing_interval: interval });
  expect(configuration.status).toBe(201);
  return { product_id: product.body.id, price_configuration_id: configuration.body.id };
}

const perUnit = (amount: number) => ({ type: 'volume', prices: [{ from: 1, to: null, amount, unit_count: 1, on_tier_incomplete: 'pro_rata' }] });

let recordCount = 0;
interface Sent { id: string; timestamp: string; tokens: number }
/** Ingests `api_call` events of `tokens` at each timestamp; returns what was sent (ids unique in the file). */
async function ingest(customerId: string, events: Array<{ timestamp: string; tokens: number; id?: string }>, eventType = 'api_call'): Promise<Sent[]> {
  const sent = events.map((e) => ({ id: e.id ?? `rec-${++recordCount}`, timestamp: e.timestamp, tokens: e.tokens }));
  const reply = await client.post('/v1/events/batch', sent.map((e) => ({ customer_id: customerId, event_type: eventType, timestamp: e.timestamp, record: { id: e.id, tokens: e.tokens, amount: e.tokens } })));
  expect(reply.status).toBe(201);
  expect(reply.body.events_failed).toEqual([]);
  return sent;
}
const tokensIn = (events: Sent[], from: string, to: string) => events.filter((e) => e.timestamp >= from && e.timestamp < to).reduce((sum, e) => sum + e.tokens, 0);
const usageLines = (invoice: Invoice) => invoice.line_items.filter((l) => l.revenue_type === 'usage');

describe('a subscription with a flat fee and a usage product, through three periods', () => {
  it("bills each period's usage exactly (boundary events once, in the later period); reruns add nothing; GET shows the current usage", async () => {
    const tokens = await aggregator({ event_type: 'api_call', operation: 'sum', property: 'tokens', unit_name: 'tokens' });
    const usage = await meteredProduct(tokens, 'LLM tokens', { type: 'volume', prices: [{ from: 1, to: 100, amount: 3, unit_count: 1 }, { from: 101, to: null, amount: 2, unit_count: 1 }] });
    const customer = await subscriber(client);
    const quote = await client.post('/v1/quotes', { customer_id: customer.id, type: 'subscription', line_items: [{ ...platform, quantity: 1 }, { ...usage, quantity: 1 }] });
    expect(quote.status).toBe(201);
    const signed = await client.post(`/v1/quotes/${quote.body.id}/sign`, {});
    expect(signed.status).toBe(200);
    const subId = signed.body.subscription_id as string;
    const got = await client.get(`/v2/subscriptions/${subId}`);
    const t0 = got.body.starts_at as string;
    const [t1, t2, t3] = [1, 2, 3].map((n) => monthsAfter(t0, n)) as [string, string, string];
    expect(got.body.products[1]).toMatchObject({ aggregator_id: tokens, unit_name: 'tokens', fee_timing: 'in_arrears', current_usage: { quantity: 0, unit_name: 'tokens', period_starts_at: t0, period_ends_at: t1 } });
    expect(got.body.products[0]).toMatchObject({ aggregator_id: null, unit_name: null });
    expect(got.body.products[0]).not.toHaveProperty('current_usage');
    await run();

    const sent: Sent[] = [];
    const bounds = [t0, t1, t2, t3];
    for (let period = 0; period < 3; period++) {
      const [start, end] = [bounds[period]!, bounds[period + 1]!];
      // The clock is just past `start`: the boundary event exactly at `start`, others during the period, the last
      // one a millisecond before `end` (sent a minute before `end`), and one of another event type that never counts.
      sent.push(...(await ingest(customer.id, [{ timestamp: start, tokens: 7 + period }, { timestamp: plus(start, 1_000), tokens: 40 }])));
      await ingest(customer.id, [{ timestamp: plus(start, 2_000), tokens: 1_000 }], 'other_call');
      moveTo(start, 10 * DAY);
      sent.push(...(await ingest(customer.id, [{ timestamp: plus(start, 10 * DAY - 5_000), tokens: 30 * (period + 1) }])));
      await api.events.settle();
      if (period === 1) {
        const current = (await client.get(`/v2/subscriptions/${subId}`)).body.products[1].current_usage;
        expect(current).toEqual({ quantity: tokensIn(sent, t1, clock.now().toISOString()), unit_name: 'tokens', period_starts_at: t1, period_ends_at: t2 });
      }
      moveTo(end, -60_000);
      sent.push(...(await ingest(customer.id, [{ timestamp: plus(end, -1), tokens: 5 }])));
      moveTo(end);
      // The next period's boundary event is there before the billing run: it belongs to the next period only.
      if (period < 2) sent.push(...(await ingest(customer.id, [{ timestamp: end, tokens: 11 + period }])));
      await api.events.settle();
      await Promise.all([run(), run()]);
      await run();
    }
    // Period 0's boundary event was sent at t0, period 1's at t1 both as "start" and as "end" of the period before.
    const invoices = await invoicesOf(customer.id);
    expect(invoices).toHaveLength(4);
    expect(invoices.map((i) => usageLines(i).map((l) => [l.period_starts_at, l.period_ends_at]))).toEqual([[], [[t0, t1]], [[t1, t2]], [[t2, t3]]]);
    for (let period = 0; period < 3; period++) {
      const quantity = tokensIn(sent, bounds[period]!, bounds[period + 1]!);
      const [line] = usageLines(invoices[period + 1]!);
      expect(line).toMatchObject({ name: 'LLM tokens', units_count: quantity, description: `${quantity} tokens`, amount_excluding_tax: quantity * (quantity > 100 ? 2 : 3) });
      expect(invoices[period + 1]!.line_items.find((l) => l.name === 'Platform')).toMatchObject({ amount_excluding_tax: 1_000, period_starts_at: bounds[period + 1] });
    }
    // Each boundary event counted once: the three periods' quantities add up to the usage of the whole span.
    const span = (await client.get(`/v1/customers/${customer.id}/usage?aggregator_id=${tokens}&from=${t0}&to=${t3}`)).body.value;
    expect([1, 2, 3].reduce((sum, i) => sum + usageLines(invoices[i]!)[0]!.units_count, 0)).toBe(span);
    expect(span).toBe(tokensIn(sent, t0, t3));

    // A rerun of billing, scheduled or direct, issues nothing more.
    const ctx = makeCtx(client.workspace, 'test');
    expect((await Promise.all([billSubscription(ctx, subId), billSubscription(ctx, subId), run()])).slice(0, 2)).toEqual([0, 0]);
    expect(await invoicesOf(customer.id)).toHaveLength(4);
    await client.post(`/v1/subscriptions/${subId}/cancel`, { mode: 'immediately' });
    expect((await client.get(`/v2/subscriptions/${subId}`)).body.products[1].current_usage).toBeNull();
  });
});

describe('pricing metered usage', () => {
  it('prices one period of usage by volume, packaged and bulk prices, and bps per event with its cap and floor', async () => {
    const units = await aggregator({ event_type: 'job', operation: 'sum', property: 'tokens', unit_name: 'jobs' });
    const payments = await aggregator({ event_type: 'payment', operation: 'sum', property: 'amount', unit_name: 'cents' });
    const tiers = [{ from: 1, to: 10, amount: 100, unit_count: 1 }, { from: 11, to: null, amount: 80, unit_count: 1 }];
    const [volume, packaged, bulk, bps] = await Promise.all([
      meteredProduct(units, 'Volume jobs', { type: 'volume', prices: tiers }),
      meteredProduct(units, 'Packaged jobs', { type: 'packaged', prices: [{ from: 1, to: null, amount: 500, unit_count: 10, on_tier_incomplete: 'pay_in_full' }] }),
      meteredProduct(units, 'Bulk jobs', { type: 'bulk', prices: tiers }),
      meteredProduct(payments, 'Payments', {
        type: 'bps', prices: [{ from: 1, to: 2, percentage: 2.5, per_unit_cap: 300, per_unit_floor: 10 }, { from: 3, to: null, percentage: 1 }],
      }),
    ]);
    const customer = await subscriber(client);
    const t0 = clock.now().toISOString();
    const sub = await subscribe(client, {
      customer_id: customer.id, starts_at: t0, products: [volume, packaged, bulk, bps].map((p) => ({ ...p, quantity: 0 })),
    });
    await ingest(customer.id, [{ timestamp: plus(t0, 1_000), tokens: 10 }, { timestamp: plus(t0, 2_000), tokens: 8 }, { timestamp: plus(t0, 3_000), tokens: 7 }], 'job');
    // In time order: 2.5 % of 100 = 3 → floor 10; of 20,000 = 500 → cap 300; then 1 %: 100 and 40 (no cap or floor).
    await ingest(customer.id, [4_000, 100, 20_000, 10_000].map((amount, i) => ({ timestamp: plus(t0, [9, 1, 2, 5][i]! * 1_000 + 500), tokens: amount })), 'payment');
    await ingest(customer.id, [{ timestamp: plus(t0, 6_000), tokens: -500 }], 'payment');
    await api.events.settle();
    const current = (await client.get(`/v2/subscriptions/${sub.id}`)).body.products.map((p: { current_usage: { quantity: number } }) => p.current_usage.quantity);
    expect(current).toEqual([25, 25, 25, 34_100 - 500]);
    moveTo(monthsAfter(t0, 1));
    await run();
    const [invoice, ...more] = await invoicesOf(customer.id);
    expect(more).toEqual([]);
    expect(invoice!.line_items.map((l) => [l.name, l.units_count, l.amount_excluding_tax, l.description])).toEqual([
      ['Volume jobs', 25, 25 * 80, '25 jobs'],
      ['Packaged jobs', 25, 3 * 500, '25 jobs'],
      ['Bulk jobs', 25, 10 * 100 + 15 * 80, '25 jobs'],
      ['Payments', 4, 10 + 300 + 100 + 40, '34100 cents in 4 events'],
    ]);
    await client.post(`/v1/subscriptions/${sub.id}/cancel`, { mode: 'immediately' });
  });

  it('refuses a metered product whose prices cannot price any usage, and bps over an aggregator that does not sum the amount; quotes a bps one that does', async () => {
    const counted = await aggregator({ event_type: 'payment', operation: 'count', unit_name: 'payments' });
    const customer = await subscriber(client);
    const bounded = await meteredProduct(counted, 'Bounded', { type: 'volume', prices: [{ from: 1, to: 1_000, amount: 1, unit_count: 1 }] });
    const quote = await client.post('/v1/quotes', { customer_id: customer.id, type: 'subscription', line_items: [{ ...bounded, quantity: 1 }] });
    // The quote is checked as the subscription it would make: refused at once, saying why.
    expect([quote.status, quote.body.code]).toEqual([422, 'price_not_supported']);
    expect(quote.body.message).toMatch(/open-ended/);
    const bps = await meteredProduct(counted, 'Counted bps', { type: 'bps', prices: [{ from: 1, to: null, percentage: 1 }] });
    const counting = await client.post('/v1/quotes', { customer_id: customer.id, type: 'subscription', line_items: [{ ...bps, quantity: 1 }] });
    expect([counting.status, counting.body.code]).toEqual([422, 'price_not_supported']);
    expect(counting.body.message).toMatch(/must sum that amount/);
    expect((await client.get(`/v2/subscriptions?customer_id=${customer.id}`)).body.data).toEqual([]);
    // Over a summing aggregator, a bps product can be quoted (valued 0: its usage is priced when billed) and signed.
    const summed = await meteredProduct(await aggregator({ event_type: 'payment', operation: 'sum', property: 'amount', unit_name: 'cents' }), 'Summed bps', { type: 'bps', prices: [{ from: 1, to: null, percentage: 1 }] });
    const quote2 = await client.post('/v1/quotes', { customer_id: customer.id, type: 'subscription', line_items: [{ ...platform, quantity: 1 }, { ...summed, quantity: 1 }] });
    expect([quote2.status, quote2.body.amount, quote2.body.line_items[1].amount]).toEqual([201, 1_000, 0]);
    const signed = await client.post(`/v1/quotes/${quote2.body.id}/sign`, {});
    expect(signed.status).toBe(200);
    expect((await client.get(`/v2/subscriptions/${signed.body.subscription_id}`)).body.products[1]).toMatchObject({ product_id: summed.product_id, unit_name: 'cents', fee_timing: 'in_arrears' });
    await client.post(`/v1/subscriptions/${signed.body.subscription_id}/cancel`, { mode: 'immediately' });
  });
});

describe('late usage', () => {
  it('bills usage that arrives after its period was invoiced as a late-usage line on the next invoice, once; a decrease bills nothing', async () => {
    const calls = await aggregator({ event_type: 'late_call', operation: 'sum', property: 'tokens', unit_name: 'calls' });
    const product = await meteredProduct(calls, 'Calls', perUnit(10));
    const customer = await subscriber(client);
    const t0 = clock.now().toISOString();
    const [t1, t2, t3, t4] = [1, 2, 3, 4].map((n) => monthsAfter(t0, n)) as [string, string, string, string];
    const sub = await subscribe(client, { customer_id: customer.id, starts_at: t0, products: [{ ...product, quantity: 0 }] });
    await ingest(customer.id, [{ id: 'late-a', timestamp: plus(t0, 1_000), tokens: 50 }, { timestamp: plus(t0, 2_000), tokens: 50 }], 'late_call');
    await api.events.settle();
    moveTo(t1);
    await run();
    // Invoiced: 100 calls of period 0. Then period 0 changes: one event replaced by a lower one (−30), one new (+40).
    await ingest(customer.id, [{ id: 'late-a', timestamp: plus(t0, 1_000), tokens: 20 }, { timestamp: plus(t1, -1), tokens: 40 }], 'late_call');
    await ingest(customer.id, [{ id: 'late-b', timestamp: plus(t1, 5_000), tokens: 3 }], 'late_call');
    await api.events.settle();
    moveTo(t2);
    await Promise.all([run(), run()]);
    // Period 0 now holds 110 calls (1,100) against 1,000 invoiced: 100 more, whatever the decrease.
    let invoices = await invoicesOf(customer.id);
    expect(invoices.map((i) => i.line_items.map((l) => [l.name, l.units_count, l.amount_excluding_tax, l.period_starts_at, l.period_ends_at]))).toEqual([
      [['Calls', 100, 1_000, t0, t1]],
      [['Calls', 3, 30, t1, t2], ['Calls (late usage)', 10, 100, t0, t1]],
    ]);
    expect(invoices[1]!.line_items[1]!.description).toBe(`Late usage for ${t0.slice(0, 10)} – ${t1.slice(0, 10)}: 110 calls in all, 100 invoiced before`);
    // Period 1 decreases (3 → 2 calls: not refunded, a credit note does that); period 0 grows again (+5, still within
    // the ingestion horizon): only what exceeds the amount invoiced so far is billed.
    await ingest(customer.id, [{ id: 'late-b', timestamp: plus(t1, 5_000), tokens: 0 }, { timestamp: plus(t1, 10_000), tokens: 2 }, { timestamp: plus(t1, -2_000), tokens: 5 }], 'late_call');
    await api.events.settle();
    moveTo(t3);
    await run();
    await billSubscription(makeCtx(client.workspace, 'test'), sub.id);
    invoices = await invoicesOf(customer.id);
    expect(invoices).toHaveLength(3);
    expect(invoices[2]!.line_items.map((l) => [l.name, l.units_count, l.amount_excluding_tax, l.period_starts_at])).toEqual([['Calls (late usage)', 5, 50, t0]]);
    // Period 0 closed (its end is more than the ingestion horizon ago): no event can reach it any more.
    const tooOld = await client.post('/v1/events', { customer_id: customer.id, event_type: 'late_call', timestamp: plus(t1, -1_000), record: { id: 'too-old', tokens: 1 } });
    expect(tooOld.body.code).toBe('timestamp_too_old');
    moveTo(t4);
    await run();
    expect(await invoicesOf(customer.id)).toHaveLength(3);
    await client.post(`/v1/subscriptions/${sub.id}/cancel`, { mode: 'immediately' });
  });
});

describe('a subscription update', () => {
  it('keeps a kept metered product\'s meter and invoiced periods: late usage of a period billed before the update is billed after it', async () => {
    const calls = await aggregator({ event_type: 'kept_call', operation: 'count', unit_name: 'calls' });
    const product = await meteredProduct(calls, 'Kept calls', perUnit(10));
    const customer = await subscriber(client);
    const t0 = clock.now().toISOString();
    const [t1, t2] = [monthsAfter(t0, 1), monthsAfter(t0, 2)];
    const sub = await subscribe(client, { customer_id: customer.id, starts_at: t0, products: [{ ...product, quantity: 0 }] });
    await ingest(customer.id, [{ timestamp: plus(t0, 1_000), tokens: 1 }], 'kept_call');
    await api.events.settle();
    moveTo(t1);
    await run();
    // The catalog product now points to another aggregator: the running subscription keeps its own.
    const other = await aggregator({ event_type: 'other_call', operation: 'count', unit_name: 'others' });
    expect((await client.put(`/v1/products/${product.product_id}`, { aggregator_id: other })).status).toBe(200);
    const changed = await changeSubscription(client, sub.id, [{ ...product, quantity: 0 }, { ...platform, quantity: 1 }]);
    expect(changed.products[0]).toMatchObject({ id: sub.products[0]!.id, aggregator_id: calls, unit_name: 'calls' });
    await ingest(customer.id, [{ timestamp: plus(t1, -1_000), tokens: 1 }, { timestamp: plus(t1, 1_000), tokens: 1 }], 'kept_call');
    await ingest(customer.id, [{ timestamp: plus(t1, 2_000), tokens: 1 }], 'other_call');
    await api.events.settle();
    moveTo(t2);
    await run();
    const invoices = await invoicesOf(customer.id);
    expect(invoices.map((i) => i.line_items.map((l) => [l.name, l.units_count, l.amount_excluding_tax, l.period_starts_at]))).toEqual([
      [['Kept calls', 1, 10, t0]],
      [['Platform', 1, 1_000, t2], ['Kept calls', 1, 10, t1], ['Kept calls (late usage)', 1, 10, t0]],
    ]);
    await client.post(`/v1/subscriptions/${sub.id}/cancel`, { mode: 'immediately' });
  });
});

describe('property: the periods billed add up to the usage of the whole span', () => {
  it('for random events over three daily periods (boundaries included), each usage line equals its events and their sum the span', async () => {
    const counted = await aggregator({ event_type: 'tick', operation: 'count', unit_name: 'ticks' });
    const product = await meteredProduct(counted, 'Ticks', perUnit(7), { period: 'days', count: 1 });
    const now = clock.now().getTime();
    const t0 = new Date(now - 3 * DAY - 3_600_000 - 1234).toISOString();
    const bounds = [0, 1, 2, 3].map((n) => plus(t0, n * DAY));
    const offset = fc.oneof(
      fc.integer({ min: 0, max: 3 * DAY + 60_000 }),
      fc.constantFrom(0, DAY, 2 * DAY, 3 * DAY, DAY - 1, 2 * DAY - 1, 3 * DAY - 1),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(offset, { minLength: 1, maxLength: 25 }), async (offsets) => {
        const customer = await subscriber(client);
        // Started three days (and an hour) ago: the run bills periods 0, 1 and 2 in one go, from events sent before.
        await subscribe(client, { customer_id: customer.id, starts_at: t0, products: [{ ...product, quantity: 0 }] });
        const sent = await ingest(customer.id, offsets.map((ms) => ({ timestamp: plus(t0, ms), tokens: 1 })), 'tick');
        await api.events.settle();
        await run();
        const lines = (await invoicesOf(customer.id)).flatMap(usageLines);
        const expected = [0, 1, 2].map((p) => [bounds[p], bounds[p + 1], sent.filter((e) => e.timestamp >= bounds[p]! && e.timestamp < bounds[p + 1]!).length]).filter(([, , n]) => n !== 0);
        expect(lines.map((l) => [l.period_starts_at, l.period_ends_at, l.units_count])).toEqual(expected);
        const span = (await client.get(`/v1/customers/${customer.id}/usage?aggregator_id=${counted}&from=${bounds[0]}&to=${bounds[3]}`)).body.value;
        expect(lines.reduce((sum, l) => sum + l.units_count, 0)).toBe(span);
        expect(lines.every((l) => l.amount_excluding_tax === 7 * l.units_count)).toBe(true);
      }),
      { numRuns: 6 },
    );
  });
});
