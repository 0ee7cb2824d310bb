import { useClock } from '../../shared/clock';
import { makeCtx } from '../../shared/context';
import type { Key } from '../../shared/db/keys';
import { CREDIT_LOT } from '../../shared/domain/credits/credit';
import { expireCreditLot } from '../../shared/domain/credits/expire';
import { findDueItems } from '../../shared/domain/schedules/due-item';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';

let api: TestApi;
let client: Client;
let offset = 0;
let restoreClock: () => void;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The time the handlers see (moved by `offset`). */
const now = () => Date.now() + offset;
const iso = (ms: number) => new Date(ms).toISOString();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  restoreClock = useClock({ now: () => new Date(now()) });
  api = await startTestApi({ events: true });
  client = await api.client();
});
afterAll(async () => {
  await api.close();
  restoreClock();
});
afterEach(() => {
  offset = 0;
});

type Tx = Record<string, any>;

async function creditProduct(owner: Client = client, packs = [{ amount: 1000, pack_size: 100 }, { amount: 4500, pack_size: 500 }]) {
  const product = (await owner.post('/v1/products', { name: 'API credits', type: 'credit' })).body;
  const configuration = (await owner.post('/v1/price-configurations', { product_id: product.id, currency: 'EUR', type: 'bundle', prices: packs })).body;
  expect(configuration.prices).toHaveLength(packs.length);
  return { id: product.id as string, configurationId: configuration.id as string, priceIds: configuration.prices.map((p: { id: string }) => p.id) as string[] };
}

const withEntities = new Set<string>();

async function setup(owner: Client = client) {
  if (!withEntities.has(owner.workspace)) {
    await withEntity(owner);
    withEntities.add(owner.workspace);
  }
  const customer = (await owner.post('/v1/customers', { name: 'Credit user' })).body.id as string;
  const product = await creditProduct(owner);
  return { customer, product, base: `/v1/customers/${customer}/credits/${product.id}` };
}

async function topup(base: string, body: Record<string, unknown>, owner: Client = client): Promise<Tx> {
  const reply = await owner.post(`${base}/topup`, body);
  expect([reply.status, reply.body]).toEqual([201, expect.any(Object)]);
  return reply.body;
}

async function use(base: string, body: Record<string, unknown>, owner: Client = client): Promise<Tx> {
  const reply = await owner.post(`${base}/usage`, body);
  expect([reply.status, reply.body.code]).toEqual([201, undefined]);
  return reply.body;
}

async function allTransactions(base: string, owner: Client = client): Promise<Tx[]> {
  const all: Tx[] = [];
  for (let skip = 0; ; skip += 100) {
    const page = (await owner.get(`${base}/transactions?take=100&skip=${skip}`)).body;
    all.push(...page.data);
    if (all.length >= page.meta.total) return all;
  }
}

const balanceOf = async (base: string, owner: Client = client) => (await owner.get(base)).body.current_balance as number;
const signed = (t: Tx) => (t.type === 'topup' ? t.credit_count : -t.credit_count);

/** The ledger is one chain: each balance_after = the previous one + the transaction's delta, and time never goes back. */
function expectChain(transactions: Tx[], balance: number) {
  let running = 0;
  for (const [i, t] of transactions.entries()) {
    running += signed(t);
    expect([i, t.balance_after]).toEqual([i, running]);
    expect(t.balance_after).toBeGreaterThanOrEqual(0);
    if (i > 0) expect(t.created_at >= transactions[i - 1]!.created_at).toBe(true);
  }
  expect(running).toBe(balance);
}

/** The scheduler's view: the lots of this workspace (of one balance, given its path) in the scheduling index, due within 30 days. */
async function dueLots(workspace: string, base?: string): Promise<Array<Key & { gsi4sk: string }>> {
  const [, , , customer, , product] = (base ?? '').split('/');
  const pk = `WS#${workspace}#CRD#${customer}#${product}`;
  const lots: Array<Key & { gsi4sk: string }> = [];
  for await (const page of findDueItems(new Date(now() + 30 * DAY), { workspaces: new Set([workspace]) })) {
    lots.push(...page.filter((i) => i.kind === CREDIT_LOT && (!base || i.pk === pk)).map((i) => ({ pk: i.pk, sk: i.sk, gsi4sk: i.due })));
  }
  return lots;
}

