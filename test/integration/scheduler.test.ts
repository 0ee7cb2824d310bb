import { runDueWork } from '../../shared/domain/schedules/run-due';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';
import { movableClock } from '../support/clock';

/** The scheduled handler's own run: it finds due work in the sparse index across workspaces and does it once. */
let api: TestApi;
let client: Client;
const clock = movableClock();
const now = clock.now;

beforeAll(async () => {
  api = await startTestApi();
  client = await api.client();
  await withEntity(client);
});
/** Scheduled work of this file's workspace only: other test files share the table. */
const mine = () => ({ workspaces: new Set([client.workspace]) });

afterAll(async () => {
  await api.close();
  clock.restore();
});

it('expires what remains of a top-up past its expires_at, once, and leaves the others', async () => {
  const customer = (await client.post('/v1/customers', { name: 'Credits', currency: 'EUR' })).body;
  const product = (await client.post('/v1/products', { name: 'Tokens', type: 'credit' })).body;
  const base = `/v1/customers/${customer.id}/credits/${product.id}`;
  const soon = new Date(now().getTime() + 3600_000).toISOString();
  expect((await client.post(`${base}/topup`, { credit_count: 100, expires_at: soon })).status).toBe(201);
  expect((await client.post(`${base}/topup`, { credit_count: 40 })).status).toBe(201);
  expect((await client.post(`${base}/usage`, { usage_retained: 30 })).status).toBe(201);

  await runDueWork(now(), mine());
  expect((await client.get(base)).body.current_balance).toBe(110);

  clock.advance(2 * 3600_000);
  await Promise.all([runDueWork(now(), mine()), runDueWork(now(), mine())]);
  await runDueWork(now(), mine());
  expect((await client.get(base)).body.current_balance).toBe(40);
  const types = (await client.get(`${base}/transactions?take=100`)).body.data.map((t: { type: string; credit_count: number }) => [t.type, t.credit_count]);
  expect(types).toEqual([['topup', 100], ['topup', 40], ['usage', 30], ['expiration', 70]]);
});
