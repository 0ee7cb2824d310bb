/**
 * Claims of the wrong JSON type (issue 28's attack run): a JWT `scope` sent as an array was made into the text
 * "[read write admin]", whose `write` the routes granted. The authorizer now refuses such a token, and the routes
 * refuse any context that is not made of strings, whoever built it.
 */
import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import { requestCtx, type AuthorizedEvent } from '../../shared/http/request-context';
import { jwtContext, resolveCredential } from '../../shared/identity/credentials';
import { signAccessToken } from '../../shared/identity/service-tokens';
import { asServiceIssuer } from '../support/service-issuer';

const ISSUER = 'https://billing.example.com';
const good = { workspace_id: 'ws_claims', scope: 'read write', sub: 'user_1', client_id: 'https://app.example.com/client.json', aud: ISSUER };
const inAnHour = Math.floor(Date.now() / 1000) + 3600;

/** Each claim the routes read, of each JSON type it must not be. */
const mistyped: [string, unknown][] = [
  ['scope', ['read', 'write', 'admin']], ['scope', ['write']], ['scope', 42], ['scope', { write: true }], ['scope', null], ['scope', true],
  ['workspace_id', 12345], ['workspace_id', ['ws_claims']], ['workspace_id', { id: 'ws_claims' }], ['workspace_id', null], ['workspace_id', false],
  ['sub', 42], ['sub', null], ['client_id', ['a']], ['azp', 7],
];

asServiceIssuer(ISSUER);

describe('the authorizer (shared/identity/credentials.ts)', () => {
  it('refuses a genuine token of the service whose read claim is of another JSON type', async () => {
    for (const [name, value] of mistyped) {
      const token = await signAccessToken({ ...good, [name]: value }, 900);
      expect([name, value, (await resolveCredential(`Bearer ${token}`)).kind]).toEqual([name, value, 'invalid']);
    }
    expect((await resolveCredential(`Bearer ${await signAccessToken(good, 900)}`)).kind).toBe('valid'); // the control
  });

  it('passes on the read claims as they are, and nothing else', () => {
    const payload = { ...good, iss: ISSUER, iat: inAnHour - 3600, exp: inAnHour, roles: ['admin'], nested: { a: 1 } };
    expect(jwtContext(payload)).toEqual({
      credential: 'jwt', workspace_id: 'ws_claims', scope: 'read write', sub: 'user_1', client_id: good.client_id, exp: String(inAnHour),
    });
    for (const [name, value] of mistyped) expect([name, value, jwtContext({ ...payload, [name]: value })]).toEqual([name, value, undefined]);
  });
});

/** An event as a route receives it, with `context` as what the authorizer passed on. */
const event = (context: Record<string, unknown>, via: 'lambda' | 'jwt' = 'lambda') =>
  ({
    version: '2.0', routeKey: 'POST /v1/things', rawPath: '/v1/things', rawQueryString: '', headers: {}, isBase64Encoded: false,
    requestContext: {
      requestId: 'apigw-1', http: { method: 'POST', path: '/v1/things' },
      authorizer: via === 'lambda' ? { lambda: context } : { jwt: { claims: context, scopes: null } },
    },
  }) as unknown as APIGatewayProxyEventV2WithJWTAuthorizer & AuthorizedEvent;

describe('the routes (shared/http/request-context.ts)', () => {
  const context = { credential: 'jwt', workspace_id: 'ws_claims', scope: 'read write admin', exp: String(inAnHour) };

  it('refuse with 401 invalid_token a context whose read claim is not a string, whoever built it', () => {
    for (const [name, value] of mistyped) {
      for (const via of ['lambda', 'jwt'] as const) {
        const refusal = (() => {
          try {
            requestCtx(event({ ...context, [name]: value }, via), 'write');
          } catch (error) {
            return error as { status: number; headers?: Record<string, string> };
          }
        })();
        expect([name, value, via, refusal?.status, refusal?.headers?.['www-authenticate']]).toEqual([name, value, via, 401, expect.stringContaining('error="invalid_token"')]);
      }
    }
  });

  it('refuse with 401 a scope that is an array or object made into text, rather than split it into scopes', () => {
    for (const scope of ['[read write admin]', '["read","write"]', '[object Object]', 'read  write', ' write', '{write}']) {
      expect(() => requestCtx(event({ ...context, scope }), 'write')).toThrow(expect.objectContaining({ status: 401, code: 'unauthorized' }));
    }
  });

  it('grant the scopes of a well-formed list, and refuse with 403 a list that lacks the one needed', () => {
    expect(requestCtx(event(context), 'write').workspaceId).toBe('ws_claims');
    expect(requestCtx(event({ ...context, scope: 'write' }), 'write').workspaceId).toBe('ws_claims');
    for (const scope of ['', 'read', 'read,write', 'READ WRITE', 'https://example.com/write']) {
      expect(() => requestCtx(event({ ...context, scope }), 'write')).toThrow(expect.objectContaining({ status: 403, code: 'insufficient_scope' }));
    }
  });
});
