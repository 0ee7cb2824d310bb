import fc from 'fast-check';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { handler as streamHandler } from '../../functions/streams/events';
import { getItem } from '../../shared/db/items';
import { listQuarantined } from '../../shared/domain/events/quarantine';
import { makeCtx } from '../../shared/context';
import { bucketKey, hourOf, type BucketItem } from '../../shared/domain/metering/bucket-item';
import { RETENTION_DAYS, usageEventKey, type UsageEventItem } from '../../shared/domain/metering/usage-event';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';

let api: TestApi;
let client: Client;

beforeAll(async () => {
  api = await startTestApi({ events: true });
  client = await api.client();
  await withEntity(client);
});
afterAll(() => api.close());

const HOUR = 3_600_000;
/** An hour-aligned origin a few days back, inside the ingestion horizon. */
const origin = Math.floor((Date.now() - 3 * 24 * HOUR) / HOUR) * HOUR;
const at = (hours: number, minutes = 0) => new Date(origin + hours * HOUR + minutes * 60_000).toISOString();

const customer = async (body: Record<string, unknown> = {}) => (await client.post('/v1/customers', { name: 'Metered', currency: 'EUR', ...body })).body;
const aggregator = async (body: Record<string, unknown>) => {
  const reply = await client.post('/v1/aggregators', { name: `${body.operation}`, event_type: 'api_call', ...body });
  expect(reply.status).toBe(201);
  return reply.body as { id: string };
};
const usage = async (customerId: string, aggregatorId: string, from: string, to: string) => {
  const reply = await client.get(`/v1/customers/${customerId}/usage?aggregator_id=${aggregatorId}&from=${from}&to=${to}`);
  expect(reply.status).toBe(200);
  return reply.body as { value: number; days: { date: string; value: number }[] };
};
const call = (customerId: string, id: string, timestamp: string | number, props: Record<string, unknown> = {}, event_type = 'api_call') => ({
  customer_id: customerId, event_type, timestamp, record: { id, ...props },
});

describe('ingestion', () => {
  it('stores one event (by cus_ id or external_id) and refuses what it cannot bill, saying why', async () => {
    const c = await customer({ external_id: 'acme-42' });
    const one = await client.post('/v1/events', call(c.id, 'r-1', at(1), { units: 3 }));
    expect(one.status).toBe(201);
    expect(one.body).toEqual({ id: 'r-1', customer_id: c.id, event_type: 'api_call', timestamp: at(1), record: { id: 'r-1', units: 3 }, ingested_at: expect.any(String) });
    const byExternal = await client.post('/v1/events', call('acme-42', 'r-2', origin + HOUR));
    expect([byExternal.status, byExternal.body.customer_id, byExternal.body.timestamp]).toEqual([201, c.id, at(1)]);

    const refused = async (event: unknown) => (await client.post('/v1/events', event)).body;
    expect((await refused(call('cus_missing', 'r-3', at(1)))).code).toBe('customer_not_found');
    expect((await refused(call(c.id, 'r-3', Date.now() - 40 * 24 * HOUR))).code).toBe('timestamp_too_old');
    expect((await refused(call(c.id, 'r-3', Date.now() + HOUR))).code).toBe('timestamp_in_future');
    const nested = await client.post('/v1/events', call(c.id, 'r-3', at(1), { deep: { no: 1 } }));
    expect([nested.status, nested.body.code]).toEqual([400, 'invalid_request']);
    expect((await client.post('/v1/events', call(c.id, 'r-3', at(1), { big: 'x'.repeat(900), more: 'y'.repeat(900), ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`p${i}`, 'z'.repeat(900)])) }))).body.code).toBe('event_too_large');
    const deleted = await customer();
    await client.delete(`/v1/customers/${deleted.id}`);
    expect((await refused(call(deleted.id, 'r-4', at(1)))).code).toBe('customer_not_found');
  });

  it('refuses an external_id shared by two live customers, and keeps raw events 400 days after their time (TTL)', async () => {
    await customer({ external_id: 'twin' });
    await customer({ external_id: 'twin' });
    expect((await client.post('/v1/events', call('twin', 'tw-1', at(1)))).body.code).toBe('customer_ambiguous');
    const c = await customer();
    await client.post('/v1/events', call(c.id, 'ttl-1', at(1)));
    const stored = await getItem<UsageEventItem>(usageEventKey(makeCtx(client.workspace, 't'), 'ttl-1'), true);
    expect(stored?.ttl).toBe(Date.parse(at(1)) / 1000 + RETENTION_DAYS * 86_400);
  });

  it('takes a batch: one bad event never rejects the others, and each failure says why and where', async () => {
    const c = await customer();
    const reply = await client.post('/v1/events/batch', [
      call(c.id, 'b-1', at(2)),
      { customer_id: c.id, event_type: 'api_call', record: { id: 'b-2' } },
      call('cus_nobody', 'b-3', at(2)),
      call(c.id, 'b-4', 'yesterday-ish'),
      7,
      call(c.id, 'b-1', at(2), { units: 2 }),
    ]);
    expect(reply.status).toBe(201);
    expect(reply.body.events_created.map((e: { id: string }) => e.id)).toEqual(['b-1', 'b-1']);
    expect(reply.body.events_failed.map((f: { index: number; error: { code: string } }) => [f.index, f.error.code])).toEqual([
      [1, 'invalid_event'], [2, 'customer_not_found'], [3, 'invalid_event'], [4, 'invalid_event'],
    ]);
    expect(reply.body.events_failed[0].error.message).toMatch(/\[1\]\.timestamp is required/);
    // The last version of a record id within the batch is the one kept.
    expect((await getItem<UsageEventItem>(usageEventKey(makeCtx(client.workspace, 't'), 'b-1'), true))?.properties).toEqual({ units: 2 });
    expect((await client.post('/v1/events/batch', [])).status).toBe(400);
    expect((await client.post('/v1/events/batch', { events: [] })).status).toBe(400);
  });
});

