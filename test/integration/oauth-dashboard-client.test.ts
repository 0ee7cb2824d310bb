/**
 * The first-party dashboard client (docs/dashboard.md, shared/domain/oauth/first-party.ts): known by configuration,
 * the only client that may be granted `admin`, and only when the person ticks it at consent. Third-party clients
 * (registered, or a Client ID Metadata Document) asking for admin never get it, whatever the form says.
 */
import type { TestApi } from '../support/api';
import { browser, pkce, type Page } from '../support/oauth-browser';
import { postForm, startOAuthServers, withEnv, type startMetadataHost } from '../support/oauth';
import type { UpstreamProvider } from '../support/upstream-provider';

const DASHBOARD_REDIRECT = 'http://127.0.0.1:9/dashboard/callback';
const THIRD_PARTY_REDIRECT = 'http://127.0.0.1:9/callback';

let api: TestApi;
let upstream: UpstreamProvider;
let metadataHost: Awaited<ReturnType<typeof startMetadataHost>>;
let close: () => Promise<void>;
let workspace: string;
let registeredId: string;

beforeAll(async () => {
  ({ api, upstream, metadataHost, close } = await startOAuthServers({ OAUTH_DASHBOARD_REDIRECT_URIS: DASHBOARD_REDIRECT }));
  const owner = await api.client();
  workspace = owner.workspace;
  const registration = await owner.post('/oauth/register', { redirect_uris: [THIRD_PARTY_REDIRECT], client_name: 'Ledger sync' });
  registeredId = registration.body.client_id;
});
afterAll(() => close());

const locationOf = (page: Page) => new URL(page.headers.get('location')!);

/** Signs in, answers the consent page (ticking admin when `tickAdmin`, or forcing the field when `forgeAdmin`), redeems the code. */
async function grant(clientId: string, redirectUri: string, options: { tickAdmin?: boolean; forgeAdmin?: boolean } = {}) {
  const { verifier, challenge } = pkce();
  const params = {
    response_type: 'code', client_id: clientId, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: 'S256',
    state: 'dashboard-state', resource: api.url, scope: 'read write admin',
  };
  const b = browser();
  upstream.signInAs({ email: `operator-${Math.random()}@example.com`, workspaces: [workspace] });
  const consent = await b.visit(`${api.url}/oauth/authorize?${new URLSearchParams(params)}`, redirectUri);
  expect(consent.status).toBe(200);
  const adminBox = /name="grant_admin"/.test(consent.body);
  const ticked: Record<string, string> = options.tickAdmin || options.forgeAdmin ? { grant_admin: 'yes' } : {};
  const back = await b.submit(consent, { decision: 'approve', ...ticked }, redirectUri);
  const code = locationOf(back).searchParams.get('code')!;
  const token = await postForm(api, '/oauth/token', { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier, redirect_uri: redirectUri });
  expect(token.status).toBe(200);
  return { adminBox, token: token.body as { access_token: string; refresh_token: string; scope: string } };
}

const apiKeys = (accessToken: string) => api.raw('GET', '/v1/api-keys', { headers: { authorization: `Bearer ${accessToken}` } });

describe('the first-party dashboard client', () => {
  it('is granted admin when the person ticks it: the token manages API keys, and keeps admin across a rotation', async () => {
    const { adminBox, token } = await grant('billing-dashboard', DASHBOARD_REDIRECT, { tickAdmin: true });
    expect(adminBox).toBe(true);
    expect(token.scope).toBe('read write admin');
    expect((await apiKeys(token.access_token)).status).toBe(200);
    const rotated = await postForm(api, '/oauth/token', { grant_type: 'refresh_token', client_id: 'billing-dashboard', refresh_token: token.refresh_token });
    expect(rotated.status).toBe(200);
    expect(rotated.body.scope).toBe('read write admin');
    expect(rotated.body.refresh_token).not.toBe(token.refresh_token);
  });

  it('gets read and write only when the box is left unticked', async () => {
    const { token } = await grant('billing-dashboard', DASHBOARD_REDIRECT);
    expect(token.scope).toBe('read write');
    expect((await apiKeys(token.access_token)).status).toBe(403);
  });

  it('accepts only its configured redirect URI, and does not exist where none is configured', async () => {
    const { challenge } = pkce();
    const query = (redirect: string) =>
      new URLSearchParams({ response_type: 'code', client_id: 'billing-dashboard', redirect_uri: redirect, code_challenge: challenge, code_challenge_method: 'S256', state: 's', resource: api.url });
    const elsewhere = await browser().visit(`${api.url}/oauth/authorize?${query('https://evil.example/dashboard/callback')}`);
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body).toContain('not one of the client');
    const restore = withEnv({ OAUTH_DASHBOARD_REDIRECT_URIS: undefined });
    try {
      const unknown = await browser().visit(`${api.url}/oauth/authorize?${query(DASHBOARD_REDIRECT)}`);
      expect(unknown.status).toBe(400);
      expect(unknown.body).toContain('No client with client_id');
    } finally {
      restore();
    }
  });
});

describe('third-party clients asking for admin', () => {
  it('a registered client is offered no admin box and never gets admin, even with the field forged', async () => {
    const { adminBox, token } = await grant(registeredId, THIRD_PARTY_REDIRECT, { forgeAdmin: true });
    expect(adminBox).toBe(false);
    expect(token.scope).toBe('read write');
    expect((await apiKeys(token.access_token)).status).toBe(403);
  });

  it('a Client ID Metadata Document client never gets admin either', async () => {
    const clientId = metadataHost.serve('/client.json', { client_name: 'Notebook', redirect_uris: [THIRD_PARTY_REDIRECT] });
    const { adminBox, token } = await grant(clientId, THIRD_PARTY_REDIRECT, { forgeAdmin: true });
    expect(adminBox).toBe(false);
    expect(token.scope).toBe('read write');
  });
});
