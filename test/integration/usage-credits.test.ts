import fc from 'fast-check';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { handler as streamHandler } from '../../functions/streams/events';
import { makeCtx } from '../../shared/context';
import { getItem } from '../../shared/db/items';
import { creditBalanceKey } from '../../shared/domain/credits/credit';
import { readBalanceAndLots } from '../../shared/domain/credits/read';
import { usageEventKey, type UsageEventItem } from '../../shared/domain/metering/usage-event';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';
import { subscribe, subscriber } from '../support/subscriptions';

let api: TestApi;
let client: Client;

beforeAll(async () => {
  api = await startTestApi({ events: true });
  client = await api.client();
  await withEntity(client);
});
afterAll(() => api.close());

type Tx = Record<string, any>;
const DAY = 86_400_000;
/** Event times a little in the past: inside the ingestion horizon, never ahead of the server's clock. */
const past = (minutes = 1) => new Date(Date.now() - minutes * 60_000).toISOString();
let unique = 0;
/** Record ids are the workspace's: each test takes its own. */
const rid = (name: string) => `${name}-${++unique}-${Date.now()}`;

async function aggregator(body: Record<string, unknown>, owner: Client = client): Promise<string> {
  const reply = await owner.post('/v1/aggregators', { name: `${body.operation}`, event_type: 'llm.call', ...body });
  expect(reply.status).toBe(201);
  return reply.body.id;
}

async function creditProduct(aggregatorId: string, owner: Client = client): Promise<string> {
  const reply = await owner.post('/v1/products', { name: 'Token credits', type: 'credit', aggregator_id: aggregatorId });
  expect([reply.status, reply.body.aggregator_id]).toEqual([201, aggregatorId]);
  return reply.body.id;
}

const customer = async (owner: Client = client): Promise<string> => (await owner.post('/v1/customers', { name: 'Token user', currency: 'EUR' })).body.id;

async function topup(customerId: string, productId: string, body: Record<string, unknown>, owner: Client = client): Promise<Tx> {
  const reply = await owner.post(`/v1/customers/${customerId}/credits/${productId}/topup`, body);
  expect(reply.status).toBe(201);
  return reply.body;
}

const event = (customerId: string, id: string, tokens: unknown, event_type = 'llm.call', extra: Record<string, unknown> = {}) => ({
  customer_id: customerId, event_type, timestamp: past(), record: { id, tokens, ...extra },
});

async function send(events: unknown[], owner: Client = client, query = ''): Promise<void> {
  const reply = await owner.post(`/v1/events/batch${query}`, events);
  expect([reply.status, reply.body.events_failed]).toEqual([201, []]);
}

/** The whole ledger, oldest first, read page by page. */
async function ledger(customerId: string, productId: string, owner: Client = client): Promise<Tx[]> {
  const entries: Tx[] = [];
  for (;;) {
    const reply = await owner.get(`/v1/customers/${customerId}/credits/${productId}/transactions?take=100&skip=${entries.length}`);
    expect(reply.status).toBe(200);
    entries.push(...reply.body.data);
    if (entries.length >= reply.body.meta.total || reply.body.data.length === 0) return entries;
  }
}

const balanceOf = async (customerId: string, productId: string, owner: Client = client) =>
  (await owner.get(`/v1/customers/${customerId}/credits/${productId}`)).body.current_balance as number;

const usages = (entries: Tx[]) => entries.filter((t) => t.type === 'usage');

async function messages(owner: Client, types: string[]): Promise<Array<{ payload: { event_type: string; data: Tx } }>> {
  const reply = await owner.get(`/v1/webhooks/messages?limit=250&${types.map((t) => `event_types=${t}`).join('&')}`);
  expect(reply.status).toBe(200);
  return reply.body.data;
}

