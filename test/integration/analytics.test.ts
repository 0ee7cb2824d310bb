/**
 * Revenue analytics through the stream: maintained from the documents and subscriptions the API writes (HTTP, the
 * local stream poller), and counted exactly once when a stream batch is retried after a crash, or when many changes
 * of one day and one customer are applied at once.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AsyncLocalStorage } from 'node:async_hooks';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { makeCtx } from '../../shared/context';
import { setAfterSendHook } from '../../shared/db/client';
import { backfillAnalytics } from '../../shared/domain/analytics/backfill';
import { readMetric } from '../../shared/domain/analytics/read';
import { putItems } from '../../shared/db/batch-write';
import { applyAnalyticsRecord } from '../../shared/domain/analytics/stream';
import { consumeMessages } from '../../shared/domain/events/message-batch';
import { newWorkspace, startTestApi, type Client, type TestApi } from '../support/api';
import { pricedProduct, subscribe, subscriber } from '../support/subscriptions';

let api: TestApi;
let client: Client;

beforeAll(async () => {
  api = await startTestApi({ events: true });
  client = await api.client();
});
afterAll(() => api.close());

const today = () => new Date().toISOString().slice(0, 10);

describe('through the API and the stream', () => {
  it('a subscription’s MRR, an issued invoice’s amounts, receivables and recognised revenue; a cancellation churns the customer', async () => {
    const customer = await subscriber(client);
    const product = await pricedProduct(client, 'flat_fee', { amount: 2_500 });
    const subscription = await subscribe(client, { customer_id: customer.id, starts_at: new Date().toISOString(), products: [{ ...product, quantity: 2 }] });
    const invoice = await client.post('/v1/invoices', { customer_id: customer.id, status: 'to_pay', line_items: [{ name: 'Setup', unit_amount: 10_000 }] });
    expect(invoice.status).toBe(201);
    await api.events.settle();

    const day = `from=${today()}&to=${today()}&interval=day`;
    const mrr = await client.get(`/v1/analytics/mrr?currency=EUR&${day}`);
    expect(mrr.status).toBe(200);
    expect(mrr.body).toEqual({ metric: 'mrr', currency: 'EUR', interval: 'day', invoicing_entity_id: null, from: today(), to: today(), data: [{ period_start: today(), value: 5_000 }] });
    const movements = await client.get(`/v1/analytics/mrr_movements?currency=EUR&${day}`);
    expect(movements.body.data).toEqual([{ period_start: today(), value: 5_000, new: 5_000, expansion: 0, contraction: 0, churn: 0, reactivation: 0 }]);
    const invoiced = await client.get(`/v1/analytics/invoiced?currency=EUR&${day}`);
    expect(invoiced.body.data).toEqual([{ period_start: today(), value: invoice.body.total_amount }]);
    const recognised = await client.get(`/v1/analytics/recognised_revenue?currency=EUR&from=${today()}&to=${today()}`);
    expect(recognised.body.data).toEqual([{ period_start: `${today().slice(0, 7)}-01`, value: invoice.body.amount_excluding_tax }]);
    const receivables = await client.get('/v1/analytics/outstanding_receivables?currency=EUR');
    expect(receivables.body.data[0].value).toBe(invoice.body.amount_due);

    const overview = await client.get('/v1/analytics?currency=EUR');
    expect(overview.status).toBe(200);
    expect(overview.body).toMatchObject({ mrr: 5_000, arr: 60_000, active_customers: 1, active_subscriptions: 1, month: { invoiced: invoice.body.total_amount } });

    expect((await client.post(`/v1/subscriptions/${subscription.id}/cancel`, { mode: 'immediately' })).status).toBe(200);
    await api.events.settle();
    const after = await client.get('/v1/analytics?currency=EUR');
    expect(after.body).toMatchObject({ mrr: 0, active_customers: 0, active_subscriptions: 0, month: { churned_customers: 1, mrr_movements: { new: 5_000, churn: -5_000 } } });
  }, 120_000);

  it('an unknown metric, an inverted range or another workspace’s entity is a 4xx that says so', async () => {
    expect((await client.get('/v1/analytics/ebitda?currency=EUR')).status).toBe(400);
    const inverted = await client.get('/v1/analytics/mrr?currency=EUR&from=2026-02-01&to=2026-01-01');
    expect([inverted.status, inverted.body.code]).toEqual([422, 'invalid_range']);
    const other = await api.client();
    const { id } = (await other.post('/v1/invoicing-entities', { name: 'Other', country: 'FR', currency: 'EUR' })).body;
    expect((await client.get(`/v1/analytics/mrr?currency=EUR&invoicing_entity_id=${id}`)).status).toBe(404);
  });
});

/** A stream record of an item change, as Lambda delivers it. */
const recordOf = (eventID: string, before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined): DynamoDBRecord => ({
  eventID, eventName: before ? (after ? 'MODIFY' : 'REMOVE') : 'INSERT',
  dynamodb: {
    Keys: marshall({ pk: (after ?? before)!.pk, sk: (after ?? before)!.sk }) as never,
    ...(before && { OldImage: marshall(before, { removeUndefinedValues: true }) as never }),
    ...(after && { NewImage: marshall(after, { removeUndefinedValues: true }) as never }),
    SequenceNumber: eventID.replace(/\D/g, '').padStart(10, '0'), ApproximateCreationDateTime: Date.parse('2026-03-10T12:00:00Z') / 1000,
  },
});

