/**
 * Idempotency keys (decisions.md "Idempotency", docs/decisions.md "Idempotency"): through the real local HTTP server
 * against DynamoDB Local, and through the shared handler stack with a stub domain call for the failure paths.
 */
import { jest } from '@jest/globals';
import type { APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { useClock } from '../../shared/clock';
import { makeCtx } from '../../shared/context';
import { getItem } from '../../shared/db/items';
import { ServiceUnavailable, RuleViolation } from '../../shared/errors';
import { httpHandler, type HttpEvent } from '../../shared/http/handler';
import { idempotencyKey, LOCK_TIMEOUT_MS, RETENTION_SECONDS, type IdempotencyItem } from '../../shared/http/idempotency';
import type { RouteMeta } from '../../shared/http/route-meta';
import { newWorkspace, startTestApi, withEntity, type Client, type Reply, type TestApi } from '../support/api';

let api: TestApi;
let offset = 0;
let restoreClock: () => void;

beforeAll(async () => {
  restoreClock = useClock({ now: () => new Date(Date.now() + offset) });
  api = await startTestApi({ events: true });
});
afterAll(async () => {
  await api.close();
  restoreClock();
});
afterEach(() => {
  offset = 0;
});

/** A write with an `Idempotency-Key` (the test client sends none by default). */
function send(client: Client, method: string, path: string, body: unknown, key?: string): Promise<Reply> {
  return api.raw(method, path, {
    headers: {
      authorization: `Bearer ${client.token}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
      ...(key !== undefined && { 'idempotency-key': key }),
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const replayed = (reply: Reply) => reply.headers.get('idempotent-replayed');
const customerTotal = async (client: Client) => (await client.get('/v1/customers')).body.meta.total as number;

async function freshClient(): Promise<Client> {
  const client = await api.client();
  await withEntity(client);
  return client;
}

describe('Idempotency-Key on POST/PUT/PATCH', () => {
  it('replays the stored response with Idempotent-Replayed: true and changes nothing', async () => {
    const client = await freshClient();
    const first = await send(client, 'POST', '/v1/customers', { name: 'Jane', currency: 'EUR' }, 'create-jane');
    expect(first.status).toBe(201);
    expect(replayed(first)).toBeNull();

    // Member order does not make another request.
    const second = await send(client, 'POST', '/v1/customers', { currency: 'EUR', name: 'Jane' }, 'create-jane');
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(replayed(second)).toBe('true');
    expect(second.headers.get('content-type')).toContain('application/json');
    expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect(second.headers.get('original-request-id')).toBe(first.headers.get('x-request-id'));

    expect(await customerTotal(client)).toBe(1);
  });

  it('replays a PUT, so a repeated update is not applied twice', async () => {
    const client = await freshClient();
    const customer = (await client.post('/v1/customers', { name: 'Jane' })).body;
    const first = await send(client, 'PUT', `/v1/customers/${customer.id}`, { name: 'Janet' }, 'rename');
    expect(first.status).toBe(200);
    await client.put(`/v1/customers/${customer.id}`, { name: 'Someone else' });
    const again = await send(client, 'PUT', `/v1/customers/${customer.id}`, { name: 'Janet' }, 'rename');
    expect([again.status, replayed(again), again.body.name]).toEqual([200, 'true', 'Janet']);
    expect((await client.get(`/v1/customers/${customer.id}`)).body.name).toBe('Someone else');
  });

  it('answers 422 idempotency_key_reused for the same key with another body, route or path', async () => {
    const client = await freshClient();
    expect((await send(client, 'POST', '/v1/customers', { name: 'Jane' }, 'k1')).status).toBe(201);

    const otherBody = await send(client, 'POST', '/v1/customers', { name: 'John' }, 'k1');
    expect(otherBody.status).toBe(422);
    expect(otherBody.body).toEqual({ message: expect.any(String), code: 'idempotency_key_reused', request_id: expect.any(String) });
    expect(replayed(otherBody)).toBeNull();

    const otherRoute = await send(client, 'POST', '/v1/invoicing-entities', { name: 'Other', country: 'FR', currency: 'EUR' }, 'k1');
    expect([otherRoute.status, otherRoute.body.code]).toEqual([422, 'idempotency_key_reused']);

    const [a, b] = [(await client.post('/v1/customers', { name: 'A' })).body, (await client.post('/v1/customers', { name: 'B' })).body];
    expect((await send(client, 'PUT', `/v1/customers/${a.id}`, { name: 'X' }, 'k2')).status).toBe(200);
    const otherPath = await send(client, 'PUT', `/v1/customers/${b.id}`, { name: 'X' }, 'k2');
    expect([otherPath.status, otherPath.body.code]).toEqual([422, 'idempotency_key_reused']);
    expect((await client.get(`/v1/customers/${b.id}`)).body.name).toBe('B');

    expect(await customerTotal(client)).toBe(3);
  });

  it('keeps keys per workspace: the same key in two workspaces makes two independent requests', async () => {
    const [one, two] = [await freshClient(), await freshClient()];
    const a = await send(one, 'POST', '/v1/customers', { name: 'Jane' }, 'shared-key');
    const b = await send(two, 'POST', '/v1/customers', { name: 'Jane' }, 'shared-key');
    expect([a.status, b.status]).toEqual([201, 201]);
    expect([replayed(a), replayed(b)]).toEqual([null, null]);
    expect(a.body.id).not.toBe(b.body.id);
    // A different body in the other workspace is no reuse either.
    expect((await send(two, 'POST', '/v1/customers', { name: 'Other' }, 'other-key')).status).toBe(201);
    expect((await send(one, 'POST', '/v1/customers', { name: 'Different' }, 'other-key')).status).toBe(201);
    expect([await customerTotal(one), await customerTotal(two)]).toEqual([2, 2]);
  });

  it('rejects a key that is empty or longer than 255 characters with a 400, and accepts 255', async () => {
    const client = await freshClient();
    for (const key of ['', 'k'.repeat(256)]) {
      const reply = await send(client, 'POST', '/v1/customers', { name: 'Jane' }, key);
      expect([key.length, reply.status, reply.body.code]).toEqual([key.length, 400, 'invalid_request']);
      expect(reply.body.errors).toEqual([{ path: 'headers.idempotency-key', message: expect.any(String) }]);
    }
    const long = await send(client, 'POST', '/v1/customers', { name: 'Jane' }, 'k'.repeat(255));
    expect(long.status).toBe(201);
    expect(replayed(await send(client, 'POST', '/v1/customers', { name: 'Jane' }, 'k'.repeat(255)))).toBe('true');
    expect(await customerTotal(client)).toBe(1);
  });

  it('ignores the header on GET and DELETE, which neither store nor replay anything', async () => {
    const client = await freshClient();
    const customer = (await client.post('/v1/customers', { name: 'Jane' })).body;
    for (let i = 0; i < 2; i++) {
      const list = await send(client, 'GET', '/v1/customers', undefined, 'read-key');
      expect([list.status, replayed(list), list.body.meta.total]).toEqual([200, null, 1]);
    }
    // Even an invalid key is ignored where the header means nothing.
    expect((await send(client, 'GET', `/v1/customers/${customer.id}`, undefined, '')).status).toBe(200);
    const deleted = await send(client, 'DELETE', `/v1/customers/${customer.id}`, undefined, 'read-key');
    expect([deleted.status, replayed(deleted)]).toEqual([200, null]);
    // The key is still free for a write.
    const created = await send(client, 'POST', '/v1/customers', { name: 'John' }, 'read-key');
    expect([created.status, replayed(created)]).toEqual([201, null]);
  });

  it('does not remember a request that fails validation (400): the key stays free', async () => {
    const client = await freshClient();
    const invalid = await send(client, 'POST', '/v1/customers', { name: 'Jane', currency: 'EURO' }, 'fix-me');
    expect(invalid.status).toBe(400);
    const malformed = await send(client, 'POST', '/v1/customers', '{"name": ', 'fix-me');
    expect(malformed.status).toBe(400);
    const valid = await send(client, 'POST', '/v1/customers', { name: 'Jane', currency: 'EUR' }, 'fix-me');
    expect([valid.status, replayed(valid)]).toEqual([201, null]);
  });

  it('replays a failed business request (422) as the same 422, even once it would succeed', async () => {
    const client = await api.client(); // no invoicing entity yet
    const failed = await send(client, 'POST', '/v1/customers', { name: 'Jane' }, 'too-early');
    expect([failed.status, failed.body.code]).toEqual([422, 'invoicing_entity_required']);
    await withEntity(client);
    const again = await send(client, 'POST', '/v1/customers', { name: 'Jane' }, 'too-early');
    expect(again.status).toBe(422);
    expect(again.body).toEqual(failed.body);
    expect(replayed(again)).toBe('true');
    expect(await customerTotal(client)).toBe(0);
    expect((await send(client, 'POST', '/v1/customers', { name: 'Jane' }, 'later')).status).toBe(201);
  });

  it('20 parallel identical requests with one key: one effect, the others replays or 409 in progress', async () => {
    const client = await freshClient();
    const body = { name: 'Racer', currency: 'EUR', external_id: 'race-1' };
    const replies = await Promise.all(Array.from({ length: 20 }, () => send(client, 'POST', '/v1/customers', body, 'race')));

    const original = replies.filter((r) => r.status === 201 && replayed(r) === null);
    const replays = replies.filter((r) => replayed(r) === 'true');
    const inFlight = replies.filter((r) => r.status === 409);
    expect(original).toHaveLength(1);
    expect(replays.length + inFlight.length).toBe(19);
    for (const r of replays) expect([r.status, r.body]).toEqual([201, original[0]!.body]);
    for (const r of inFlight) {
      expect(r.body).toEqual({ message: expect.any(String), code: 'idempotency_key_in_progress', request_id: expect.any(String) });
      expect(replayed(r)).toBeNull();
    }
    if (process.env.IDEMPOTENCY_RACE_LOG) console.log(`20 parallel: 1 created, ${replays.length} replays, ${inFlight.length} × 409`);

    const list = (await client.get('/v1/customers')).body;
    expect(list.meta.total).toBe(1);
    expect(list.data.map((c: { id: string }) => c.id)).toEqual([original[0]!.body.id]);
    // Once the first has finished, every retry is a replay.
    const late = await send(client, 'POST', '/v1/customers', body, 'race');
    expect([late.status, replayed(late), late.body]).toEqual([201, 'true', original[0]!.body]);
  });

  it('forgets a key after 24 hours: it can then be used with another body', async () => {
    const client = await freshClient();
    const first = await send(client, 'POST', '/v1/customers', { name: 'Day one' }, 'daily');
    expect(first.status).toBe(201);
    const record = await getItem<IdempotencyItem>(idempotencyKey(makeCtx(client.workspace, 'test'), 'daily'), true);
    expect(record).toMatchObject({ _type: 'idempotency', idempotency_key: 'daily', status: 'completed' });
    expect(record!.ttl).toBe(Math.floor(Date.parse(record!.created_at) / 1000) + RETENTION_SECONDS);
    expect(Math.abs(Date.parse(record!.created_at) - Date.parse(first.body.created_at))).toBeLessThan(5000);

    offset = (RETENTION_SECONDS - 60) * 1000; // 23 h 59 min later: still remembered
    expect((await send(client, 'POST', '/v1/customers', { name: 'Day two' }, 'daily')).body.code).toBe('idempotency_key_reused');
    expect(replayed(await send(client, 'POST', '/v1/customers', { name: 'Day one' }, 'daily'))).toBe('true');

    offset = (RETENTION_SECONDS + 1) * 1000; // expired (DynamoDB TTL deletes lazily: the record may still be there)
    const reused = await send(client, 'POST', '/v1/customers', { name: 'Day two' }, 'daily');
    expect([reused.status, replayed(reused), reused.body.name]).toEqual([201, null, 'Day two']);
    expect(await customerTotal(client)).toBe(2);
  });

  it('produces no webhook message of its own: only the resource’s event', async () => {
    const client = await freshClient();
    await send(client, 'POST', '/v1/customers', { name: 'Quiet' }, 'no-events');
    await send(client, 'POST', '/v1/customers', { name: 'Quiet' }, 'no-events');
    await send(client, 'POST', '/v1/customers', { name: 'Other' }, 'no-events'); // 422, nothing written
    await api.events.settle();
    const messages = (await client.get('/v1/webhooks/messages')).body.data as { payload: { event_type: string } }[];
    expect(messages.map((m) => m.payload.event_type).sort()).toEqual(['customer.created', 'invoicing_entity.created']);
  });
});

describe('the idempotency step with a stub domain call', () => {
  const anyBody = Object.assign(() => true, { errors: null });
  const route: RouteMeta = { id: 'idempotencyProbe', method: 'POST', path: '/probe', scope: 'write', status: 201, validate: { body: anyBody } };
  let workspace: string;
  beforeEach(() => {
    workspace = newWorkspace();
  });

  const event = (key: string, body: unknown = { a: 1 }): HttpEvent =>
    ({
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(body),
      isBase64Encoded: false,
      requestContext: { requestId: `req-${Math.random()}`, authorizer: { jwt: { claims: { workspace_id: workspace, scope: 'write', exp: '4102444800' }, scopes: [] } } },
    }) as unknown as HttpEvent;

  const probe = (core: () => Promise<unknown>) => {
    const handler = httpHandler(route, core);
    return async (e: HttpEvent) => (await handler(e, {} as Context)) as APIGatewayProxyStructuredResultV2;
  };

  it('releases the key after a 5xx (nothing was written), so a retry with the same key runs', async () => {
    let calls = 0;
    const call = probe(async () => {
      calls += 1;
      if (calls === 1) throw new ServiceUnavailable();
      return { run: calls };
    });
    expect((await call(event('retry-me'))).statusCode).toBe(503);
    const retried = await call(event('retry-me'));
    expect([retried.statusCode, JSON.parse(retried.body!)]).toEqual([201, { run: 2 }]);
    const replay = await call(event('retry-me'));
    expect([replay.statusCode, replay.headers?.['idempotent-replayed'], JSON.parse(replay.body!)]).toEqual([201, 'true', { run: 2 }]);
    expect(calls).toBe(2);
  });

  it('stores a business error of the domain call and replays it without calling it again', async () => {
    let calls = 0;
    const call = probe(async () => {
      calls += 1;
      throw new RuleViolation('some_rule', 'Broken.');
    });
    const first = await call(event('rule'));
    const second = await call(event('rule'));
    expect([first.statusCode, second.statusCode, second.headers?.['idempotent-replayed']]).toEqual([422, 422, 'true']);
    expect(second.body).toBe(first.body);
    expect(calls).toBe(1);
  });

  it('keeps a claim whose outcome is unknown (timeout) in progress: 409, then taken over after the lock timeout', async () => {
    let calls = 0;
    const call = probe(async () => {
      calls += 1;
      if (calls === 1) throw Object.assign(new Error('timed out'), { name: 'TimeoutError' });
      return { run: calls };
    });
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    // A timeout is a 503 that says the request may have been applied (never a 500): retry with the same key.
    const timedOut = await call(event('crashed'));
    expect([timedOut.statusCode, JSON.parse(timedOut.body!).code, timedOut.headers?.['retry-after']]).toEqual([503, 'service_unavailable', '1']);
    expect(JSON.parse(timedOut.body!).message).toMatch(/may have been applied/);
    const busy = await call(event('crashed'));
    expect([busy.statusCode, JSON.parse(busy.body!).code]).toEqual([409, 'idempotency_key_in_progress']);
    expect(calls).toBe(1);

    offset = LOCK_TIMEOUT_MS + 1000;
    const differentBody = await call(event('crashed', { a: 2 }));
    expect([differentBody.statusCode, JSON.parse(differentBody.body!).code]).toEqual([422, 'idempotency_key_reused']);
    const takenOver = await call(event('crashed'));
    expect([takenOver.statusCode, JSON.parse(takenOver.body!)]).toEqual([201, { run: 2 }]);
    expect(calls).toBe(2);
    logged.mockRestore();
  });
});
