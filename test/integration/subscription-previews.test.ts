/**
 * The previews of a subscription (docs/subscriptions.md): `POST /v2/subscriptions/preview` answers the first invoice a
 * creation would issue, `POST /v2/subscriptions/{id}/preview` the proration a change would make; each agrees with
 * what the real creation or change then does, and writes nothing. Through the local server against DynamoDB Local,
 * on a stopped clock (the worked examples' March 2031, 20 % VAT).
 */
import { runDueWork } from '../../shared/domain/schedules/run-due';
import { startTestApi, withEntity, type TestApi } from '../support/api';
import { movableClock } from '../support/clock';
import { pricedProduct, subscriber } from '../support/subscriptions';

let api: TestApi;
const clock = movableClock({ stopped: true });

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
  clock.restore();
});

const T0 = '2031-03-01T00:00:00.000Z';
const T1 = '2031-04-01T00:00:00.000Z';
const at = (iso: string) => clock.advance(Date.parse(iso) - clock.now().getTime());


/** A workspace of its own: an entity, the products of docs/subscriptions.md's examples, a French customer (20 % VAT). */
async function world() {
  const client = await api.client();
  await withEntity(client);
  const [seat, plan, lite] = await Promise.all([
    pricedProduct(client, 'seat', { amount: 1_200, name: 'Seats' }),
    pricedProduct(client, 'flat_fee', { amount: 10_000, name: 'Plan' }),
    pricedProduct(client, 'flat_fee', { amount: 2_000, name: 'Plan lite' }),
  ]);
  const customer = await subscriber(client);
  return {
    client, seat, plan, lite, customer,
    run: () => runDueWork(clock.now(), { workspaces: new Set([client.workspace]) }),
    invoices: async () => (await client.get(`/v1/invoices?customer_id=${customer.id}&take=100`)).body.data,
  };
}

/** What an invoice and its preview must agree on (ids and numbering aside). */
const billed = (invoice: any) => ({
  lines: invoice.line_items.map((l: any) => [l.name, l.units_count, l.amount_excluding_tax, l.tax_amount, l.period_starts_at, l.period_ends_at]),
  totals: [invoice.amount_excluding_tax, invoice.tax_amount, invoice.total_amount],
});

describe('POST /v2/subscriptions/preview', () => {
  it('answers the first invoice the same body creates, taxed, and creates nothing', async () => {
    const w = await world();
    at(T0);
    const body = { customer_id: w.customer.id, starts_at: T0, products: [{ ...w.plan, quantity: 1 }, { ...w.seat, quantity: 5 }] };
    const preview = await w.client.post('/v2/subscriptions/preview', body);
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ customer_id: w.customer.id, currency: 'EUR', status: 'active' });
    expect(preview.body.first_invoice).toMatchObject({ issued_at: T0, period_starts_at: T0, period_ends_at: T1, amount_excluding_tax: 16_000, tax_amount: 3_200, total_amount: 19_200 });
    expect((await w.client.get(`/v2/subscriptions?customer_id=${w.customer.id}`)).body.meta.total).toBe(0);
    expect(await w.invoices()).toEqual([]);

    expect((await w.client.post('/v2/subscriptions', body)).status).toBe(201);
    await w.run();
    const [first] = await w.invoices();
    expect(billed(first)).toEqual(billed(preview.body.first_invoice));
  });

  it('is issued at the end of a trial, and null when the first billing date bills nothing', async () => {
    const w = await world();
    at(T0);
    const trial = await w.client.post('/v2/subscriptions/preview', { customer_id: w.customer.id, products: [{ ...w.plan, quantity: 1 }], trial_ends_at: '2031-03-15T00:00:00.000Z' });
    expect([trial.status, trial.body.status]).toEqual([200, 'trialing']);
    expect(trial.body.first_invoice).toMatchObject({ issued_at: '2031-03-15T00:00:00.000Z', total_amount: 12_000 });
    const later = await w.client.post('/v2/subscriptions/preview', { customer_id: w.customer.id, products: [{ ...w.plan, quantity: 0 }], starts_at: T1 });
    expect([later.status, later.body.status, later.body.first_invoice]).toEqual([200, 'pending', null]);
  });

  it('refuses what creation refuses, with the same 4xx', async () => {
    const w = await world();
    const other = await api.client();
    const bodies = [
      { customer_id: w.customer.id },
      { customer_id: w.customer.id, products: [{ ...w.plan, quantity: 1 }], plan_id: 'pln_x' },
      { customer_id: 'cus_unknown', products: [{ ...w.plan, quantity: 1 }] },
      { customer_id: w.customer.id, products: [{ product_id: 'prd_unknown', price_configuration_id: w.plan.price_configuration_id, quantity: 1 }] },
    ];
    for (const body of bodies) {
      const [preview, create] = [await w.client.post('/v2/subscriptions/preview', body), await w.client.post('/v2/subscriptions', body)];
      expect(preview.status).toBeGreaterThanOrEqual(400);
      expect([preview.status, preview.body.code]).toEqual([create.status, create.body.code]);
    }
    // Another workspace's customer answers as a missing one.
    const foreign = await other.post('/v2/subscriptions/preview', { customer_id: w.customer.id, products: [{ ...w.plan, quantity: 1 }] });
    const missing = await w.client.post('/v2/subscriptions/preview', { customer_id: 'cus_missing', products: [{ ...w.plan, quantity: 1 }] });
    expect([foreign.status, foreign.body.code]).toEqual([missing.status, missing.body.code]);
  });
});