describe('top-up', () => {
  it('answers 201 with the topup transaction, every spec member included, and creates the balance', async () => {
    const { customer, product, base } = await setup();
    const reply = await client.post(`${base}/topup`, { credit_count: 250 });
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual({
      id: expect.stringMatching(/^cdt_[0-9A-Z]{26}$/), product_id: product.id, price: null, customer_id: customer, payment_method_id: null,
      invoice_id: null, event_id: null, aggregator_id: null, expires_at: null, type: 'topup', source: 'api', amount_excluding_tax: null,
      credit_count: 250, uncovered_count: 0, balance_after: 250, created_at: expect.any(String), updated_at: reply.body.created_at,
    });
    expect(new Date(reply.body.created_at).toISOString()).toBe(reply.body.created_at);
    const second = await topup(base, { credit_count: 50 });
    expect(second.balance_after).toBe(300);
    expect((await client.get(base)).body).toEqual({
      product_id: product.id, customer_id: customer, name: 'API credits', current_balance: 300, low_count_threshold: 5,
      last_refreshed_at: second.created_at, auto_topup: null, created_at: reply.body.created_at, updated_at: second.created_at,
    });
  });

  it('with price_id: whole packs of that bundle price (422 credit_pack_mismatch otherwise), priced in amount_excluding_tax', async () => {
    const { product, base } = await setup();
    const [small, large] = product.priceIds;
    const priced = await topup(base, { credit_count: 300, price_id: small });
    expect(priced).toMatchObject({ price: { id: small, amount: 1000, pack_size: 100 }, amount_excluding_tax: 3000, credit_count: 300, balance_after: 300 });
    expect(await topup(base, { credit_count: 1000, price_id: large })).toMatchObject({ price: { id: large, amount: 4500, pack_size: 500 }, amount_excluding_tax: 9000 });
    for (const [count, price] of [[250, small], [100, large], [501, large]] as const) {
      const reply = await client.post(`${base}/topup`, { credit_count: count, price_id: price });
      expect([count, reply.status, reply.body.code]).toEqual([count, 422, 'credit_pack_mismatch']);
    }
    expect(await balanceOf(base)).toBe(1300);
  });

  it('refuses a price that is not a bundle price of this product (422), or of an archived configuration', async () => {
    const { product, base } = await setup();
    const other = await creditProduct();
    for (const priceId of [other.priceIds[0], 'pri_unknown']) {
      const reply = await client.post(`${base}/topup`, { credit_count: 100, price_id: priceId });
      expect([priceId, reply.status, reply.body.code]).toEqual([priceId, 422, 'price_not_found']);
    }
    // A price replaced by PUT …/prices is gone; its replacement is found at once (strongly consistent lookup).
    const replaced = await client.put(`/v1/price-configurations/${other.configurationId}/prices`, { prices: [{ amount: 700, pack_size: 50 }] });
    const stale = await client.post(`/v1/customers/${base.split('/')[3]}/credits/${other.id}/topup`, { credit_count: 100, price_id: other.priceIds[0] });
    expect([stale.status, stale.body.code]).toEqual([422, 'price_not_found']);
    const fresh = await client.post(`/v1/customers/${base.split('/')[3]}/credits/${other.id}/topup`, { credit_count: 100, price_id: replaced.body.prices[0].id });
    expect(fresh.status).toBe(201);
    expect((await client.put(`/v1/price-configurations/${product.configurationId}/archive`)).status).toBe(200);
    const archived = await client.post(`${base}/topup`, { credit_count: 100, price_id: product.priceIds[0] });
    expect([archived.status, archived.body.code]).toEqual([422, 'price_archived']);
    expect((await client.get(base)).status).toBe(404);
  });

  it('records expires_at in UTC; a past or present expiry is a 400', async () => {
    const { base } = await setup();
    const later = Math.ceil((now() + 2 * DAY) / 1000) * 1000;
    const offsetForm = `${iso(later + 2 * HOUR).slice(0, 19)}+02:00`;
    const created = await topup(base, { credit_count: 10, expires_at: offsetForm });
    expect(created.expires_at).toBe(iso(later));
    expect((await topup(base, { credit_count: 10, expires_at: null })).expires_at).toBeNull();
    const past = await client.post(`${base}/topup`, { credit_count: 10, expires_at: iso(now() - 1000) });
    expect(past.status).toBe(400);
    expect(past.body.errors).toEqual([{ path: 'body.expires_at', message: 'must be in the future' }]);
  });

  it('needs a credit product (422 not_a_credit_product) that is not archived (422 product_archived)', async () => {
    await setup();
    const customer = (await client.post('/v1/customers', { name: 'C' })).body.id;
    const seats = (await client.post('/v1/products', { name: 'Seats', type: 'seat' })).body.id;
    for (const [action, body] of [['topup', { credit_count: 10 }], ['usage', { usage_retained: 1 }]] as const) {
      const reply = await client.post(`/v1/customers/${customer}/credits/${seats}/${action}`, body);
      expect([action, reply.status, reply.body.code]).toEqual([action, 422, 'not_a_credit_product']);
    }
    const { base, product } = await setup();
    await topup(base, { credit_count: 10 });
    await client.put(`/v1/products/${product.id}/archive`);
    const archived = await client.post(`${base}/topup`, { credit_count: 10 });
    expect([archived.status, archived.body.code]).toEqual([422, 'product_archived']);
    // Credits already bought stay usable.
    expect((await use(base, { usage_retained: 4 })).balance_after).toBe(6);
  });

  it('answers 404 for an unknown, deleted or foreign customer or product, and 409 for a deleted customer', async () => {
    const { customer, product, base } = await setup();
    const stranger = await api.client();
    const theirs = await setup(stranger);
    const paths = [
      `/v1/customers/cus_unknown/credits/${product.id}`, `/v1/customers/${customer}/credits/itm_unknown`,
      `/v1/customers/${theirs.customer}/credits/${product.id}`, `/v1/customers/${customer}/credits/${theirs.product.id}`,
    ];
    for (const path of paths) {
      for (const [method, suffix, body] of [
        ['POST', '/topup', { credit_count: 1 }], ['POST', '/usage', { usage_retained: 1 }], ['GET', '', undefined], ['GET', '/transactions', undefined],
      ] as const) {
        const reply = method === 'POST' ? await client.post(path + suffix, body) : await client.get(path + suffix);
        expect([path + suffix, reply.status, reply.body.code]).toEqual([path + suffix, 404, 'not_found']);
      }
    }
    expect((await client.get('/v1/customers/cus_unknown/credits')).status).toBe(404);
    expect((await client.get(`/v1/customers/${theirs.customer}/credits`)).status).toBe(404);
    await topup(base, { credit_count: 5 });
    const deletedProduct = await creditProduct();
    await client.delete(`/v1/products/${deletedProduct.id}`);
    expect((await client.post(`/v1/customers/${customer}/credits/${deletedProduct.id}/topup`, { credit_count: 1 })).status).toBe(404);
    await client.delete(`/v1/customers/${customer}`);
    const deleted = await client.post(`${base}/topup`, { credit_count: 1 });
    expect([deleted.status, deleted.body.code]).toEqual([409, 'resource_deleted']);
    expect((await client.get(base)).body.current_balance).toBe(5);
  });

  it('rejects bad input with 400', async () => {
    const { base } = await setup();
    const bodies = [
      {}, { credit_count: 0 }, { credit_count: -5 }, { credit_count: 1.5 }, { credit_count: '10' }, { credit_count: 10, colour: 'red' },
      { credit_count: 10, expires_at: 'tomorrow' }, { credit_count: 10, expires_at: '2030-01-01' }, { credit_count: 10, price_id: '' },
      { credit_count: 1e13 },
    ];
    for (const body of bodies) expect([body, (await client.post(`${base}/topup`, body)).status]).toEqual([body, 400]);
    for (const body of [{}, { usage_retained: 0 }, { usage_retained: 2.5 }, { usage_retained: 1, event_id: '' }, { usage_retained: 1, other: 1 }]) {
      expect([body, (await client.post(`${base}/usage`, body)).status]).toEqual([body, 400]);
    }
    expect((await client.get(base)).status).toBe(404);
  });
});

