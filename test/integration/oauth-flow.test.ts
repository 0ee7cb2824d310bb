/**
 * The OAuth 2.1 authorization server end to end (docs/oauth.md): discovery, both kinds of client, sign-in at a real
 * OpenID provider (oidc-provider), consent, tokens, refresh with rotation and reuse detection, revocation, a call
 * to the API with the token, and every way a request must fail.
 */
import { decodeJwt } from 'jose';
import { newWorkspace, withEntity, type Client, type TestApi } from '../support/api';
import { browser, formOf, pkce, type Browser, type Page } from '../support/oauth-browser';
import { movableClock } from '../support/clock';
import { postForm, startOAuthServers, withEnv, type startMetadataHost } from '../support/oauth';
import type { UpstreamProvider } from '../support/upstream-provider';

const REDIRECT = 'http://127.0.0.1:9/callback';

let api: TestApi;
let upstream: UpstreamProvider;
let metadataHost: Awaited<ReturnType<typeof startMetadataHost>>;
let close: () => Promise<void>;
let owner: Client;
let registeredId: string;

beforeAll(async () => {
  ({ api, upstream, metadataHost, close } = await startOAuthServers());
  owner = await api.client();
  const registration = await owner.post('/oauth/register', { redirect_uris: [REDIRECT], client_name: 'Ledger sync' });
  expect(registration.status).toBe(201);
  registeredId = registration.body.client_id;
});
afterAll(() => close());

const authorizeUrl = (params: Record<string, string | undefined>) =>
  `${api.url}/oauth/authorize?${new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined))}`;

/** A complete, valid authorization request of `clientId`, with `changes` (undefined removes a parameter). */
function requestOf(clientId: string, changes: Record<string, string | undefined> = {}) {
  const { verifier, challenge } = pkce();
  const params = {
    response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256',
    state: `state-${Math.random()}`, resource: api.url, scope: 'read write', ...changes,
  };
  return { params, verifier };
}

/** Where a redirect sends the browser, as URL (or undefined when the page is not a redirect). */
const locationOf = (page: Page) => (page.headers.get('location') ? new URL(page.headers.get('location')!) : undefined);

/** Signs in at the upstream provider as `person` and lands on the consent page. */
async function toConsent(b: Browser, params: Record<string, string | undefined>, workspaces: string[] | string) {
  upstream.signInAs({ email: `person-${Math.random()}@example.com`, workspaces });
  return b.visit(authorizeUrl(params), REDIRECT);
}

/** The whole browser part: sign-in, consent (Allow, in `workspace` when given), back at the client with a code. */
async function authorize(clientId: string, workspaces: string[] | string, options: { workspace?: string; changes?: Record<string, string | undefined> } = {}) {
  const { params, verifier } = requestOf(clientId, options.changes);
  const b = browser();
  const consent = await toConsent(b, params, workspaces);
  expect(consent.status).toBe(200);
  const back = await b.submit(consent, { decision: 'approve', ...(options.workspace && { workspace: options.workspace }) }, REDIRECT);
  expect(back.status).toBe(303);
  const location = locationOf(back)!;
  expect(location.href.startsWith(REDIRECT)).toBe(true);
  return { code: location.searchParams.get('code')!, location, params, verifier };
}

const redeem = (clientId: string, code: string, verifier: string, extra: Record<string, string> = {}) =>
  postForm(api, '/oauth/token', { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier, redirect_uri: REDIRECT, ...extra });