const invoiceImage = (ws: string, id: string, total: number, lines: { amount: number; from: string; to: string }[] = []) => ({
  pk: `WS#${ws}#INV#${id}`, sk: 'INV', _type: 'invoice', id, type: 'invoice', status: 'to_pay', currency: 'EUR', invoicing_entity_id: 'ent_a',
  total_amount: total, amount_due: total, emitted_at: '2026-03-10T09:00:00.000Z', due_at: '2026-04-09T09:00:00.000Z', updated_at: '2026-03-10T09:00:00.000Z',
  line_items: lines.map((l) => ({ amount_excluding_tax: l.amount, period_starts_at: l.from, period_ends_at: l.to })), transactions: [],
});

const subscriptionImage = (ws: string, id: string, customer: string, status: string, amount: number) => ({
  pk: `WS#${ws}#SUB#${id}`, sk: 'SUB', _type: 'subscription', id, status, customer_id: customer, currency: 'EUR', invoicing_entity_id: 'ent_a',
  updated_at: '2026-03-10T10:00:00.000Z',
  products: [{ billing_interval: { period: 'months', count: 1 }, product_type: 'flat_fee', quantity: 1, price: { type: 'fee', prices: [{ amount }] } }],
});

const value = async (ws: string, metric: 'invoiced' | 'mrr' | 'active_customers' | 'recognised_revenue' | 'mrr_movements', from = '2026-03-10', to = '2026-03-10') =>
  (await readMetric(makeCtx(ws, 'test'), metric, { currency: 'EUR', from, to, interval: 'day' })).data;