describe('POST /v2/subscriptions/{id}/preview', () => {
  it('answers the proration PATCH then invoices, and changes nothing', async () => {
    const w = await world();
    at(T0);
    const sub = (await w.client.post('/v2/subscriptions', { customer_id: w.customer.id, starts_at: T0, products: [{ ...w.seat, quantity: 5 }] })).body;
    await w.run();
    at('2031-03-11T00:00:00.000Z');
    const before = (await w.client.get(`/v2/subscriptions/${sub.id}`)).body;
    const change = { products: [{ ...w.seat, quantity: 8 }] };
    const preview = await w.client.post(`/v2/subscriptions/${sub.id}/preview`, change);
    expect(preview.status).toBe(200);
    // docs/subscriptions.md, example 1.
    expect(preview.body).toMatchObject({
      later: false, currency: 'EUR', due_now: 2_438, to_wallet: 0,
      lines: [{ name: 'Seats (prorated)', amount: 6_503 }], credits: [{ name: 'Unused time on Seats × 5 (2031-03-11 – 2031-04-01)', amount: 4_065 }],
    });
    expect(preview.body.products.map((p: any) => [p.id, p.quantity])).toEqual([[sub.products[0].id, 8]]);
    expect((await w.client.get(`/v2/subscriptions/${sub.id}`)).body).toEqual(before);
    expect(await w.invoices()).toHaveLength(1);

    expect((await w.client.patch(`/v2/subscriptions/${sub.id}`, change)).status).toBe(200);
    const invoices = await w.invoices();
    expect(invoices[1].amount_excluding_tax).toBe(preview.body.due_now);
  });

  it('shows a downgrade credited to the wallet, and a change at the next period prorating nothing', async () => {
    const w = await world();
    at(T0);
    const sub = (await w.client.post('/v2/subscriptions', { customer_id: w.customer.id, starts_at: T0, products: [{ ...w.plan, quantity: 1 }] })).body;
    await w.run();
    at('2031-03-16T12:00:00.000Z');
    const down = await w.client.post(`/v2/subscriptions/${sub.id}/preview`, { products: [{ ...w.lite, quantity: 1 }] });
    expect(down.body).toMatchObject({ due_now: 0, to_wallet: 4_000 });
    const later = await w.client.post(`/v2/subscriptions/${sub.id}/preview`, { products: [{ ...w.lite, quantity: 1 }], effective: 'next_period' });
    expect(later.body).toMatchObject({ later: true, lines: [], credits: [], due_now: 0, to_wallet: 0 });
  });

  it('needs products, answers 404 for an unknown or foreign id, and 409 once cancelled', async () => {
    const w = await world();
    at(T0);
    const sub = (await w.client.post('/v2/subscriptions', { customer_id: w.customer.id, starts_at: T0, products: [{ ...w.seat, quantity: 5 }] })).body;
    const change = { products: [{ ...w.seat, quantity: 2 }] };
    const missing = await w.client.post(`/v2/subscriptions/${sub.id}/preview`, { collection_method: 'manual' });
    expect([missing.status, missing.body.code]).toEqual([400, 'invalid_request']);
    expect((await w.client.post('/v2/subscriptions/sub_unknown/preview', change)).status).toBe(404);
    expect((await (await api.client()).post(`/v2/subscriptions/${sub.id}/preview`, change)).status).toBe(404);
    expect((await w.client.post(`/v1/subscriptions/${sub.id}/cancel`, { mode: 'immediately' })).status).toBe(200);
    expect((await w.client.post(`/v2/subscriptions/${sub.id}/preview`, change)).status).toBe(409);
  });
});