describe('credits consumed by usage', () => {
  it('each matching event consumes its contribution at once, earliest-expiring first, with event_id and aggregator_id', async () => {
    const tokens = await aggregator({ operation: 'sum', property: 'tokens', filters: [{ property: 'model', operator: 'not_equals', value: 'free' }] });
    const calls = await aggregator({ operation: 'count' });
    const [byTokens, byCalls] = [await creditProduct(tokens), await creditProduct(calls)];
    const c = await customer();
    const never = await topup(c, byTokens, { credit_count: 100 });
    const expiring = await topup(c, byTokens, { credit_count: 50, expires_at: new Date(Date.now() + DAY).toISOString() });
    await topup(c, byCalls, { credit_count: 10 });
    const [e1, e2, e3, e4] = [rid('e1'), rid('e2'), rid('e3'), rid('e4')];
    await send([
      event(c, e1, 30),
      event(c, e2, 500, 'other.type'), // another event type: matches neither aggregator
      event(c, e3, 40),
      event(c, e4, 25, 'llm.call', { model: 'free' }), // filtered out of the token aggregator, still a call
    ]);
    await api.events.settle();

    const tokenUsages = usages(await ledger(c, byTokens));
    expect(tokenUsages.map((t) => [t.event_id, t.credit_count, t.uncovered_count, t.balance_after, t.source])).toEqual([
      [e1, 30, 0, 120, 'system'],
      [e3, 40, 0, 80, 'system'],
    ]);
    expect(await balanceOf(c, byTokens)).toBe(80);
    // Earliest-expiring first: the 50 expiring credits went first (30, then 20 of the 40); 80 never-expiring remain.
    const { lots } = await readBalanceAndLots(creditBalanceKey(makeCtx(client.workspace, 't'), c, byTokens).pk);
    expect(lots.map((l) => [l.id, l.remaining])).toEqual([[never.id, 80]]);
    expect(expiring.id).not.toBe(never.id);

    // The count aggregator: 1 credit per matching event (e1, e3, e4), whatever its properties.
    expect(usages(await ledger(c, byCalls)).map((t) => [t.event_id, t.credit_count])).toEqual([[e1, 1], [e3, 1], [e4, 1]]);
    expect(await balanceOf(c, byCalls)).toBe(7);

    // The event data carries the aggregator (list items do not, as the spec says).
    const created = (await messages(client, ['credit.usage_transaction_created'])).map((m) => m.payload.data).filter((d) => d.event_id === e1);
    expect(created.map((d) => [d.product_id, d.aggregator_id, d.credit_count]).sort()).toEqual([[byCalls, calls, 1], [byTokens, tokens, 30]].sort());
  });

  it('consumes nothing (and fails nothing) for a customer without a balance of the product', async () => {
    const tokens = await aggregator({ operation: 'sum', property: 'tokens' });
    const product = await creditProduct(tokens);
    const [holder, other] = [await customer(), await customer()];
    await topup(holder, product, { credit_count: 5 });
    const id = rid('nobal');
    await send([event(other, id, 3)]);
    await api.events.settle();
    expect((await client.get(`/v1/customers/${other}/credits/${product}`)).status).toBe(404);
    expect(await ledger(other, product)).toEqual([]);
    expect(await balanceOf(holder, product)).toBe(5);
  });

  it('consumes once per event id: concurrent duplicate batches, a resend, a replacement and a redelivered stream batch', async () => {
    const tokens = await aggregator({ operation: 'sum', property: 'tokens' });
    const product = await creditProduct(tokens);
    const c = await customer();
    await topup(c, product, { credit_count: 1_000 });
    const ids = [rid('d'), rid('d'), rid('d')];
    const batch = ids.map((id, i) => event(c, id, 10 * (i + 1)));
    await Promise.all([send(batch), send(batch), send([...batch].reverse()), send(batch.slice(1))]);
    await api.events.settle();
    expect(usages(await ledger(c, product)).map((t) => [t.event_id, t.credit_count]).sort()).toEqual(ids.map((id, i) => [id, 10 * (i + 1)]).sort());

    // A replacement (another value under the same record id): usage follows it, the credits consumed do not.
    await send([event(c, ids[0]!, 999)]);
    await api.events.settle();
    expect(usages(await ledger(c, product))).toHaveLength(3);
    expect(await balanceOf(c, product)).toBe(1_000 - 60);

    // A stream batch delivered twice (a crash after the consumption, before the checkpoint), the event never seen.
    const ctx = makeCtx(client.workspace, 't');
    const stored = (await getItem<UsageEventItem>(usageEventKey(ctx, ids[1]!), true))!;
    const fresh = rid('redelivered');
    const item = { ...stored, ...usageEventKey(ctx, fresh), id: fresh, properties: { tokens: 7 } };
    const insert: DynamoDBStreamEvent = {
      Records: [{ eventID: `ins-${fresh}`, eventName: 'INSERT', dynamodb: { Keys: marshall({ pk: item.pk, sk: item.sk }) as never, NewImage: marshall(item) as never, SequenceNumber: `1${unique}` } }],
    };
    expect(await streamHandler(insert)).toEqual({ batchItemFailures: [] });
    expect(await streamHandler(insert)).toEqual({ batchItemFailures: [] });
    const after = usages(await ledger(c, product));
    expect(after.filter((t) => t.event_id === fresh).map((t) => t.credit_count)).toEqual([7]);
    expect(await balanceOf(c, product)).toBe(1_000 - 67);
  });

  it('when the balance runs out: what is left is consumed, the rest recorded as uncovered, never below zero; low balance and zero emitted once', async () => {
    const watched = await api.client();
    await withEntity(watched);
    const tokens = await aggregator({ operation: 'sum', property: 'tokens' }, watched);
    const product = await creditProduct(tokens, watched);
    const c = await customer(watched);
    await topup(c, product, { credit_count: 100 }, watched); // threshold 10
    const steps: Array<[number, number, number, number]> = [
      // tokens, consumed, uncovered, balance after
      [85, 85, 0, 15],
      [10, 10, 0, 5], // crosses 10: credit.low_balance
      [8, 5, 3, 0], // runs out: credit.balance_at_zero
      [4, 0, 4, 0], // nothing left: a usage of 0 credits, 4 uncovered
    ];
    for (const [value] of steps) {
      await send([event(c, rid('out'), value)], watched);
      await api.events.settle(); // one at a time, so the order of the steps is the order of consumption
    }
    expect(usages(await ledger(c, product, watched)).map((t) => [t.credit_count, t.uncovered_count, t.balance_after])).toEqual(steps.map(([, ...rest]) => rest));
    const events = await messages(watched, ['credit.low_balance', 'credit.balance_at_zero']);
    expect(events.map((m) => [m.payload.event_type, m.payload.data.current_balance]).sort()).toEqual([['credit.balance_at_zero', 0], ['credit.low_balance', 5]]);

    // A top-up makes the next events consume again.
    await topup(c, product, { credit_count: 20 }, watched);
    await send([event(c, rid('again'), 6)], watched);
    await api.events.settle();
    expect(usages(await ledger(c, product, watched)).at(-1)).toMatchObject({ credit_count: 6, uncovered_count: 0, balance_after: 14 });
  });

  it('a batch of many events on one balance: consumed in groups, the ledger chains, and it runs out mid-batch exactly once', async () => {
    const watched = await api.client();
    await withEntity(watched);
    const calls = await aggregator({ operation: 'count' }, watched);
    const product = await creditProduct(calls, watched);
    const c = await customer(watched);
    await topup(c, product, { credit_count: 50 }, watched); // threshold 5
    const prefix = rid('many');
    await send(Array.from({ length: 120 }, (_, i) => event(c, `${prefix}-${i}`, 1)), watched);
    await api.events.settle();
    const used = usages(await ledger(c, product, watched));
    expect(used).toHaveLength(120);
    expect(new Set(used.map((t) => t.event_id)).size).toBe(120);
    // Covered first, then uncovered: 50 usages of 1 credit (balance 49 … 0), then 70 of 0 credits, 1 uncovered each.
    expect(used.map((t) => [t.credit_count, t.uncovered_count, t.balance_after])).toEqual([
      ...Array.from({ length: 50 }, (_, i) => [1, 0, 49 - i]),
      ...Array.from({ length: 70 }, () => [0, 1, 0]),
    ]);
    expect(await balanceOf(c, product, watched)).toBe(0);
    const events = await messages(watched, ['credit.low_balance', 'credit.balance_at_zero']);
    expect(events.map((m) => m.payload.event_type).sort()).toEqual(['credit.balance_at_zero', 'credit.low_balance']);
  });

  it('a credit product is metered by a count or sum aggregator only (422 otherwise, at create and update)', async () => {
    const [max, latest, unique, sum] = await Promise.all([
      aggregator({ operation: 'max', property: 'tokens' }), aggregator({ operation: 'latest', property: 'tokens' }),
      aggregator({ operation: 'unique_count', property: 'user' }), aggregator({ operation: 'sum', property: 'tokens' }),
    ]);
    for (const id of [max, latest, unique]) {
      const reply = await client.post('/v1/products', { name: 'Credits', type: 'credit', aggregator_id: id });
      expect([reply.status, reply.body.code]).toEqual([422, 'aggregator_operation_not_allowed']);
      expect(reply.body.message).toContain(id);
    }
    const product = await creditProduct(sum);
    const update = await client.put(`/v1/products/${product}`, { aggregator_id: max });
    expect([update.status, update.body.code]).toEqual([422, 'aggregator_operation_not_allowed']);
    expect((await client.get(`/v1/products/${product}`)).body.aggregator_id).toBe(sum);
    // A dynamic product prices a period: any operation.
    expect((await client.post('/v1/products', { name: 'Peak', type: 'dynamic', aggregator_id: max })).status).toBe(201);
  });

  it('property: credits consumed + balance = credits topped up, one usage per event id, whatever the duplicates and races', async () => {
    const tokens = await aggregator({ operation: 'sum', property: 'tokens' });
    const product = await creditProduct(tokens);
    const version = fc.record({ id: fc.constantFrom('a', 'b', 'c', 'd', 'e'), tokens: fc.integer({ min: 0, max: 40 }) });
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 100 }), fc.array(fc.array(version, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 4 }), async (credits, batches) => {
        const c = await customer();
        await topup(c, product, { credit_count: credits });
        const prefix = rid(c);
        await Promise.all(batches.map((batch) => send(batch.map((v) => event(c, `${prefix}-${v.id}`, v.tokens)))));
        await api.events.settle();
        const used = usages(await ledger(c, product));
        const consumed = used.reduce((n, t) => n + t.credit_count, 0);
        expect(consumed + (await balanceOf(c, product))).toBe(credits);
        // One usage per event id at most, each for the quantity of a version that was sent under that id.
        expect(new Set(used.map((t) => t.event_id)).size).toBe(used.length);
        for (const t of used) {
          const sent = batches.flat().filter((v) => `${prefix}-${v.id}` === t.event_id).map((v) => v.tokens);
          expect(sent).toContain(t.credit_count + t.uncovered_count);
        }
        // Every id with only positive versions consumed (an id whose versions are all 0 consumes nothing).
        const positive = new Set(batches.flat().filter((v) => v.tokens > 0).map((v) => `${prefix}-${v.id}`));
        const allPositive = [...positive].filter((id) => batches.flat().every((v) => `${prefix}-${v.id}` !== id || v.tokens > 0));
        for (const id of allPositive) expect(used.map((t) => t.event_id)).toContain(id);
      }),
      { numRuns: 8 },
    );
  });
});

