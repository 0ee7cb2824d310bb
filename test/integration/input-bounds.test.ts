/**
 * The input bounds of docs/decisions.md ("Input bounds") through the HTTP layer, and the handlers' own robustness
 * to path parameters as API Gateway may hand them over. The fuzz suite (fuzz.test.ts) sends thousands more.
 */
import type { APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { handler as getCustomer } from '../../functions/customers/get';
import { tableName } from '../../shared/db/client';
import { getItem, putIfUnchanged } from '../../shared/db/items';
import { ItemTooLarge, transactWrite } from '../../shared/db/transactions';
import type { HttpEvent } from '../../shared/http/handler';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';
import { walletOf } from '../support/route-fixtures/wallets';

let api: TestApi;
let client: Client;
beforeAll(async () => {
  api = await startTestApi();
  client = await api.client();
  await withEntity(client);
});
afterAll(() => api.close());

const send = (method: string, path: string, body: string, contentType = 'application/json') =>
  api.raw(method, path, { headers: { authorization: `Bearer ${client.token}`, 'content-type': contentType }, body });

describe('paths', () => {
  it.each(['%ZZ', '%C0%AF', '%', '%ED%A0%80'])('answer 400 malformed_path for %s, before authentication', async (segment) => {
    for (const headers of [{}, { authorization: `Bearer ${client.token}` }] as Array<Record<string, string>>) {
      const reply = await api.raw('GET', `/v1/customers/${segment}`, { headers });
      expect([reply.status, reply.body.code]).toEqual([400, 'malformed_path']);
      expect(reply.body.message).toContain(segment);
    }
  });

  it('still decode well-formed escapes: an unknown id is a 404', async () => {
    const reply = await client.get('/v1/customers/cus_%C3%A9t%C3%A9');
    expect([reply.status, reply.body.message]).toEqual([404, "No customer with id 'cus_été'."]);
  });

  it('reach a handler as API Gateway may pass them (undecoded, odd characters) and give a 4xx, never a 5xx', async () => {
    for (const id of ['%ZZ', '\uD800', 'a#b', 'x\u0000y', 'x'.repeat(64), 'x'.repeat(65), '']) {
      const event = {
        version: '2.0', routeKey: 'GET /v1/customers/{id}', rawPath: '/v1/customers/x', rawQueryString: '', headers: {},
        pathParameters: { id }, isBase64Encoded: false,
        requestContext: { requestId: `req-${id.length}`, http: { method: 'GET' }, authorizer: { jwt: { claims: { workspace_id: client.workspace, scope: 'read', exp: String(Math.floor(Date.now() / 1000) + 600) }, scopes: [] } } },
      } as unknown as HttpEvent;
      const result = (await getCustomer(event, {} as Context)) as APIGatewayProxyStructuredResultV2;
      expect([id, result.statusCode]).toEqual([id, id.length > 64 || id === '' ? 400 : 404]);
      expect(JSON.parse(result.body!).code).toEqual(expect.any(String));
    }
  });
});

describe('query parameters', () => {
  it.each(['1e2', '0x10', '%2B5', '%205', 'Infinity', '-Infinity'])('refuse take=%s with a 400 naming take', async (value) => {
    const reply = await client.get(`/v1/customers?take=${value}`);
    expect(reply.status).toBe(400);
    expect(reply.body.errors).toContainEqual({ path: 'query.take', message: 'must be a decimal integer (digits only, at most 16)' });
  });

  it('refuse limit=Infinity and skip past its bound', async () => {
    expect((await client.get('/v1/webhooks/messages?limit=Infinity')).body.errors[0].path).toBe('query.limit');
    expect((await client.get('/v1/customers?skip=1000000001')).body.errors).toEqual([{ path: 'query.skip', message: 'must be <= 1000000000' }]);
  });

  it('take a decimal integer', async () => {
    expect((await client.get('/v1/customers?take=5&skip=0')).body.meta).toMatchObject({ taken: expect.any(Number), skipped: 0 });
  });
});

describe('bodies', () => {
  it('must be declared application/json, optionally with charset=utf-8', async () => {
    expect((await send('POST', '/v1/customers', '{"name":"A"}', 'application/json-seq')).status).toBe(415);
    expect((await send('POST', '/v1/customers', '{"name":"A"}', 'application/problem+json')).status).toBe(415);
    expect((await send('POST', '/v1/customers', '{"name":"A"}', 'application/json; charset=iso-8859-1')).status).toBe(415);
    expect((await send('POST', '/v1/customers', '{"name":"A"}', 'application/json; charset=UTF-8')).status).toBe(201);
  });

  it('refuse a rate closer to 0 than its step, naming the member and the limit', async () => {
    const reply = await send('POST', '/v1/customers', '{"name":"A","vat_rate_custom":1e-300}');
    expect([reply.status, reply.body.errors]).toEqual([400, [{ path: 'body.vat_rate_custom', message: 'must have at most 4 decimals' }]]);
  });

  it('refuse metadata out of bounds, naming the member and the limit, and create nothing', async () => {
    const before = (await client.get('/v1/customers?take=0')).body.meta.total;
    const cases: Array<[string, string]> = [
      ['{"name":"A","properties":{"__proto__":{"admin":true}}}', "body.properties has the reserved key '__proto__'"],
      ['{"name":"A","custom_properties":{"a":{"":1}}}', 'body.custom_properties has an empty key (at a)'],
      ['{"name":"A","properties":{"n":1e400}}', 'body.properties holds a number beyond ±(2^53 − 1) (at n)'],
      [JSON.stringify({ name: 'A', properties: JSON.parse(`${'{"a":'.repeat(30)}1${'}'.repeat(30)}`) }), 'body.properties nests deeper than 8 levels (at a.a.a.a.a.a.a.a)'],
    ];
    for (const [body, error] of cases) {
      const reply = await send('POST', '/v1/customers', body);
      expect([reply.status, reply.body.code, reply.body.message]).toEqual([400, 'invalid_request', `Invalid body: ${error}.`]);
    }
    expect((await client.get('/v1/customers?take=0')).body.meta.total).toBe(before);
  });
});

describe('limits of what is stored', () => {
  it('turn DynamoDB’s refusal of an item past 400 KB into 422 item_too_large, for a transaction and a single put', async () => {
    const item = { pk: `WS#${client.workspace}#BIG`, sk: 'BIG', _type: 'test', _version: 0, text: 'x'.repeat(410 * 1024) };
    const failure = await transactWrite([{ Put: { TableName: tableName(), Item: item } }]).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ItemTooLarge);
    expect(failure).toMatchObject({ status: 422, code: 'item_too_large' });
    await expect(putIfUnchanged(item, 0)).rejects.toBeInstanceOf(ItemTooLarge);
    expect(await getItem({ pk: item.pk, sk: item.sk })).toBeUndefined();
  });

  it('refuse a wallet load past 2^53 − 1 with 422 wallet_balance_too_large, and leave the balance as it was', async () => {
    const wallet = await walletOf(client);
    for (let i = 0; i < 9; i++) expect((await client.post(`/v1/wallets/${wallet.id}/load`, { type: 'free', amount: 1e15 })).status).toBe(200);
    for (const type of ['free', 'paid']) {
      const reply = await client.post(`/v1/wallets/${wallet.id}/load`, { type, amount: 1e15 });
      expect([reply.status, reply.body.code]).toEqual([422, 'wallet_balance_too_large']);
      expect(reply.body.message).toContain('9007199254740991');
    }
    expect((await client.get(`/v1/wallets/${wallet.id}`)).body.balance.amount).toBe(9e15);
  });
});
