import { jest } from '@jest/globals';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { Webhook } from 'standardwebhooks';
import { useClock } from '../../shared/clock';
import { handler as streamHandler } from '../../functions/streams/events';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';
import { startReceiver } from '../support/receiver';

let api: TestApi;
let offset = 0;
const advance = (ms: number) => (offset += ms);
let restoreClock: () => void;

beforeAll(async () => {
  process.env.WEBHOOKS_ALLOW_HTTP_LOOPBACK = 'true';
  process.env.WEBHOOK_TIMEOUT_MS = '300';
  restoreClock = useClock({ now: () => new Date(Date.now() + offset) });
  api = await startTestApi({ events: true });
});
afterAll(async () => {
  await api.close();
  restoreClock();
});

const types = (messages: { payload: { event_type: string } }[]) => messages.map((m) => m.payload.event_type);

async function customerFlow(client: Client) {
  const customer = (await client.post('/v1/customers', { name: 'Jane' })).body;
  await client.put(`/v1/customers/${customer.id}`, { name: 'Janet' });
  await client.put(`/v1/customers/${customer.id}/archive`);
  await api.events.settle();
  return customer;
}

describe('webhook messages', () => {
  it('lists customer.created, .updated, .archived with the resource as data, newest first', async () => {
    const client = await api.client();
    await withEntity(client);
    const customer = await customerFlow(client);
    const reply = await client.get('/v1/webhooks/messages?event_types=customer.created&event_types=customer.updated&event_types=customer.archived');
    expect(reply.status).toBe(200);
    expect(types(reply.body.data)).toEqual(['customer.archived', 'customer.updated', 'customer.created']);
    const [archived, updated, created] = reply.body.data;
    expect(created.payload.data).toMatchObject({ id: customer.id, name: 'Jane', status: 'active' });
    expect(updated.payload.data).toMatchObject({ id: customer.id, name: 'Janet', status: 'active' });
    expect(archived.payload.data).toMatchObject({ id: customer.id, name: 'Janet', status: 'archived' });
    expect(created).toEqual({ id: expect.stringMatching(/^msg_/), event_id: expect.stringMatching(/^evt_/), payload: expect.any(Object), sent_at: expect.any(String) });
    expect((await client.get(`/v1/webhooks/messages/${created.id}`)).body).toEqual(created);
    const all = (await client.get('/v1/webhooks/messages')).body.data;
    expect(types(all)).toEqual(['customer.archived', 'customer.updated', 'customer.created', 'invoicing_entity.created']);
  });

  it('shows a change within 2 s, with the poller running on its own', async () => {
    const client = await api.client();
    await withEntity(client);
    const started = Date.now();
    await client.post('/v1/customers', { name: 'Fast' });
    let listed = false;
    while (!listed && Date.now() - started < 2_000) {
      listed = types((await client.get('/v1/webhooks/messages?event_types=customer.created')).body.data).length === 1;
      if (!listed) await new Promise((r) => setTimeout(r, 50));
    }
    expect(listed).toBe(true);
  });

  it('writes nothing twice when the same stream batch is processed twice', async () => {
    const plain = await startTestApi();
    try {
      const client = await plain.client();
      await withEntity(client);
      const customer = (await client.post('/v1/customers', { name: 'Twice' })).body;
      const raw = new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT, region: 'local', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
      const key = { pk: { S: `WS#${client.workspace}#CUS#${customer.id}` }, sk: { S: 'CUS' } };
      const { Item } = await raw.send(new GetItemCommand({ TableName: process.env.TABLE_NAME, Key: key }));
      const batch = {
        Records: [{ eventID: 'test-record-1', eventName: 'INSERT', dynamodb: { Keys: key, NewImage: Item, SequenceNumber: '100', ApproximateCreationDateTime: Date.now() / 1000 } }],
      } as unknown as DynamoDBStreamEvent;
      expect(await streamHandler(batch)).toEqual({ batchItemFailures: [] });
      expect(await streamHandler(batch)).toEqual({ batchItemFailures: [] });
      const listed = (await client.get('/v1/webhooks/messages')).body.data;
      expect(types(listed)).toEqual(['customer.created']);
      raw.destroy();
    } finally {
      await plain.close();
    }
  });

  it('reports the first record that fails, so the batch resumes there', async () => {
    const record = (seq: string) => ({
      eventID: `failing-${seq}`,
      eventName: 'INSERT',
      dynamodb: {
        SequenceNumber: seq,
        ApproximateCreationDateTime: Date.now() / 1000,
        Keys: { pk: { S: 'WS#ws_failing#CUS#cus_1' }, sk: { S: 'CUS' } },
        NewImage: { pk: { S: 'WS#ws_failing#CUS#cus_1' }, _type: { S: 'customer' }, id: { S: 'cus_1' }, name: { S: 'X' }, tax_ids: { L: [] }, updated_at: { S: new Date().toISOString() } },
      },
    });
    const table = process.env.TABLE_NAME;
    process.env.TABLE_NAME = 'no-such-table';
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const result = await streamHandler({ Records: [record('201'), record('202')] } as unknown as DynamoDBStreamEvent);
      expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: '201' }] });
    } finally {
      process.env.TABLE_NAME = table;
      errors.mockRestore();
    }
  });

  it('pages with limit and an opaque iterator, and refuses forged or foreign iterators', async () => {
    const client = await api.client();
    await withEntity(client);
    for (let i = 0; i < 5; i++) await client.post('/v1/customers', { name: `C${i}` });
    await api.events.settle();
    const all = (await client.get('/v1/webhooks/messages?limit=250')).body;
    expect(all.data).toHaveLength(6);
    expect(all.meta.iterator).toBeNull();
    const seen: string[] = [];
    let iterator: string | null = null;
    for (let page = 0; page < 10; page++) {
      const reply: { body: { data: { id: string }[]; meta: { iterator: string | null } } } = await client.get(
        `/v1/webhooks/messages?limit=2${iterator ? `&iterator=${encodeURIComponent(iterator)}` : ''}`,
      );
      seen.push(...reply.body.data.map((m) => m.id));
      iterator = reply.body.meta.iterator;
      if (!iterator) break;
    }
    expect(seen).toEqual(all.data.map((m: { id: string }) => m.id));
    const first = (await client.get('/v1/webhooks/messages?limit=2')).body.meta.iterator as string;
    const forged = first.slice(0, 5) + (first[5] === 'A' ? 'B' : 'A') + first.slice(6);
    expect((await client.get(`/v1/webhooks/messages?iterator=${encodeURIComponent(forged)}`)).body.code).toBe('invalid_iterator');
    const stranger = await api.client();
    const foreign = await stranger.get(`/v1/webhooks/messages?iterator=${encodeURIComponent(first)}`);
    expect(foreign.status).toBe(400);
    expect(foreign.body.code).toBe('invalid_iterator');
  });

  it('bounds by time, filters by repeated or bracketed event_types, and validates its query', async () => {
    const client = await api.client();
    await withEntity(client);
    await client.post('/v1/customers', { name: 'Early' });
    await api.events.settle();
    const cut = new Date(Date.now() + offset).toISOString();
    await new Promise((r) => setTimeout(r, 5));
    await client.post('/v1/customers', { name: 'Late' });
    await api.events.settle();
    const names = (body: { data: { payload: { data: { name: string } } }[] }) => body.data.map((m) => m.payload.data.name);
    expect(names((await client.get(`/v1/webhooks/messages?event_types=customer.created&after=${cut}`)).body)).toEqual(['Late']);
    expect(names((await client.get(`/v1/webhooks/messages?event_types[]=customer.created&before=${cut}`)).body)).toEqual(['Early']);
    expect(types((await client.get('/v1/webhooks/messages?event_types=invoicing_entity.created')).body.data)).toEqual(['invoicing_entity.created']);
    for (const bad of ['limit=0', 'limit=251', 'event_types=customer.exploded', 'after=yesterday', 'page=2']) {
      expect([bad, (await client.get(`/v1/webhooks/messages?${bad}`)).status]).toEqual([bad, 400]);
    }
  });

  it('never shows one workspace’s messages or endpoints to another', async () => {
    const a = await api.client();
    await withEntity(a);
    // Subscribed to an event this test never causes: nothing is queued for example.com.
    await a.post('/v1/webhooks/endpoints', { url: 'https://hooks.example.com/a', event_types: ['payment_method.created'] });
    await a.post('/v1/customers', { name: 'Private' });
    await api.events.settle();
    const b = await api.client();
    expect((await b.get('/v1/webhooks/messages')).body.data).toEqual([]);
    expect((await b.get('/v1/webhooks/endpoints')).body.meta.total).toBe(0);
  });
});