describe('record numbers', () => {
  const stored = (id: string) => getItem<UsageEventItem>(usageEventKey(makeCtx(client.workspace, 't'), id), true);

  it('refuses a number DynamoDB cannot store (400, nothing stored) and keeps the extremes it can, exactly', async () => {
    const c = await customer();
    for (const [id, value, message] of [
      ['n-1', 1e-300, 'body.record.cost must be 0 or at least 1e-130 in magnitude'],
      ['n-2', 1e200, 'body.record.cost must be <= 9007199254740991'],
      ['n-3', [1, -5e-324], 'body.record.cost.1 must be 0 or at least 1e-130 in magnitude'],
    ] as const) {
      const reply = await client.post('/v1/events', call(c.id, id, at(1), { cost: value }));
      expect([id, reply.status, reply.body.code, reply.body.errors]).toEqual([id, 400, 'invalid_request', [{ path: message.split(' ')[0], message: message.slice(message.indexOf(' ') + 1) }]]);
      expect(await stored(id)).toBeUndefined();
    }
    const extremes = { tiny: 1e-130, negative: -1e-130, large: 2 ** 53 - 1, zero: 0, fraction: 0.1 + 0.2 };
    const kept = await client.post('/v1/events', call(c.id, 'n-4', at(1), extremes));
    expect([kept.status, kept.body.record]).toEqual([201, { id: 'n-4', ...extremes }]);
    expect((await stored('n-4'))?.properties).toEqual(extremes);
  });

  it('in a batch, refuses only the events holding such a number, saying where', async () => {
    const c = await customer();
    const reply = await client.post('/v1/events/batch', [
      call(c.id, 'nb-1', at(2), { cost: 2.5 }),
      call(c.id, 'nb-2', at(2), { cost: 1e-300 }),
      call(c.id, 'nb-3', at(2), { cost: -1e200 }),
      call(c.id, 'nb-4', at(2), { cost: 1e-130 }),
    ]);
    expect(reply.status).toBe(201);
    expect(reply.body.events_created.map((e: { id: string }) => e.id)).toEqual(['nb-1', 'nb-4']);
    expect(reply.body.events_failed.map((f: { index: number; error: { code: string; message: string } }) => [f.index, f.error.code, f.error.message])).toEqual([
      [1, 'invalid_event', 'Event [1].record.cost must be 0 or at least 1e-130 in magnitude.'],
      [2, 'invalid_event', 'Event [2].record.cost must be >= -9007199254740991.'],
    ]);
    expect([await stored('nb-2'), await stored('nb-3')]).toEqual([undefined, undefined]);
    expect((await stored('nb-4'))?.properties).toEqual({ cost: 1e-130 });
  });
});

