/**
 * Subscriptions through the API (docs/subscriptions.md): creation by POST (the same subscription a signed quote
 * makes), changes now with proration (create_invoice, next_invoice, none) or at the next period, trials, pause and
 * resume, cancellation now (final invoice, prorated credit) or at period end and its undo, the events they emit,
 * exactly once under concurrency and across a crash. Through the real local server against DynamoDB Local; the
 * clock is stopped and moved to exact instants, and each test has its own workspace (its own scheduled work).
 */
import { jest } from '@jest/globals';
import { setAfterSendHook } from '../../shared/db/client';
import { currentEffectClaim } from '../../shared/db/effect-claim';
import { runDueWork } from '../../shared/domain/schedules/run-due';
import { LOCK_TIMEOUT_MS } from '../../shared/http/idempotency';
import { startTestApi, withEntity, type Client, type Reply, type TestApi } from '../support/api';
import { movableClock } from '../support/clock';
import { pricedProduct, subscriber, type PricedProduct } from '../support/subscriptions';

let api: TestApi;
const clock = movableClock({ stopped: true });

beforeAll(async () => {
  api = await startTestApi({ events: true });
});
afterAll(async () => {
  setAfterSendHook(undefined);
  await api.close();
  clock.restore();
});

/** March 2031: 31 days, so the worked examples of docs/subscriptions.md apply as they are written. */
const T0 = '2031-03-01T00:00:00.000Z';
const T1 = '2031-04-01T00:00:00.000Z';
const DAY = 86_400_000;
const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();
const at = (iso: string) => clock.advance(Date.parse(iso) - clock.now().getTime());

interface World {
  client: Client;
  seat: PricedProduct;
  plan: PricedProduct;
  lite: PricedProduct;
  calls: PricedProduct;
  customer: { id: string };
  run(): Promise<unknown>;
  invoices(): Promise<any[]>;
  wallet(): Promise<{ balance: number; transactions: any[] } | undefined>;
  get(id: string): Promise<any>;
}

/** A workspace of its own: an entity, the products of the examples, a French customer (20 % VAT). */
async function world(): Promise<World> {
  const client = await api.client();
  await withEntity(client);
  const [seat, plan, lite, calls] = await Promise.all([
    pricedProduct(client, 'seat', { amount: 1_200, name: 'Seats' }),
    pricedProduct(client, 'flat_fee', { amount: 10_000, name: 'Plan' }),
    pricedProduct(client, 'flat_fee', { amount: 2_000, name: 'Plan lite' }),
    pricedProduct(client, 'dynamic', { amount: 200, name: 'Calls' }),
  ]);
  const customer = await subscriber(client);
  return {
    client, seat, plan, lite, calls, customer,
    run: () => runDueWork(clock.now(), { workspaces: new Set([client.workspace]) }),
    invoices: async () => (await client.get(`/v1/invoices?customer_id=${customer.id}&take=100`)).body.data,
    wallet: async () => {
      const found = (await client.get(`/v1/wallets?customer_id=${customer.id}`)).body.data[0];
      if (!found) return undefined;
      const transactions = (await client.get(`/v1/wallets/${found.id}/transactions`)).body.data;
      return { balance: found.balance.amount, transactions };
    },
    get: async (id: string) => (await client.get(`/v2/subscriptions/${id}`)).body,
  };
}

async function created(w: World, body: Record<string, unknown>): Promise<any> {
  const reply = await w.client.post('/v2/subscriptions', { customer_id: w.customer.id, starts_at: T0, ...body });
  expect([reply.status, reply.body.code]).toEqual([201, undefined]);
  return reply.body;
}

/** Each line before the credits (they are applied to the lines like amount coupons). */
const proratedLines = (invoice: any) => invoice.line_items.map((l: any) => [l.name, l.amount_excluding_tax + l.discount_amount, l.period_starts_at, l.period_ends_at]);
const credits = (invoice: any) => invoice.coupons.map((c: any) => [c.name, c.discount_amount]);