describe('webhook endpoints', () => {
  it('returns the secret on creation only, and validates url, event types and secret', async () => {
    const client = await api.client();
    const created = await client.post('/v1/webhooks/endpoints', { url: 'https://hooks.example.com/x', description: 'CRM', event_types: ['customer.created'] });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_/);
    expect(created.body).toMatchObject({ url: 'https://hooks.example.com/x', description: 'CRM', event_types: ['customer.created'], status: 'enabled' });
    const fetched = (await client.get(`/v1/webhooks/endpoints/${created.body.id}`)).body;
    expect(fetched).not.toHaveProperty('secret');
    expect((await client.get('/v1/webhooks/endpoints')).body.meta.total).toBe(1);
    const own = 'whsec_' + Buffer.alloc(24, 7).toString('base64');
    expect((await client.post('/v1/webhooks/endpoints', { url: 'https://h.example.com', secret: own })).body.secret).toBe(own);
    for (const body of [{ url: 'http://hooks.example.com/x' }, { url: 'ftp://x' }, { url: 'https://h.example.com', event_types: ['nope'] }, { url: 'https://h.example.com', secret: 'whsec_short' }]) {
      expect([body, (await client.post('/v1/webhooks/endpoints', body)).status]).toEqual([body, 400]);
    }
    const deleted = await client.delete(`/v1/webhooks/endpoints/${created.body.id}`);
    expect(deleted.status).toBe(200);
    expect((await client.get(`/v1/webhooks/endpoints/${created.body.id}`)).status).toBe(404);
  });
});

