import { makeCtx } from '../../shared/context';
import { redeem } from '../../shared/domain/promotion-codes/redeem';
import { startTestApi, type Client, type TestApi } from '../support/api';

let api: TestApi;
let client: Client;

/** Two products of the workspace, to restrict coupons to. */
let products: [string, string];

beforeAll(async () => {
  api = await startTestApi({ events: true });
  client = await api.client();
  const made = await Promise.all(['A', 'B'].map((name) => client.post('/v1/products', { name, type: 'flat_fee' })));
  products = [made[0]!.body.id, made[1]!.body.id];
});
afterAll(() => api.close());

const percent = { name: 'Ten percent', type: 'percent', discount_percent: 10 };
const amount = { name: 'Twenty euros', type: 'amount', discount_amount: 2000, currency: 'EUR' };

const create = async (body: Record<string, unknown> = percent) => {
  const reply = await client.post('/v1/coupons', body);
  expect(reply.status).toBe(201);
  return reply.body;
};

const paths = (reply: { body: { errors?: { path: string }[] } }) => (reply.body.errors ?? []).map((e) => e.path);

/** Redeems through a fresh promotion code of the coupon (as an invoice will), straight through the domain. */
async function redeemCoupon(couponId: string, customerId = 'cus_any') {
  const code = `R${Math.random().toString(36).slice(2, 10)}`;
  expect((await client.post('/v1/promotion-codes', { code, coupon_id: couponId })).status).toBe(201);
  return redeem(makeCtx(client.workspace, 'test'), code, { customerId, isFirstOrder: false });
}

