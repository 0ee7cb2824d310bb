import * as oauth from 'oauth4webapi';
import { serviceIssuer } from '../../identity/issuer';
import { AuthorizationPageError } from './errors';
import { membershipsOf } from './membership';
import type { SignedInPerson } from './authorization-request';
import type { UpstreamSettings } from './settings';

/**
 * The service as a relying party of the upstream OpenID provider that signs people in (oauth4webapi): the code flow
 * with PKCE and a nonce, the service's own client id and secret (the secret from Secrets Manager on AWS).
 */
export const upstreamCallbackUrl = (): string => `${serviceIssuer()}/oauth/callback`;

/** http is accepted only for a provider on this machine (tests and local runs); a deployed one is https. */
const insecureAllowed = (issuer: URL) => issuer.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(issuer.hostname);
const requestOptions = (issuer: URL) => (insecureAllowed(issuer) ? { [oauth.allowInsecureRequests]: true } : {});

const discovered = new Map<string, Promise<oauth.AuthorizationServer>>();

function discover(settings: UpstreamSettings): Promise<oauth.AuthorizationServer> {
  let found = discovered.get(settings.issuer);
  if (!found) {
    const issuer = new URL(settings.issuer);
    found = oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...requestOptions(issuer) }).then((response) => oauth.processDiscoveryResponse(issuer, response));
    found.catch(() => discovered.delete(settings.issuer));
    discovered.set(settings.issuer, found);
  }
  return found;
}

const secrets = new Map<string, Promise<string>>();

/** Reads a secret's string; the Secrets Manager client is a lazy package (lib/bundling.ts), loaded on the first read. */
async function readSecret(arn: string): Promise<string> {
  const { SecretsManagerClient, GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
  const { SecretString } = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: arn }));
  if (!SecretString) throw new Error('the upstream client secret is empty');
  return SecretString;
}

/** The client secret: given directly (local, tests) or read once per process from Secrets Manager (AWS). */
function clientSecret(settings: UpstreamSettings): Promise<string> {
  if (settings.clientSecret) return Promise.resolve(settings.clientSecret);
  const arn = settings.clientSecretArn;
  if (!arn) return Promise.reject(new Error('OAUTH_UPSTREAM_CLIENT_SECRET_ARN is not set'));
  let secret = secrets.get(arn);
  if (!secret) {
    secret = readSecret(arn);
    secret.catch(() => secrets.delete(arn));
    secrets.set(arn, secret);
  }
  return secret;
}

/** Where the person goes to sign in; `state` is the pending authorization request's id. */
export async function upstreamSignInUrl(settings: UpstreamSettings, state: string): Promise<{ url: string; nonce: string; verifier: string }> {
  const as = await discover(settings);
  if (!as.authorization_endpoint) throw new Error('the upstream provider has no authorization_endpoint');
  const verifier = oauth.generateRandomCodeVerifier();
  const nonce = oauth.generateRandomNonce();
  const url = new URL(as.authorization_endpoint);
  url.search = new URLSearchParams({
    client_id: settings.clientId,
    redirect_uri: upstreamCallbackUrl(),
    response_type: 'code',
    scope: settings.scope,
    state,
    nonce,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  }).toString();
  return { url: url.href, nonce, verifier };
}

/** The provider's answer at /oauth/callback: the code exchanged, the ID token validated, the person and their workspaces. */
export async function signedInPerson(
  settings: UpstreamSettings,
  callback: URLSearchParams,
  expected: { state: string; nonce: string; verifier: string },
): Promise<SignedInPerson> {
  const as = await discover(settings);
  const client: oauth.Client = { client_id: settings.clientId };
  const issuer = new URL(settings.issuer);
  let claims: oauth.IDToken | undefined;
  try {
    const parameters = oauth.validateAuthResponse(as, client, callback, expected.state);
    const auth = oauth.ClientSecretBasic(await clientSecret(settings));
    const response = await oauth.authorizationCodeGrantRequest(as, client, auth, parameters, upstreamCallbackUrl(), expected.verifier, requestOptions(issuer));
    const result = await oauth.processAuthorizationCodeResponse(as, client, response, { expectedNonce: expected.nonce, requireIdToken: true });
    claims = oauth.getValidatedIdTokenClaims(result);
  } catch (error) {
    const reason = error instanceof oauth.AuthorizationResponseError ? `${error.error}: ${error.error_description ?? ''}` : (error as Error).message;
    throw new AuthorizationPageError('Sign-in failed', `The identity provider did not sign you in (${reason}).`, 401);
  }
  if (!claims) throw new AuthorizationPageError('Sign-in failed', 'The identity provider returned no ID token.', 401);
  const label = [claims.email, claims.name, claims.sub].find((v): v is string => typeof v === 'string' && v !== '')!;
  return { subject: claims.sub, label, workspaces: membershipsOf(claims[settings.workspaceClaim]) };
}
