import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../shared/db/client';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';
import { startReceiver } from '../support/receiver';

let api: TestApi;
const setLocal = (allowed: boolean) => {
  if (allowed) process.env.WEBHOOKS_ALLOW_HTTP_LOOPBACK = 'true';
  else delete process.env.WEBHOOKS_ALLOW_HTTP_LOOPBACK;
};
beforeAll(async () => {
  process.env.WEBHOOK_TIMEOUT_MS = '2000';
  api = await startTestApi({ events: true });
});
afterAll(() => api.close());
afterEach(() => setLocal(false));

type Attempt = { status: string; status_code: number | null; error: string | null };
async function attemptsAfterOneCustomer(client: Client, endpointId: string): Promise<Attempt[]> {
  await client.post('/v1/customers', { name: 'Jane' });
  await api.events.settle();
  await api.events.deliverDue();
  return (await client.get(`/v1/webhooks/endpoints/${endpointId}/attempts`)).body.data;
}

describe('creating or changing an endpoint (as on AWS: no local exception)', () => {
  it.each([
    ['http://hooks.example.com/x', 'must use https'],
    ['https://user:pass@hooks.example.com/x', 'must not contain credentials (user:password@)'],
    ['https://169.254.169.254/latest/meta-data/', 'must not point to a non-public address (169.254.169.254 is link-local (cloud metadata))'],
    ['https://10.0.0.1/x', 'must not point to a non-public address (10.0.0.1 is private)'],
    ['https://0x7f000001/x', 'must not point to a non-public address (127.0.0.1 is loopback)'],
    ['https://[::ffff:127.0.0.1]/x', 'must not point to a non-public address (::ffff:7f00:1 is loopback)'],
    ['https://[::1]/x', 'must not point to a non-public address (::1 is loopback)'],
    ['https://localhost/x', 'must not point to a non-public address (localhost is loopback)'],
    ['http://127.0.0.1:8080/x', 'must use https'],
  ])('refuses %s with a 400 naming the rule, and stores nothing', async (url, rule) => {
    const client = await api.client();
    const reply = await client.post('/v1/webhooks/endpoints', { url });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'invalid_request', errors: [{ path: 'body.url', message: rule }] });
    expect((await client.get('/v1/webhooks/endpoints')).body.data).toEqual([]);
  });

  it('refuses the same rules on update and keeps the endpoint as it was', async () => {
    const client = await api.client();
    const endpoint = (await client.post('/v1/webhooks/endpoints', { url: 'https://hooks.example.com/x' })).body;
    const reply = await client.put(`/v1/webhooks/endpoints/${endpoint.id}`, { url: 'https://[fd00::1]/x' });
    expect(reply.status).toBe(400);
    expect(reply.body.errors).toEqual([{ path: 'body.url', message: 'must not point to a non-public address (fd00::1 is unique-local)' }]);
    expect((await client.get(`/v1/webhooks/endpoints/${endpoint.id}`)).body.url).toBe('https://hooks.example.com/x');
  });
});

describe('delivering', () => {
  it('does not follow a redirect: the 3xx is a failed attempt and its target is never called', async () => {
    setLocal(true);
    const target = await startReceiver();
    const redirecting: Server = createServer((_, response) => response.writeHead(307, { location: target.url }).end());
    await new Promise<void>((done) => redirecting.listen(0, '127.0.0.1', done));
    try {
      const client = await api.client();
      await withEntity(client);
      const url = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/hooks`;
      const endpoint = (await client.post('/v1/webhooks/endpoints', { url, event_types: ['customer.created'] })).body;
      const attempts = await attemptsAfterOneCustomer(client, endpoint.id);
      expect(attempts).toEqual([expect.objectContaining({ status: 'failed', status_code: 307, error: 'redirect_not_followed' })]);
      expect(target.received).toEqual([]);
    } finally {
      redirecting.close();
      await target.close();
    }
  });

  it('checks the destination again at each attempt: a name that now resolves to a non-public address is not called', async () => {
    setLocal(true);
    const receiver = await startReceiver();
    try {
      const client = await api.client();
      await withEntity(client);
      const url = receiver.url.replace('127.0.0.1', 'localhost');
      const endpoint = (await client.post('/v1/webhooks/endpoints', { url, event_types: ['customer.created'] })).body;
      expect(endpoint.url).toBe(url);
      setLocal(false); // as on AWS: `localhost` resolves to a loopback address, which is refused
      const attempts = await attemptsAfterOneCustomer(client, endpoint.id);
      expect(attempts).toEqual([expect.objectContaining({ status: 'failed', status_code: null, error: 'destination_refused' })]);
      expect(receiver.received).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it('refuses an endpoint stored before these rules that points at the metadata service', async () => {
    const client = await api.client();
    await withEntity(client);
    const endpoint = (await client.post('/v1/webhooks/endpoints', { url: 'https://hooks.example.com/x', event_types: ['customer.created'] })).body;
    const key = { pk: `WS#${client.workspace}#EP#${endpoint.id}`, sk: 'EP' };
    const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: key }));
    await db.send(new PutCommand({ TableName: tableName(), Item: { ...Item, url: 'http://169.254.169.254/latest/meta-data/' } }));
    const attempts = await attemptsAfterOneCustomer(client, endpoint.id);
    expect(attempts).toEqual([expect.objectContaining({ status: 'failed', status_code: null, error: 'destination_refused' })]);
  });
});