describe('balances', () => {
  it('GET …/credits lists the balance of each credit product topped up, with take/skip; 404 for one never topped up', async () => {
    await setup();
    const customer = (await client.post('/v1/customers', { name: 'Many products' })).body.id;
    expect((await client.get(`/v1/customers/${customer}/credits`)).body).toEqual({ meta: { total: 0, taken: 0, skipped: 0, approximateCount: false }, data: [] });
    const products = [await creditProduct(), await creditProduct(), await creditProduct()];
    for (const [i, p] of products.entries()) await topup(`/v1/customers/${customer}/credits/${p.id}`, { credit_count: 10 * (i + 1) });
    const untouched = await creditProduct();
    const list = (await client.get(`/v1/customers/${customer}/credits`)).body;
    expect(list.meta).toEqual({ total: 3, taken: 3, skipped: 0, approximateCount: false });
    expect(list.data.map((b: { product_id: string; current_balance: number }) => [b.product_id, b.current_balance])).toEqual(products.map((p, i) => [p.id, 10 * (i + 1)]));
    expect(list.data[0]).toMatchObject({ customer_id: customer, name: 'API credits', low_count_threshold: 1 });
    const page = (await client.get(`/v1/customers/${customer}/credits?take=1&skip=1`)).body;
    expect(page.meta).toEqual({ total: 3, taken: 1, skipped: 1, approximateCount: false });
    expect(page.data[0].product_id).toBe(products[1]!.id);
    const missing = await client.get(`/v1/customers/${customer}/credits/${untouched.id}`);
    expect([missing.status, missing.body.code]).toEqual([404, 'not_found']);
    expect((await client.get(`/v1/customers/${customer}/credits?take=101`)).status).toBe(400);
    expect((await client.get(`/v1/customers/${customer}/credits?type=topup`)).status).toBe(400);
  });
});

