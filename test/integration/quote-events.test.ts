import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';
import { quoteOf } from '../support/route-fixtures/quotes';

/** quote.* events come from the table's stream, through the same pipeline as `npm start`. */
let api: TestApi;
let client: Client;

beforeAll(async () => {
  api = await startTestApi({ events: true });
  client = await api.client();
  await withEntity(client);
});
afterAll(() => api.close());

const eventsOf = async (id: string) => {
  await api.events.settle();
  const messages = (await client.get('/v1/webhooks/messages?limit=250')).body.data as Array<{ payload: { event_type: string; data: { id: string; status: string } } }>;
  return messages.filter((m) => m.payload.data.id === id).map((m) => [m.payload.event_type, m.payload.data.status]).reverse();
};

it('tells each step of a quote, from creation through approval and sending to its signature', async () => {
  const quote = await quoteOf(client, { requires_approval: true });
  for (const [action, body] of [['finalize'], ['approve'], ['send', { email: 'cfo@quoted.test' }], ['sign', {}]] as const) {
    expect((await client.post(`/v1/quotes/${quote.id}/${action}`, body)).status).toBe(200);
  }
  expect(await eventsOf(quote.id)).toEqual([
    ['quote.created', 'draft'], ['quote.updated', 'pending_approval'], ['quote.approved', 'approved'], ['quote.sent', 'pending_signature'], ['quote.signed', 'signed'],
  ]);
});

it('tells an edit as quote.updated and a void as quote.voided, with the public quote as data', async () => {
  const quote = await quoteOf(client);
  await client.patch(`/v1/quotes/${quote.id}`, { comments: 'Revised' });
  await client.post(`/v1/quotes/${quote.id}/void`, { reason: 'Lost' });
  expect(await eventsOf(quote.id)).toEqual([['quote.created', 'draft'], ['quote.updated', 'draft'], ['quote.voided', 'voided']]);
  const voided = (await client.get('/v1/webhooks/messages?event_types=quote.voided')).body.data[0].payload.data;
  expect(voided).toEqual((await client.get(`/v1/quotes/${quote.id}`)).body);
});
