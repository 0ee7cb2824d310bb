import { startTestApi, type Client, type TestApi } from '../support/api';

let api: TestApi;
let client: Client;
beforeAll(async () => {
  api = await startTestApi();
  client = await api.client({ scope: '' });
});
afterAll(() => api.close());

describe('POST /oauth/register (RFC 7591)', () => {
  it('registers a public client with the defaults of decisions.md, with a token of any scope', async () => {
    const before = Math.floor(Date.now() / 1000);
    const reply = await client.post('/oauth/register', { redirect_uris: ['https://app.example.com/cb'], client_name: 'My app' });
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual({
      client_id: expect.stringMatching(/^cli_[0-9A-Z]{26}$/),
      client_id_issued_at: expect.any(Number),
      redirect_uris: ['https://app.example.com/cb'],
      client_name: 'My app',
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });
    expect(reply.body.client_id_issued_at).toBeGreaterThanOrEqual(before);
    expect(reply.body).not.toHaveProperty('client_secret');
  });

  it('echoes client_secret_post but still issues no secret', async () => {
    const reply = await client.post('/oauth/register', {
      redirect_uris: ['http://127.0.0.1:8123/callback', 'http://localhost/cb', 'http://[::1]:9000/cb'],
      token_endpoint_auth_method: 'client_secret_post',
      grant_types: ['authorization_code', 'refresh_token'],
      scope: 'read write',
      contacts: ['dev@example.com'],
    });
    expect(reply.status).toBe(201);
    expect(reply.body.token_endpoint_auth_method).toBe('client_secret_post');
    expect(reply.body.scope).toBe('read write');
    expect(reply.body).not.toHaveProperty('client_secret');
  });

  it.each([
    [['http://app.example.com/cb'], 'http on a public host'],
    [['https://app.example.com/cb#frag'], 'a fragment'],
    [['/relative/cb'], 'a relative URI'],
    [[], 'no redirect URI at all'],
    [['https:///cb'], 'an empty host'],
    [['http:///cb'], 'an empty host over http'],
  ])('answers invalid_redirect_uri for %j (%s)', async (redirect_uris) => {
    const reply = await client.post('/oauth/register', { redirect_uris });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ error: 'invalid_redirect_uri', error_description: expect.any(String) });
  });

  it.each([
    [{ grant_types: ['client_credentials'] }],
    [{ response_types: ['token'] }],
    [{ token_endpoint_auth_method: 'private_key_jwt' }],
    [{ contacts: ['not-an-email'] }],
    [{ client_uri: 'not a uri' }],
  ])('answers invalid_client_metadata for %j', async (extra) => {
    const reply = await client.post('/oauth/register', { redirect_uris: ['https://app.example.com/cb'], ...extra });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toBe('invalid_client_metadata');
    expect(reply.body.error_description).toEqual(expect.any(String));
  });

  it('ignores client metadata it does not understand (RFC 7591 §2): neither refused, stored nor echoed', async () => {
    const reply = await client.post('/oauth/register', {
      redirect_uris: ['https://app.example.com/cb'], application_type: 'web', jwks_uri: 'https://app.example.com/jwks', software_statement: 'eyJ...',
    });
    expect(reply.status).toBe(201);
    expect(reply.body).not.toHaveProperty('application_type');
    expect(reply.body).not.toHaveProperty('jwks_uri');
    expect(reply.body).not.toHaveProperty('software_statement');
  });

  it('grants only the scopes that exist, and echoes the grant', async () => {
    const reply = await client.post('/oauth/register', { redirect_uris: ['https://app.example.com/cb'], scope: 'openid read admin read write' });
    expect(reply.status).toBe(201);
    expect(reply.body.scope).toBe('read write');
    const none = await client.post('/oauth/register', { redirect_uris: ['https://app.example.com/cb'], scope: 'openid admin' });
    expect([none.status, none.body.error]).toEqual([400, 'invalid_client_metadata']);
  });
});