describe('POST /v1/coupons', () => {
  it('creates a percent coupon with every member and its defaults', async () => {
    const coupon = await create();
    expect(coupon.id).toMatch(/^cou_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(coupon).toEqual({
      id: coupon.id, name: 'Ten percent', description: null, type: 'percent', discount_amount: null, currency: null,
      discount_percent: 10, repeat: 'once', duration: null, product_ids: null, redemption_limit: null, redemption_count: 0,
      expiration_date: null, created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      updated_at: coupon.created_at, deleted_at: null,
    });
    expect(await client.get(`/v1/coupons/${coupon.id}`)).toMatchObject({ status: 200, body: coupon });
  });

  it('creates an amount coupon with a duration, products, a limit and an expiration date (normalized to UTC)', async () => {
    const coupon = await create({
      ...amount, description: 'Partners', repeat: 'duration', duration: { period: 'months', count: 3 },
      product_ids: products, redemption_limit: 100, expiration_date: '2031-06-30T23:59:59+02:00',
    });
    expect(coupon).toMatchObject({
      type: 'amount', discount_amount: 2000, currency: 'EUR', discount_percent: null, description: 'Partners',
      repeat: 'duration', duration: { period: 'months', count: 3 }, product_ids: products,
      redemption_limit: 100, redemption_count: 0, expiration_date: '2031-06-30T21:59:59.000Z',
    });
  });

  it('refuses a product that is not one of the workspace (unknown, deleted, or another workspace’s): 422, nothing created', async () => {
    const deleted = (await client.post('/v1/products', { name: 'Gone', type: 'flat_fee' })).body.id;
    expect((await client.delete(`/v1/products/${deleted}`)).status).toBe(200);
    const stranger = await api.client();
    const theirs = (await stranger.post('/v1/products', { name: 'Theirs', type: 'flat_fee' })).body.id;
    const before = (await client.get('/v1/coupons?take=0')).body.meta.total;
    for (const missing of ['itm_unknown', deleted, theirs]) {
      const reply = await client.post('/v1/coupons', { ...percent, product_ids: [products[0], missing] });
      expect([reply.status, reply.body.code, reply.body.message]).toEqual([422, 'product_not_found', `No product with id '${missing}'.`]);
    }
    expect((await client.get('/v1/coupons?take=0')).body.meta.total).toBe(before);
  });

  it('accepts 100 %, two decimals, repeat forever; an empty product list means every product', async () => {
    expect((await create({ ...percent, discount_percent: 100 })).discount_percent).toBe(100);
    expect((await create({ ...percent, discount_percent: 12.34 })).discount_percent).toBe(12.34);
    expect((await create({ ...percent, repeat: 'forever' })).repeat).toBe('forever');
    expect((await create({ ...percent, product_ids: [] })).product_ids).toBeNull();
    expect((await create({ ...percent, discount_amount: null, currency: null, duration: null })).type).toBe('percent');
  });

  it.each([
    ['amount without currency', { name: 'X', type: 'amount', discount_amount: 100 }, ['body.currency']],
    ['amount without amount nor currency', { name: 'X', type: 'amount' }, ['body.discount_amount', 'body.currency']],
    ['amount with a percent', { ...amount, discount_percent: 5 }, ['body.discount_percent']],
    ['percent without percent', { name: 'X', type: 'percent' }, ['body.discount_percent']],
    ['percent with an amount and currency', { ...percent, discount_amount: 100, currency: 'EUR' }, ['body.discount_amount', 'body.currency']],
    ['percent with three decimals', { ...percent, discount_percent: 12.345 }, ['body.discount_percent']],
    ['percent 0', { ...percent, discount_percent: 0 }, ['body.discount_percent']],
    ['percent over 100', { ...percent, discount_percent: 100.5 }, ['body.discount_percent']],
    ['amount 0', { ...amount, discount_amount: 0 }, ['body.discount_amount']],
    ['fractional amount', { ...amount, discount_amount: 10.5 }, ['body.discount_amount']],
    ['unknown currency', { ...amount, currency: 'EURO' }, ['body.currency']],
    ['repeat duration without duration', { ...percent, repeat: 'duration' }, ['body.duration']],
    ['a duration without repeat duration', { ...percent, duration: { period: 'months', count: 2 } }, ['body.duration']],
    ['a duration of 0', { ...percent, repeat: 'duration', duration: { period: 'months', count: 0 } }, ['body.duration.count']],
    ['a duration in hours', { ...percent, repeat: 'duration', duration: { period: 'hours', count: 1 } }, ['body.duration.period']],
    ['a duration without count', { ...percent, repeat: 'duration', duration: { period: 'days' } }, ['body.duration.count']],
    ['an unknown type', { ...percent, type: 'free' }, ['body.type']],
    ['an unknown repeat', { ...percent, repeat: 'twice' }, ['body.repeat']],
    ['no name', { type: 'percent', discount_percent: 5 }, ['body.name']],
    ['no type', { name: 'X', discount_percent: 5 }, ['body.type']],
    ['a bad expiration date', { ...percent, expiration_date: 'tomorrow' }, ['body.expiration_date']],
    ['a redemption limit of 0', { ...percent, redemption_limit: 0 }, ['body.redemption_limit']],
    ['the same product twice', { ...percent, product_ids: ['itm_a', 'itm_a'] }, ['body.product_ids']],
    ['an unknown member', { ...percent, times_redeemed: 3 }, ['body.times_redeemed']],
    ['a read-only member', { ...percent, redemption_count: 3 }, ['body.redemption_count']],
  ])('rejects %s with a 400 naming what is wrong', async (_, body, expected) => {
    const reply = await client.post('/v1/coupons', body);
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe('invalid_request');
    expect(paths(reply)).toEqual(expect.arrayContaining(expected));
    expect(reply.body.request_id).toEqual(expect.any(String));
  });
});

describe('PUT /v1/coupons/{id}', () => {
  it('changes name, description, limit and expiration; keeps omitted members; null clears', async () => {
    const coupon = await create({ ...percent, description: 'd', redemption_limit: 5, expiration_date: '2031-01-01T00:00:00.000Z' });
    const renamed = await client.put(`/v1/coupons/${coupon.id}`, { name: 'Renamed', redemption_limit: 8 });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Renamed', description: 'd', redemption_limit: 8, expiration_date: '2031-01-01T00:00:00.000Z' });
    expect(renamed.body.updated_at >= coupon.updated_at).toBe(true);
    const cleared = await client.put(`/v1/coupons/${coupon.id}`, { description: null, redemption_limit: null, expiration_date: null });
    expect(cleared.body).toMatchObject({ name: 'Renamed', description: null, redemption_limit: null, expiration_date: null, discount_percent: 10 });
    expect((await client.get(`/v1/coupons/${coupon.id}`)).body).toEqual(cleared.body);
  });

  it.each([{ type: 'amount' }, { discount_percent: 20 }, { discount_amount: 100 }, { currency: 'EUR' }, { repeat: 'forever' }, { duration: null }, { product_ids: ['itm_x'] }])(
    'refuses to change the discount after creation: %j is a 400',
    async (body) => {
      const coupon = await create();
      const reply = await client.put(`/v1/coupons/${coupon.id}`, body);
      expect(reply.status).toBe(400);
      expect(paths(reply)).toEqual([`body.${Object.keys(body)[0]}`]);
      expect((await client.get(`/v1/coupons/${coupon.id}`)).body).toEqual(coupon);
    },
  );

  it('rejects an empty name, a limit of 0 and a bad date', async () => {
    const coupon = await create();
    for (const body of [{ name: '' }, { name: null }, { redemption_limit: 0 }, { expiration_date: '2031-13-01T00:00:00Z' }]) {
      expect([body, (await client.put(`/v1/coupons/${coupon.id}`, body)).status]).toEqual([body, 400]);
    }
  });

  it('refuses a redemption limit below the redemptions already made (422), accepts one equal to them', async () => {
    const coupon = await create({ ...percent, redemption_limit: 5 });
    await redeemCoupon(coupon.id);
    await redeemCoupon(coupon.id);
    expect((await client.get(`/v1/coupons/${coupon.id}`)).body.redemption_count).toBe(2);
    const lower = await client.put(`/v1/coupons/${coupon.id}`, { redemption_limit: 1 });
    expect(lower.status).toBe(422);
    expect(lower.body.code).toBe('limit_below_redemptions');
    const equal = await client.put(`/v1/coupons/${coupon.id}`, { redemption_limit: 2 });
    expect(equal.body).toMatchObject({ redemption_limit: 2, redemption_count: 2 });
  });

  it('returns 404 for an unknown coupon', async () => {
    const reply = await client.put('/v1/coupons/cou_unknown', { name: 'X' });
    expect(reply.status).toBe(404);
    expect(reply.body.code).toBe('not_found');
  });
});

describe('DELETE /v1/coupons/{id}', () => {
  it('soft-deletes: 200 with the deleted coupon, still readable, out of the list and its count; twice is a no-op', async () => {
    const fresh = await api.client();
    const keep = (await fresh.post('/v1/coupons', percent)).body;
    const gone = (await fresh.post('/v1/coupons', amount)).body;
    const deleted = await fresh.delete(`/v1/coupons/${gone.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id: gone.id, deleted_at: expect.any(String), discount_amount: 2000 });
    expect((await fresh.get(`/v1/coupons/${gone.id}`)).body).toEqual(deleted.body);
    const list = (await fresh.get('/v1/coupons')).body;
    expect(list.meta.total).toBe(1);
    expect(list.data.map((c: { id: string }) => c.id)).toEqual([keep.id]);
    expect(await fresh.delete(`/v1/coupons/${gone.id}`)).toMatchObject({ status: 200, body: deleted.body });
    expect((await fresh.get('/v1/coupons')).body.meta.total).toBe(1);
  });

  it('forbids changes (409), new promotion codes (422) and redemptions of its existing codes (422)', async () => {
    const coupon = await create();
    expect((await client.post('/v1/promotion-codes', { code: 'BEFORE-DELETE', coupon_id: coupon.id })).status).toBe(201);
    await client.delete(`/v1/coupons/${coupon.id}`);
    const change = await client.put(`/v1/coupons/${coupon.id}`, { name: 'X' });
    expect(change.status).toBe(409);
    expect(change.body.code).toBe('resource_deleted');
    const promo = await client.post('/v1/promotion-codes', { code: 'AFTER-DELETE', coupon_id: coupon.id });
    expect(promo.status).toBe(422);
    expect(promo.body.code).toBe('coupon_deleted');
    const ctx = makeCtx(client.workspace, 'test');
    await expect(redeem(ctx, 'before-delete', { customerId: 'cus_1', isFirstOrder: true })).rejects.toMatchObject({
      status: 422, code: 'promotion_code_not_applicable', message: expect.stringContaining('coupon'),
    });
  });

  it('returns 404 for an unknown coupon', async () => {
    expect((await client.delete('/v1/coupons/cou_unknown')).status).toBe(404);
  });
});

describe('GET /v1/coupons', () => {
  let lister: Client;
  const ids: string[] = [];
  beforeAll(async () => {
    lister = await api.client();
    for (let i = 0; i < 5; i++) ids.push((await lister.post('/v1/coupons', { ...percent, name: `C${i}` })).body.id);
  });

  it('pages with take and skip, oldest first, with the total', async () => {
    const page = await lister.get('/v1/coupons?take=2&skip=1');
    expect(page.status).toBe(200);
    expect(page.body.meta).toEqual({ total: 5, taken: 2, skipped: 1, approximateCount: false });
    expect(page.body.data.map((c: { id: string }) => c.id)).toEqual(ids.slice(1, 3));
    expect((await lister.get('/v1/coupons')).body.meta).toEqual({ total: 5, taken: 5, skipped: 0, approximateCount: false });
    expect((await lister.get('/v1/coupons?take=0')).body).toEqual({ meta: { total: 5, taken: 0, skipped: 0, approximateCount: false }, data: [] });
    expect((await lister.get('/v1/coupons?skip=10')).body.data).toEqual([]);
  });

  it.each(['take=101', 'take=-1', 'skip=-1', 'take=abc', 'name=C1', 'type=percent'])('rejects %s with a 400', async (query) => {
    const reply = await lister.get(`/v1/coupons?${query}`);
    expect(reply.status).toBe(400);
    expect(reply.body.errors[0].path).toMatch(/^query\./);
  });
});

describe('coupon events', () => {
  it('emits coupon.created, .updated and .deleted with the coupon as data, and nothing for a redemption', async () => {
    const watched = await api.client();
    const coupon = (await watched.post('/v1/coupons', percent)).body;
    await watched.post('/v1/promotion-codes', { code: 'WATCHED', coupon_id: coupon.id });
    await redeem(makeCtx(watched.workspace, 'test'), 'WATCHED', { customerId: 'cus_1', isFirstOrder: true });
    await api.events.settle();
    await watched.put(`/v1/coupons/${coupon.id}`, { name: 'Renamed' });
    await watched.delete(`/v1/coupons/${coupon.id}`);
    await api.events.settle();
    const messages = (await watched.get('/v1/webhooks/messages?event_types=coupon.created&event_types=coupon.updated&event_types=coupon.deleted')).body.data;
    const byType = Object.fromEntries(messages.map((m: { payload: { event_type: string; data: object } }) => [m.payload.event_type, m.payload.data]));
    expect(messages).toHaveLength(3);
    expect(byType['coupon.created']).toMatchObject({ id: coupon.id, name: 'Ten percent', redemption_count: 0 });
    expect(byType['coupon.updated']).toMatchObject({ id: coupon.id, name: 'Renamed', redemption_count: 1 });
    expect(byType['coupon.deleted']).toMatchObject({ id: coupon.id, deleted_at: expect.any(String) });
  });
});
