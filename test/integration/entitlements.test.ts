import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';
import { movableClock } from '../support/clock';
import { monthsAfter, pricedProduct, scheduledWork, subscriber, type PricedProduct } from '../support/subscriptions';

let api: TestApi;
let client: Client;
const clock = movableClock();
let fee: PricedProduct;
let features: { sso: string; seats: string; calls: string };

beforeAll(async () => {
  api = await startTestApi({ events: true });
  client = await api.client();
  await withEntity(client);
  fee = await pricedProduct(client, 'flat_fee', { amount: 1_000 });
  const aggregator = (await client.post('/v1/aggregators', { name: 'Calls', event_type: 'api_call', operation: 'count' })).body.id;
  const feature = async (body: Record<string, unknown>) => {
    const reply = await client.post('/v1/features', body);
    expect(reply.status).toBe(201);
    return reply.body.id as string;
  };
  features = {
    sso: await feature({ code: 'sso', name: 'SSO', type: 'boolean' }),
    seats: await feature({ code: 'seats', name: 'Seats', type: 'limit' }),
    calls: await feature({ code: 'api_calls', name: 'API calls', type: 'metered', aggregator_id: aggregator }),
  };
});
afterAll(async () => {
  await api.close();
  clock.restore();
});

const { run, moveTo } = scheduledWork(() => client, clock);

/** The customer's entitlements once the stream has caught up, as `{code: [value, source]}`, and the metered usage. */
async function entitlementsOf(customerId: string) {
  await api.events.settle();
  const reply = await client.get(`/v1/customers/${customerId}/entitlements`);
  expect(reply.status).toBe(200);
  const byCode = Object.fromEntries(reply.body.entitlements.map((e: { code: string; value: unknown; source: string }) => [e.code, [e.value, e.source]]));
  return { byCode, usage: reply.body.entitlements.find((e: { code: string }) => e.code === 'api_calls')?.usage ?? null };
}

async function updatedEvents(customerId: string): Promise<number> {
  await api.events.settle();
  const messages = (await client.get('/v1/webhooks/messages?limit=250&event_types=entitlements.updated&after=2000-01-01T00:00:00Z')).body.data as Array<{ payload: { data: { customer_id: string } } }>;
  return messages.filter((m) => m.payload.data.customer_id === customerId).length;
}

describe('entitlements', () => {
  it('follow the plan version of the subscription, a migration to a new version, an override and its removal, and the cancellation; one read answers them', async () => {
    const plan = (await client.post('/v1/plans', {
      name: 'Team', currency: 'EUR', products: [{ ...fee, quantity: 1 }],
      features: [{ feature_id: features.sso, value: false }, { feature_id: features.seats, value: 5 }, { feature_id: features.calls, value: 1_000 }],
    })).body;
    const customer = await subscriber(client);
    expect(await entitlementsOf(customer.id)).toEqual({ byCode: {}, usage: null });
    const t0 = clock.now().toISOString();
    const sub = (await client.post('/v2/subscriptions', { customer_id: customer.id, plan_id: plan.id, starts_at: t0 })).body;
    await run();
    expect((await entitlementsOf(customer.id)).byCode).toEqual({ api_calls: [1_000, 'plan'], seats: [5, 'plan'], sso: [false, 'plan'] });

    for (const id of ['c-1', 'c-2', 'c-3']) {
      expect((await client.post('/v1/events', { customer_id: customer.id, event_type: 'api_call', timestamp: clock.now().toISOString(), record: { id } })).status).toBe(201);
    }
    const counted = async () => {
      for (let i = 0; i < 50; i++) {
        const { usage } = await entitlementsOf(customer.id);
        if (usage.used === 3) return usage;
      }
      throw new Error('usage never reached 3');
    };
    expect(await counted()).toEqual({ aggregator_id: expect.any(String), used: 3, remaining: 997, period_starts_at: t0, period_ends_at: monthsAfter(t0, 1) });

    const overridden = await client.put(`/v1/customers/${customer.id}/entitlements/${features.seats}`, { value: 20 });
    expect(overridden.status).toBe(200);
    expect(overridden.body.entitlements.find((e: { code: string }) => e.code === 'seats')).toMatchObject({ value: 20, source: 'override', subscription_id: null });
    expect((await client.put(`/v1/customers/${customer.id}/entitlements/${features.sso}`, { value: 3 })).status).toBe(400);

    const v2 = (await client.post(`/v1/plans/${plan.id}/versions`, {
      products: [{ ...fee, quantity: 1 }], features: [{ feature_id: features.sso, value: true }, { feature_id: features.seats, value: 10 }, { feature_id: features.calls, value: 2_000 }],
    })).body.latest_version.id;
    expect((await entitlementsOf(customer.id)).byCode.sso).toEqual([false, 'plan']); // a new version changes nobody by itself

    await client.post(`/v1/plans/${plan.id}/migrations`, { to_version_id: v2, effective: 'next_period' });
    await run();
    expect((await entitlementsOf(customer.id)).byCode.sso).toEqual([false, 'plan']); // until the next period
    moveTo(monthsAfter(t0, 1));
    await run();
    const moved = await entitlementsOf(customer.id);
    expect(moved.byCode).toEqual({ api_calls: [2_000, 'plan'], seats: [20, 'override'], sso: [true, 'plan'] });
    expect(moved.usage).toMatchObject({ used: 0, remaining: 2_000, period_starts_at: monthsAfter(t0, 1) });

    expect((await client.delete(`/v1/customers/${customer.id}/entitlements/${features.seats}`)).status).toBe(200);
    expect((await entitlementsOf(customer.id)).byCode.seats).toEqual([10, 'plan']);

    await client.post(`/v1/subscriptions/${sub.id}/cancel`, { mode: 'immediately' });
    expect((await entitlementsOf(customer.id)).byCode).toEqual({});
    // Subscribed, override, migration applied, override removed, cancelled: five changes, each told once.
    expect(await updatedEvents(customer.id)).toBe(5);
  }, 120_000);

  it("answers 404 for another workspace's customer or feature", async () => {
    const other = await api.client();
    const customer = await subscriber(client);
    expect((await other.get(`/v1/customers/${customer.id}/entitlements`)).status).toBe(404);
    expect((await other.put(`/v1/customers/${customer.id}/entitlements/${features.sso}`, { value: true })).status).toBe(404);
    expect((await client.get(`/v1/customers/cus_unknown/entitlements`)).status).toBe(404);
  });
});
