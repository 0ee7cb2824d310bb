import { startTestApi, type Client, type TestApi } from '../support/api';
import { seatTiers } from '../support/route-fixtures/catalog';

let api: TestApi;
let client: Client;
beforeAll(async () => {
  api = await startTestApi();
  client = await api.client();
});
afterAll(() => api.close());

const product = async (body: Record<string, unknown> = {}) => {
  const reply = await client.post('/v1/products', { name: 'Seats', type: 'seat', ...body });
  expect(reply.status).toBe(201);
  return reply.body;
};
const priceConfiguration = async (productId: string, body: Record<string, unknown> = {}) => {
  const reply = await client.post('/v1/price-configurations', { product_id: productId, currency: 'EUR', type: 'volume', prices: seatTiers, ...body });
  expect(reply.status).toBe(201);
  return reply.body;
};

describe('products', () => {
  it('creates every type with the spec members, and embeds its price configurations', async () => {
    for (const type of ['flat_fee', 'seat', 'dynamic', 'credit']) {
      const created = await product({ type, name: `A ${type}`, description: 'internal', public_description: 'Shown on invoices' });
      expect(created).toMatchObject({
        type, status: 'active', description: 'internal', public_description: 'Shown on invoices', price_configurations: [],
        is_available_on_demand: true, is_available_on_subscription: true, custom_properties: {}, accounting: {},
      });
      expect(created.id).toMatch(/^itm_/);
    }
    const seats = await product();
    const config = await priceConfiguration(seats.id);
    const fetched = (await client.get(`/v1/products/${seats.id}`)).body;
    expect(fetched.price_configurations).toHaveLength(1);
    expect(fetched.price_configurations[0]).toMatchObject({ id: config.id, type: 'volume', currency: 'EUR' });
    expect(fetched.price_configurations[0]).not.toHaveProperty('product_id');
    expect(fetched.price_configurations[0].prices[0]).toMatchObject({ id: expect.stringMatching(/^pri_/), type: 'volume' });
    const listed = (await client.get('/v1/products?type=seat')).body.data.find((p: { id: string }) => p.id === seats.id);
    expect(listed.price_configurations.map((c: { id: string }) => c.id)).toEqual([config.id]);
  });

  it('updates partially, archives and unarchives (twice is a no-op), deletes', async () => {
    const item = await product({ description: 'keep' });
    const updated = (await client.put(`/v1/products/${item.id}`, { name: 'Renamed' })).body;
    expect(updated).toMatchObject({ name: 'Renamed', description: 'keep', type: 'seat' });
    expect((await client.put(`/v1/products/${item.id}`, { type: 'credit' })).status).toBe(400);
    const archived = await client.put(`/v1/products/${item.id}/archive`);
    expect(archived.status).toBe(200);
    expect(archived.body.status).toBe('archived');
    expect((await client.put(`/v1/products/${item.id}/archive`)).body).toEqual(archived.body);
    expect((await client.put(`/v1/products/${item.id}/unarchive`)).body.status).toBe('active');
    expect((await client.delete(`/v1/products/${item.id}`)).status).toBe(200);
    expect((await client.get(`/v1/products/${item.id}`)).status).toBe(404);
  });

  it('rejects bad input', async () => {
    for (const body of [{ name: 'X' }, { name: 'X', type: 'subscription' }, { type: 'seat' }, { name: 'X', type: 'seat', colour: 'red' }]) {
      expect([body, (await client.post('/v1/products', body)).status]).toEqual([body, 400]);
    }
    expect((await client.get('/v1/products?take=101')).status).toBe(400);
    expect((await client.get('/v1/products?status=deleted')).status).toBe(400);
  });
});

