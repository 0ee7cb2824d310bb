import { importJWK, SignJWT } from 'jose';
import { LOCAL_AUDIENCE, LOCAL_ISSUER } from '../../lib/local/jwt';
import { makeCtx, type Ctx } from '../../shared/context';
import { redeem, type RedemptionContext } from '../../shared/domain/promotion-codes/redeem';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';

let api: TestApi;
let client: Client;
let ctx: Ctx;
let coupon: { id: string };
let customer: { id: string };
/** Products of the workspace, to restrict codes and coupons to. */
let products: Record<'one' | 'nine' | 'pro' | 'basic' | 'a' | 'b' | 'c', string>;

beforeAll(async () => {
  api = await startTestApi();
  client = await api.client();
  ctx = makeCtx(client.workspace, 'test');
  await withEntity(client);
  coupon = (await client.post('/v1/coupons', { name: 'Ten percent', type: 'percent', discount_percent: 10 })).body;
  customer = (await client.post('/v1/customers', { name: 'Jane' })).body;
  const names = ['one', 'nine', 'pro', 'basic', 'a', 'b', 'c'] as const;
  const made = await Promise.all(names.map((name) => client.post('/v1/products', { name, type: 'flat_fee' })));
  products = Object.fromEntries(names.map((name, i) => [name, made[i]!.body.id])) as typeof products;
});
afterAll(() => api.close());

let sequence = 0;
const uniqueCode = (prefix = 'CODE') => `${prefix}-${Date.now().toString(36)}-${(sequence++).toString(36)}`.toUpperCase();

const create = async (body: Record<string, unknown> = {}, as: Client = client) => {
  const reply = await as.post('/v1/promotion-codes', { code: uniqueCode(), coupon_id: coupon.id, ...body });
  expect(reply.status).toBe(201);
  return reply.body;
};

const newCoupon = async (body: Record<string, unknown> = {}) =>
  (await client.post('/v1/coupons', { name: 'C', type: 'percent', discount_percent: 5, ...body })).body;

const paths = (reply: { body: { errors?: { path: string }[] } }) => (reply.body.errors ?? []).map((e) => e.path);