describe('usage', () => {
  it('consumes the earliest-expiring credits first and the never-expiring last', async () => {
    const { customer, base } = await setup();
    const start = now();
    await topup(base, { credit_count: 50, expires_at: iso(start + 2 * DAY) });
    await topup(base, { credit_count: 100 });
    await topup(base, { credit_count: 30, expires_at: iso(start + DAY) });
    const usage = await use(base, { usage_retained: 40 });
    expect(usage).toEqual({
      id: expect.stringMatching(/^cdt_/), product_id: expect.any(String), price: null, customer_id: customer, payment_method_id: null,
      invoice_id: null, event_id: null, aggregator_id: null, expires_at: null, type: 'usage', source: 'api', amount_excluding_tax: null,
      credit_count: 40, uncovered_count: 0, balance_after: 140, created_at: expect.any(String), updated_at: expect.any(String),
    });
    // The 30 expiring first are gone, 10 of the 50 were used: past both expiries, 40 expire, the 100 stay.
    offset = 3 * DAY;
    const ctx = makeCtx(client.workspace, 'test');
    const lots = await dueLots(client.workspace, base);
    expect(lots).toHaveLength(1);
    expect(await Promise.all(lots.map((lot) => expireCreditLot(ctx, { pk: lot.pk, sk: lot.sk })))).toEqual(['expired']);
    const expirations = (await client.get(`${base}/transactions?type=expiration`)).body.data;
    expect(expirations).toEqual([expect.objectContaining({ type: 'expiration', credit_count: 40, balance_after: 100, source: 'system', expires_at: iso(start + 2 * DAY) })]);
    expect(await balanceOf(base)).toBe(100);
  });

  it('refuses more than the balance with 422 insufficient_credits and writes nothing', async () => {
    const { base } = await setup();
    const never = await client.post(`${base}/usage`, { usage_retained: 1 });
    expect([never.status, never.body.code]).toEqual([422, 'insufficient_credits']);
    await topup(base, { credit_count: 20 });
    const over = await client.post(`${base}/usage`, { usage_retained: 21 });
    expect([over.status, over.body.code]).toEqual([422, 'insufficient_credits']);
    expect((await use(base, { usage_retained: 20 })).balance_after).toBe(0);
    expect((await client.post(`${base}/usage`, { usage_retained: 1 })).status).toBe(422);
    expect((await client.get(`${base}/transactions`)).body.meta.total).toBe(2);
  });

  it('never uses credits past their expiry: the usage expires them first, in its own transaction', async () => {
    const { base } = await setup();
    const expiring = await topup(base, { credit_count: 30, expires_at: iso(now() + HOUR) });
    await topup(base, { credit_count: 10 });
    offset = 2 * HOUR;
    const over = await client.post(`${base}/usage`, { usage_retained: 11 });
    expect([over.status, over.body.code]).toEqual([422, 'insufficient_credits']);
    expect(over.body.message).toContain('30 more are past their expiry');
    const usage = await use(base, { usage_retained: 4 });
    expect(usage.balance_after).toBe(6);
    const ledger = await allTransactions(base);
    expect(ledger.map((t) => [t.type, t.credit_count, t.balance_after])).toEqual([['topup', 30, 30], ['topup', 10, 40], ['expiration', 30, 10], ['usage', 4, 6]]);
    expect((await dueLots(client.workspace, base)).filter((l) => l.gsi4sk.endsWith(expiring.id))).toEqual([]);
  });

  it('is idempotent by event_id: the same event again returns the original transaction and consumes nothing', async () => {
    const { base, customer } = await setup();
    await topup(base, { credit_count: 100 });
    const first = await use(base, { usage_retained: 7, event_id: 'evt-42' });
    expect(first.event_id).toBe('evt-42');
    const again = await client.post(`${base}/usage`, { usage_retained: 7, event_id: 'evt-42' });
    expect([again.status, again.body]).toEqual([201, first]);
    const parallel = await Promise.all(Array.from({ length: 10 }, () => client.post(`${base}/usage`, { usage_retained: 5, event_id: 'evt-43' })));
    expect(parallel.map((r) => r.status)).toEqual(Array(10).fill(201));
    expect(new Set(parallel.map((r) => r.body.id)).size).toBe(1);
    expect(await balanceOf(base)).toBe(88);
    // Without event_id, each usage counts.
    await use(base, { usage_retained: 1 });
    await use(base, { usage_retained: 1 });
    expect(await balanceOf(base)).toBe(86);
    // The same event id on another product of the customer is another usage.
    const other = await creditProduct();
    const otherBase = `/v1/customers/${customer}/credits/${other.id}`;
    await topup(otherBase, { credit_count: 10 });
    expect((await use(otherBase, { usage_retained: 7, event_id: 'evt-42' })).id).not.toBe(first.id);
    expect(await balanceOf(otherBase)).toBe(3);
  });
});

