import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface UpstreamAccount {
  email: string;
  /** What the provider puts in the `billing_workspaces` claim of the ID token. */
  workspaces: string[] | string;
}

export interface UpstreamProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The person who signs in at the next interaction (the test's choice: no login form to fill in). */
  signInAs(account: UpstreamAccount): void;
  /** The environment that points the service's sign-in at this provider (docs/oauth.md, "Configuration"). */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * A real OpenID provider (oidc-provider) on a free port: the service is its confidential client, redirecting back
 * to `<api>/oauth/callback`. Its interaction (login and consent at the provider) completes at once for the account
 * the test chose, so the flow crosses the provider's real authorization, token and ID token machinery.
 */
export async function startUpstreamProvider(apiUrl: string): Promise<UpstreamProvider> {
  let current: UpstreamAccount = { email: 'person@example.com', workspaces: [] };
  const accounts = new Map<string, UpstreamAccount>();
  const clientId = 'billing-api';
  const clientSecret = 'upstream-secret-of-the-test-provider-0123456789';
  const server: Server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [`${apiUrl}/oauth/callback`], grant_types: ['authorization_code'], response_types: ['code'] }],
    claims: { openid: ['sub', 'billing_workspaces'], email: ['email'] },
    conformIdTokenClaims: false,
    findAccount: (_ctx: unknown, id: string) => {
      const account = accounts.get(id);
      return account && { accountId: id, claims: () => ({ sub: id, email: account.email, billing_workspaces: account.workspaces }) };
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    features: { devInteractions: { enabled: false } },
    cookies: { keys: ['test-cookie-key-0123456789'] },
    ttl: { Session: 600, Interaction: 600, Grant: 600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
  });
  const callback = provider.callback();
  server.on('request', async (req, res) => {
    if (!req.url?.startsWith('/interaction/')) return callback(req, res);
    try {
      const details = await provider.interactionDetails(req, res);
      const accountId = `acct-${current.email}`;
      accounts.set(accountId, current);
      const grant = new provider.Grant({ accountId, clientId: details.params.client_id! });
      grant.addOIDCScope(details.params.scope!);
      const grantId = await grant.save();
      await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
    } catch (error) {
      res.statusCode = 500;
      res.end(String(error));
    }
  });
  return {
    issuer,
    clientId,
    clientSecret,
    signInAs: (account) => {
      current = account;
    },
    env: {
      OAUTH_UPSTREAM_ISSUER: issuer,
      OAUTH_UPSTREAM_CLIENT_ID: clientId,
      OAUTH_UPSTREAM_CLIENT_SECRET: clientSecret,
      OAUTH_UPSTREAM_SCOPE: 'openid email',
      OAUTH_WORKSPACE_CLAIM: 'billing_workspaces',
    },
    close: () => new Promise((done) => server.close(() => done())),
  };
}