const refresh = (clientId: string, refreshToken: string) => postForm(api, '/oauth/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: refreshToken });
const withBearer = (token: string, path: string) => api.raw('GET', path, { headers: { authorization: `Bearer ${token}` } });

describe('discovery', () => {
  it('publishes RFC 8414 authorization server metadata whose issuer is the base URL', async () => {
    const reply = await api.raw('GET', '/.well-known/oauth-authorization-server');
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      issuer: api.url,
      authorization_endpoint: `${api.url}/oauth/authorize`,
      token_endpoint: `${api.url}/oauth/token`,
      registration_endpoint: `${api.url}/oauth/register`,
      revocation_endpoint: `${api.url}/oauth/revoke`,
      jwks_uri: `${api.url}/.well-known/jwks.json`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
    });
  });

  it('publishes RFC 9728 protected resource metadata for the API and for /mcp, and nothing for other paths', async () => {
    const root = await api.raw('GET', '/.well-known/oauth-protected-resource');
    expect(root.body).toEqual(expect.objectContaining({ resource: api.url, authorization_servers: [api.url], scopes_supported: ['read', 'write'] }));
    const mcp = await api.raw('GET', '/.well-known/oauth-protected-resource/mcp');
    expect(mcp.body.resource).toBe(`${api.url}/mcp`);
    expect((await api.raw('GET', '/.well-known/oauth-protected-resource/elsewhere')).status).toBe(404);
  });

  it('starts from the API’s 401: its resource_metadata names the document that names this server', async () => {
    const refused = await api.raw('GET', '/v1/customers');
    expect(refused.status).toBe(401);
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(refused.headers.get('www-authenticate') ?? '')?.[1];
    expect(metadataUrl).toBe(`${api.url}/.well-known/oauth-protected-resource`);
    const resource = (await (await fetch(metadataUrl!)).json()) as { authorization_servers: string[] };
    const server = (await (await fetch(`${resource.authorization_servers[0]}/.well-known/oauth-authorization-server`)).json()) as { issuer: string };
    expect(server.issuer).toBe(api.url);
  });

  it('does not pretend to be an OpenID provider: /.well-known/openid-configuration is 404', async () => {
    expect((await api.raw('GET', '/.well-known/openid-configuration')).status).toBe(404);
  });
});

