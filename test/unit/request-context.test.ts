import { jest } from '@jest/globals';
import type { APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { httpHandler } from '../../shared/http/handler';
import { requestCtx, WORKSPACE_ID_PATTERN } from '../../shared/http/request-context';
import { requestIdOf } from '../../shared/http/request-id';
import { binaryResponse } from '../../shared/http/responses';
import type { RouteMeta } from '../../shared/http/route-meta';
import { newWorkspace } from '../support/api';
import { logger } from '../../shared/observability/logger';

const inAnHour = String(Math.floor(Date.now() / 1000) + 3600);

/** The event API Gateway gives a Lambda: claims arrive as strings, whatever their JSON type was in the token. */
const event = (claims: Record<string, string>, headers: Record<string, string> = {}) =>
  ({
    version: '2.0', routeKey: 'GET /v1/things', rawPath: '/v1/things', rawQueryString: '', headers, isBase64Encoded: false,
    requestContext: {
      requestId: 'apigw-1', http: { method: 'GET', path: '/v1/things' },
      authorizer: { jwt: { claims, scopes: null } },
    },
  }) as unknown as APIGatewayProxyEventV2WithJWTAuthorizer;

describe('the claims of a verified token', () => {
  const good = { workspace_id: 'ws_demo', scope: 'read write', exp: inAnHour };

  it('give the workspace, and the caller\'s safe X-Request-Id as the request id (else API Gateway\'s)', () => {
    expect(requestCtx(event(good, { 'x-request-id': 'trace-7' }), 'read')).toMatchObject({ workspaceId: 'ws_demo', requestId: 'trace-7' });
    expect(requestCtx(event(good, { 'x-request-id': 'not safe!' }), 'read').requestId).toBe('apigw-1');
  });

  it('are refused with 401 when exp is missing or not a time (the second line behind the authorizer)', () => {
    for (const exp of [undefined, '', 'null', 'tomorrow']) {
      const claims: Record<string, string> = { ...good, ...(exp !== undefined && { exp }) };
      if (exp === undefined) delete claims.exp;
      expect(() => requestCtx(event(claims), 'read')).toThrow(expect.objectContaining({ status: 401, code: 'unauthorized' }));
    }
  });

  it('are refused with 403 when workspace_id was JSON null, a number, a boolean or an array (strings on AWS)', () => {
    for (const workspace of ['null', '12345', 'true', 'false', '[ws_a ws_b]', '[object Object]', '', 'ws_', 'WS#ws_a', 'ws_a#CUS']) {
      expect(() => requestCtx(event({ ...good, workspace_id: workspace }), 'read')).toThrow(
        expect.objectContaining({ status: 403, code: 'workspace_missing' }),
      );
    }
  });
});

describe('the workspace id pattern', () => {
  it('takes the ids the tools, tests and benchmarks make, up to 64 characters', () => {
    for (const id of ['ws_demo', 'ws_local', newWorkspace(), `ws_bench_prc_large_${'0'.repeat(8)}`, `ws_${'a'.repeat(61)}`]) {
      expect([id, WORKSPACE_ID_PATTERN.test(id)]).toEqual([id, true]);
    }
    expect(WORKSPACE_ID_PATTERN.test(`ws_${'a'.repeat(62)}`)).toBe(false);
  });
});

describe('request ids', () => {
  it('echo 1-128 letters, digits, ".", "_", ":" or "-", and fall back to the gateway id otherwise', () => {
    expect(requestIdOf({ 'x-request-id': 'a'.repeat(128) }, 'gw')).toBe('a'.repeat(128));
    expect(requestIdOf({ 'X-Request-Id': '01J0Z:trace_1.2-3' }, 'gw')).toBe('01J0Z:trace_1.2-3');
    for (const unsafe of ['a'.repeat(129), '', 'a b', 'a,b', 'a\nb', '<x>', 'é']) expect(requestIdOf({ 'x-request-id': unsafe }, 'gw')).toBe('gw');
    expect(requestIdOf({ 'x-request-id': ['a', 'b'] }, 'gw')).toBe('gw');
    expect(requestIdOf(undefined, 'gw')).toBe('gw');
  });
});

describe('the headers of the shared HTTP stack', () => {
  const route: RouteMeta = { id: 'thing', method: 'GET', path: '/v1/things', scope: 'read', status: 200, validate: {} };
  const run = async (core: () => Promise<unknown>, headers: Record<string, string>, claims = { workspace_id: 'ws_demo', scope: 'read', exp: inAnHour }) =>
    (await httpHandler(route, core)(event(claims, headers), {} as Context)) as APIGatewayProxyStructuredResultV2;
  const apiHeaders = (requestId: string) => ({ 'x-request-id': requestId, 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' });

  it('are on JSON results, files and refusals, with the echoed request id', async () => {
    expect((await run(async () => ({ ok: true }), { 'x-request-id': 'r1' })).headers).toMatchObject(apiHeaders('r1'));
    const file = await run(async () => binaryResponse(new Uint8Array([1, 2]), 'application/pdf', 'a.pdf'), { 'x-request-id': 'r2' });
    expect([file.isBase64Encoded, file.headers]).toEqual([true, expect.objectContaining(apiHeaders('r2'))]);
    const refused = await run(async () => ({}), { 'x-request-id': 'r3' }, { workspace_id: 'null', scope: 'read', exp: inAnHour });
    expect([refused.statusCode, JSON.parse(refused.body!).request_id, refused.headers]).toEqual([403, 'r3', expect.objectContaining(apiHeaders('r3'))]);
  });

  it('are on a 500, whose log line names both the echoed and the gateway request id', async () => {
    // The 500's details go to the logger's ERROR line on stderr (shared/observability/logger.ts).
    logger.setLogLevel('ERROR');
    const log = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const failed = await run(async () => {
        throw new Error('boom');
      }, { 'x-request-id': 'r4' });
      expect([failed.statusCode, failed.headers]).toEqual([500, expect.objectContaining(apiHeaders('r4'))]);
      const lines = log.mock.calls.map(([chunk]) => String(chunk)).filter((line) => line.includes('unhandled error'));
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({ request_id: 'r4', gateway_request_id: 'apigw-1' });
    } finally {
      log.mockRestore();
      logger.setLogLevel('SILENT');
    }
  });
});