describe('price configurations', () => {
  it('accepts only the price types of its product type (400 otherwise)', async () => {
    const cases: Array<[string, string, boolean]> = [
      ['flat_fee', 'fee', true], ['flat_fee', 'volume', false], ['seat', 'packaged', true], ['seat', 'bps', false],
      ['dynamic', 'bps', true], ['dynamic', 'bundle', false], ['credit', 'bundle', true], ['credit', 'fee', false],
    ];
    const prices: Record<string, unknown[]> = {
      fee: [{ amount: 5000 }], volume: seatTiers, packaged: seatTiers,
      bps: [{ from: 0, to: null, percentage: 1.5, per_unit_cap: 500 }], bundle: [{ amount: 1000, pack_size: 100 }],
    };
    for (const [productType, priceType, accepted] of cases) {
      const owner = await product({ type: productType });
      const reply = await client.post('/v1/price-configurations', { product_id: owner.id, currency: 'EUR', type: priceType, prices: prices[priceType] });
      expect([productType, priceType, reply.status]).toEqual([productType, priceType, accepted ? 201 : 400]);
    }
  });

  it('rejects prices of the wrong shape, broken tiers, an archived product', async () => {
    const owner = await product();
    const bad = [
      { type: 'volume', prices: [{ amount: 100 }] },
      { type: 'volume', prices: [] },
      { type: 'volume', prices: [{ from: 1, to: 5, amount: 1, unit_count: 1, on_tier_incomplete: 'pro_rata' }, { from: 9, to: null, amount: 1, unit_count: 1, on_tier_incomplete: 'pro_rata' }] },
      { type: 'volume', prices: [{ ...seatTiers[0], on_tier_incomplete: 'round_up' }] },
      { type: 'volume', prices: [{ ...seatTiers[0], amount: 1.5 }] },
    ];
    for (const body of bad) {
      const reply = await client.post('/v1/price-configurations', { product_id: owner.id, currency: 'EUR', ...body });
      expect([body, reply.status]).toEqual([body, 400]);
      expect(reply.body.errors.length).toBeGreaterThan(0);
    }
    await client.put(`/v1/products/${owner.id}/archive`);
    const archived = await client.post('/v1/price-configurations', { product_id: owner.id, currency: 'EUR', type: 'volume', prices: seatTiers });
    expect(archived.status).toBe(422);
    expect(archived.body.code).toBe('product_archived');
    const missing = await client.post('/v1/price-configurations', { product_id: 'itm_nope', currency: 'EUR', type: 'fee', prices: [{ amount: 1 }] });
    expect(missing.body.code).toBe('product_not_found');
  });

  it('replaces prices, archives (frozen afterwards), and simulates', async () => {
    const owner = await product();
    const config = await priceConfiguration(owner.id);
    const replaced = await client.put(`/v1/price-configurations/${config.id}/prices`, { prices: [{ ...seatTiers[0], to: null, amount: 900 }] });
    expect(replaced.status).toBe(200);
    expect(replaced.body.prices).toHaveLength(1);
    expect(replaced.body.prices[0].id).not.toBe(config.prices[0].id);
    expect((await client.put(`/v1/price-configurations/${config.id}/prices`, { prices: [{ amount: 5 }] })).status).toBe(400);
    const simulated = await client.post(`/v1/price-configurations/${config.id}/simulate`, { quantity: 3 });
    expect(simulated.status).toBe(200);
    expect(simulated.body).toMatchObject({ price_configuration_id: config.id, currency: 'EUR', quantity: 3, amount: 2700 });
    expect(simulated.body.tiers.reduce((sum: number, t: { amount: number }) => sum + t.amount, 0)).toBe(2700);
    const archived = await client.put(`/v1/price-configurations/${config.id}/archive`);
    expect(archived.body).toMatchObject({ status: 'archived', archived_at: expect.any(String) });
    expect((await client.put(`/v1/price-configurations/${config.id}/archive`)).body).toEqual(archived.body);
    expect((await client.put(`/v1/price-configurations/${config.id}/prices`, { prices: seatTiers })).status).toBe(409);
  });

  it('needs an existing price book', async () => {
    const owner = await product();
    const book = (await client.post('/v1/price-books', { name: 'Partners' })).body;
    expect(book.id).toMatch(/^prib_/);
    expect((await priceConfiguration(owner.id, { price_book_id: book.id })).price_book_id).toBe(book.id);
    const reply = await client.post('/v1/price-configurations', { product_id: owner.id, currency: 'EUR', type: 'volume', prices: seatTiers, price_book_id: 'prib_nope' });
    expect(reply.body.code).toBe('price_book_not_found');
    expect((await client.get('/v1/price-books')).body.meta.total).toBe(1);
  });
});