describe('a registered client', () => {
  it('signs in upstream, shows the consent page, and redirects with code, state and iss', async () => {
    const { params } = requestOf(registeredId);
    const b = browser();
    const consent = await toConsent(b, params, [owner.workspace]);
    expect(consent.status).toBe(200);
    expect(consent.body).toContain('Ledger sync');
    expect(consent.body).toContain(owner.workspace);
    expect(consent.body).toMatch(/<strong>read<\/strong>.*<strong>write<\/strong>/s);
    expect(consent.body).not.toMatch(/<script/i);
    expect(consent.headers.get('content-security-policy')).toMatch(/default-src 'none'.*form-action 'self' http:\/\/127\.0\.0\.1:9/);
    expect(consent.headers.get('x-frame-options')).toBe('DENY');

    const back = await b.submit(consent, { decision: 'approve' }, REDIRECT);
    const location = locationOf(back)!;
    expect(location.origin + location.pathname).toBe(REDIRECT);
    expect(location.searchParams.get('state')).toBe(params.state);
    expect(location.searchParams.get('iss')).toBe(api.url);
    expect(location.searchParams.get('code')).toMatch(new RegExp(`^${owner.workspace}\\.`));
  });

  it('exchanges the code for a 15-minute access token bound to the resource, which reads the workspace', async () => {
    const customer = await (await withEntity(owner), owner.post('/v1/customers', { name: 'Reachable by OAuth' }));
    const { code, verifier } = await authorize(registeredId, [owner.workspace]);
    const reply = await redeem(registeredId, code, verifier);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('cache-control')).toBe('no-store');
    expect(reply.body).toMatchObject({ token_type: 'Bearer', expires_in: 900, scope: 'read write' });
    const claims = decodeJwt(reply.body.access_token);
    expect(claims).toMatchObject({ iss: api.url, aud: api.url, workspace_id: owner.workspace, scope: 'read write', client_id: registeredId });
    expect(claims.exp! - claims.iat!).toBe(900);
    expect(typeof claims.sub).toBe('string');

    const read = await withBearer(reply.body.access_token, `/v1/customers/${customer.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body.name).toBe('Reachable by OAuth');
  });

  it('rotates refresh tokens, and a reused one revokes the whole grant', async () => {
    const { code, verifier } = await authorize(registeredId, [owner.workspace]);
    const first = (await redeem(registeredId, code, verifier)).body;
    const second = await refresh(registeredId, first.refresh_token);
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    expect(decodeJwt(second.body.access_token).workspace_id).toBe(owner.workspace);

    const reused = await refresh(registeredId, first.refresh_token);
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe('invalid_grant');
    // The family is revoked: the latest token, never used, is refused too.
    expect((await refresh(registeredId, second.body.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('refuses a refresh token presented by another client', async () => {
    const { code, verifier } = await authorize(registeredId, [owner.workspace]);
    const tokens = (await redeem(registeredId, code, verifier)).body;
    expect((await refresh('cli_01JZZZZZZZZZZZZZZZZZZZZZZZ', tokens.refresh_token)).body.error).toBe('invalid_grant');
    expect((await refresh(registeredId, tokens.refresh_token)).status).toBe(200);
  });

  it('revokes a grant through RFC 7009 (200 also for tokens it does not know)', async () => {
    const { code, verifier } = await authorize(registeredId, [owner.workspace]);
    const tokens = (await redeem(registeredId, code, verifier)).body;
    const revoked = await postForm(api, '/oauth/revoke', { token: tokens.refresh_token, client_id: registeredId });
    expect(revoked.status).toBe(200);
    expect((await refresh(registeredId, tokens.refresh_token)).body.error).toBe('invalid_grant');
    expect((await postForm(api, '/oauth/revoke', { token: 'not-a-token', client_id: registeredId })).status).toBe(200);
  });

  it('denies: back to the client with error=access_denied', async () => {
    const { params } = requestOf(registeredId);
    const b = browser();
    const back = await b.submit(await toConsent(b, params, [owner.workspace]), { decision: 'deny' }, REDIRECT);
    expect(Object.fromEntries(locationOf(back)!.searchParams)).toMatchObject({ error: 'access_denied', state: params.state, iss: api.url });
  });

  it('a sign-in cancelled at the identity provider goes back to the client as access_denied', async () => {
    const { params } = requestOf(registeredId);
    const b = browser();
    const toProvider = await b.request(authorizeUrl(params));
    const requestId = new URL(toProvider.headers.get('location')!).searchParams.get('state')!;
    const back = await b.request(`${api.url}/oauth/callback?error=access_denied&state=${requestId}&iss=${encodeURIComponent(upstream.issuer)}`);
    expect(Object.fromEntries(locationOf(back)!.searchParams)).toMatchObject({ error: 'access_denied', state: params.state, iss: api.url });
  });

  it('is refused to a person who is not a member of its workspace', async () => {
    const { params } = requestOf(registeredId);
    const page = await toConsent(browser(), params, [newWorkspace()]);
    expect(page.status).toBe(403);
    expect(page.body).toContain('not a member of the workspace this client was registered in');
    expect(page.headers.get('location')).toBeNull();
  });
});

describe('a client identified by its metadata document', () => {
  it('is fetched, shown by name, and gets tokens for the workspace the person chooses', async () => {
    const other = await api.client();
    const clientId = metadataHost.serve('/apps/chooser.json', { client_name: 'Workspace chooser', redirect_uris: [REDIRECT] });
    const { params, verifier } = requestOf(clientId);
    const b = browser();
    const consent = await toConsent(b, params, `${owner.workspace} ${other.workspace}`);
    expect(consent.body).toContain('Workspace chooser');
    expect(consent.body).toContain(`Described by ${clientId}`);
    const back = await b.submit(consent, { decision: 'approve', workspace: other.workspace }, REDIRECT);
    const tokens = await redeem(clientId, locationOf(back)!.searchParams.get('code')!, verifier);
    expect(decodeJwt(tokens.body.access_token)).toMatchObject({ workspace_id: other.workspace, client_id: clientId });

    // Another workspace's customer is as unknown as a missing one.
    const customer = await (await withEntity(owner), owner.post('/v1/customers', { name: 'Not for the other workspace' }));
    expect((await withBearer(tokens.body.access_token, `/v1/customers/${customer.body.id}`)).status).toBe(404);
  });

  it('cannot be granted a workspace the person does not belong to', async () => {
    const clientId = metadataHost.serve('/apps/forged.json', { client_name: 'Forger', redirect_uris: [REDIRECT] });
    const { params } = requestOf(clientId);
    const b = browser();
    const consent = await toConsent(b, params, [owner.workspace]);
    const refused = await b.submit(consent, { decision: 'approve', workspace: newWorkspace() }, REDIRECT);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('location')).toBeNull();
  });

  it('is refused, as a page, when the document names another client_id or lacks the redirect URI', async () => {
    const wrongId = metadataHost.serve('/apps/wrong-id.json', { client_id: 'https://elsewhere.example/app.json', redirect_uris: [REDIRECT] });
    const page = await browser().visit(authorizeUrl(requestOf(wrongId).params));
    expect(page.status).toBe(400);
    expect(page.body).toContain('names another client_id');

    const otherRedirect = metadataHost.serve('/apps/other-redirect.json', { redirect_uris: ['http://127.0.0.1:9/elsewhere'] });
    const mismatch = await browser().visit(authorizeUrl(requestOf(otherRedirect).params));
    expect(mismatch.status).toBe(400);
    expect(mismatch.headers.get('location')).toBeNull();
    expect(mismatch.body).toContain('must match exactly');
  });

  it('is fetched once while its Cache-Control allows', async () => {
    const clientId = metadataHost.serve('/apps/cached.json', { redirect_uris: [REDIRECT] });
    const before = metadataHost.fetches();
    await browser().visit(authorizeUrl(requestOf(clientId).params), REDIRECT);
    await browser().visit(authorizeUrl(requestOf(clientId).params), REDIRECT);
    expect(metadataHost.fetches() - before).toBe(1);
  });
});

describe('refused authorization requests', () => {
  const errorOf = async (changes: Record<string, string | undefined>) => {
    const page = await browser().request(authorizeUrl(requestOf(registeredId, changes).params));
    expect(page.status).toBe(302);
    return Object.fromEntries(locationOf(page)!.searchParams);
  };

  it('without PKCE, with plain PKCE, without state, or for another resource: back to the client with error=…', async () => {
    expect(await errorOf({ code_challenge: undefined, state: 's1' })).toMatchObject({ error: 'invalid_request', state: 's1', iss: api.url });
    expect(await errorOf({ code_challenge_method: 'plain' })).toMatchObject({ error: 'invalid_request' });
    expect(await errorOf({ code_challenge_method: undefined })).toMatchObject({ error: 'invalid_request' });
    const stateless = await errorOf({ state: undefined });
    expect(stateless.error).toBe('invalid_request');
    expect(stateless.state).toBeUndefined();
    expect(await errorOf({ resource: 'https://api.example.com' })).toMatchObject({ error: 'invalid_target' });
    expect(await errorOf({ resource: undefined })).toMatchObject({ error: 'invalid_target' });
    expect(await errorOf({ response_type: 'token' })).toMatchObject({ error: 'unsupported_response_type' });
    expect(await errorOf({ scope: 'admin' })).toMatchObject({ error: 'invalid_scope' });
  });

  it('with a redirect URI that is not the client’s, or an unknown client: a page, never a redirect', async () => {
    for (const changes of [{ redirect_uri: 'http://127.0.0.1:9/callback/other' }, { redirect_uri: 'https://attacker.example/cb' }, { client_id: 'cli_01JZZZZZZZZZZZZZZZZZZZZZZZ' }]) {
      const page = await browser().request(authorizeUrl(requestOf(registeredId, changes).params));
      expect([page.status, page.headers.get('location'), page.headers.get('content-type')]).toEqual([400, null, 'text/html; charset=utf-8']);
    }
  });

  it('answered from another browser, or with a forged CSRF token: refused', async () => {
    const { params } = requestOf(registeredId);
    const b = browser();
    const consent = await toConsent(b, params, [owner.workspace]);
    const form = formOf(consent);
    const elsewhere = await browser().request(form.action, { form: { ...form.fields, decision: 'approve' } });
    expect(elsewhere.status).toBe(403);
    const forged = await b.request(form.action, { form: { ...form.fields, csrf: 'forged', decision: 'approve' } });
    expect(forged.status).toBe(403);
    // The real form still works afterwards, once.
    expect((await b.submit(consent, { decision: 'approve' }, REDIRECT)).status).toBe(303);
    expect((await b.submit(consent, { decision: 'approve' }, REDIRECT)).status).toBe(400);
  });
});

describe('refused token requests', () => {
  it('with a wrong verifier, another redirect URI or another resource: invalid_grant / invalid_target', async () => {
    const { code, verifier } = await authorize(registeredId, [owner.workspace]);
    expect((await redeem(registeredId, code, pkce().verifier)).body.error).toBe('invalid_grant');
    expect((await redeem(registeredId, code, verifier, { redirect_uri: 'http://127.0.0.1:9/other' })).body.error).toBe('invalid_grant');
    expect((await redeem(registeredId, code, verifier, { resource: `${api.url}/mcp` })).body.error).toBe('invalid_target');
    expect((await postForm(api, '/oauth/token', { grant_type: 'authorization_code', client_id: registeredId, code, redirect_uri: REDIRECT })).body.error).toBe('invalid_grant');
    expect((await postForm(api, '/oauth/token', { grant_type: 'password', client_id: registeredId })).body.error).toBe('unsupported_grant_type');
  });

  it('a code used twice: refused, and the tokens of its first use are revoked', async () => {
    const { code, verifier } = await authorize(registeredId, [owner.workspace]);
    const first = await redeem(registeredId, code, verifier);
    expect(first.status).toBe(200);
    const again = await redeem(registeredId, code, verifier);
    expect(again.body).toEqual({ error: 'invalid_grant', error_description: expect.stringContaining('already used') });
    expect((await refresh(registeredId, first.body.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('a code redeemed concurrently: exactly one exchange succeeds', async () => {
    const { code, verifier } = await authorize(registeredId, [owner.workspace]);
    const answers = await Promise.all(Array.from({ length: 5 }, () => redeem(registeredId, code, verifier)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
  });

  it('a code older than 60 seconds: expired', async () => {
    const { code, verifier } = await authorize(registeredId, [owner.workspace]);
    const clock = movableClock();
    try {
      clock.advance(61_000);
      expect((await redeem(registeredId, code, verifier)).body).toEqual({ error: 'invalid_grant', error_description: 'The authorization code has expired.' });
    } finally {
      clock.restore();
    }
  });

  it('a code presented by another client: invalid_grant', async () => {
    const { code, verifier } = await authorize(registeredId, [owner.workspace]);
    const impostor = metadataHost.serve('/apps/impostor.json', { redirect_uris: [REDIRECT] });
    expect((await redeem(impostor, code, verifier)).body.error).toBe('invalid_grant');
  });
});

describe('the local development sign-in', () => {
  it('is offered (clearly marked) when no identity provider is configured and npm start enables it', async () => {
    const restore = withEnv({ OAUTH_UPSTREAM_ISSUER: undefined, OAUTH_DEV_SIGN_IN: 'true' });
    try {
      const { params, verifier } = requestOf(registeredId);
      const b = browser();
      const signIn = await b.visit(authorizeUrl(params));
      expect(signIn.status).toBe(200);
      expect(signIn.body).toContain('Local development sign-in. No password is checked');
      const consent = await b.submit(signIn, { subject: 'dev@example.com', workspaces: owner.workspace });
      expect(consent.body).toContain('Signed in as <strong>dev@example.com</strong>');
      const back = await b.submit(consent, { decision: 'approve' }, REDIRECT);
      const tokens = await redeem(registeredId, locationOf(back)!.searchParams.get('code')!, verifier);
      expect(decodeJwt(tokens.body.access_token)).toMatchObject({ sub: 'dev:dev@example.com', workspace_id: owner.workspace });
    } finally {
      restore();
    }
  });

  it('is not there otherwise', async () => {
    const restore = withEnv({ OAUTH_UPSTREAM_ISSUER: undefined, OAUTH_DEV_SIGN_IN: undefined });
    try {
      const page = await browser().visit(authorizeUrl(requestOf(registeredId).params));
      expect(page.status).toBe(503);
    } finally {
      restore();
    }
  });
});