describe('deliveries', () => {
  // Receivers check webhook-timestamp against their own clock: start each test at the real time.
  beforeEach(() => {
    offset = 0;
  });

  async function subscribed(script: Array<number | 'hang'>, fallback: number | 'hang' = 200) {
    const receiver = await startReceiver(script, fallback);
    const client = await api.client();
    await withEntity(client);
    const endpoint = (await client.post('/v1/webhooks/endpoints', { url: receiver.url, event_types: ['customer.created'] })).body;
    return { receiver, client, endpoint };
  }

  it('sends signed deliveries that the reference implementation verifies, and sets sent_at', async () => {
    const { receiver, client, endpoint } = await subscribed([]);
    try {
      await client.post('/v1/customers', { name: 'Signed' });
      await api.events.settle();
      expect(await api.events.deliverDue()).toBe(1);
      expect(receiver.received).toHaveLength(1);
      const [request] = receiver.received;
      const payload = new Webhook(endpoint.secret).verify(request!.body, request!.headers as Record<string, string>) as { event_type: string };
      expect(payload.event_type).toBe('customer.created');
      const message = (await client.get('/v1/webhooks/messages?event_types=customer.created')).body.data[0];
      expect(request!.headers['webhook-id']).toBe(message.id);
      const attempts = (await client.get(`/v1/webhooks/endpoints/${endpoint.id}/attempts`)).body;
      expect(attempts.meta.total).toBe(1);
      expect(attempts.data[0]).toMatchObject({ message_id: message.id, attempt: 1, status: 'succeeded', status_code: 200, attempted_at: message.sent_at });
    } finally {
      await receiver.close();
    }
  });

  it('retries a receiver that fails twice: the third attempt succeeds', async () => {
    const { receiver, client, endpoint } = await subscribed([500, 503]);
    try {
      await client.post('/v1/customers', { name: 'Flaky' });
      await api.events.settle();
      await api.events.deliverDue();
      expect(await api.events.deliverDue()).toBe(0); // the retry waits for its time
      advance(40_000);
      await api.events.deliverDue();
      advance(80_000);
      await api.events.deliverDue();
      expect(receiver.received).toHaveLength(3);
      expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
      const attempts = (await client.get(`/v1/webhooks/endpoints/${endpoint.id}/attempts`)).body.data;
      expect(attempts.map((a: { status: string; status_code: number }) => [a.status, a.status_code])).toEqual([
        ['succeeded', 200], ['failed', 503], ['failed', 500],
      ]);
    } finally {
      await receiver.close();
    }
  });

  it('retries a receiver that never answers on the schedule, then gives up', async () => {
    const { receiver, client, endpoint } = await subscribed([], 'hang');
    try {
      await client.post('/v1/customers', { name: 'Silent' });
      await api.events.settle();
      const start = offset;
      // Jump the clock to each next due attempt, as time passing would.
      for (let round = 0; round < 40 && api.events.queue.pending.length > 0; round++) {
        const due = Math.min(...api.events.queue.pending.map((job) => Date.parse(job.notBefore)));
        offset = Math.max(offset, due - Date.now() + 1);
        await api.events.deliverDue();
      }
      expect(api.events.queue.pending).toHaveLength(0);
      const attempts = (await client.get(`/v1/webhooks/endpoints/${endpoint.id}/attempts?take=100`)).body;
      expect(attempts.meta.total).toBeGreaterThan(10);
      expect(attempts.meta.total).toBeLessThan(20);
      expect(attempts.data.every((a: { status: string; error: string }) => a.status === 'failed' && a.error === 'timeout')).toBe(true);
      const first = Date.parse(attempts.data.at(-1).attempted_at);
      const last = Date.parse(attempts.data[0].attempted_at);
      expect(last - first).toBeLessThanOrEqual(3 * 24 * 3600_000);
      expect(offset - start).toBeGreaterThan(2 * 24 * 3600_000);
    } finally {
      await receiver.close();
    }
  });

  it('disables an endpoint that answers 410 Gone', async () => {
    const { receiver, client, endpoint } = await subscribed([410]);
    try {
      await client.post('/v1/customers', { name: 'Gone' });
      await api.events.settle();
      await api.events.deliverDue();
      expect(api.events.queue.pending).toHaveLength(0);
      expect((await client.get(`/v1/webhooks/endpoints/${endpoint.id}`)).body).toMatchObject({ status: 'disabled', disabled_reason: expect.stringContaining('410') });
    } finally {
      await receiver.close();
    }
  });

  it('signs with the old and the new secret during a rotation, and re-sends on retry', async () => {
    const { receiver, client, endpoint } = await subscribed([]);
    try {
      const rotated = 'whsec_' + Buffer.alloc(32, 9).toString('base64');
      expect((await client.put(`/v1/webhooks/endpoints/${endpoint.id}`, { secret: rotated })).status).toBe(200);
      await client.post('/v1/customers', { name: 'Rotated' });
      await api.events.settle();
      await api.events.deliverDue();
      const [request] = receiver.received;
      for (const secret of [endpoint.secret, rotated]) expect(new Webhook(secret).verify(request!.body, request!.headers as Record<string, string>)).toBeTruthy();

      const message = (await client.get('/v1/webhooks/messages?event_types=customer.created')).body.data[0];
      const retried = await client.post(`/v1/webhooks/messages/${message.id}/retry`);
      expect(retried.status).toBe(200);
      expect(retried.body.id).toBe(message.id);
      await api.events.deliverDue();
      expect(receiver.received).toHaveLength(2);
      expect(receiver.received[1]!.headers['webhook-id']).toBe(message.id);
      expect((await client.post('/v1/webhooks/messages/msg_unknown/retry')).status).toBe(404);
    } finally {
      await receiver.close();
    }
  });
});