describe('price calculation', () => {
  it('?with_price_calculation=true prices each event against the active subscription and emits event.price_calculated', async () => {
    const watched = await api.client();
    await withEntity(watched);
    const tokens = await aggregator({ operation: 'sum', property: 'tokens' }, watched);
    const images = await aggregator({ operation: 'count', event_type: 'image' }, watched);
    const product = async (name: string, aggregatorId: string, configuration: Record<string, unknown>) => {
      const p = (await watched.post('/v1/products', { name, type: 'dynamic', aggregator_id: aggregatorId })).body;
      const reply = await watched.post('/v1/price-configurations', { product_id: p.id, currency: 'EUR', billing_interval: { period: 'months', count: 1 }, ...configuration });
      expect(reply.status).toBe(201);
      return { product_id: p.id as string, price_configuration_id: reply.body.id as string };
    };
    const volume = await product('Tokens', tokens, {
      type: 'volume', prices: [{ from: 1, to: 10, amount: 100, unit_count: 1, on_tier_incomplete: 'pro_rata' }, { from: 11, to: null, amount: 50, unit_count: 1, on_tier_incomplete: 'pro_rata' }],
    });
    const packaged = await product('Images', images, { type: 'packaged', prices: [{ from: 1, to: null, amount: 300, unit_count: 10, on_tier_incomplete: 'pay_in_full' }] });
    const c = (await subscriber(watched)).id;
    const unsubscribed = (await subscriber(watched)).id;
    await subscribe(watched, { customer_id: c, starts_at: new Date(Date.now() - 60_000).toISOString(), products: [{ ...volume, quantity: 0 }, { ...packaged, quantity: 0 }] });

    const ids = { small: rid('p'), large: rid('p'), image: rid('p'), negative: rid('p'), unmatched: rid('p'), nosub: rid('p'), plain: rid('p') };
    const image = (id: string) => ({ customer_id: c, event_type: 'image', timestamp: past(), record: { id } });
    await send([
      event(c, ids.small, 4), event(c, ids.large, 12), image(ids.image), event(c, ids.negative, -3),
      event(c, ids.unmatched, 5, 'other.type'), event(unsubscribed, ids.nosub, 5),
    ], watched, '?with_price_calculation=true');
    const single = await watched.post('/v1/events?with_price_calculation=false', event(c, ids.plain, 3));
    expect(single.status).toBe(201);
    await api.events.settle();

    const calculated = (await messages(watched, ['event.price_calculated'])).map((m) => [m.payload.data.event_id, m.payload.data]);
    const expected = (id: string, p: { product_id: string }, aggregatorId: string, quantity: number, amount: number) =>
      [id, { event_id: id, customer_id: c, product_id: p.product_id, aggregator_id: aggregatorId, quantity, amount, currency: 'EUR' }];
    expect(Object.fromEntries(calculated)).toEqual(Object.fromEntries([
      expected(ids.small, volume, tokens, 4, 400), // 4 units in the first tier at 100
      expected(ids.large, volume, tokens, 12, 600), // volume: the second tier prices all 12 units at 50
      expected(ids.image, packaged, images, 1, 300), // one image starts a package of 10, paid in full
    ]));
    expect(calculated).toHaveLength(3); // once per event: no duplicates
  });

  it('POST /v1/events prices one event too; no active subscription, no calculation and no error', async () => {
    const watched = await api.client();
    await withEntity(watched);
    const calls = await aggregator({ operation: 'count' }, watched);
    const p = (await watched.post('/v1/products', { name: 'Calls', type: 'dynamic', aggregator_id: calls })).body;
    const configuration = (await watched.post('/v1/price-configurations', {
      product_id: p.id, currency: 'EUR', billing_interval: { period: 'months', count: 1 }, type: 'bulk', prices: [{ from: 1, to: null, amount: 7, unit_count: 1, on_tier_incomplete: 'pro_rata' }],
    })).body;
    const c = (await subscriber(watched)).id;
    const later = (await subscriber(watched)).id;
    await subscribe(watched, { customer_id: c, starts_at: new Date(Date.now() - 60_000).toISOString(), products: [{ product_id: p.id, price_configuration_id: configuration.id, quantity: 0 }] });
    // Pending (starts tomorrow): not active yet, so its events are not priced.
    await subscribe(watched, { customer_id: later, starts_at: new Date(Date.now() + DAY).toISOString(), products: [{ product_id: p.id, price_configuration_id: configuration.id, quantity: 0 }] });
    const [one, pending] = [rid('one'), rid('pending')];
    expect((await watched.post('/v1/events?with_price_calculation=true', event(c, one, 1))).status).toBe(201);
    expect((await watched.post('/v1/events?with_price_calculation=true', event(later, pending, 1))).status).toBe(201);
    await api.events.settle();
    const data = (await messages(watched, ['event.price_calculated'])).map((m) => m.payload.data);
    expect(data).toEqual([{ event_id: one, customer_id: c, product_id: p.id, aggregator_id: calls, quantity: 1, amount: 7, currency: 'EUR' }]);
  });
});