describe('exactly once', () => {
  it('a batch retried after a crash counts each change once (a crash between records, and inside a record of several transactions)', async () => {
    const ws = newWorkspace();
    // A 10-year prepaid line: 121 service months, so its record is two transactions (chunks) of the analytics.
    const long = invoiceImage(ws, 'inv_long', 120_000, [{ amount: 120_000, from: '2026-03-10T00:00:00.000Z', to: '2036-03-10T00:00:00.000Z' }]);
    const batch = [recordOf('ev1', undefined, invoiceImage(ws, 'inv_1', 1_000)), recordOf('ev2', undefined, long), recordOf('ev3', undefined, invoiceImage(ws, 'inv_3', 300))];

    // The first try dies after the second record's first transaction committed (its answer lost), before the checkpoint.
    // Only this test's calls count (the API's stream poller runs beside it).
    const crashing = new AsyncLocalStorage<true>();
    let transactions = 0;
    setAfterSendHook((name) => {
      if (crashing.getStore() && name === 'TransactWriteItemsCommand' && ++transactions === 2) throw new Error('crash');
    });
    try {
      await crashing.run(true, async () => {
        await applyAnalyticsRecord(batch[0]!);
        await expect(applyAnalyticsRecord(batch[1]!)).rejects.toThrow('crash');
      });
    } finally {
      setAfterSendHook(undefined);
    }
    expect((await value(ws, 'invoiced'))[0]!.value).toBe(1_000 + 120_000);

    // Lambda retries the whole batch, twice for good measure.
    expect(await consumeMessages(batch)).toBeUndefined();
    expect(await consumeMessages(batch)).toBeUndefined();
    expect((await value(ws, 'invoiced'))[0]!.value).toBe(121_300);
    const months = await readMetric(makeCtx(ws, 'test'), 'recognised_revenue', { currency: 'EUR', from: '2026-03-01', to: '2036-03-31', interval: 'month' });
    expect(months.data.reduce((sum, point) => sum + point.value, 0)).toBe(120_000);
  });

  it('many changes of one day and of one customer applied at once, each delivered twice: every one counted once, the customer classified in turn', async () => {
    const ws = newWorkspace();
    const invoices = Array.from({ length: 30 }, (_, i) => recordOf(`inv-ev${i}`, undefined, invoiceImage(ws, `inv_${i}`, 100 + i)));
    const subscriptions = Array.from({ length: 12 }, (_, i) => recordOf(`sub-ev${i}`, undefined, subscriptionImage(ws, `sub_${i}`, 'cus_one', 'active', 1_000)));
    const all = [...invoices, ...subscriptions];
    await Promise.all([...all, ...all].map((record) => applyAnalyticsRecord(record)));

    expect((await value(ws, 'invoiced'))[0]!.value).toBe(invoices.reduce((sum, _, i) => sum + 100 + i, 0));
    expect((await value(ws, 'mrr'))[0]!.value).toBe(12_000);
    expect((await value(ws, 'active_customers'))[0]!.value).toBe(1);
    // One new customer (the first subscription applied), then expansions: together the MRR.
    expect((await value(ws, 'mrr_movements'))[0]).toMatchObject({ value: 12_000, new: 1_000, expansion: 11_000 });
  }, 120_000);
});

describe('existing data: npm run migrate:analytics', () => {
  it('counts what was written before, beside the live stream, and a second run counts nothing twice', async () => {
    const ws = newWorkspace();
    const invoice = { ...invoiceImage(ws, 'inv_old', 5_000), _version: 1 };
    const subscription = { ...subscriptionImage(ws, 'sub_old', 'cus_old', 'active', 2_000), _version: 3, starts_at: '2026-03-10T08:00:00.000Z' };
    await putItems([invoice, subscription]);
    // Since the deploy, the stream saw the invoice paid (its first change it sees: the item counted whole, as paid).
    const paid = { ...invoice, _version: 2, status: 'paid', amount_due: 0, transactions: [{ id: 'tr_1', type: 'payment', status: 'succeeded', amount: 5_000, currency: 'EUR', process_at: '2026-03-10T11:00:00.000Z' }] };
    await putItems([paid]);
    await applyAnalyticsRecord(recordOf('ev-paid', invoice, paid));

    expect(await backfillAnalytics({ workspace: ws })).toEqual({ counted: 2 });
    expect(await backfillAnalytics({ workspace: ws })).toEqual({ counted: 2 });
    // A late delivery of a change older than what is counted changes nothing.
    await applyAnalyticsRecord(recordOf('ev-late', { ...invoice, _version: 0, status: 'draft' }, invoice));

    const billing = await readMetric(makeCtx(ws, 'test'), 'invoiced', { currency: 'EUR', from: '2026-03-10', to: '2026-03-10', interval: 'day' });
    const collected = await readMetric(makeCtx(ws, 'test'), 'collected', { currency: 'EUR', from: '2026-03-10', to: '2026-03-10', interval: 'day' });
    const receivables = await readMetric(makeCtx(ws, 'test'), 'outstanding_receivables', { currency: 'EUR' });
    expect([billing.data[0]!.value, collected.data[0]!.value, receivables.data[0]!.value]).toEqual([5_000, 5_000, 0]);
    expect((await value(ws, 'mrr'))[0]!.value).toBe(2_000);
    expect((await value(ws, 'mrr_movements'))[0]).toMatchObject({ new: 2_000 });
  });
});