describe('transactions list', () => {
  it('lists oldest first with take/skip and total, without aggregator_id, filtered by type and created_at', async () => {
    const { base } = await setup();
    const t0 = now();
    await topup(base, { credit_count: 100 });
    offset = HOUR;
    await use(base, { usage_retained: 10 });
    offset = 2 * HOUR;
    await use(base, { usage_retained: 20 });
    await topup(base, { credit_count: 5, expires_at: iso(t0 + 3 * HOUR) });
    offset = 4 * HOUR;
    const ctx = makeCtx(client.workspace, 'test');
    for (const lot of await dueLots(client.workspace, base)) expect(await expireCreditLot(ctx, { pk: lot.pk, sk: lot.sk })).toBe('expired');

    const all = (await client.get(`${base}/transactions`)).body;
    expect(all.meta).toEqual({ total: 5, taken: 5, skipped: 0, approximateCount: false });
    expect(all.data.map((t: Tx) => t.type)).toEqual(['topup', 'usage', 'usage', 'topup', 'expiration']);
    for (const t of all.data) expect(t).not.toHaveProperty('aggregator_id');
    expectChain(all.data, await balanceOf(base));
    expect(all.data[4]).toMatchObject({ credit_count: 5, balance_after: 70 });

    const page = (await client.get(`${base}/transactions?take=2&skip=1`)).body;
    expect(page.meta).toEqual({ total: 5, taken: 2, skipped: 1, approximateCount: false });
    expect(page.data.map((t: Tx) => t.id)).toEqual(all.data.slice(1, 3).map((t: Tx) => t.id));
    expect((await client.get(`${base}/transactions?take=0`)).body).toEqual({ meta: { total: 5, taken: 0, skipped: 0, approximateCount: false }, data: [] });
    expect((await client.get(`${base}/transactions?skip=10`)).body.data).toEqual([]);

    const ids = async (query: string) => {
      const reply = await client.get(`${base}/transactions?${query}`);
      expect([query, reply.status]).toEqual([query, 200]);
      return reply.body.data.map((t: Tx) => all.data.findIndex((a: Tx) => a.id === t.id));
    };
    expect(await ids('type=usage')).toEqual([1, 2]);
    expect(await ids('type__in=topup,expiration')).toEqual([0, 3, 4]);
    expect(await ids('type__notIn=usage')).toEqual([0, 3, 4]);
    expect(await ids('type__not=topup&take=1&skip=1')).toEqual([2]);
    expect((await client.get(`${base}/transactions?type__not=topup&take=1&skip=1`)).body.meta).toEqual({ total: 3, taken: 1, skipped: 1, approximateCount: false });
    expect(await ids(`created_at__gte=${iso(t0 + HOUR)}`)).toEqual([1, 2, 3, 4]);
    expect(await ids(`created_at__lt=${iso(t0 + 2 * HOUR)}`)).toEqual([0, 1]);
    expect(await ids(`created_at__gt=${iso(t0 + 1.5 * HOUR)}&created_at__lte=${iso(t0 + 3 * HOUR)}`)).toEqual([2, 3]);
    expect(await ids(`type=usage&created_at__gte=${iso(t0 + 2 * HOUR)}`)).toEqual([2]);

    for (const query of ['type=refund', 'type__in=topup,refund', 'created_at__gte=yesterday', 'amount=5', 'take=101', 'skip=-1']) {
      expect([query, (await client.get(`${base}/transactions?${query}`)).status]).toEqual([query, 400]);
    }
  });

  it('is empty for a customer and credit product with no balance yet', async () => {
    const { base } = await setup();
    expect((await client.get(`${base}/transactions`)).body).toEqual({ meta: { total: 0, taken: 0, skipped: 0, approximateCount: false }, data: [] });
    expect((await client.get(`${base}/transactions?type=usage`)).body.meta.total).toBe(0);
  });
});

