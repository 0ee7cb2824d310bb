import type { APIGatewayRequestAuthorizerEventV2 } from 'aws-lambda';
import { handler as authorize } from '../../functions/authorizer/authorize';
import { accessLogFormat } from '../../lib/monitoring';
import { startTestApi, type Client, type TestApi } from '../support/api';

/**
 * The API access log (lib/monitoring.ts) reads the Lambda authorizer's context as `$context.authorizer.<key>`: its
 * fields are what the real authorizer returns for a request's credential, the same keys under which it returns them.
 */
let api: TestApi;
let client: Client;
beforeAll(async () => {
  api = await startTestApi();
  client = await api.client();
});
afterAll(() => api.close());

/** An authorizer request (payload 2.0) carrying this Authorization header. */
const authorizerEvent = (authorization: string): APIGatewayRequestAuthorizerEventV2 => ({
  version: '2.0',
  type: 'REQUEST',
  routeArn: 'arn:aws:execute-api:local:000000000000:api/$default/GET/v1/customers',
  identitySource: [authorization],
  routeKey: 'GET /v1/customers',
  rawPath: '/v1/customers',
  rawQueryString: '',
  cookies: [],
  headers: { authorization },
  requestContext: {
    accountId: '000000000000', apiId: 'api', domainName: 'localhost', domainPrefix: 'localhost', requestId: 'req', routeKey: 'GET /v1/customers', stage: '$default',
    time: new Date().toUTCString(), timeEpoch: Date.now(),
    http: { method: 'GET', path: '/v1/customers', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'test' },
  },
} as APIGatewayRequestAuthorizerEventV2);

/** The access log's fields taken from the authorizer's context (`$context.authorizer.error` is API Gateway's own), as API Gateway fills them. */
async function loggedFromAuthorizer(authorization: string): Promise<Record<string, string | undefined>> {
  const { context } = await authorize(authorizerEvent(authorization));
  const fields = Object.entries(accessLogFormat).flatMap(([field, variable]) => {
    const key = /^\$context\.authorizer\.(\w+)$/.exec(variable)?.[1];
    return key && key !== 'error' ? [[field, (context as Record<string, string>)[key]] as const] : [];
  });
  return Object.fromEntries(fields);
}

it('logs the workspace and the kind of credential of an API key and of a JWT', async () => {
  const apiKey = (await client.post('/v1/api-keys', { name: 'Access log' })).body.key as string;
  expect(await loggedFromAuthorizer(`Bearer ${apiKey}`)).toEqual({ workspace: client.workspace, credential: 'api_key' });
  expect(await loggedFromAuthorizer(`Bearer ${client.token}`)).toEqual({ workspace: client.workspace, credential: 'jwt' });
});

it('logs no workspace for a credential that does not resolve', async () => {
  expect(await loggedFromAuthorizer('Bearer sk_test_unknown')).toEqual({ workspace: undefined, credential: 'invalid' });
});
