import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { makeCtx, type Ctx } from '../../shared/context';
import { db, tableName } from '../../shared/db/client';
import { counterPlaces } from '../../shared/db/counters';
import { counterKey, entityKey, listPartition, listPartitions } from '../../shared/db/keys';
import { customerInvoiceCounter } from '../../shared/domain/invoices/read';
import { runDueWork } from '../../shared/domain/schedules/run-due';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';
import { movableClock } from '../support/clock';
import { pricedProduct, subscribe } from '../support/subscriptions';

/**
 * Invoices and subscriptions spread their list index entries over shards and count themselves on shard items
 * (docs/operations.md, "Sharded logs, lists and counters"); GET /v1/invoices and GET /v2/subscriptions answer as from
 * one partition and one counter: same order, same offsets, same filters, same totals. Entries and counts made before
 * the shards (the unsharded partition and the single counter item) are read with them. Through the HTTP layer against
 * DynamoDB Local.
 */
let api: TestApi;
let client: Client;
beforeAll(async () => {
  api = await startTestApi();
  client = await api.client();
  await withEntity(client);
});
afterAll(() => api.close());

interface Listed {
  meta: { total: number; taken: number; skipped: number; approximateCount: boolean };
  data: { id: string; status: string; created_at: string }[];
}

const list = async (query: string, path = '/v1/invoices'): Promise<Listed> => {
  const reply = await client.get<Listed>(`${path}?${query}`);
  expect(reply.status).toBe(200);
  return reply.body;
};

const byCreation = (a: { created_at: string; id: string }, b: { created_at: string; id: string }) => (`${a.created_at}#${a.id}` < `${b.created_at}#${b.id}` ? -1 : 1);

const addTotal = (key: { pk: string; sk: string }, delta: number) =>
  db.send(new UpdateCommand({ TableName: tableName(), Key: key, UpdateExpression: 'ADD #t :d', ExpressionAttributeNames: { '#t': 'total' }, ExpressionAttributeValues: { ':d': delta } }));

/** Moves these entries back into their list's unsharded partition, as a stack deployed before the shards left them. */
async function intoUnshardedPartition(ctx: Ctx, type: 'INV' | 'SUB', ids: string[]) {
  for (const id of ids) {
    await db.send(new UpdateCommand({ TableName: tableName(), Key: entityKey(ctx, type, id), UpdateExpression: 'SET gsi1pk = :p', ExpressionAttributeValues: { ':p': listPartition(ctx, type) } }));
  }
}

