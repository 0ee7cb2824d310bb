import { makeCtx } from '../../shared/context';
import { getItem } from '../../shared/db/items';
import { migrateSubscription, processMigration } from '../../shared/domain/plans/migrate';
import { planMigrationKey, type PlanMigrationItem } from '../../shared/domain/plans/migration';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';
import { movableClock } from '../support/clock';
import { monthsAfter, pricedProduct, scheduledWork, subscriber, type PricedProduct } from '../support/subscriptions';

let api: TestApi;
let client: Client;
const clock = movableClock();
let base: PricedProduct;
let premium: PricedProduct;

beforeAll(async () => {
  api = await startTestApi({ events: true });
  client = await api.client();
  await withEntity(client);
  [base, premium] = await Promise.all([
    pricedProduct(client, 'flat_fee', { amount: 1_000, name: 'Platform' }),
    pricedProduct(client, 'flat_fee', { amount: 1_500, name: 'Platform 2027' }),
  ]);
});
afterAll(async () => {
  await api.close();
  clock.restore();
});

const { run, moveTo } = scheduledWork(() => client, clock);

interface Invoice { subscription_id: string; period_starts_at: string; period_ends_at: string; amount_excluding_tax: number }
const invoicesOf = async (customerId: string): Promise<Invoice[]> => (await client.get(`/v1/invoices?customer_id=${customerId}&take=100`)).body.data;
const subscription = async (id: string) => (await client.get(`/v2/subscriptions/${id}`)).body;

async function newPlan(products: PricedProduct[]) {
  const created = await client.post('/v1/plans', { name: 'Team', currency: 'EUR', products: products.map((p) => ({ ...p, quantity: 1 })) });
  expect(created.status).toBe(201);
  return created.body;
}

async function subscribeTo(body: Record<string, unknown>) {
  const customer = await subscriber(client);
  const created = await client.post('/v2/subscriptions', { customer_id: customer.id, starts_at: clock.now().toISOString(), ...body });
  expect(created.status).toBe(201);
  return created.body;
}

/** The subscription's `subscription.migrated` events, once the stream has caught up. */
async function migratedEvents(id: string): Promise<number> {
  await api.events.settle();
  const messages = (await client.get('/v1/webhooks/messages?limit=250&event_types=subscription.migrated&after=2000-01-01T00:00:00Z')).body.data as Array<{ payload: { event_type: string; data: { id: string } } }>;
  return messages.filter((m) => m.payload.event_type === 'subscription.migrated' && m.payload.data.id === id).length;
}

describe('plans and versions', () => {
  it('creates a plan with version 1; a new version is the latest, subscribes plan_id to it, and changes no existing subscription', async () => {
    const plan = await newPlan([base]);
    expect(plan).toMatchObject({ name: 'Team', currency: 'EUR', latest_version: { version: 1, plan_id: plan.id, products: [{ ...base, quantity: 1 }] } });
    const onFirst = await subscribeTo({ plan_id: plan.id });
    expect(onFirst).toMatchObject({ plan_id: plan.id, plan_version_id: plan.latest_version.id, products: [{ product_id: base.product_id, quantity: 1 }] });

    const second = await client.post(`/v1/plans/${plan.id}/versions`, { products: [{ ...premium, quantity: 1 }] });
    expect(second.status).toBe(201);
    expect(second.body.latest_version).toMatchObject({ version: 2, products: [{ ...premium, quantity: 1 }] });
    expect(second.body.versions.map((v: { version: number }) => v.version)).toEqual([1, 2]);
    expect((await client.get(`/v1/plan-versions/${plan.latest_version.id}`)).body).toEqual(plan.latest_version);

    expect(await subscribeTo({ plan_id: plan.id })).toMatchObject({ plan_version_id: second.body.latest_version.id, products: [{ product_id: premium.product_id }] });
    expect(await subscribeTo({ plan_version_id: plan.latest_version.id })).toMatchObject({ plan_id: plan.id, plan_version_id: plan.latest_version.id });
    expect(await subscription(onFirst.id)).toMatchObject({ plan_version_id: plan.latest_version.id, products: [{ product_id: base.product_id }], scheduled_change: null });
    for (const id of [onFirst.id]) await client.post(`/v1/subscriptions/${id}/cancel`, { mode: 'immediately' });
  });

  it('refuses what makes no subscription, and answers 404 for another workspace’s plan', async () => {
    const plan = await newPlan([base]);
    const customer = await subscriber(client);
    const both = await client.post('/v2/subscriptions', { customer_id: customer.id, plan_id: plan.id, products: [{ ...base, quantity: 1 }] });
    expect(both.status).toBe(400);
    const neither = await client.post('/v2/subscriptions', { customer_id: customer.id });
    expect(neither.status).toBe(400);
    const unknown = await client.post('/v2/subscriptions', { customer_id: customer.id, plan_id: 'plan_unknown' });
    expect(unknown).toMatchObject({ status: 422, body: { code: 'plan_not_found' } });
    const other = await api.client();
    expect((await other.get(`/v1/plans/${plan.id}`)).status).toBe(404);
    expect((await other.post('/v2/subscriptions', { customer_id: customer.id, plan_id: plan.id })).status).toBe(422);
    const archived = await client.delete(`/v1/plans/${plan.id}`);
    expect(archived.status).toBe(200);
    expect((await client.post('/v2/subscriptions', { customer_id: customer.id, plan_id: plan.id })).body.code).toBe('plan_not_found');
  });
});