/** A token like one issued to an OAuth client: with a `client_id` (or only `azp`) claim. */
async function tokenWith(claims: Record<string, string>): Promise<string> {
  const key = await importJWK(api.keys.privateJwk, 'RS256');
  return new SignJWT({ workspace_id: client.workspace, scope: 'read write', ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: api.keys.privateJwk.kid })
    .setIssuer(LOCAL_ISSUER)
    .setAudience(LOCAL_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(key);
}

describe('POST /v1/promotion-codes', () => {
  it('creates a code with every member and its defaults', async () => {
    const code = uniqueCode('Spring');
    const created = await client.post('/v1/promotion-codes', { code, coupon_id: coupon.id });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^promo_[0-9A-HJKMNP-TV-Z]{26}$/), code, coupon_id: coupon.id, client_id: null,
      customer_id: null, plan_id: null, product_id: null,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/), updated_at: created.body.created_at,
      expires_at: null, max_redemptions: null, current_redemptions: 0, duration_count: null, duration_period: null,
      only_for_first_time_order: false, deleted_at: null,
    });
    expect(await client.get(`/v1/promotion-codes/${created.body.id}`)).toMatchObject({ status: 200, body: created.body });
  });

  it('stores every optional member as given (the expiry normalized to UTC)', async () => {
    const promo = await create({
      customer_id: customer.id, plan_id: null, product_id: products.one, expires_at: '2031-01-01T01:00:00+01:00',
      max_redemptions: 10, duration_count: 3, duration_period: 'months', only_for_first_time_order: true,
    });
    expect(promo).toMatchObject({
      customer_id: customer.id, plan_id: null, product_id: products.one, expires_at: '2031-01-01T00:00:00.000Z',
      max_redemptions: 10, current_redemptions: 0, duration_count: 3, duration_period: 'months', only_for_first_time_order: true,
    });
    expect((await create({ duration_period: 'once' })).duration_period).toBe('once');
  });

  it("refuses a product or customer that is not the workspace's (unknown, deleted, another workspace's) and any plan: 422, nothing written", async () => {
    const stranger = await api.client();
    await withEntity(stranger);
    const theirs = {
      product: (await stranger.post('/v1/products', { name: 'Theirs', type: 'flat_fee' })).body.id,
      customer: (await stranger.post('/v1/customers', { name: 'Theirs' })).body.id,
    };
    const deleted = (await client.post('/v1/products', { name: 'Gone', type: 'flat_fee' })).body.id;
    await client.delete(`/v1/products/${deleted}`);
    const before = (await client.get('/v1/promotion-codes?take=0')).body.meta.total;
    const promo = await create({ product_id: products.one, customer_id: customer.id });
    const cases: Array<[Record<string, string>, string]> = [
      [{ product_id: theirs.product }, 'product_not_found'], [{ product_id: deleted }, 'product_not_found'], [{ product_id: 'itm_unknown' }, 'product_not_found'],
      [{ customer_id: theirs.customer }, 'customer_not_found'], [{ plan_id: 'plan_gold' }, 'plan_not_found'],
    ];
    for (const [body, code] of cases) {
      const created = await client.post('/v1/promotion-codes', { code: uniqueCode(), coupon_id: coupon.id, ...body });
      const changed = await client.patch(`/v1/promotion-codes/${promo.id}`, body);
      expect([body, created.status, created.body.code, changed.status, changed.body.code]).toEqual([body, 422, code, 422, code]);
    }
    expect((await client.get('/v1/promotion-codes?take=0')).body.meta.total).toBe(before + 1);
    expect((await client.get(`/v1/promotion-codes/${promo.id}`)).body).toEqual(promo);
  });

  it('records the OAuth client of the token (client_id, else azp), else null', async () => {
    const viaClientId = await api.raw('POST', '/v1/promotion-codes', {
      headers: { authorization: `Bearer ${await tokenWith({ client_id: 'cli_partner', azp: 'cli_other' })}`, 'content-type': 'application/json' },
      body: JSON.stringify({ code: uniqueCode(), coupon_id: coupon.id }),
    });
    expect(viaClientId.status).toBe(201);
    expect(viaClientId.body.client_id).toBe('cli_partner');
    const viaAzp = await api.raw('POST', '/v1/promotion-codes', {
      headers: { authorization: `Bearer ${await tokenWith({ azp: 'cli_app' })}`, 'content-type': 'application/json' },
      body: JSON.stringify({ code: uniqueCode(), coupon_id: coupon.id }),
    });
    expect(viaAzp.body.client_id).toBe('cli_app');
    expect((await create()).client_id).toBeNull();
  });

  it('keeps the case of the code but refuses the same code in any case (409 promotion_code_exists)', async () => {
    const code = uniqueCode('Summer');
    expect((await create({ code })).code).toBe(code);
    for (const variant of [code, code.toLowerCase(), code.toUpperCase()]) {
      const again = await client.post('/v1/promotion-codes', { code: variant, coupon_id: coupon.id });
      expect([variant, again.status, again.body.code]).toEqual([variant, 409, 'promotion_code_exists']);
    }
    const other = await api.client();
    const otherCoupon = (await other.post('/v1/coupons', { name: 'C', type: 'percent', discount_percent: 5 })).body;
    expect((await other.post('/v1/promotion-codes', { code, coupon_id: otherCoupon.id })).status).toBe(201);
    const listed = (await client.get(`/v1/promotion-codes?code=${code}`)).body;
    expect(listed.meta.total).toBe(1);
  });

  it('lets exactly one of concurrent creates of the same code win; the others get 409', async () => {
    const code = uniqueCode('Race');
    const variants = Array.from({ length: 10 }, (_, i) => (i % 2 ? code.toLowerCase() : code));
    const replies = await Promise.all(variants.map((variant) => client.post('/v1/promotion-codes', { code: variant, coupon_id: coupon.id })));
    expect(replies.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(409)]);
    expect(replies.filter((r) => r.status === 409).every((r) => r.body.code === 'promotion_code_exists')).toBe(true);
    expect((await client.get(`/v1/promotion-codes?code=${code}`)).body.meta.total).toBe(1);
  });

  it('requires a coupon that exists, is not deleted and has not expired (422)', async () => {
    const unknown = await client.post('/v1/promotion-codes', { code: uniqueCode(), coupon_id: 'cou_unknown' });
    expect([unknown.status, unknown.body.code]).toEqual([422, 'coupon_not_found']);
    const deleted = await newCoupon();
    await client.delete(`/v1/coupons/${deleted.id}`);
    const onDeleted = await client.post('/v1/promotion-codes', { code: uniqueCode(), coupon_id: deleted.id });
    expect([onDeleted.status, onDeleted.body.code]).toEqual([422, 'coupon_deleted']);
    const expired = await newCoupon({ expiration_date: '2020-01-01T00:00:00.000Z' });
    const onExpired = await client.post('/v1/promotion-codes', { code: uniqueCode(), coupon_id: expired.id });
    expect([onExpired.status, onExpired.body.code]).toEqual([422, 'coupon_expired']);
    const foreign = await (await api.client()).post('/v1/coupons', { name: 'C', type: 'percent', discount_percent: 5 });
    const onForeign = await client.post('/v1/promotion-codes', { code: uniqueCode(), coupon_id: foreign.body.id });
    expect([onForeign.status, onForeign.body.code]).toEqual([422, 'coupon_not_found']);
  });

  it('requires the restricted customer to exist (422 customer_not_found); a failed create leaves the code free', async () => {
    const code = uniqueCode();
    const reply = await client.post('/v1/promotion-codes', { code, coupon_id: coupon.id, customer_id: 'cus_unknown' });
    expect([reply.status, reply.body.code]).toEqual([422, 'customer_not_found']);
    expect((await client.post('/v1/promotion-codes', { code, coupon_id: coupon.id })).status).toBe(201);
  });

  it.each([
    ['a code with a space', { code: 'TWO WORDS' }, ['body.code']],
    ['an empty code', { code: '' }, ['body.code']],
    ['a code of 65 characters', { code: 'A'.repeat(65) }, ['body.code']],
    ['a code with accents', { code: 'ÉTÉ' }, ['body.code']],
    ['no code', { code: undefined }, ['body.code']],
    ['no coupon', { coupon_id: undefined }, ['body.coupon_id']],
    ['a period without count', { duration_period: 'months' }, ['body.duration_count']],
    ['a count without period', { duration_count: 2 }, ['body.duration_count']],
    ['a count with once', { duration_period: 'once', duration_count: 1 }, ['body.duration_count']],
    ['a count of 0', { duration_period: 'days', duration_count: 0 }, ['body.duration_count']],
    ['an unknown period', { duration_period: 'hours', duration_count: 1 }, ['body.duration_period']],
    ['max_redemptions 0', { max_redemptions: 0 }, ['body.max_redemptions']],
    ['fractional max_redemptions', { max_redemptions: 1.5 }, ['body.max_redemptions']],
    // Hyperline's create example sends current_redemptions 0 (accepted): a new code has no other count.
    ['current_redemptions other than 0 (the service counts)', { current_redemptions: 3 }, ['body.current_redemptions']],
    ['client_id (from the token only)', { client_id: 'cli_x' }, ['body.client_id']],
    ['a bad expiry', { expires_at: '2031-01-01' }, ['body.expires_at']],
    ['a non-boolean first-order flag', { only_for_first_time_order: 'yes' }, ['body.only_for_first_time_order']],
    ['an unknown member', { active: true }, ['body.active']],
  ])('rejects %s with a 400 naming what is wrong', async (_, body, expected) => {
    const reply = await client.post('/v1/promotion-codes', { code: uniqueCode(), coupon_id: coupon.id, ...body });
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe('invalid_request');
    expect(paths(reply)).toEqual(expect.arrayContaining(expected));
  });
});