describe('expiration (expireCreditLot, called by the scheduler)', () => {
  it('expires what remains of a lot once due, leaves the scheduling index, and is a no-op when repeated', async () => {
    const { base } = await setup();
    const other = await api.client();
    const theirs = await setup(other);
    await topup(theirs.base, { credit_count: 10, expires_at: iso(now() + HOUR) }, other);
    const expiry = iso(now() + HOUR);
    const created = await topup(base, { credit_count: 30, expires_at: expiry });
    await topup(base, { credit_count: 5 });
    await use(base, { usage_retained: 12 });
    const lots = await dueLots(client.workspace, base);
    const lot = lots.find((l) => l.gsi4sk === `${expiry}#credit_lot#${created.id}`);
    expect(lot).toBeDefined();
    const key = { pk: lot!.pk, sk: lot!.sk };
    const ctx = makeCtx(client.workspace, 'scheduler');

    expect(await expireCreditLot(ctx, key)).toBe('nothing');
    offset = HOUR;
    expect(await expireCreditLot(ctx, key)).toBe('expired');
    expect(await expireCreditLot(ctx, key)).toBe('nothing');
    const expiration = (await client.get(`${base}/transactions?type=expiration`)).body.data;
    expect(expiration).toEqual([expect.objectContaining({ type: 'expiration', credit_count: 18, balance_after: 5, expires_at: expiry, source: 'system', event_id: null, price: null })]);
    expect((await dueLots(client.workspace)).map((l) => l.sk)).not.toContain(key.sk);
    expect(await balanceOf(base)).toBe(5);
    // Another workspace's lot is not this workspace's work.
    const [theirLot] = await dueLots(other.workspace);
    await expect(expireCreditLot(ctx, { pk: theirLot!.pk, sk: theirLot!.sk })).rejects.toThrow(/Not a credit lot of workspace/);
    expect(await balanceOf(theirs.base, other)).toBe(10);
  });

  it('a used-up lot leaves the scheduling index at once (nothing is left to expire)', async () => {
    const { base } = await setup();
    const created = await topup(base, { credit_count: 8, expires_at: iso(now() + HOUR) });
    const ours = async () => (await dueLots(client.workspace)).filter((l) => l.gsi4sk.endsWith(created.id));
    expect(await ours()).toHaveLength(1);
    await use(base, { usage_retained: 8 });
    expect(await ours()).toHaveLength(0);
  });
});