describe('usage', () => {
  it('aggregates count, sum, max, unique_count and latest over [from, to), replacing resent events', async () => {
    const c = await customer();
    const [count, sum, max, unique, latest, filtered] = await Promise.all([
      aggregator({ operation: 'count' }),
      aggregator({ operation: 'sum', property: 'units' }),
      aggregator({ operation: 'max', property: 'units' }),
      aggregator({ operation: 'unique_count', property: 'user' }),
      aggregator({ operation: 'latest', property: 'units' }),
      aggregator({ operation: 'sum', property: 'units', filters: [{ property: 'region', operator: 'equals', value: 'eu' }] }),
    ]);
    await client.post('/v1/events/batch', [
      call(c.id, 'u-1', at(0, 10), { units: 5, user: 'ann', region: 'eu' }),
      call(c.id, 'u-2', at(0, 20), { units: 9, user: 'bob', region: 'us' }),
      call(c.id, 'u-3', at(1, 0), { units: 4, user: 'ann', region: 'eu' }),
      call(c.id, 'u-4', at(25, 30), { units: 1, user: 'cid', region: 'eu' }),
      call(c.id, 'u-5', at(2, 0), { units: 100, user: 'dan' }, 'other_type'),
    ]);
    // u-2 is sent again with fewer units: only its latest version counts.
    await client.post('/v1/events', call(c.id, 'u-2', at(0, 20), { units: 2, user: 'bob', region: 'us' }));
    await api.events.settle();
    const period = [at(0), at(48)] as const;
    const values = await Promise.all([count, sum, max, unique, latest, filtered].map(async (a) => (await usage(c.id, a.id, ...period)).value));
    expect(values).toEqual([4, 12, 5, 3, 1, 10]);
    const days = (await usage(c.id, sum.id, ...period)).days;
    expect(days.reduce((n, d) => n + d.value, 0)).toBe(12);
    expect(days.length).toBeGreaterThanOrEqual(2);
    // Unaligned bounds read the partial hours from the raw events: an event at `from` counts, one at `to` does not.
    expect((await usage(c.id, count.id, at(0, 20), at(1, 0))).value).toBe(1);
    expect((await usage(c.id, count.id, at(0, 10), at(25, 30))).value).toBe(3);
    expect((await usage(c.id, count.id, at(0, 11), at(25, 31))).value).toBe(3);
  });

  it('refuses bad periods and unknown ids (400/404)', async () => {
    const c = await customer();
    const a = await aggregator({ operation: 'count' });
    expect((await client.get(`/v1/customers/${c.id}/usage?aggregator_id=${a.id}&from=${at(2)}&to=${at(1)}`)).status).toBe(400);
    expect((await client.get(`/v1/customers/${c.id}/usage?aggregator_id=${a.id}&from=${at(0)}&to=${at(24 * 500)}`)).status).toBe(400);
    expect((await client.get(`/v1/customers/${c.id}/usage?aggregator_id=agg_nope&from=${at(0)}&to=${at(1)}`)).status).toBe(404);
    expect((await client.get(`/v1/customers/cus_nope/usage?aggregator_id=${a.id}&from=${at(0)}&to=${at(1)}`)).status).toBe(404);
    const other = await api.client();
    expect((await other.get(`/v1/customers/${c.id}/usage?aggregator_id=${a.id}&from=${at(0)}&to=${at(1)}`)).status).toBe(404);
  });

  it('counts a redelivered stream batch once (a crash after the buckets were written, before the checkpoint)', async () => {
    const c = await customer();
    const a = await aggregator({ operation: 'sum', property: 'units' });
    const ctx = makeCtx(client.workspace, 't');
    expect((await client.post('/v1/events', call(c.id, 'crash-1', at(3), { units: 7 }))).status).toBe(201);
    await api.events.settle();
    const stored = (await getItem<UsageEventItem>(usageEventKey(ctx, 'crash-1'), true))!;
    // The same change the stream delivered, delivered again (same eventID): the markers make it a no-op.
    const replaced = { ...stored, properties: { units: 11 } };
    const record = (eventID: string) => ({
      eventID, eventName: 'MODIFY' as const, dynamodb: { Keys: marshall({ pk: stored.pk, sk: stored.sk }) as never, OldImage: marshall(stored) as never, NewImage: marshall(replaced) as never, SequenceNumber: eventID },
    });
    const batch: DynamoDBStreamEvent = { Records: [record('redelivered-1')] };
    expect(await streamHandler(batch)).toEqual({ batchItemFailures: [] });
    expect(await streamHandler(batch)).toEqual({ batchItemFailures: [] });
    const bucket = await getItem<BucketItem>(bucketKey(ctx, c.id, a.id, hourOf(at(3))), true);
    expect(bucket?.sum).toBe(11);
  });

  it('leaves usage as it is when the DynamoDB TTL removes a raw event', async () => {
    const c = await customer();
    const a = await aggregator({ operation: 'count' });
    const ctx = makeCtx(client.workspace, 't');
    await client.post('/v1/events', call(c.id, 'expiring-1', at(5)));
    await api.events.settle();
    const stored = (await getItem<UsageEventItem>(usageEventKey(ctx, 'expiring-1'), true))!;
    const removal = {
      eventID: `ttl-${c.id}`, eventName: 'REMOVE' as const, userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' },
      dynamodb: { Keys: marshall({ pk: stored.pk, sk: stored.sk }) as never, OldImage: marshall(stored) as never, SequenceNumber: `ttl-${c.id}` },
    };
    expect(await streamHandler({ Records: [removal] })).toEqual({ batchItemFailures: [] });
    expect((await usage(c.id, a.id, at(5), at(6))).value).toBe(1);
    // The same removal by a user would take the event away.
    expect(await streamHandler({ Records: [{ ...removal, eventID: `user-${c.id}`, userIdentity: undefined }] })).toEqual({ batchItemFailures: [] });
    expect((await usage(c.id, a.id, at(5), at(6))).value).toBe(0);
  });

  it('quarantines a usage record that fails on its own, and applies the others of its batch', async () => {
    const c = await customer();
    const a = await aggregator({ operation: 'sum', property: 'units' });
    const ctx = makeCtx(client.workspace, 't');
    const image = (id: string, customerId: string, units: number) => ({
      ...usageEventKey(ctx, id), _type: 'usage_event', id, customer_id: customerId, event_type: 'api_call', timestamp: at(4), properties: { units }, ingested_at: at(4),
    });
    const insert = (eventID: string, item: Record<string, unknown>) => ({
      eventID, eventName: 'INSERT' as const, dynamodb: { Keys: marshall({ pk: item.pk, sk: item.sk }) as never, NewImage: marshall(item) as never, SequenceNumber: eventID },
    });
    // A customer id too long for a key: its bucket can never be written (the same failure on every try).
    const poison = insert(`poison-${c.id}`, image('poison-1', `cus_${'x'.repeat(2_100)}`, 1));
    const batch: DynamoDBStreamEvent = { Records: [insert(`good-a-${c.id}`, image('good-a', c.id, 2)), poison, insert(`good-b-${c.id}`, image('good-b', c.id, 3))] };
    expect(await streamHandler(batch)).toEqual({ batchItemFailures: [] });
    expect((await getItem<BucketItem>(bucketKey(ctx, c.id, a.id, hourOf(at(4))), true))?.sum).toBe(5);
    expect((await listQuarantined(client.workspace)).map((q) => q.stream_event_id)).toContain(poison.eventID);
  });

  it('property: any mix of duplicates, replacements, reordering and concurrent batches equals a recomputation', async () => {
    const [sum, count] = await Promise.all([aggregator({ operation: 'sum', property: 'units' }), aggregator({ operation: 'count', filters: [{ property: 'units', operator: 'greater_than', value: 10 }] })]);
    const version = fc.record({ id: fc.constantFrom('p1', 'p2', 'p3', 'p4', 'p5', 'p6'), hour: fc.integer({ min: 0, max: 5 }), minute: fc.integer({ min: 0, max: 59 }), units: fc.integer({ min: 0, max: 30 }) });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(version, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 4 }), async (batches) => {
        const c = await customer();
        const prefix = `${c.id}-`;
        // Each batch is sent concurrently with the others: which version of a record wins is the one stored last.
        await Promise.all(batches.map((batch) => client.post('/v1/events/batch', batch.map((v) => call(c.id, prefix + v.id, at(v.hour, v.minute), { units: v.units })))));
        await api.events.settle();
        const ctx = makeCtx(client.workspace, 't');
        const latest = (await Promise.all([...new Set(batches.flat().map((v) => v.id))].map((id) => getItem<UsageEventItem>(usageEventKey(ctx, prefix + id), true)))).filter((e) => e !== undefined);
        const units = latest.map((e) => e.properties.units as number);
        expect((await usage(c.id, sum.id, at(0), at(6))).value).toBe(units.reduce((n, u) => n + u, 0));
        expect((await usage(c.id, count.id, at(0), at(6))).value).toBe(units.filter((u) => u > 10).length);
      }),
      { numRuns: 8 },
    );
  });
});
