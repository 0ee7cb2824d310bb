/**
 * A genuine token whose claim is of the wrong JSON type (issue 28's attack run: `scope: ["read","write","admin"]`
 * granted `write` on 24 routes) is refused with 401 and writes nothing: through the local server, and on the AWS
 * path, the Lambda authorizer's answer handed to the route's own handler in an API Gateway v2 event. (Every route
 * refuses these tokens too: they are in the token matrix, route-matrix.test.ts.)
 */
import type { APIGatewayProxyStructuredResultV2, APIGatewayRequestAuthorizerEventV2, Context } from 'aws-lambda';
import { importJWK, SignJWT } from 'jose';
import { handler as authorize } from '../../functions/authorizer/authorize';
import { handler as createCustomer } from '../../functions/customers/create';
import { LOCAL_AUDIENCE, LOCAL_ISSUER } from '../../lib/local/jwt';
import type { HttpEvent } from '../../shared/http/handler';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';

let api: TestApi;
let owner: Client;
beforeAll(async () => {
  api = await startTestApi();
  owner = await api.client();
  await withEntity(owner);
});
afterAll(() => api.close());

/** A token of the owner's workspace, signed by the key the API trusts, with every scope but `changes`. */
async function tokenWith(changes: Record<string, unknown>): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const claims = { workspace_id: owner.workspace, scope: 'read write admin', sub: 'claims-test', iat: now, exp: now + 600, ...changes };
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: api.keys.privateJwk.kid!, typ: 'JWT' })
    .setIssuer(LOCAL_ISSUER)
    .setAudience(LOCAL_AUDIENCE)
    .sign(await importJWK(api.keys.privateJwk, 'RS256'));
}

const mistyped: Record<string, unknown>[] = [
  { scope: ['read', 'write', 'admin'] }, { scope: ['write'] }, { scope: 42 }, { scope: { write: true } }, { scope: null },
  { workspace_id: 12345 }, { workspace_id: null }, { workspace_id: true }, { workspace_id: ['ws_x'] }, { workspace_id: { id: 'ws_x' } },
];
const customer = { name: 'Written by a mistyped token', currency: 'EUR', billing_address: { country: 'FR' } };
const customerCount = async () => (await owner.get('/v1/customers')).body.meta.total as number;

describe('a token whose claim the routes read is of the wrong JSON type', () => {
  it('is refused with 401 invalid_token by the local server, and nothing is written', async () => {
    for (const changes of mistyped) {
      const reply = await api.raw('POST', '/v1/customers', {
        headers: { authorization: `Bearer ${await tokenWith(changes)}`, 'content-type': 'application/json' },
        body: JSON.stringify(customer),
      });
      expect([changes, reply.status, reply.body.code]).toEqual([changes, 401, 'unauthorized']);
      expect(reply.headers.get('www-authenticate')).toContain('error="invalid_token"');
    }
    expect(await customerCount()).toBe(0);
    const control = await api.raw('POST', '/v1/customers', {
      headers: { authorization: `Bearer ${await tokenWith({})}`, 'content-type': 'application/json' },
      body: JSON.stringify(customer),
    });
    expect(control.status).toBe(201); // the same token with its claims well typed writes
    expect(await customerCount()).toBe(1);
  });

  it("is refused with 401 on AWS's path: the Lambda authorizer's answer, then the route's handler", async () => {
    const before = await customerCount();
    for (const changes of mistyped) {
      const authorization = `Bearer ${await tokenWith(changes)}`;
      const answer = await authorize({
        version: '2.0', type: 'REQUEST', routeArn: 'arn:aws:execute-api:eu-west-1:111122223333:api/$default/POST/v1/customers',
        identitySource: [authorization], routeKey: 'POST /v1/customers', rawPath: '/v1/customers', rawQueryString: '',
        headers: { authorization, 'content-type': 'application/json' },
        requestContext: { http: { method: 'POST', path: '/v1/customers' }, requestId: 'claims-authorizer' },
      } as unknown as APIGatewayRequestAuthorizerEventV2);
      expect([changes, answer]).toEqual([changes, { isAuthorized: true, context: { credential: 'invalid' } }]);
      const event = {
        version: '2.0', routeKey: 'POST /v1/customers', rawPath: '/v1/customers', rawQueryString: '', isBase64Encoded: false,
        headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify(customer),
        requestContext: { requestId: 'claims-route', http: { method: 'POST', path: '/v1/customers' }, authorizer: { lambda: answer.context } },
      } as unknown as HttpEvent;
      const result = (await createCustomer(event, {} as Context)) as APIGatewayProxyStructuredResultV2;
      expect([changes, result.statusCode, JSON.parse(result.body!).code]).toEqual([changes, 401, 'unauthorized']);
      expect(result.headers?.['www-authenticate']).toContain('error="invalid_token"');
    }
    expect(await customerCount()).toBe(before);
  });
});
