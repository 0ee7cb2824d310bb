import { jest } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { loadOrCreateKeys } from '../../lib/local/jwt';
import { startLocalApi, type LocalApi } from '../../lib/local/server';
import { routes } from '../../functions/routes';
import { logger } from '../../shared/observability/logger';
import { startTestApi, type TestApi } from '../support/api';

const run = promisify(execFile);
const tsx = join(process.cwd(), 'node_modules', '.bin', 'tsx');

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

describe('local server', () => {
  it('answers /health without a token', async () => {
    expect(await api.raw('GET', '/health')).toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  it('serves the OpenAPI document generated from the route table', async () => {
    const reply = await api.raw('GET', '/openapi.json');
    expect(reply.status).toBe(200);
    expect(reply.body.openapi).toBe('3.1.0');
    for (const route of routes) {
      const operation = reply.body.paths[route.path]?.[route.method.toLowerCase()];
      expect(operation?.operationId).toBe(route.id);
    }
    expect(Object.keys(reply.body.paths['/v1/invoices/{id}/download'].get.responses['200'].content)).toEqual(['application/pdf', 'application/xml']);
    expect(Object.keys(reply.body.paths['/pages/invoices/{token}/pdf'].get.responses['200'].content)).toEqual(['application/pdf']);
    expect(Object.keys(reply.body.paths['/v1/invoices/{id}'].get.responses['200'].content)).toEqual(['application/json']);
  });

  it('answers 405 with Allow for a known path and an unknown method, 404 for an unknown path', async () => {
    const client = await api.client();
    const wrongMethod = await api.raw('PATCH', '/v1/customers', { headers: { authorization: `Bearer ${client.token}` } });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST, GET');
    expect((await client.get('/v1/nothing-here')).status).toBe(404);
  });

  it('answers 413 for a body over 1 MiB', async () => {
    const client = await api.client();
    const reply = await api.raw('POST', '/v1/customers', {
      headers: { authorization: `Bearer ${client.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x'.repeat(1024 * 1024) }),
    });
    expect(reply.status).toBe(413);
    expect(reply.body.code).toBe('payload_too_large');
  });

  it('answers a 500 that names no internals when DynamoDB fails', async () => {
    const client = await api.client();
    const table = process.env.TABLE_NAME;
    process.env.TABLE_NAME = 'table-that-does-not-exist';
    // The details go to the log (an ERROR line on stderr), never to the client.
    logger.setLogLevel('ERROR');
    const errors = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const reply = await client.get('/v1/customers/cus_1');
      expect(reply.status).toBe(500);
      expect(reply.body).toEqual({ message: 'Internal server error.', code: 'internal_error', request_id: expect.any(String) });
      expect(JSON.stringify(reply.body)).not.toMatch(/table-that-does-not-exist|ResourceNotFound|stack/i);
      const logged = errors.mock.calls.map(([chunk]) => String(chunk)).filter((line) => line.includes('unhandled error'));
      expect(logged).toHaveLength(1);
      expect(logged[0]).toContain(reply.body.request_id);
    } finally {
      process.env.TABLE_NAME = table;
      errors.mockRestore();
      logger.setLogLevel('SILENT');
    }
  });
});

describe('npm run token', () => {
  it('prints only a token that a server using the same key set accepts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'billing-keys-'));
    const { stdout } = await run(tsx, ['bin/token.ts', '--workspace', 'ws_cli', '--scope', 'read', '--expires-in', '120'], {
      env: { ...process.env, LOCAL_DIR: dir },
    });
    const token = stdout.trim();
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const server: LocalApi = await startLocalApi({ keys: await loadOrCreateKeys(dir), port: 0 });
    try {
      const read = await fetch(`${server.url}/v1/customers`, { headers: { authorization: `Bearer ${token}` } });
      expect(read.status).toBe(200);
      const write = await fetch(`${server.url}/v1/customers`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{"name":"x"}',
      });
      expect(write.status).toBe(403);
    } finally {
      await server.close();
    }
  });

  it('refuses a bad workspace', async () => {
    await expect(run(tsx, ['bin/token.ts', '--workspace', 'bad workspace!'])).rejects.toMatchObject({ code: 2 });
  });
});

describe('npm start without Java', () => {
  it('stops with a message that says what to install or how to use DYNAMODB_ENDPOINT', async () => {
    const env = { ...process.env, PATH: '/nonexistent', DYNAMODB_ENDPOINT: '' };
    const failure = await run(process.execPath, ['--import', 'tsx', 'bin/local.ts', '--in-memory', '--port', '0'], { env }).catch((e) => e);
    expect(failure.code).toBe(1);
    expect(failure.stderr).toContain('Java 17');
    expect(failure.stderr).toContain('DYNAMODB_ENDPOINT');
  });
});
