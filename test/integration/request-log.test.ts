/**
 * The request log (docs/operations.md): one JSON line per request, whatever its outcome, through the real local server.
 */
import { jest } from '@jest/globals';
import { errorResponse } from '../../shared/http/errors';
import { logger } from '../../shared/observability/logger';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';

let api: TestApi;
let client: Client;
let lines: Record<string, any>[];

beforeAll(async () => {
  api = await startTestApi();
  client = await api.client();
  await withEntity(client);
});
afterAll(() => api.close());

beforeEach(() => {
  lines = [];
  logger.setLogLevel('INFO');
  // Info lines go to stdout, errors to stderr.
  const capture = (chunk: unknown) => {
    for (const text of String(chunk).split('\n').filter((t) => t.startsWith('{'))) lines.push(JSON.parse(text));
    return true;
  };
  jest.spyOn(process.stdout, 'write').mockImplementation(capture);
  jest.spyOn(process.stderr, 'write').mockImplementation(capture);
});
afterEach(() => {
  jest.restoreAllMocks();
  logger.setLogLevel('SILENT');
});

const requestLines = () => lines.filter((l) => l.message === 'request');

test('a created, a read and a missing resource: one line each, with route, status, latency and DynamoDB calls', async () => {
  const created = await client.post('/v1/customers', { name: 'Logged Ltd' });
  const read = await client.get(`/v1/customers/${created.body.id}`);
  const missing = await client.get('/v1/customers/cus_unknown');
  expect([created.status, read.status, missing.status]).toEqual([201, 200, 404]);

  const logged = requestLines();
  expect(logged.map((l) => [l.route, l.method, l.status])).toEqual([
    ['createCustomer', 'POST', 201], ['getCustomer', 'GET', 200], ['getCustomer', 'GET', 404],
  ]);
  for (const [i, reply] of [created, read, missing].entries()) {
    expect(logged[i]).toMatchObject({ level: 'INFO', service: 'billing-api', request_id: reply.headers.get('x-request-id'), workspace: client.workspace });
    expect(logged[i]!.latency_ms).toBeGreaterThanOrEqual(0);
    expect(logged[i]!.dynamodb_calls).toBeGreaterThanOrEqual(1);
  }
});

test('a request refused before the domain call (bad input) is logged with its 4xx and no DynamoDB call', async () => {
  const reply = await client.post('/v1/customers', { name: 42 });
  expect(reply.status).toBe(400);
  expect(requestLines()).toEqual([expect.objectContaining({ route: 'createCustomer', status: 400, dynamodb_calls: 0 })]);
});

test('an unexpected error is logged with its stack through the logger; the client sees only the request id', () => {
  const response = errorResponse({}, new Error('table exploded'), 'req_500');
  expect(response.statusCode).toBe(500);
  expect(String(response.body)).not.toContain('exploded');
  const [line] = lines.filter((l) => l.level === 'ERROR');
  expect(line).toMatchObject({ message: 'unhandled error', request_id: 'req_500', error: { message: 'table exploded' } });
  expect(line!.error.stack).toContain('table exploded');
});