describe('concurrency', () => {
  it('50 parallel top-ups and usages on one balance: the balance equals the ledger sum and balance_after forms one chain', async () => {
    const { base } = await setup();
    await topup(base, { credit_count: 1000 });
    const requests = Array.from({ length: 50 }, (_, i) =>
      i % 2 === 0 ? client.post(`${base}/topup`, { credit_count: 10 + i }) : client.post(`${base}/usage`, { usage_retained: 20 + i }),
    );
    const replies = await Promise.all(requests);
    expect(replies.map((r) => r.status)).toEqual(Array(50).fill(201));
    const ledger = await allTransactions(base);
    expect(ledger).toHaveLength(51);
    const balance = await balanceOf(base);
    expect(balance).toBe(ledger.reduce((sum, t) => sum + signed(t), 0));
    const byCreation = [...ledger].sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at) || ledger.indexOf(a) - ledger.indexOf(b));
    expectChain(byCreation, balance);
    // Every response is the entry the ledger holds.
    const byId = new Map(ledger.map((t) => [t.id, t]));
    for (const reply of replies) expect(byId.get(reply.body.id)).toMatchObject({ balance_after: reply.body.balance_after });
    expect(new Set(ledger.map((t) => t.balance_after)).size).toBeGreaterThan(1);
  });

  it('a usage racing an expiration never drives the balance below zero nor spends the same credits twice', async () => {
    for (let round = 0; round < 3; round++) {
      const { base } = await setup();
      const expiry = iso(now() + HOUR);
      const expiring = await topup(base, { credit_count: 100, expires_at: expiry });
      await topup(base, { credit_count: 30 });
      const key = (await dueLots(client.workspace)).find((l) => l.gsi4sk.endsWith(expiring.id))!;
      // The scheduler runs past the expiry while usages made before it still arrive.
      const scheduler = makeCtx(client.workspace, 'scheduler', { now: () => new Date(Date.parse(expiry) + 1) });
      const results = await Promise.all([
        ...Array.from({ length: 12 }, () => client.post(`${base}/usage`, { usage_retained: 10 })),
        // Started at different points of the usages' run, round after round.
        ...Array.from({ length: 3 }, (_, i) => sleep(round * 20 + i * 15).then(() => expireCreditLot(scheduler, { pk: key.pk, sk: key.sk }))),
      ]);
      const usages = results.slice(0, 12) as Array<{ status: number; body: Tx }>;
      expect(usages.every((r) => r.status === 201 || (r.status === 422 && r.body.code === 'insufficient_credits'))).toBe(true);
      expect((results.slice(12) as string[]).filter((r) => r === 'expired').length).toBeLessThanOrEqual(1);
      const ledger = await allTransactions(base);
      const balance = await balanceOf(base);
      expect(balance).toBeGreaterThanOrEqual(0);
      expectChain(ledger, balance);
      const used = ledger.filter((t) => t.type === 'usage').reduce((s, t) => s + t.credit_count, 0);
      const expired = ledger.filter((t) => t.type === 'expiration').reduce((s, t) => s + t.credit_count, 0);
      expect(used + expired + balance).toBe(130);
      expect(used).toBe(10 * usages.filter((r) => r.status === 201).length);
      // Whatever the order, the expiring lot ends empty: only the never-expiring credits can remain.
      expect(balance).toBeLessThanOrEqual(30);
    }
  });
});