/** The subscription's event types, sorted (events of one write have no order between them). */
async function eventsOf(client: Client, id: string): Promise<string[]> {
  await api.events.settle();
  const messages = (await client.get('/v1/webhooks/messages?limit=250')).body.data as Array<{ payload: { event_type: string; data: { id: string } } }>;
  return messages.filter((m) => m.payload.data.id === id).map((m) => m.payload.event_type).sort();
}

describe('POST /v2/subscriptions', () => {
  it('creates the subscription a signed quote creates (same domain function), answers as GET does, and is idempotent', async () => {
    const w = await world();
    at(plus(T0, -DAY));
    const products = [{ ...w.plan, quantity: 1 }, { ...w.seat, quantity: 5 }];
    const quote = (await w.client.post('/v1/quotes', { customer_id: w.customer.id, type: 'subscription', starts_at: T0, line_items: products })).body;
    const signed = await w.client.post(`/v1/quotes/${quote.id}/sign`, {});
    expect(signed.status).toBe(200);
    const fromQuote = await w.get(signed.body.subscription_id);

    const send = (key: string) =>
      api.raw('POST', '/v2/subscriptions', {
        headers: { authorization: `Bearer ${w.client.token}`, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify({ customer_id: w.customer.id, starts_at: T0, products }),
      });
    const first = await send('create-1');
    expect(first.status).toBe(201);
    expect(first.body).toEqual(await w.get(first.body.id));
    const again = await send('create-1');
    expect([again.status, again.headers.get('idempotent-replayed'), again.body]).toEqual([201, 'true', first.body]);
    expect((await w.client.get(`/v2/subscriptions?customer_id=${w.customer.id}`)).body.meta.total).toBe(2);

    const comparable = (s: any) => ({ ...s, id: null, quote_id: null, created_at: null, updated_at: null, products: s.products.map((p: any) => ({ ...p, id: null })) });
    expect(comparable(first.body)).toEqual(comparable(fromQuote));
    expect(first.body).toMatchObject({ status: 'pending', timezone: 'Etc/UTC', trial_ends_at: null, next_billing_at: T0, current_period_started_at: T0, current_period_ends_at: T1 });
  });

  it('refuses bad input with a 4xx that says what is wrong, and writes nothing', async () => {
    const w = await world();
    at(T0);
    const post = (body: Record<string, unknown>) => w.client.post('/v2/subscriptions', { customer_id: w.customer.id, products: [{ ...w.seat, quantity: 1 }], ...body });
    expect((await post({ trial_ends_at: plus(T0, -DAY), starts_at: T0 })).body).toMatchObject({ code: 'invalid_request', errors: [{ path: 'trial_ends_at' }] });
    expect((await post({ customer_id: 'cus_unknown' })).body.code).toBe('customer_not_found');
    expect((await post({ products: [] })).status).toBe(400);
    expect((await post({ products: [{ ...w.seat, quantity: -1 }] })).status).toBe(400);
    expect((await post({ promotion_code: 'NOPE' })).status).toBe(422);
    expect((await w.client.get(`/v2/subscriptions?customer_id=${w.customer.id}`)).body.meta.total).toBe(0);
  });
});

describe('PATCH /v2/subscriptions/{id}: a change now, prorated', () => {
  it('example 1, an upgrade: one invoice of the new part, the unused old part credited on it', async () => {
    const w = await world();
    at(T0);
    const sub = await created(w, { products: [{ ...w.seat, quantity: 5 }] });
    await w.run();
    at('2031-03-11T00:00:00.000Z');
    const changed = await w.client.patch(`/v2/subscriptions/${sub.id}`, { products: [{ ...w.seat, quantity: 8 }] });
    expect(changed.status).toBe(200);
    expect(changed.body.products.map((p: any) => [p.id, p.quantity])).toEqual([[sub.products[0].id, 8]]);
    const invoices = await w.invoices();
    expect(invoices).toHaveLength(2);
    const proration = invoices[1];
    expect(proratedLines(proration)).toEqual([['Seats (prorated)', 6_503, '2031-03-11T00:00:00.000Z', T1]]);
    expect(credits(proration)).toEqual([['Unused time on Seats × 5 (2031-03-11 – 2031-04-01)', 4_065]]);
    expect(proration).toMatchObject({ status: 'to_pay', subscription_id: sub.id, amount_excluding_tax: 2_438, total_amount: 2_926, period_starts_at: '2031-03-11T00:00:00.000Z', period_ends_at: T1 });
    // The next period is billed at the new quantity, once.
    at(T1);
    await Promise.all([w.run(), w.run()]);
    expect((await w.invoices()).map((i) => i.amount_excluding_tax)).toEqual([6_000, 2_438, 9_600]);
  });

  it('example 3, a downgrade: never a negative invoice, the surplus (tax included) credited to the wallet', async () => {
    const w = await world();
    at(T0);
    const sub = await created(w, { products: [{ ...w.plan, quantity: 1 }] });
    await w.run();
    at('2031-03-16T12:00:00.000Z');
    expect((await w.client.patch(`/v2/subscriptions/${sub.id}`, { products: [{ ...w.lite, quantity: 1 }] })).status).toBe(200);
    const invoices = await w.invoices();
    expect(invoices.map((i) => [i.amount_excluding_tax, i.total_amount])).toEqual([[10_000, 12_000], [0, 0]]);
    expect(credits(invoices[1])).toEqual([['Unused time on Plan × 1 (2031-03-16 – 2031-04-01)', 1_000]]);
    const wallet = await w.wallet();
    expect(wallet?.balance).toBe(4_800);
    expect(wallet?.transactions.map((t) => [t.type, t.amount, t.source, t.comment])).toEqual([['credit_paid', 4_800, 'subscription', `Proration credit of subscription ${sub.id}`]]);
  });

  it('next_invoice holds the proration for the next invoice; none prorates nothing; next_period waits for the billing date', async () => {
    const w = await world();
    at(T0);
    const held = await created(w, { products: [{ ...w.seat, quantity: 5 }] });
    const plain = await created(w, { products: [{ ...w.seat, quantity: 5 }] });
    const later = await created(w, { products: [{ ...w.seat, quantity: 5 }, { ...w.calls, quantity: 5 }] });
    await w.run();
    at('2031-03-11T00:00:00.000Z');
    expect((await w.client.patch(`/v2/subscriptions/${held.id}`, { products: [{ ...w.seat, quantity: 8 }], proration_behavior: 'next_invoice' })).status).toBe(200);
    expect((await w.client.patch(`/v2/subscriptions/${plain.id}`, { products: [{ ...w.seat, quantity: 8 }], proration_behavior: 'none' })).status).toBe(200);
    const scheduled = await w.client.patch(`/v2/subscriptions/${later.id}`, { products: [{ ...w.seat, quantity: 8 }, { ...w.calls, quantity: 10 }], effective: 'next_period' });
    expect(scheduled.body.products.map((p: any) => p.quantity)).toEqual([5, 5]);
    expect(scheduled.body.scheduled_change).toMatchObject({ effective_at: T1, products: [{ quantity: 8 }, { quantity: 10 }] });
    expect(await w.invoices()).toHaveLength(3); // only the three first invoices

    at(T1);
    await w.run();
    const bySub = async (id: string) => (await w.invoices()).filter((i) => i.subscription_id === id).map((i) => [i.amount_excluding_tax, credits(i)]);
    expect(await bySub(held.id)).toEqual([[6_000, []], [9_600 + 6_503 - 4_065, [['Unused time on Seats × 5 (2031-03-11 – 2031-04-01)', 4_065]]]]);
    expect(await bySub(plain.id)).toEqual([[6_000, []], [9_600, []]]);
    // The period that ended is billed in arrears at the old quantity, the new period at the new list.
    const last = (await w.invoices()).filter((i) => i.subscription_id === later.id)[1];
    expect(last.line_items.map((l: any) => [l.name, l.amount_excluding_tax])).toEqual([['Seats', 9_600], ['Calls', 1_000]]);
    expect((await w.get(later.id)).scheduled_change).toBeNull();
  });

  it('bills a billing date the scheduler has not reached yet before changing, so the proration is within the period really running', async () => {
    const w = await world();
    at(T0);
    const sub = await created(w, { products: [{ ...w.seat, quantity: 5 }] });
    await w.run();
    at('2031-04-16T00:00:00.000Z'); // 15 of April's 30 days left; the 1 April date is due but not billed
    expect((await w.client.patch(`/v2/subscriptions/${sub.id}`, { products: [{ ...w.seat, quantity: 7 }] })).status).toBe(200);
    const invoices = await w.invoices();
    expect(invoices.map((i) => [i.period_starts_at, i.amount_excluding_tax])).toEqual([[T0, 6_000], [T1, 6_000], ['2031-04-16T00:00:00.000Z', 4_200 - 3_000]]);
    await w.run();
    expect(await w.invoices()).toHaveLength(3);
  });

  it('refuses a change of a cancelled subscription (409), an unknown one (404) and an interval change (422)', async () => {
    const w = await world();
    at(T0);
    const yearly = await pricedProduct(w.client, 'flat_fee', { amount: 100, interval: { period: 'years', count: 1 } });
    const sub = await created(w, { products: [{ ...w.seat, quantity: 1 }] });
    expect((await w.client.patch(`/v2/subscriptions/${sub.id}`, { products: [{ ...yearly, quantity: 1 }] })).body.code).toBe('billing_interval_mismatch');
    expect((await w.client.patch('/v2/subscriptions/sub_unknown', { products: [{ ...w.seat, quantity: 1 }] })).status).toBe(404);
    await w.client.post(`/v1/subscriptions/${sub.id}/cancel`, { mode: 'immediately' });
    expect((await w.client.patch(`/v2/subscriptions/${sub.id}`, { products: [{ ...w.seat, quantity: 2 }] })).status).toBe(409);
  });
});

describe('exactly once', () => {
  it('two concurrent changes now: both answer, the second re-applies on top of the first, and what is billed is the time-weighted price', async () => {
    const w = await world();
    at(T0);
    const sub = await created(w, { products: [{ ...w.seat, quantity: 5 }] });
    await w.run();
    at('2031-03-11T00:00:00.000Z');
    const replies = await Promise.all([8, 10].map((quantity) => w.client.patch(`/v2/subscriptions/${sub.id}`, { products: [{ ...w.seat, quantity }] })));
    expect(replies.map((r) => r.status).sort()).toEqual([200, 200]);
    const final = (await w.get(sub.id)).products[0].quantity as number;
    expect([8, 10]).toContain(final);
    const invoices = await w.invoices();
    const wallet = (await w.wallet())?.transactions.reduce((sum, t) => sum + t.amount, 0) ?? 0;
    // 5 seats for 10 days, `final` seats for 21: billed − credited, excluding tax, within one unit per change.
    const net = invoices.slice(1).reduce((sum, i) => sum + i.amount_excluding_tax, 0) - Math.round(wallet / 1.2);
    expect(Math.abs(net - (final - 5) * 1_200 * 21 / 31)).toBeLessThanOrEqual(2);
  });

  it('a change now whose answer is lost after the commit: the retry with the same Idempotency-Key replays it, one invoice', async () => {
    const w = await world();
    at(T0);
    const sub = await created(w, { products: [{ ...w.seat, quantity: 5 }] });
    await w.run();
    at('2031-03-11T00:00:00.000Z');
    const send = () =>
      api.raw('PATCH', `/v2/subscriptions/${sub.id}`, {
        headers: { authorization: `Bearer ${w.client.token}`, 'content-type': 'application/json', 'idempotency-key': 'upgrade-1' },
        body: JSON.stringify({ products: [{ ...w.seat, quantity: 8 }] }),
      });
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    // The request's own transaction (it runs under its key's claim), not one of the stream's running beside it.
    setAfterSendHook((name) => {
      if (name !== 'TransactWriteItemsCommand' || !currentEffectClaim()) return;
      setAfterSendHook(undefined);
      throw new Error('connection reset after the commit');
    });
    expect((await send()).status).toBe(500);
    expect(await w.invoices()).toHaveLength(2);
    at(plus('2031-03-11T00:00:00.000Z', LOCK_TIMEOUT_MS + 1_000));
    const retry: Reply = await send();
    expect([retry.status, retry.headers.get('idempotent-replayed'), retry.body.products[0].quantity]).toEqual([200, 'true', 8]);
    expect((await send()).body).toEqual(retry.body);
    expect((await w.invoices()).map((i) => i.amount_excluding_tax)).toEqual([6_000, 2_438]);
    logged.mockRestore();
  });
});

describe('trials', () => {
  it('bills nothing in advance during the trial, tells trial_ending 3 days before its end, then bills from its end on', async () => {
    const w = await world();
    at(T0);
    const trialEnd = plus(T0, 14 * DAY);
    const sub = await created(w, { products: [{ ...w.seat, quantity: 2 }], trial_ends_at: trialEnd });
    expect(sub).toMatchObject({ status: 'trialing', trial_ends_at: trialEnd, current_period_started_at: T0, current_period_ends_at: trialEnd, next_billing_at: trialEnd });
    await w.run();
    at(plus(T0, 5 * DAY));
    // A change in the trial takes effect at once, without proration: nothing was billed.
    expect((await w.client.patch(`/v2/subscriptions/${sub.id}`, { products: [{ ...w.seat, quantity: 3 }] })).status).toBe(200);
    at(plus(trialEnd, -3 * DAY + 60_000));
    await Promise.all([w.run(), w.run()]);
    expect(await w.invoices()).toEqual([]);
    at(plus(trialEnd, 60_000));
    await w.run();
    const invoices = await w.invoices();
    expect(invoices.map((i) => [i.period_starts_at, i.period_ends_at, i.amount_excluding_tax])).toEqual([[trialEnd, '2031-04-15T00:00:00.000Z', 3_600]]);
    expect(await w.get(sub.id)).toMatchObject({ status: 'active', current_period_started_at: trialEnd, next_billing_at: '2031-04-15T00:00:00.000Z' });
    expect(await eventsOf(w.client, sub.id)).toEqual(['subscription.activated', 'subscription.created', 'subscription.trial_ended', 'subscription.trial_ending', 'subscription.updated']);
  });
});

describe('pause and resume', () => {
  it('without billing: the billing date of the pause issues nothing; resuming can invoice the rest of the period', async () => {
    const w = await world();
    at(T0);
    const sub = await created(w, { products: [{ ...w.seat, quantity: 5 }] });
    await w.run();
    at(plus(T0, 20 * DAY));
    const paused = await w.client.post(`/v1/subscriptions/${sub.id}/pause`, {});
    expect(paused.body).toMatchObject({ status: 'paused', paused_at: plus(T0, 20 * DAY), pause_billing: 'none' });
    expect((await w.client.post(`/v1/subscriptions/${sub.id}/pause`, {})).status).toBe(409);
    at(plus(T1, 60_000));
    await w.run();
    expect(await w.invoices()).toHaveLength(1);
    at('2031-04-11T00:00:00.000Z'); // 20 of April's 30 days left
    const resumed = await w.client.post(`/v1/subscriptions/${sub.id}/resume`, { proration_behavior: 'create_invoice' });
    expect(resumed.body).toMatchObject({ status: 'active', paused_at: null, pause_billing: null });
    const invoices = await w.invoices();
    expect(invoices.map((i) => i.amount_excluding_tax)).toEqual([6_000, 4_000]);
    expect((await w.client.post(`/v1/subscriptions/${sub.id}/resume`, {})).status).toBe(409);
    expect(await eventsOf(w.client, sub.id)).toEqual(['subscription.activated', 'subscription.created', 'subscription.paused', 'subscription.reactivated', 'subscription.resumed']);
  });

  it('with billing: the billing dates of the pause invoice as usual', async () => {
    const w = await world();
    at(T0);
    const sub = await created(w, { products: [{ ...w.seat, quantity: 5 }] });
    await w.run();
    await w.client.post(`/v1/subscriptions/${sub.id}/pause`, { billing: 'continue' });
    at(plus(T1, 60_000));
    await w.run();
    expect((await w.invoices()).map((i) => i.amount_excluding_tax)).toEqual([6_000, 6_000]);
    expect((await w.get(sub.id)).status).toBe('paused');
  });
});

describe('cancellation', () => {
  it('at period end can be undone before that end; the period is then billed as if nothing happened', async () => {
    const w = await world();
    at(T0);
    const sub = await created(w, { products: [{ ...w.seat, quantity: 5 }] });
    await w.run();
    at(plus(T0, 10 * DAY));
    expect((await w.client.post(`/v1/subscriptions/${sub.id}/cancel`, {})).body).toMatchObject({ cancel_at_period_end: true, ends_at: T1 });
    expect((await w.client.post(`/v1/subscriptions/${sub.id}/cancel`, {})).status).toBe(409);
    const undone = await w.client.post(`/v1/subscriptions/${sub.id}/uncancel`);
    expect(undone.body).toMatchObject({ status: 'active', cancel_at_period_end: false, cancelled_at: null, ends_at: null });
    expect((await w.client.post(`/v1/subscriptions/${sub.id}/uncancel`)).status).toBe(409);
    at(plus(T1, 60_000));
    await w.run();
    expect((await w.invoices()).map((i) => i.amount_excluding_tax)).toEqual([6_000, 6_000]);
    expect(await eventsOf(w.client, sub.id)).toEqual(['subscription.activated', 'subscription.cancellation_scheduled', 'subscription.created', 'subscription.updated', 'subscription.updated']);
  });

  it('now, with prorate: a final invoice of the in-arrears part and the usage so far, the unused in-advance part credited', async () => {
    const w = await world();
    at(T0);
    const meter = (await w.client.post('/v1/aggregators', { name: 'calls', event_type: 'api_call', operation: 'sum', property: 'tokens', unit_name: 'tokens' })).body.id;
    const metered = (await w.client.post('/v1/products', { name: 'Tokens', type: 'dynamic', aggregator_id: meter })).body;
    const meteredPrice = (await w.client.post('/v1/price-configurations', {
      product_id: metered.id, currency: 'EUR', type: 'volume', prices: [{ from: 1, to: null, amount: 3, unit_count: 1, on_tier_incomplete: 'pro_rata' }], billing_interval: { period: 'months', count: 1 },
    })).body;
    const sub = await created(w, { products: [{ ...w.seat, quantity: 5 }, { ...w.calls, quantity: 5 }, { product_id: metered.id, price_configuration_id: meteredPrice.id, quantity: 1 }] });
    await w.run();
    at('2031-03-11T00:00:00.000Z');
    const sent = await w.client.post('/v1/events/batch', [
      { customer_id: w.customer.id, event_type: 'api_call', timestamp: '2031-03-05T10:00:00.000Z', record: { id: 'e1', tokens: 40 } },
      { customer_id: w.customer.id, event_type: 'api_call', timestamp: '2031-03-10T10:00:00.000Z', record: { id: 'e2', tokens: 60 } },
    ]);
    expect(sent.status).toBe(201);
    await api.events.settle();
    // A metered product cannot leave mid-period (its usage is billed per whole period).
    expect((await w.client.patch(`/v2/subscriptions/${sub.id}`, { products: [{ ...w.seat, quantity: 5 }] })).body.code).toBe('metered_change_at_period_end');
    const cancelled = await w.client.post(`/v1/subscriptions/${sub.id}/cancel`, { mode: 'immediately', prorate: true });
    expect(cancelled.body).toMatchObject({ status: 'cancelled', next_billing_at: null, ends_at: '2031-03-11T00:00:00.000Z' });
    const final = (await w.invoices())[1];
    expect(proratedLines(final)).toEqual([['Tokens', 300, T0, '2031-03-11T00:00:00.000Z'], ['Calls', 323, T0, '2031-03-11T00:00:00.000Z']]);
    expect(credits(final)).toEqual([['Unused time on Seats × 5 (2031-03-11 – 2031-04-01)', 623]]);
    expect(final.total_amount).toBe(0);
    // What the invoice could not take: 4,065 − 623 = 3,442, plus 20 % tax (688.4 → 688).
    expect((await w.wallet())?.balance).toBe(3_442 + 688);
    expect(await eventsOf(w.client, sub.id)).toEqual(['subscription.activated', 'subscription.cancelled', 'subscription.created']);
  });
});
