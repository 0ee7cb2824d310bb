/**
 * The local edge (lib/local/server.ts): the token is checked before the body is read, reading stops at the size
 * limit, and every response — the edge's own 401/404/405/413 included — carries the API headers. (The token matrix
 * over every route is in route-matrix.test.ts.)
 */
import { generateKeys, signToken, type LocalKeys } from '../../lib/local/jwt';
import { startLocalApi, type LocalApi } from '../../lib/local/server';
import { newWorkspace } from '../support/api';
import { serverReads, upload, type Upload } from '../support/upload';

const MiB = 1024 * 1024;
/** API Gateway's payload limit, which the local edge applies before any handler. */
const GATEWAY_LIMIT = 10 * MiB;

let keys: LocalKeys;
let api: LocalApi;
let reads: ReturnType<typeof serverReads>;
let token: string;
beforeAll(async () => {
  keys = await generateKeys();
  api = await startLocalApi({ keys, port: 0 });
  reads = serverReads(api.server);
  token = await signToken(keys, { workspace: newWorkspace() });
});
afterAll(async () => {
  reads.stop();
  api.server.closeAllConnections();
  await api.close();
});

const expectEdgeError = (reply: Pick<Upload, 'status' | 'headers' | 'body'>, status: number, code: string) => {
  expect(reply.status).toBe(status);
  expect(reply.body).toEqual({ message: expect.any(String), code, request_id: reply.headers['x-request-id'] });
  expect(reply.headers).toMatchObject({ 'content-type': 'application/json', 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' });
};

describe('authentication before the body', () => {
  it('answers an unauthenticated 9 MB POST with 401 while the client is still sending, without reading it', async () => {
    const total = 9 * MiB;
    const reply = await upload(api.url, '/v1/customers', { total });
    const read = await reads.lastClosed();
    expectEdgeError(reply, 401, 'unauthorized');
    expect(reply.headers.connection).toBe('close');
    expect(reply.sentBeforeResponse).toBeLessThan(total);
    expect(read).toBeLessThan(MiB);
  });

  it('does not ask an unauthenticated client that expects 100-continue for its body', async () => {
    const reply = await upload(api.url, '/v1/customers', { total: 9 * MiB, expectContinue: true });
    const read = await reads.lastClosed();
    expectEdgeError(reply, 401, 'unauthorized');
    expect(reply.continued).toBe(false);
    expect(reply.sentBeforeResponse).toBe(0);
    expect(read).toBeLessThan(4096); // the request line and headers only
  });

  it('asks an authenticated client that expects 100-continue for its body, and the handler answers', async () => {
    const reply = await upload(api.url, '/v1/customers', { total: 100, expectContinue: true, headers: { authorization: `Bearer ${token}` } });
    expect(reply.continued).toBe(true);
    expect(reply.status).toBe(400); // 100 spaces are no JSON: the handler read the body and said so
    expect(reply.body.code).toBe('malformed_json');
  });

  it('refuses an authenticated body announced over the limit with 413 without reading it', async () => {
    const total = 11 * MiB;
    const reply = await upload(api.url, '/v1/customers', { total, headers: { authorization: `Bearer ${token}` } });
    const read = await reads.lastClosed();
    expectEdgeError(reply, 413, 'payload_too_large');
    expect(reply.sentBeforeResponse).toBeLessThan(total);
    expect(read).toBeLessThan(MiB);
  });

  it('does not ask for a body announced over the limit either', async () => {
    const reply = await upload(api.url, '/v1/customers', { total: 11 * MiB, expectContinue: true, headers: { authorization: `Bearer ${token}` } });
    expectEdgeError(reply, 413, 'payload_too_large');
    expect([reply.continued, reply.sentBeforeResponse]).toEqual([false, 0]);
    expect(await reads.lastClosed()).toBeLessThan(4096);
  });

  it('stops reading a chunked body at the limit and answers 413', async () => {
    const total = 16 * MiB;
    const reply = await upload(api.url, '/v1/customers', { total, chunked: true, headers: { authorization: `Bearer ${token}` } });
    const read = await reads.lastClosed();
    expectEdgeError(reply, 413, 'payload_too_large');
    // What the server read is the proof: past the limit it stops (the rest may still fit the sockets' buffers, so what
    // the client managed to send says nothing here).
    expect(read).toBeGreaterThan(GATEWAY_LIMIT);
    expect(read).toBeLessThan(GATEWAY_LIMIT + 2 * MiB);
  });
});

describe('response headers', () => {
  const call = async (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) => {
    const response = await fetch(api.url + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const type = response.headers.get('content-type') ?? '';
    const answer: any = type.includes('json') ? await response.json() : Buffer.from(await response.arrayBuffer());
    return { status: response.status, headers: response.headers, body: answer };
  };
  const expectApiHeaders = (headers: Headers, requestId: string | RegExp) => {
    if (typeof requestId === 'string') expect(headers.get('x-request-id')).toBe(requestId);
    else expect(headers.get('x-request-id')).toMatch(requestId);
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('cache-control')).toBe('no-store');
  };
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

  it("carries them on the edge's 404 and 405, with the caller's request id echoed in header and body", async () => {
    const missing = await call('GET', '/v1/nothing-here', { 'x-request-id': 'trace-404' });
    expect([missing.status, missing.body]).toEqual([404, { message: expect.any(String), code: 'route_not_found', request_id: 'trace-404' }]);
    expectApiHeaders(missing.headers, 'trace-404');
    const wrongMethod = await call('PATCH', '/v1/customers', { 'x-request-id': 'trace-405' });
    expect([wrongMethod.status, wrongMethod.body.code, wrongMethod.body.request_id]).toEqual([405, 'method_not_allowed', 'trace-405']);
    expectApiHeaders(wrongMethod.headers, 'trace-405');
  });

  it('echoes a request id of up to 128 safe characters and replaces any other with its own', async () => {
    const longest = `${'a1:_-.'.repeat(21)}ab`;
    expect(longest).toHaveLength(128);
    expectApiHeaders((await call('GET', '/v1/customers', { 'x-request-id': longest })).headers, longest);
    for (const unsafe of [`${longest}c`, 'two words', '<script>', 'a,b', 'ünïcode', '']) {
      const reply = await call('GET', '/v1/customers', { 'x-request-id': unsafe });
      expect([unsafe, reply.status]).toEqual([unsafe, 200]);
      expectApiHeaders(reply.headers, UUID);
    }
    const refused = await call('GET', '/v1/customers', { authorization: 'Bearer nope', 'x-request-id': 'a b' });
    expect(refused.status).toBe(401);
    expectApiHeaders(refused.headers, UUID);
    expect(refused.body.request_id).toBe(refused.headers.get('x-request-id'));
  });

  it('carries them on successes, on replayed idempotent responses and on files', async () => {
    const entity = { name: 'Acme SAS', country: 'FR', currency: 'EUR' };
    const first = await call('POST', '/v1/invoicing-entities', { 'idempotency-key': 'headers-1', 'x-request-id': 'first-try' }, entity);
    expect(first.status).toBe(201);
    expectApiHeaders(first.headers, 'first-try');
    const replay = await call('POST', '/v1/invoicing-entities', { 'idempotency-key': 'headers-1', 'x-request-id': 'second-try' }, entity);
    expect([replay.status, replay.body.id, replay.headers.get('idempotent-replayed')]).toEqual([201, first.body.id, 'true']);
    expect(replay.headers.get('original-request-id')).toBe('first-try');
    expectApiHeaders(replay.headers, 'second-try');

    const buyer = (await call('POST', '/v1/customers', {}, { name: 'Globex Corp', currency: 'EUR', billing_address: { country: 'FR' } })).body;
    const invoice = (await call('POST', '/v1/invoices', {}, { customer_id: buyer.id, status: 'to_pay', line_items: [{ name: 'Day', unit_amount: 100, quantity: 1 }] })).body;
    const pdf = await call('GET', `/v1/invoices/${invoice.id}/download`, { 'x-request-id': 'pdf-1' });
    expect([pdf.status, pdf.headers.get('content-type')]).toEqual([200, 'application/pdf']);
    expectApiHeaders(pdf.headers, 'pdf-1');
    const notFound = await call('GET', '/v1/invoices/inv_nope/download', { 'x-request-id': 'pdf-2' });
    expect([notFound.status, notFound.body.code, notFound.body.request_id]).toEqual([404, 'not_found', 'pdf-2']);
    expectApiHeaders(notFound.headers, 'pdf-2');
  });

  it('carries them on the 403 of a Lambda and on /health', async () => {
    const reader = await signToken(keys, { workspace: newWorkspace(), scope: 'read' });
    const forbidden = await call('POST', '/v1/customers', { authorization: `Bearer ${reader}`, 'x-request-id': 'no-write' }, { name: 'x' });
    expect([forbidden.status, forbidden.body.code, forbidden.body.request_id]).toEqual([403, 'insufficient_scope', 'no-write']);
    expectApiHeaders(forbidden.headers, 'no-write');
    expectApiHeaders((await call('GET', '/health', { 'x-request-id': 'up' })).headers, 'up');
  });
});
