/**
 * Periods in the customer's time zone (docs/subscriptions.md, "Time"): a subscription in Europe/Paris and one in
 * America/Los_Angeles, both anchored at midnight local on 31 January, are moved through 14 months (both DST changes
 * of each zone, a leap February) with the movable clock and overlapping scheduler runs: exactly one invoice per period,
 * each with the right period dates. The expected instants are written out here from the zones' offsets (not computed
 * by the code under test).
 */
import { runDueWork } from '../../shared/domain/schedules/run-due';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';
import { movableClock } from '../support/clock';
import { pricedProduct, subscriber } from '../support/subscriptions';

let api: TestApi;
let client: Client;
const clock = movableClock({ stopped: true });

beforeAll(async () => {
  api = await startTestApi();
  client = await api.client();
  await withEntity(client);
});
afterAll(async () => {
  await api.close();
  clock.restore();
});

/** Midnight local on each month end, as UTC: `day` of the month before at 23:00 or 22:00 (Paris, UTC+1 / +2). */
const paris = [
  '2031-01-30T23:00', '2031-02-27T23:00', '2031-03-30T22:00' /* DST since 30 Mar */, '2031-04-29T22:00', '2031-05-30T22:00', '2031-06-29T22:00',
  '2031-07-30T22:00', '2031-08-30T22:00', '2031-09-29T22:00', '2031-10-30T23:00' /* winter time since 26 Oct */, '2031-11-29T23:00',
  '2031-12-30T23:00', '2032-01-30T23:00', '2032-02-28T23:00' /* 29 Feb 2032 */, '2032-03-30T22:00' /* DST since 28 Mar */,
];
/** Midnight local in Los Angeles: 08:00 UTC (PST, UTC−8) or 07:00 UTC (PDT, UTC−7). */
const losAngeles = [
  '2031-01-31T08:00', '2031-02-28T08:00', '2031-03-31T07:00' /* DST since 9 Mar */, '2031-04-30T07:00', '2031-05-31T07:00', '2031-06-30T07:00',
  '2031-07-31T07:00', '2031-08-31T07:00', '2031-09-30T07:00', '2031-10-31T07:00', '2031-11-30T08:00' /* standard time since 2 Nov */,
  '2031-12-31T08:00', '2032-01-31T08:00', '2032-02-29T08:00', '2032-03-31T07:00' /* DST since 14 Mar */,
];
const iso = (local: string) => `${local}:00.000Z`;
const at = (instant: number) => clock.advance(instant - clock.now().getTime());

it('issues exactly one invoice per period, with its period dates, across 14 months and both DST changes, under overlapping runs', async () => {
  const fee = await pricedProduct(client, 'flat_fee', { amount: 1_000 });
  const zones = [
    { zone: 'Europe/Paris', expected: paris.map(iso) },
    { zone: 'America/Los_Angeles', expected: losAngeles.map(iso) },
  ];
  at(Date.parse('2031-01-15T00:00:00.000Z'));
  const subs = await Promise.all(
    zones.map(async ({ zone, expected }) => {
      const customer = await subscriber(client, { timezone: zone });
      const reply = await client.post('/v2/subscriptions', { customer_id: customer.id, starts_at: expected[0], products: [{ ...fee, quantity: 1 }] });
      expect(reply.body).toMatchObject({ status: 'pending', timezone: zone, current_period_started_at: expected[0], current_period_ends_at: expected[1] });
      return { id: reply.body.id as string, customer: customer.id, expected };
    }),
  );
  const run = () => runDueWork(clock.now(), { workspaces: new Set([client.workspace]) });
  const periods = async (customerId: string) =>
    ((await client.get(`/v1/invoices?customer_id=${customerId}&take=100`)).body.data as Array<{ period_starts_at: string; period_ends_at: string }>).map((i) => [
      i.period_starts_at, i.period_ends_at,
    ]);
  // Every boundary of both, in time order: just before it nothing is due, just after it two runs at once bill it once.
  const boundaries = [...new Set(subs.flatMap((s) => s.expected.slice(0, 14)))].sort();
  for (const boundary of boundaries) {
    at(Date.parse(boundary) - 1_000);
    await run();
    at(Date.parse(boundary) + 60_000);
    await Promise.all([run(), run()]);
  }
  for (const s of subs) {
    const expected = s.expected.slice(0, 14).map((start, k) => [start, s.expected[k + 1]]);
    expect(await periods(s.customer)).toEqual(expected);
    expect((await client.get(`/v2/subscriptions/${s.id}`)).body).toMatchObject({ current_period_started_at: s.expected[13], next_billing_at: s.expected[14] });
  }
}, 180_000);