async function indexPartitionsHolding(workspace: string, type: 'INV' | 'SUB' = 'INV'): Promise<Map<string, number>> {
  const held = new Map<string, number>();
  for (const partition of listPartitions(makeCtx(workspace, 'test'), type)) {
    const { Items } = await db.send(new QueryCommand({ TableName: tableName(), IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :p', ExpressionAttributeValues: { ':p': partition } }));
    if (Items?.length) held.set(partition, Items.length);
  }
  return held;
}

describe('the sharded invoice list', () => {
  it('lists, pages, sorts, filters and counts across its shards and what was stored before them', async () => {
    const ctx = makeCtx(client.workspace, 'test');
    const buyer = (await client.post('/v1/customers', { name: 'Globex', currency: 'EUR' })).body;
    const created: Listed['data'] = [];
    for (let i = 0; i < 24; i++) {
      const reply = await client.post('/v1/invoices', { customer_id: buyer.id, line_items: [{ name: `Line ${i}`, unit_amount: 100 + i }], ...(i % 3 === 0 && { status: 'to_pay' }) });
      expect(reply.status).toBe(201);
      created.push(reply.body as Listed['data'][number]);
    }
    const held = await indexPartitionsHolding(client.workspace);
    expect(held.size).toBeGreaterThanOrEqual(4);
    expect(held.has(listPartition(ctx, 'INV'))).toBe(false);

    // As a stack deployed before the shards left them: five entries in the unsharded partition, counted by the single item.
    await intoUnshardedPartition(ctx, 'INV', created.slice(3, 8).map((i) => i.id));
    await addTotal(counterKey(ctx, 'INV'), 5);
    await addTotal(counterPlaces(ctx, 'INV')[1]!, -5);
    expect((await indexPartitionsHolding(client.workspace)).get(listPartition(ctx, 'INV'))).toBe(5);

    const oldestFirst = [...created].sort(byCreation).map((i) => i.id);
    const paged: string[] = [];
    for (let skip = 0; skip < 30; skip += 5) {
      const page = await list(`take=5&skip=${skip}`);
      expect(page.meta).toEqual({ total: 24, taken: Math.min(5, Math.max(0, 24 - skip)), skipped: skip, approximateCount: false });
      paged.push(...page.data.map((i) => i.id));
    }
    expect(paged).toEqual(oldestFirst);
    expect((await list('take=7&skip=3&sort=-created_at')).data.map((i) => i.id)).toEqual([...oldestFirst].reverse().slice(3, 10));

    const toPay = oldestFirst.filter((id) => created.find((i) => i.id === id)!.status === 'to_pay');
    const filtered = await list('status=to_pay&take=3&skip=2');
    expect(filtered.meta).toEqual({ total: toPay.length, taken: 3, skipped: 2, approximateCount: false });
    expect(filtered.data.map((i) => i.id)).toEqual(toPay.slice(2, 5));
    expect((await list(`customer_id=${buyer.id}&take=100`)).data.map((i) => i.id)).toEqual(oldestFirst);
  });

  it('counts a customer\'s invoices on its own item, with the count made before: a first-order code sees both', async () => {
    const ctx = makeCtx(client.workspace, 'test');
    const coupon = (await client.post('/v1/coupons', { name: 'Welcome', type: 'percent', discount_percent: 10 })).body;
    const code = `FIRST${Date.now()}`;
    expect((await client.post('/v1/promotion-codes', { code, coupon_id: coupon.id, only_for_first_time_order: true })).status).toBe(201);
    const withCode = (customerId: string) => client.post('/v1/invoices', { customer_id: customerId, promotion_code: code, line_items: [{ name: 'Plan', unit_amount: 1_000 }] });

    // Invoiced before the counters moved: its count is in the workspace's single counter partition.
    const former = (await client.post('/v1/customers', { name: 'Former', currency: 'EUR' })).body;
    await addTotal(counterKey(ctx, customerInvoiceCounter(former.id)), 1);
    const refused = await withCode(former.id);
    expect([refused.status, refused.body.code]).toEqual([422, 'promotion_code_not_applicable']);

    const newcomer = (await client.post('/v1/customers', { name: 'Newcomer', currency: 'EUR' })).body;
    expect((await withCode(newcomer.id)).status).toBe(201);
    expect((await withCode(newcomer.id)).body.code).toBe('promotion_code_not_applicable');
    const [single, own] = counterPlaces(ctx, customerInvoiceCounter(newcomer.id));
    const { Items } = await db.send(new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': own!.pk } }));
    expect(Items).toEqual([expect.objectContaining({ sk: own!.sk, total: 1 })]);
    expect(single!.pk).not.toBe(own!.pk);
  });
});

describe('the sharded subscription list', () => {
  const clock = movableClock();
  afterAll(() => clock.restore());

  it('lists, pages, sorts, filters and counts across its shards and what was stored before them', async () => {
    const ctx = makeCtx(client.workspace, 'test');
    const customer = (await client.post('/v1/customers', { name: 'Initech', currency: 'EUR' })).body;
    const fee = await pricedProduct(client, 'flat_fee');
    const inDays = (days: number) => new Date(clock.now().getTime() + days * 86_400_000).toISOString();
    const created: Listed['data'] = [];
    for (let i = 0; i < 16; i++) {
      created.push(await subscribe(client, { customer_id: customer.id, starts_at: i % 3 === 0 ? inDays(5) : inDays(0), products: [{ ...fee, quantity: 1 }] }));
    }
    const dueWork = () => runDueWork(clock.now(), { workspaces: new Set([client.workspace]) });
    expect(await dueWork()).toMatchObject({ failed: 0 }); // the first invoices of those that started
    const held = await indexPartitionsHolding(client.workspace, 'SUB');
    expect(held.size).toBeGreaterThanOrEqual(4);
    expect(held.has(listPartition(ctx, 'SUB'))).toBe(false);

    // As a stack deployed before the shards left them: four entries in the unsharded partition.
    await intoUnshardedPartition(ctx, 'SUB', created.slice(2, 6).map((s) => s.id));
    expect((await indexPartitionsHolding(client.workspace, 'SUB')).get(listPartition(ctx, 'SUB'))).toBe(4);

    const path = '/v2/subscriptions';
    const oldestFirst = [...created].sort(byCreation).map((s) => s.id);
    const paged: string[] = [];
    for (let skip = 0; skip < 20; skip += 5) {
      const page = await list(`take=5&skip=${skip}`, path);
      expect(page.meta).toEqual({ total: 16, taken: Math.min(5, Math.max(0, 16 - skip)), skipped: skip, approximateCount: false });
      paged.push(...page.data.map((s) => s.id));
    }
    expect(paged).toEqual(oldestFirst);
    expect((await list('take=6&skip=2&sort=-created_at', path)).data.map((s) => s.id)).toEqual([...oldestFirst].reverse().slice(2, 8));
    const pending = oldestFirst.filter((id) => created.find((s) => s.id === id)!.status === 'pending');
    expect(pending).toHaveLength(6);
    const filtered = await list('status=pending&take=3&skip=1', path);
    expect(filtered.meta).toEqual({ total: 6, taken: 3, skipped: 1, approximateCount: false });
    expect(filtered.data.map((s) => s.id)).toEqual(pending.slice(1, 4));
    expect((await list(`customer_id=${customer.id}&take=100`, path)).data.map((s) => s.id)).toEqual(oldestFirst);

    // A month on, each renewal (or start) writes its subscription's entry to its shard: the old partition empties.
    clock.advance(32 * 86_400_000);
    expect(await dueWork()).toEqual({ due: 16, done: 16, failed: 0 });
    expect((await client.get(`/v2/subscriptions/${created[2]!.id}`)).body).toMatchObject({ status: 'active', current_period_started_at: expect.any(String) });
    expect((await indexPartitionsHolding(client.workspace, 'SUB')).has(listPartition(ctx, 'SUB'))).toBe(false);
    const after = await list('take=100', path);
    expect(after.meta.total).toBe(16);
    expect(after.data.map((s) => s.id)).toEqual(oldestFirst);
  });
});