describe('PATCH /v1/promotion-codes/{id}', () => {
  it('changes restrictions and availability; keeps omitted members; null clears', async () => {
    const promo = await create({ product_id: products.one, max_redemptions: 5, duration_period: 'months', duration_count: 2 });
    const changed = await client.patch(`/v1/promotion-codes/${promo.id}`, {
      customer_id: customer.id, product_id: products.nine, expires_at: '2032-02-02T00:00:00Z', max_redemptions: 7, only_for_first_time_order: true,
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      code: promo.code, plan_id: null, customer_id: customer.id, product_id: products.nine, expires_at: '2032-02-02T00:00:00.000Z',
      max_redemptions: 7, only_for_first_time_order: true, duration_period: 'months', duration_count: 2,
    });
    expect(changed.body.updated_at >= promo.updated_at).toBe(true);
    const cleared = await client.patch(`/v1/promotion-codes/${promo.id}`, { customer_id: null, plan_id: null, product_id: null, expires_at: null, max_redemptions: null });
    expect(cleared.body).toMatchObject({ customer_id: null, plan_id: null, product_id: null, expires_at: null, max_redemptions: null, only_for_first_time_order: true });
    expect((await client.get(`/v1/promotion-codes/${promo.id}`)).body).toEqual(cleared.body);
  });

  it.each([{ code: 'OTHER' }, { coupon_id: 'cou_x' }, { duration_count: 1 }, { duration_period: 'once' }, { current_redemptions: 0 }, { client_id: 'cli_x' }])(
    'refuses to change %j after creation (400)',
    async (body) => {
      const promo = await create();
      const reply = await client.patch(`/v1/promotion-codes/${promo.id}`, body);
      expect(reply.status).toBe(400);
      expect(paths(reply)).toEqual([`body.${Object.keys(body)[0]}`]);
      expect((await client.get(`/v1/promotion-codes/${promo.id}`)).body).toEqual(promo);
    },
  );

  it('refuses max_redemptions below current_redemptions (422), accepts it equal', async () => {
    const promo = await create({ max_redemptions: 5 });
    await redeem(ctx, promo.code, { customerId: 'cus_a', isFirstOrder: false });
    await redeem(ctx, promo.code, { customerId: 'cus_a', isFirstOrder: false });
    const lower = await client.patch(`/v1/promotion-codes/${promo.id}`, { max_redemptions: 1 });
    expect([lower.status, lower.body.code]).toEqual([422, 'limit_below_redemptions']);
    const equal = await client.patch(`/v1/promotion-codes/${promo.id}`, { max_redemptions: 2 });
    expect(equal.body).toMatchObject({ max_redemptions: 2, current_redemptions: 2 });
  });

  it('refuses an unknown customer (422), 404s an unknown code, 409s a deleted one', async () => {
    const promo = await create();
    const unknownCustomer = await client.patch(`/v1/promotion-codes/${promo.id}`, { customer_id: 'cus_unknown' });
    expect([unknownCustomer.status, unknownCustomer.body.code]).toEqual([422, 'customer_not_found']);
    expect((await client.get(`/v1/promotion-codes/${promo.id}`)).body.customer_id).toBeNull();
    expect((await client.patch('/v1/promotion-codes/promo_unknown', { max_redemptions: 1 })).status).toBe(404);
    await client.delete(`/v1/promotion-codes/${promo.id}`);
    const onDeleted = await client.patch(`/v1/promotion-codes/${promo.id}`, { max_redemptions: 1 });
    expect([onDeleted.status, onDeleted.body.code]).toEqual([409, 'resource_deleted']);
  });
});

