import { startTestApi, type Client, type TestApi } from '../support/api';
import { monthsAfter, pricedProduct, subscribe, subscriber } from '../support/subscriptions';
import { advanceClock, clockedClient, testModeClient, untilReady } from '../support/test-clocks';

let api: TestApi;
let live: Client;

beforeAll(async () => {
  api = await startTestApi();
  live = await api.client();
});
afterAll(() => api.close());

const T0 = '2031-01-15T00:00:00.000Z';

interface Invoice { period_starts_at: string; period_ends_at: string; amount_excluding_tax: number; created_at: string }
const invoicesOf = async (client: Client, customerId: string): Promise<Invoice[]> =>
  (await client.get(`/v1/invoices?customer_id=${customerId}&take=100`)).body.data;
const periods = (invoices: Invoice[]) => invoices.map((i) => i.period_starts_at).sort();

describe('test clocks', () => {
  it('are refused in a live workspace, which keeps the real time', async () => {
    const refused = await live.post('/v1/test-clocks', { frozen_time: T0 });
    expect([refused.status, refused.body.code]).toEqual([422, 'livemode_workspace']);
    expect(refused.body.message).toMatch(/test-mode workspaces only|only in test-mode workspaces/);
    expect((await live.get('/v1/test-clocks')).body.data).toEqual([]);
    const before = Date.now();
    const made = (await subscriber(live)) as { created_at?: string };
    expect(Date.parse(made.created_at!)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('give a test workspace its own time: requests read it, the ingestion window follows it, and a live workspace is not moved', async () => {
    const { client, clockId } = await clockedClient(api, T0);
    expect((await client.get(`/v1/test-clocks/${clockId}`)).body).toEqual({ id: clockId, object: 'test_clock', name: 'Fixture', frozen_time: T0, status: 'ready', created_at: expect.any(String) });
    expect((await client.post('/v1/test-clocks', { frozen_time: T0 })).status).toBe(409);
    const customer = { body: (await subscriber(client)) as { id: string; created_at?: string } };
    expect(customer.body.created_at).toBe(T0);

    const event = (id: string, timestamp: string) => ({ customer_id: customer.body.id, event_type: 'api_call', timestamp, record: { id } });
    expect((await client.post('/v1/events', event('e-1', '2031-01-14T12:00:00.000Z'))).status).toBe(201);
    expect((await client.post('/v1/events', event('e-2', new Date().toISOString()))).body.code).toBe('timestamp_too_old');
    const liveCustomer = await subscriber(live);
    const liveEvent = await live.post('/v1/events', { ...event('e-3', '2031-01-14T12:00:00.000Z'), customer_id: liveCustomer.id });
    expect(liveEvent.body.code).toBe('timestamp_in_future');

    const back = await client.post(`/v1/test-clocks/${clockId}/advance`, { frozen_time: '2031-01-01T00:00:00.000Z' });
    expect([back.status, back.body.errors?.[0]?.path]).toEqual([400, '/frozen_time']);
    const deleted = await client.delete(`/v1/test-clocks/${clockId}`);
    expect(deleted.status).toBe(200);
    expect((await client.get(`/v1/test-clocks/${clockId}`)).status).toBe(404);
    const after = (await subscriber(client)) as { created_at?: string };
    expect(Math.abs(Date.parse(after.created_at!) - Date.now())).toBeLessThan(60_000);
  });

  it('run 13 months of renewals and a trial through the scheduled work as the clock advances, each period once, each at its time', async () => {
    const { client, clockId } = await clockedClient(api, T0);
    const fee = await pricedProduct(client, 'flat_fee', { amount: 1_000, name: 'Platform' });
    const customer = await subscriber(client);
    const trialist = await subscriber(client, { name: 'Trialist' });
    await subscribe(client, { customer_id: customer.id, starts_at: T0, products: [{ ...fee, quantity: 1 }] });
    const trialEnd = '2031-01-29T00:00:00.000Z';
    await subscribe(client, { customer_id: trialist.id, starts_at: T0, trial_ends_at: trialEnd, products: [{ ...fee, quantity: 1 }] });

    const end = monthsAfter(T0, 13);
    const advanced = await client.post(`/v1/test-clocks/${clockId}/advance`, { frozen_time: end });
    // Answered at once: the worker walks the due work, and the clock is ready at the target once it is done.
    expect([advanced.status, advanced.body.status, advanced.body.frozen_time]).toEqual([200, 'advancing', T0]);
    expect((await client.get(`/v1/test-clocks/${clockId}`)).body.status).toBe('advancing');
    expect((await client.delete(`/v1/test-clocks/${clockId}`)).body.code).toBe('test_clock_advancing');
    expect((await untilReady(client, clockId)).body).toMatchObject({ frozen_time: end, status: 'ready' });

    const invoices = await invoicesOf(client, customer.id);
    expect(periods(invoices)).toEqual(Array.from({ length: 14 }, (_, i) => monthsAfter(T0, i)));
    // Each issued when its period began: the clock stopped at every billing date on its way.
    for (const invoice of invoices) expect(invoice.created_at).toBe(invoice.period_starts_at);
    const trial = await invoicesOf(client, trialist.id);
    expect(periods(trial)[0]).toBe(trialEnd);
    expect(trial.every((i) => i.created_at === i.period_starts_at)).toBe(true);

    // Advancing again re-bills nothing: only the periods the new stretch reaches.
    expect((await advanceClock(client, clockId, monthsAfter(T0, 14))).ready.body).toMatchObject({ frozen_time: monthsAfter(T0, 14), status: 'ready' });
    expect(periods(await invoicesOf(client, customer.id))).toEqual(Array.from({ length: 15 }, (_, i) => monthsAfter(T0, i)));
    await client.delete(`/v1/test-clocks/${clockId}`);
  });

  it('advance once under concurrency: of two advances at once one wins, the other is refused, and nothing is billed twice', async () => {
    const { client, clockId } = await clockedClient(api, T0);
    const fee = await pricedProduct(client, 'flat_fee', { amount: 1_000 });
    const customer = await subscriber(client);
    await subscribe(client, { customer_id: customer.id, starts_at: T0, products: [{ ...fee, quantity: 1 }] });
    const to = monthsAfter(T0, 3);
    const replies = await Promise.all([0, 1].map(() => client.post(`/v1/test-clocks/${clockId}/advance`, { frozen_time: to })));
    const statuses = replies.map((r) => r.status).sort();
    // At once: 409 for the loser; one after the other: 400 (the clock is already there).
    expect(statuses[0]).toBe(200);
    expect([400, 409]).toContain(statuses[1]);
    // Until the worker is done, another advance is refused too.
    expect((await client.post(`/v1/test-clocks/${clockId}/advance`, { frozen_time: monthsAfter(T0, 4) })).body.code).toBe('test_clock_advancing');
    await untilReady(client, clockId);
    expect(periods(await invoicesOf(client, customer.id))).toEqual([0, 1, 2, 3].map((i) => monthsAfter(T0, i)));
    expect((await client.get(`/v1/test-clocks/${clockId}`)).body).toMatchObject({ frozen_time: to, status: 'ready' });
    await client.delete(`/v1/test-clocks/${clockId}`);
  });

  it('answers another workspace\'s clock id like a missing one, and a test workspace without a clock keeps the real time', async () => {
    const { client, clockId } = await clockedClient(api, T0);
    const other = await testModeClient(api);
    expect((await other.get(`/v1/test-clocks/${clockId}`)).status).toBe(404);
    expect((await other.post(`/v1/test-clocks/${clockId}/advance`, { frozen_time: monthsAfter(T0, 1) })).status).toBe(404);
    expect((await other.delete(`/v1/test-clocks/${clockId}`)).status).toBe(404);
    expect((await client.get(`/v1/test-clocks/${clockId}`)).body.frozen_time).toBe(T0);
    const made = (await subscriber(other)) as { created_at?: string };
    expect(Math.abs(Date.parse(made.created_at!) - Date.now())).toBeLessThan(60_000);
    await client.delete(`/v1/test-clocks/${clockId}`);
  });
});
