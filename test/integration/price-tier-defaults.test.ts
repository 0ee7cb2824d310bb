import { startTestApi, type Client, type TestApi } from '../support/api';

/** Tier members the docs give defaults for may be omitted, and the defaults are echoed (docs/catalog/pricing). */
let api: TestApi;
let client: Client;

beforeAll(async () => {
  api = await startTestApi();
  client = await api.client();
});
afterAll(() => api.close());

describe('price tier defaults', () => {
  it('a volume tier without unit_count, to or on_tier_incomplete takes 1, null and pro_rata, and says so', async () => {
    const product = (await client.post('/v1/products', { name: 'Seats', type: 'seat' })).body;
    const created = await client.post('/v1/price-configurations', {
      product_id: product.id, currency: 'EUR', type: 'volume', prices: [{ from: 1, to: 10, amount: 1_000 }, { from: 11, amount: 800 }],
    });
    expect([created.status, created.body.code]).toEqual([201, undefined]);
    expect(created.body.prices).toEqual([
      { id: expect.any(String), from: 1, to: 10, amount: 1_000, unit_count: 1, on_tier_incomplete: 'pro_rata' },
      { id: expect.any(String), from: 11, to: null, amount: 800, unit_count: 1, on_tier_incomplete: 'pro_rata' },
    ]);
    expect((await client.get(`/v1/price-configurations/${created.body.id}`)).body.prices).toEqual(created.body.prices);
    const simulated = await client.post(`/v1/price-configurations/${created.body.id}/simulate`, { quantity: 12 });
    expect(simulated.status).toBe(200);
  });
});