describe('a migration at the next period, across 13 months', () => {
  it('previews, then moves each subscription once: billed on the old version for the running period and on the new one after, every period once', async () => {
    const plan = await newPlan([base]);
    const v1 = plan.latest_version.id as string;
    const t0 = clock.now().toISOString();
    const subs = [await subscribeTo({ plan_id: plan.id, starts_at: t0 }), await subscribeTo({ plan_id: plan.id, starts_at: t0 })];
    await run();
    const v2 = (await client.post(`/v1/plans/${plan.id}/versions`, { products: [{ ...premium, quantity: 1 }] })).body.latest_version.id as string;
    const latecomer = await subscribeTo({ plan_id: plan.id, starts_at: t0 }); // already on v2: the migration leaves it
    await run();

    clock.advance(10 * 86_400_000);
    const body = { from_version_id: v1, to_version_id: v2, effective: 'next_period' };
    const preview = await client.post(`/v1/plans/${plan.id}/migrations/preview`, body);
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ examined: 3, complete: true, migrating: 2 });
    expect(preview.body.subscriptions.map((s: { subscription_id: string }) => s.subscription_id).sort()).toEqual(subs.map((s) => s.id).sort());
    expect(preview.body.subscriptions[0]).toMatchObject({ effective_at: monthsAfter(t0, 1), current_period_amount: 1_000, new_period_amount: 1_500, proration_charge: 0, proration_credit: 0 });
    expect((await subscription(subs[0].id)).scheduled_change).toBeNull(); // a preview writes nothing

    const migration = await client.post(`/v1/plans/${plan.id}/migrations`, body);
    expect(migration).toMatchObject({ status: 202, body: { status: 'pending', migrated: 0 } });
    await run();
    expect((await client.get(`/v1/plan-migrations/${migration.body.id}`)).body).toMatchObject({ status: 'completed', migrated: 2, skipped: 1, failed: 0 });
    for (const s of subs) {
      expect(await subscription(s.id)).toMatchObject({ plan_version_id: v1, products: [{ product_id: base.product_id }], scheduled_change: { plan_version_id: v2, effective_at: monthsAfter(t0, 1) } });
    }
    // A worker retried after the migration completed moves nothing and counts nothing again.
    const ctx = makeCtx(client.workspace, 'test');
    await processMigration(ctx, migration.body.id);
    expect((await client.get(`/v1/plan-migrations/${migration.body.id}`)).body).toMatchObject({ migrated: 2, skipped: 1 });

    for (let month = 1; month <= 13; month++) {
      moveTo(monthsAfter(t0, month));
      await Promise.all([run(), run()]);
    }
    for (const s of subs) {
      const billed = (await invoicesOf(s.customer_id)).map((i) => [i.period_starts_at, i.amount_excluding_tax]);
      expect(billed).toEqual(Array.from({ length: 14 }, (_, m) => [monthsAfter(t0, m), m === 0 ? 1_000 : 1_500]));
      expect(await subscription(s.id)).toMatchObject({ plan_version_id: v2, scheduled_change: null, products: [{ product_id: premium.product_id }] });
      expect(await migratedEvents(s.id)).toBe(1);
    }
    expect((await invoicesOf(latecomer.customer_id)).map((i) => i.amount_excluding_tax)).toEqual(Array(14).fill(1_500));
    expect(await migratedEvents(latecomer.id)).toBe(0);
    for (const s of [...subs, latecomer]) await client.post(`/v1/subscriptions/${s.id}/cancel`, { mode: 'immediately' });
  }, 180_000);
});

describe('a migration worked more than once', () => {
  it('moves each subscription once when a worker crashed mid-page and two workers then run it at once (now, prorated: one proration invoice each)', async () => {
    const plan = await newPlan([base]);
    const subs = [];
    for (let i = 0; i < 4; i++) subs.push(await subscribeTo({ plan_id: plan.id }));
    await run();
    const v2 = (await client.post(`/v1/plans/${plan.id}/versions`, { products: [{ ...premium, quantity: 1 }] })).body.latest_version.id as string;
    clock.advance(15 * 86_400_000);
    const migration = (await client.post(`/v1/plans/${plan.id}/migrations`, { to_version_id: v2, effective: 'now', proration: 'prorate' })).body;

    // A worker moved the first subscription, then crashed before it wrote the page's cursor.
    const ctx = makeCtx(client.workspace, 'test');
    const item = (await getItem<PlanMigrationItem>(planMigrationKey(ctx, migration.id), true))!;
    expect(await migrateSubscription(ctx, item, subs[0].id)).toEqual({ migrated: true });
    expect(await migrateSubscription(ctx, item, subs[0].id)).toEqual({ migrated: true }); // counted, not moved again

    await Promise.all([processMigration(ctx, migration.id), processMigration(ctx, migration.id), run()]);
    expect((await client.get(`/v1/plan-migrations/${migration.id}`)).body).toMatchObject({ status: 'completed', migrated: 4, skipped: 0, failed: 0 });
    for (const s of subs) {
      expect(await subscription(s.id)).toMatchObject({ plan_version_id: v2, products: [{ product_id: premium.product_id }] });
      const invoices = await invoicesOf(s.customer_id);
      expect(invoices).toHaveLength(2); // the first period's, and one proration invoice
      expect(await migratedEvents(s.id)).toBe(1);
    }
    for (const s of subs) await client.post(`/v1/subscriptions/${s.id}/cancel`, { mode: 'immediately' });
  }, 60_000);

  it('refuses a version of another plan and names what is wrong', async () => {
    const [a, b] = [await newPlan([base]), await newPlan([premium])];
    const reply = await client.post(`/v1/plans/${a.id}/migrations`, { to_version_id: b.latest_version.id });
    expect(reply).toMatchObject({ status: 422, body: { code: 'plan_version_not_found' } });
    expect((await client.post(`/v1/plans/${a.id}/migrations/preview`, { to_version_id: a.latest_version.id, from_version_id: a.latest_version.id })).status).toBe(400);
  });
});
