/**
 * A real MCP client library against the authorization server, unaided: the MCP TypeScript SDK's `auth()` discovers
 * (RFC 9728 → RFC 8414), identifies itself by a Client ID Metadata Document served over https, sends the person
 * through sign-in and consent (our OAuthClientProvider plays the browser), exchanges the code and later refreshes;
 * then an MCP client of the same SDK connects to /mcp through that flow and uses its tools.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { auth, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { decodeJwt } from 'jose';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';
import { browser } from '../support/oauth-browser';
import { withEnv } from '../support/oauth';
import { startUpstreamProvider, type UpstreamProvider } from '../support/upstream-provider';
import { testCertificate } from '../support/test-certificate';

const REDIRECT = 'http://127.0.0.1:9/mcp-callback';

let api: TestApi;
let upstream: UpstreamProvider;
let metadataServer: Server;
let metadataUrl: string;
let owner: Client;
let restoreEnv: () => void;

beforeAll(async () => {
  api = await startTestApi();
  upstream = await startUpstreamProvider(api.url);
  owner = await api.client();
  const certificate = testCertificate();
  metadataServer = createServer(certificate, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ client_id: metadataUrl, client_name: 'MCP SDK client', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }));
  });
  await new Promise<void>((done) => metadataServer.listen(0, '127.0.0.1', done));
  metadataUrl = `https://127.0.0.1:${(metadataServer.address() as AddressInfo).port}/oauth/client.json`;
  restoreEnv = withEnv({
    ...upstream.env, OAUTH_CLIENT_METADATA_ALLOW_LOOPBACK: 'true', OAUTH_CLIENT_METADATA_TEST_CA: certificate.cert, OAUTH_DEV_SIGN_IN: undefined,
  });
});
afterAll(async () => {
  restoreEnv();
  await new Promise<void>((done) => metadataServer.close(() => done()));
  await upstream.close();
  await api.close();
});

/** What an MCP host keeps between calls, and a browser that signs in, approves and hands back the code. */
function provider(workspaces: string[]) {
  const saved: { client?: OAuthClientInformationMixed; tokens?: OAuthTokens; verifier?: string; code?: string } = {};
  const b = browser();
  const implementation: OAuthClientProvider = {
    get redirectUrl() {
      return REDIRECT;
    },
    clientMetadataUrl: metadataUrl,
    get clientMetadata() {
      return { client_name: 'MCP SDK client', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' };
    },
    state: () => 'sdk-state',
    clientInformation: () => saved.client,
    saveClientInformation: (client) => void (saved.client = client),
    tokens: () => saved.tokens,
    saveTokens: (tokens) => void (saved.tokens = tokens),
    saveCodeVerifier: (verifier) => void (saved.verifier = verifier),
    codeVerifier: () => saved.verifier!,
    redirectToAuthorization: async (url) => {
      upstream.signInAs({ email: 'mcp-user@example.com', workspaces });
      const consent = await b.visit(url.href, REDIRECT);
      if (consent.status !== 200) throw new Error(`no consent page: ${consent.status} ${consent.body.slice(0, 300)}`);
      const back = await b.submit(consent, { decision: 'approve' }, REDIRECT);
      const location = new URL(back.headers.get('location')!);
      if (location.searchParams.get('state') !== 'sdk-state' || location.searchParams.get('iss') !== api.url) throw new Error(`bad redirect ${location}`);
      saved.code = location.searchParams.get('code')!;
    },
  };
  return { implementation, saved };
}

it('discovers, identifies itself by its metadata document, gets a token for /mcp that reads the API, and refreshes it', async () => {
  const { implementation, saved } = provider([owner.workspace]);
  const serverUrl = `${api.url}/mcp`;

  expect(await auth(implementation, { serverUrl })).toBe('REDIRECT');
  expect(saved.client?.client_id).toBe(metadataUrl);
  expect(await auth(implementation, { serverUrl, authorizationCode: saved.code! })).toBe('AUTHORIZED');
  const claims = decodeJwt(saved.tokens!.access_token);
  expect(claims).toMatchObject({ aud: serverUrl, workspace_id: owner.workspace, client_id: metadataUrl, scope: 'read write' });

  await withEntity(owner);
  const customer = await owner.post('/v1/customers', { name: 'Seen by MCP' });
  const read = await api.raw('GET', `/v1/customers/${customer.body.id}`, { headers: { authorization: `Bearer ${saved.tokens!.access_token}` } });
  expect(read.status).toBe(200);

  // With a refresh token stored, auth() refreshes (rotation: a new refresh token) instead of redirecting.
  const firstRefresh = saved.tokens!.refresh_token;
  expect(await auth(implementation, { serverUrl })).toBe('AUTHORIZED');
  expect(saved.tokens!.refresh_token).not.toBe(firstRefresh);
});

it('an MCP client of the SDK connects to /mcp through the whole OAuth flow, then lists and calls tools as the person\'s workspace', async () => {
  const { implementation, saved } = provider([owner.workspace]);
  const serverUrl = new URL(`${api.url}/mcp`);
  const connect = async () => {
    const client = new McpClient({ name: 'oauth-agent', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(serverUrl, { authProvider: implementation });
    await client.connect(transport);
    return { client, transport };
  };
  // First contact: a 401, from which the SDK discovers the server, sends the person to consent, and stops.
  const pending = new StreamableHTTPClientTransport(serverUrl, { authProvider: implementation });
  await expect(new McpClient({ name: 'oauth-agent', version: '1.0.0' }).connect(pending)).rejects.toBeInstanceOf(UnauthorizedError);
  await pending.finishAuth(saved.code!);

  const { client } = await connect();
  try {
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('create_invoice');
    await withEntity(owner);
    const made = await client.callTool({ name: 'create_customer', arguments: { name: 'Made by an agent', currency: 'EUR' } });
    expect(made.isError).toBeFalsy();
    const id = (made.structuredContent as { id: string }).id;
    expect((await owner.get(`/v1/customers/${id}`)).body).toMatchObject({ id, name: 'Made by an agent' });
  } finally {
    await client.close();
  }
});