describe('events', () => {
  it('emits credit.created, the *_transaction_created events, credit.low_balance and credit.balance_at_zero', async () => {
    const watched = await api.client();
    const { customer, product, base } = await setup(watched);
    await topup(base, { credit_count: 100, expires_at: iso(now() + HOUR) }, watched); // threshold 10
    await topup(base, { credit_count: 50 }, watched); // threshold 5, balance 150
    await use(base, { usage_retained: 140 }, watched); // 150 → 10: low (≤ 5? no) — 10 > 5
    await use(base, { usage_retained: 6 }, watched); // 10 → 4: crosses 5 → low_balance
    await use(base, { usage_retained: 4 }, watched); // 4 → 0: balance_at_zero only (already low)
    offset = 2 * HOUR;
    await topup(base, { credit_count: 3 }, watched); // the expired lot was used up: nothing left to expire
    await api.events.settle();
    const types = [
      'credit.created', 'credit.topup_transaction_created', 'credit.usage_transaction_created', 'credit.expiration_transaction_created',
      'credit.low_balance', 'credit.balance_at_zero',
    ];
    const messages = (await watched.get(`/v1/webhooks/messages?${types.map((t) => `event_types=${t}`).join('&')}`)).body.data as Array<{ payload: { event_type: string; data: Tx } }>;
    const count = (type: string) => messages.filter((m) => m.payload.event_type === type).length;
    expect(types.map((t) => [t, count(t)])).toEqual([
      ['credit.created', 1], ['credit.topup_transaction_created', 3], ['credit.usage_transaction_created', 3],
      ['credit.expiration_transaction_created', 0], ['credit.low_balance', 1], ['credit.balance_at_zero', 1],
    ]);
    const of = (type: string) => messages.find((m) => m.payload.event_type === type)!.payload.data;
    expect(of('credit.created')).toMatchObject({ customer_id: customer, product_id: product.id, current_balance: 100 });
    expect(of('credit.low_balance')).toMatchObject({ current_balance: 4, low_count_threshold: 5 });
    expect(of('credit.balance_at_zero')).toMatchObject({ current_balance: 0 });
    expect(of('credit.usage_transaction_created')).toMatchObject({ type: 'usage', aggregator_id: null, id: expect.stringMatching(/^cdt_/) });

    // An expiration that empties the balance: expiration_transaction_created, low_balance and balance_at_zero.
    const second = await setup(watched);
    const expiring = await topup(second.base, { credit_count: 40, expires_at: iso(now() + HOUR) }, watched);
    const lot = (await dueLots(watched.workspace)).find((l) => l.gsi4sk.endsWith(expiring.id))!;
    offset += 2 * HOUR;
    expect(await expireCreditLot(makeCtx(watched.workspace, 'scheduler'), { pk: lot.pk, sk: lot.sk })).toBe('expired');
    await api.events.settle();
    const after = (await watched.get(`/v1/webhooks/messages?${types.map((t) => `event_types=${t}`).join('&')}`)).body.data as typeof messages;
    const forSecond = after.filter((m) => m.payload.data.product_id === second.product.id).map((m) => m.payload.event_type).sort();
    expect(forSecond).toEqual(['credit.balance_at_zero', 'credit.created', 'credit.expiration_transaction_created', 'credit.low_balance', 'credit.topup_transaction_created']);
    const expirationEvent = after.find((m) => m.payload.event_type === 'credit.expiration_transaction_created')!.payload.data;
    expect(expirationEvent).toMatchObject({ type: 'expiration', credit_count: 40, balance_after: 0, aggregator_id: null });
  });
});