describe('DELETE /v1/promotion-codes/{id}', () => {
  it('soft-deletes and releases the code: readable, out of the list, never redeemed, the code can be created again', async () => {
    const fresh = await api.client();
    const freshCoupon = (await fresh.post('/v1/coupons', { name: 'C', type: 'percent', discount_percent: 5 })).body;
    const keep = (await fresh.post('/v1/promotion-codes', { code: 'KEEP', coupon_id: freshCoupon.id })).body;
    const gone = (await fresh.post('/v1/promotion-codes', { code: 'Gone', coupon_id: freshCoupon.id })).body;
    const deleted = await fresh.delete(`/v1/promotion-codes/${gone.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id: gone.id, code: 'Gone', deleted_at: expect.any(String) });
    expect((await fresh.get(`/v1/promotion-codes/${gone.id}`)).body).toEqual(deleted.body);
    const list = (await fresh.get('/v1/promotion-codes')).body;
    expect(list.meta.total).toBe(1);
    expect(list.data.map((p: { id: string }) => p.id)).toEqual([keep.id]);
    expect(await fresh.delete(`/v1/promotion-codes/${gone.id}`)).toMatchObject({ status: 200, body: deleted.body });
    await expect(redeem(makeCtx(fresh.workspace, 't'), 'gone', { customerId: 'cus_1', isFirstOrder: true })).rejects.toMatchObject({
      status: 422, code: 'promotion_code_not_applicable',
    });
    const again = await fresh.post('/v1/promotion-codes', { code: 'GONE', coupon_id: freshCoupon.id });
    expect(again.status).toBe(201);
    expect((await redeem(makeCtx(fresh.workspace, 't'), 'gone', { customerId: 'cus_1', isFirstOrder: true })).promotionCode.id).toBe(again.body.id);
  });

  it('returns 404 for an unknown code', async () => {
    expect((await client.delete('/v1/promotion-codes/promo_unknown')).status).toBe(404);
  });
});

describe('GET /v1/promotion-codes', () => {
  let lister: Client;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    lister = await api.client();
    await withEntity(lister);
    const c1 = (await lister.post('/v1/coupons', { name: 'C1', type: 'percent', discount_percent: 5 })).body.id;
    const c2 = (await lister.post('/v1/coupons', { name: 'C2', type: 'amount', discount_amount: 500, currency: 'EUR' })).body.id;
    const jane = (await lister.post('/v1/customers', { name: 'Jane' })).body.id;
    ids.c1 = c1;
    ids.c2 = c2;
    ids.jane = jane;
    const seed = [
      { code: 'SUMMER20', coupon_id: c1 },
      { code: 'summer-vip', coupon_id: c1, customer_id: jane },
      { code: 'Winter10', coupon_id: c2 },
      { code: 'PARTNER', coupon_id: c2, customer_id: jane },
    ];
    for (const body of seed) ids[body.code] = (await lister.post('/v1/promotion-codes', body)).body.id;
  });

  const codes = async (query: string) => {
    const reply = await lister.get(`/v1/promotion-codes?${query}`);
    expect(reply.status).toBe(200);
    return reply.body.data.map((p: { code: string }) => p.code);
  };

  it('lists oldest first with the total', async () => {
    const reply = await lister.get('/v1/promotion-codes');
    expect(reply.body.meta).toEqual({ total: 4, taken: 4, skipped: 0, approximateCount: false });
    expect(reply.body.data.map((p: { code: string }) => p.code)).toEqual(['SUMMER20', 'summer-vip', 'Winter10', 'PARTNER']);
  });

  it.each([
    ['code=summer20', ['SUMMER20']],
    ['code=SUMMER20', ['SUMMER20']],
    ['code__equals=Summer20', ['SUMMER20']],
    ['code__not=summer20', ['summer-vip', 'Winter10', 'PARTNER']],
    ['code__contains=MER', ['SUMMER20', 'summer-vip']],
    ['code__startsWith=summer', ['SUMMER20', 'summer-vip']],
    ['code__endWith=10', ['Winter10']],
    ['code__endsWith=VIP', ['summer-vip']],
    ['code__isNull=true', []],
    ['customer_id__isNull=true', ['SUMMER20', 'Winter10']],
    ['customer_id__isNotNull=true', ['summer-vip', 'PARTNER']],
    ['customer_id__startsWith=cus_', ['summer-vip', 'PARTNER']],
  ])('%s', async (query, expected) => {
    expect(await codes(query)).toEqual(expected);
  });

  it('filters by coupon and customer, alone and together', async () => {
    expect(await codes(`coupon_id=${ids.c1}`)).toEqual(['SUMMER20', 'summer-vip']);
    expect(await codes(`coupon_id__not=${ids.c1}`)).toEqual(['Winter10', 'PARTNER']);
    expect(await codes(`coupon_id__equals=${ids.c2}`)).toEqual(['Winter10', 'PARTNER']);
    expect(await codes(`customer_id=${ids.jane}`)).toEqual(['summer-vip', 'PARTNER']);
    expect(await codes(`customer_id=${ids.jane}&coupon_id=${ids.c2}`)).toEqual(['PARTNER']);
    expect(await codes(`coupon_id=${ids.c1!.toLowerCase()}`)).toEqual([]);
  });

  it('pages filtered and unfiltered results with meta', async () => {
    const page = (await lister.get('/v1/promotion-codes?take=2&skip=1')).body;
    expect(page.meta).toEqual({ total: 4, taken: 2, skipped: 1, approximateCount: false });
    expect(page.data.map((p: { code: string }) => p.code)).toEqual(['summer-vip', 'Winter10']);
    const filtered = (await lister.get('/v1/promotion-codes?code__contains=e&take=1&skip=1')).body;
    expect(filtered.meta).toEqual({ total: 4, taken: 1, skipped: 1, approximateCount: false });
    expect(filtered.data[0].code).toBe('summer-vip');
    expect((await lister.get('/v1/promotion-codes?take=0')).body).toEqual({ meta: { total: 4, taken: 0, skipped: 0, approximateCount: false }, data: [] });
  });

  it.each(['take=101', 'take=-1', 'skip=-1', 'take=abc', 'cod=SUMMER20', 'plan_id=plan_1', 'code__like=x', 'code__in=a,b', 'code__isNull=maybe', 'created_at__gt=2020-01-01'])(
    'rejects %s with a 400',
    async (query) => {
      const reply = await lister.get(`/v1/promotion-codes?${query}`);
      expect(reply.status).toBe(400);
      expect(reply.body.errors[0].path).toMatch(/^query\./);
    },
  );
});

describe('redeem', () => {
  const context = (extra: Partial<RedemptionContext> = {}): RedemptionContext => ({ customerId: customer.id, isFirstOrder: false, ...extra });

  const refusal = async (code: string, extra: Partial<RedemptionContext> = {}) => {
    const error = await redeem(ctx, code, context(extra)).then(
      () => undefined,
      (e: { status: number; code: string; message: string }) => e,
    );
    expect(error).toMatchObject({ status: 422, code: 'promotion_code_not_applicable' });
    return error!.message;
  };

  it('applies a code in any case and counts the redemption on the code and its coupon', async () => {
    const own = await newCoupon();
    const promo = await create({ coupon_id: own.id, code: uniqueCode('Apply') });
    const result = await redeem(ctx, ` ${promo.code.toLowerCase()} `, context());
    expect(result.promotionCode).toMatchObject({ id: promo.id, code: promo.code, current_redemptions: 1, updated_at: promo.updated_at });
    expect(result.coupon).toMatchObject({ id: own.id, redemption_count: 1 });
    expect(result.promotionCode).not.toHaveProperty('pk');
    expect((await client.get(`/v1/promotion-codes/${promo.id}`)).body.current_redemptions).toBe(1);
    expect((await client.get(`/v1/coupons/${own.id}`)).body.redemption_count).toBe(1);
  });

  it('refuses an unknown code, and a code of another workspace', async () => {
    expect(await refusal('NO-SUCH-CODE')).toMatch(/No promotion code 'NO-SUCH-CODE'/);
    expect(await refusal('TWO WORDS')).toMatch(/No promotion code/);
    expect(await refusal('A'.repeat(3000))).toMatch(/No promotion code/);
    const promo = await create();
    const other = makeCtx((await api.client()).workspace, 'test');
    await expect(redeem(other, promo.code, context())).rejects.toMatchObject({ code: 'promotion_code_not_applicable' });
  });

  it('refuses an expired code, and accepts it before its expiry', async () => {
    const promo = await create({ expires_at: '2030-01-01T00:00:00.000Z' });
    expect(await refusal(promo.code, { at: new Date('2030-01-01T00:00:00.000Z') })).toMatch(/expired/);
    await expect(redeem(ctx, promo.code, context({ at: new Date('2029-12-31T23:59:59.999Z') }))).resolves.toBeDefined();
    const past = await create({ expires_at: '2020-01-01T00:00:00.000Z' });
    expect(await refusal(past.code)).toMatch(/Promotion code .* expired at 2020-01-01T00:00:00.000Z/);
  });

  it('refuses a code whose coupon expired', async () => {
    const expiring = await newCoupon({ expiration_date: '2030-06-01T00:00:00.000Z' });
    const promo = await create({ coupon_id: expiring.id });
    expect(await refusal(promo.code, { at: new Date('2030-06-02T00:00:00.000Z') })).toMatch(/coupon .* expired/);
    await client.put(`/v1/coupons/${expiring.id}`, { expiration_date: '2020-01-01T00:00:00.000Z' });
    expect(await refusal(promo.code)).toMatch(/coupon .* expired/);
  });

  it('refuses a code whose coupon is deleted', async () => {
    const doomed = await newCoupon();
    const promo = await create({ coupon_id: doomed.id });
    await client.delete(`/v1/coupons/${doomed.id}`);
    expect(await refusal(promo.code)).toMatch(/coupon .* is deleted/);
  });

  it('refuses a code reserved for another customer', async () => {
    const promo = await create({ customer_id: customer.id });
    expect(await refusal(promo.code, { customerId: 'cus_someone_else' })).toMatch(/reserved for another customer/);
    await expect(redeem(ctx, promo.code, context())).resolves.toBeDefined();
  });

  it('refuses a code restricted to a product the order does not have', async () => {
    const promo = await create({ product_id: products.pro });
    expect(await refusal(promo.code, { productIds: [products.basic] })).toMatch(new RegExp(`only to product '${products.pro}'`));
    expect(await refusal(promo.code)).toMatch(/only to product/);
    await expect(redeem(ctx, promo.code, context({ productIds: [products.basic, products.pro] }))).resolves.toBeDefined();
  });

  it("refuses a code whose coupon is limited to products the order does not have (one match suffices)", async () => {
    const limited = await newCoupon({ product_ids: [products.a, products.b] });
    const promo = await create({ coupon_id: limited.id });
    expect(await refusal(promo.code, { productIds: [products.c] })).toMatch(new RegExp(`coupon .* applies only to the products '${products.a}', '${products.b}'`));
    expect(await refusal(promo.code)).toMatch(/only to the products/);
    await expect(redeem(ctx, promo.code, context({ productIds: [products.c, products.b] }))).resolves.toBeDefined();
  });

  it('refuses a first-order code on a later order', async () => {
    const promo = await create({ only_for_first_time_order: true });
    expect(await refusal(promo.code, { isFirstOrder: false })).toMatch(/first order/);
    await expect(redeem(ctx, promo.code, context({ isFirstOrder: true }))).resolves.toBeDefined();
  });

  it('refuses a code at its maximum of redemptions', async () => {
    const promo = await create({ max_redemptions: 2 });
    await redeem(ctx, promo.code, context());
    await redeem(ctx, promo.code, context());
    expect(await refusal(promo.code)).toMatch(/reached its maximum of 2 redemptions/);
    expect((await client.get(`/v1/promotion-codes/${promo.id}`)).body.current_redemptions).toBe(2);
    await client.patch(`/v1/promotion-codes/${promo.id}`, { max_redemptions: 3 });
    await expect(redeem(ctx, promo.code, context())).resolves.toBeDefined();
  });

  it('refuses a code whose coupon reached its redemption limit, whichever code redeemed it', async () => {
    const limited = await newCoupon({ redemption_limit: 2 });
    const first = await create({ coupon_id: limited.id });
    const second = await create({ coupon_id: limited.id });
    await redeem(ctx, first.code, context());
    await redeem(ctx, second.code, context());
    expect(await refusal(first.code)).toMatch(/coupon .* reached its redemption limit of 2/);
    expect(await refusal(second.code)).toMatch(/redemption limit/);
    expect((await client.get(`/v1/coupons/${limited.id}`)).body.redemption_count).toBe(2);
    expect((await client.get(`/v1/promotion-codes/${second.id}`)).body.current_redemptions).toBe(1);
  });

  it('30 parallel redemptions of a code with max_redemptions 10: exactly 10 succeed, the counter ends at 10', async () => {
    const own = await newCoupon();
    const promo = await create({ coupon_id: own.id, max_redemptions: 10 });
    const outcomes = await Promise.allSettled(Array.from({ length: 30 }, () => redeem(ctx, promo.code, context())));
    const succeeded = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(succeeded).toHaveLength(10);
    expect(refused.map((o) => o.reason.code)).toEqual(Array(20).fill('promotion_code_not_applicable'));
    expect(refused[0]!.reason.message).toMatch(/maximum of 10/);
    expect((await client.get(`/v1/promotion-codes/${promo.id}`)).body.current_redemptions).toBe(10);
    expect((await client.get(`/v1/coupons/${own.id}`)).body.redemption_count).toBe(10);
  });

  it("never passes a coupon's redemption_limit under concurrency, across its codes", async () => {
    const limited = await newCoupon({ redemption_limit: 5 });
    const codes = await Promise.all([create({ coupon_id: limited.id }), create({ coupon_id: limited.id }), create({ coupon_id: limited.id })]);
    const outcomes = await Promise.allSettled(Array.from({ length: 15 }, (_, i) => redeem(ctx, codes[i % 3]!.code, context())));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(5);
    expect((await client.get(`/v1/coupons/${limited.id}`)).body.redemption_count).toBe(5);
    const counts = await Promise.all(codes.map(async (c) => (await client.get(`/v1/promotion-codes/${c.id}`)).body.current_redemptions));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(5);
  });

  it('re-checks the rules when the code is edited between the check and the write', async () => {
    const promo = await create();
    // An edit bumps the version the increment is conditioned on, so a redemption prepared before it retries.
    const racing = await Promise.all([
      client.patch(`/v1/promotion-codes/${promo.id}`, { customer_id: customer.id }),
      redeem(ctx, promo.code, context({ customerId: customer.id })),
    ]);
    expect(racing[0].status).toBe(200);
    expect((await client.get(`/v1/promotion-codes/${promo.id}`)).body).toMatchObject({ customer_id: customer.id, current_redemptions: 1 });
  });
});