describe('GET /v1/price-configurations filters', () => {
  let own: Client;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    own = await api.client();
    const make = async (name: string) => (await own.post('/v1/products', { name, type: 'seat' })).body.id as string;
    const [p1, p2] = [await make('P1'), await make('P2')];
    const book = (await own.post('/v1/price-books', { name: 'B' })).body.id as string;
    const create = async (key: string, body: Record<string, unknown>) => {
      ids[key] = (await own.post('/v1/price-configurations', { currency: 'EUR', type: 'volume', prices: seatTiers, ...body })).body.id;
    };
    await create('a', { product_id: p1 });
    await create('b', { product_id: p1, price_book_id: book });
    await create('c', { product_id: p2 });
    Object.assign(ids, { p1, p2, book });
  });

  const listed = async (query: string) => {
    const reply = await own.get(`/v1/price-configurations?${query}`);
    expect([query, reply.status]).toEqual([query, 200]);
    return reply.body.data.map((c: { id: string }) => Object.entries(ids).find(([, v]) => v === c.id)?.[0]);
  };

  it.each([
    ['product_id=P1', ['a', 'b']],
    ['product_id__equals=P1', ['a', 'b']],
    ['product_id__not=P1', ['c']],
    ['product_id__isNull=true', []],
    ['product_id__isNotNull=true', ['a', 'b', 'c']],
    ['price_book_id=BOOK', ['b']],
    ['price_book_id__equals=BOOK', ['b']],
    ['price_book_id__not=BOOK', ['a', 'c']],
    ['price_book_id__isNull=true', ['a', 'c']],
    ['price_book_id__isNotNull=true', ['b']],
    ['price_book_id__contains=BOOKMIDDLE', ['b']],
    ['price_book_id__startsWith=prib_', ['b']],
    ['price_book_id__endWith=BOOKEND', ['b']],
    ['product_id__contains=P2MIDDLE', ['c']],
    ['product_id__startsWith=itm_', ['a', 'b', 'c']],
    ['product_id__endWith=P2END', ['c']],
    ['product_id=P1&price_book_id__isNull=true', ['a']],
  ])('%s', async (template, expected) => {
    const query = template
      .replace(/=P1\b/g, `=${ids.p1}`)
      .replace('=BOOKMIDDLE', `=${ids.book!.slice(-10, -3)}`)
      .replace('=BOOKEND', `=${ids.book!.slice(-5)}`)
      .replace('=BOOK', `=${ids.book}`)
      .replace('=P2MIDDLE', `=${ids.p2!.slice(-10, -3)}`)
      .replace('=P2END', `=${ids.p2!.slice(-5)}`);
    expect(await listed(query)).toEqual(expected);
  });

  it('pages with take/skip and a meta without approximateCount', async () => {
    const reply = await own.get(`/v1/price-configurations?product_id=${ids.p1}&take=1&skip=1`);
    expect(reply.body.meta).toEqual({ total: 2, taken: 1, skipped: 1 });
    expect(reply.body.data[0].id).toBe(ids.b);
    expect((await own.get('/v1/price-configurations')).body.meta).toEqual({ total: 3, taken: 3, skipped: 0 });
  });

  it.each(['product=x', 'take=101', 'skip=-1', 'take=1.5', 'product_id__like=x', 'currency=EUR'])('rejects %s', async (query) => {
    expect((await own.get(`/v1/price-configurations?${query}`)).status).toBe(400);
  });
});
