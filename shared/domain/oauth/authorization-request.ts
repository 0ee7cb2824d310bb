import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { db, tableName } from '../../db/client';
import { serviceIssuer, resourceIdentifiers } from '../../identity/issuer';
import { OAUTH_SCOPES } from '../../schemas/bounds';
import { resolveClient, type OAuthClient } from './clients';
import { AuthorizationPageError, OAuthError } from './errors';
import { pendingRequestKey, ttlOf } from './keys';
import { CODE_CHALLENGE, randomSecret, sameSecret, digest } from './secrets';
import { LIFETIMES } from './settings';
import { ADMIN_SCOPE, mayHoldAdmin } from './first-party';

export interface AuthorizeQuery {
  response_type?: string;
  client_id?: string;
  redirect_uri?: string;
  code_challenge?: string;
  code_challenge_method?: string;
  state?: string;
  resource?: string;
  scope?: string;
}

/** What the table keeps of an authorization request between /oauth/authorize and the consent. */
export interface PendingRequest {
  client_id: string;
  client_kind: OAuthClient['kind'];
  client_name?: string;
  client_logo_uri?: string;
  /** A registered client's own workspace: the only one it may be granted. */
  client_workspace_id?: string;
  redirect_uri: string;
  state: string;
  code_challenge: string;
  resource: string;
  scope: string;
  /** Digest of the secret held in the browser's cookie: the flow continues only in the browser that started it. */
  browser: string;
  /** The consent form's CSRF token (also checked against the browser cookie's flow). */
  csrf: string;
  expires_at: number;
  /** The upstream OpenID exchange (nonce and PKCE verifier of the service's own request to the provider). */
  upstream_nonce?: string;
  upstream_verifier?: string;
  /** Set by the sign-in. */
  subject?: string;
  subject_label?: string;
  workspaces?: string[];
}

/** The OAuth resource identifiers (RFC 8707: absolute URIs) tokens may be issued for. */
export const oauthResources = (): string[] => resourceIdentifiers().filter((r) => /^https?:\/\//.test(r));

/** The redirect URI with `params` added to its query (RFC 9207 `iss` always). */
export function redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries({ ...params, iss: serviceIssuer() })) if (value !== undefined) url.searchParams.append(name, value);
  return url.href;
}

/**
 * The scopes granted: those asked that the client may have (all of its own when it asks for none). `admin` is never
 * granted to a third-party client (ignored like any unknown scope); the first-party dashboard gets it only when it
 * asks, and the person still decides at consent (`withoutAdminUnlessTicked`).
 */
export function grantedScope(requested: string | undefined, client: { scope?: string; kind?: OAuthClient['kind'] }): string {
  const known: readonly string[] = mayHoldAdmin(client) && requested?.split(' ').includes(ADMIN_SCOPE) ? [...OAUTH_SCOPES, ADMIN_SCOPE] : OAUTH_SCOPES;
  const allowed = client.scope ? client.scope.split(' ').filter((s) => known.includes(s)) : [...known];
  const wanted = requested?.trim() ? requested.split(' ').filter(Boolean) : allowed;
  const granted = [...new Set(wanted.filter((s) => allowed.includes(s)))];
  if (granted.length === 0) throw new OAuthError('invalid_scope', `The scopes this client may ask for are: ${allowed.join(' ')}.`);
  return granted.join(' ');
}

export type AuthorizeOutcome =
  | { kind: 'refused'; location: string }
  | { kind: 'pending'; requestId: string; browserSecret: string; request: PendingRequest };

/**
 * Checks an authorization request in the order RFC 6749 §4.1.2.1 requires: first the client and its redirect URI
 * (a problem there is a page, never a redirect), then everything else (a problem there goes back to the client as
 * `error=…`). A valid request is stored, keyed by a random id, for the sign-in and the consent.
 */
export async function startAuthorization(query: AuthorizeQuery, now: number): Promise<AuthorizeOutcome> {
  if (!query.client_id) throw new AuthorizationPageError('Invalid request', 'The request names no client_id.');
  const client = await resolveClient(query.client_id, now);
  const redirectUri = query.redirect_uri ?? (client.redirectUris.length === 1 ? client.redirectUris[0] : undefined);
  if (!redirectUri) throw new AuthorizationPageError('Invalid request', 'The request names no redirect_uri, and the client has several.');
  if (!client.redirectUris.includes(redirectUri)) {
    throw new AuthorizationPageError('Invalid redirect URI', `The redirect_uri '${redirectUri}' is not one of the client's redirect URIs (they must match exactly).`);
  }
  const refuse = (error: string, description: string): AuthorizeOutcome => ({
    kind: 'refused',
    location: redirectWith(redirectUri, { error, error_description: description, state: query.state }),
  });
  if (query.response_type !== 'code') return refuse('unsupported_response_type', 'Only response_type=code is supported.');
  if (!query.state) return refuse('invalid_request', 'state is required.');
  if (!query.code_challenge) return refuse('invalid_request', 'PKCE is required: send code_challenge and code_challenge_method=S256.');
  if (query.code_challenge_method !== 'S256') return refuse('invalid_request', 'code_challenge_method must be S256 (plain is not accepted).');
  if (!CODE_CHALLENGE.test(query.code_challenge)) return refuse('invalid_request', 'code_challenge must be 43 base64url characters (S256).');
  if (!query.resource) return refuse('invalid_target', `resource is required (RFC 8707): one of ${oauthResources().join(', ')}.`);
  if (!oauthResources().includes(query.resource)) return refuse('invalid_target', `resource must be one of ${oauthResources().join(', ')}.`);
  let scope: string;
  try {
    scope = grantedScope(query.scope, client);
  } catch (error) {
    if (error instanceof OAuthError) return refuse(error.error, error.description);
    throw error;
  }

  const requestId = randomSecret();
  const browserSecret = randomSecret();
  const expiresAt = now + LIFETIMES.authorizationRequestSeconds * 1000;
  const request: PendingRequest = {
    client_id: client.clientId,
    client_kind: client.kind,
    ...(client.name && { client_name: client.name }),
    ...(client.logoUri && { client_logo_uri: client.logoUri }),
    ...(client.workspaceId && { client_workspace_id: client.workspaceId }),
    redirect_uri: redirectUri,
    state: query.state,
    code_challenge: query.code_challenge,
    resource: query.resource,
    scope,
    browser: digest(browserSecret),
    csrf: randomSecret(),
    expires_at: expiresAt,
  };
  await db.send(new PutCommand({ TableName: tableName(), Item: { ...pendingRequestKey(requestId), _type: 'oauth_pending_request', ...request, ttl: ttlOf(expiresAt) } }));
  return { kind: 'pending', requestId, browserSecret, request };
}

const expired = () => new AuthorizationPageError('Sign-in expired', 'This authorization request is unknown or has expired. Start again from the application.');

/** The pending request, if it exists, has not expired and belongs to this browser. */
export async function pendingRequest(requestId: string | undefined, browserSecret: string | undefined, now: number): Promise<PendingRequest> {
  if (!requestId) throw expired();
  const found = await db.send(new GetCommand({ TableName: tableName(), Key: pendingRequestKey(requestId), ConsistentRead: true }));
  const item = found.Item as PendingRequest | undefined;
  if (!item || item.expires_at <= now) throw expired();
  if (!browserSecret || !sameSecret(digest(browserSecret), item.browser)) {
    throw new AuthorizationPageError('Wrong browser', 'This sign-in was started in another browser (or its cookie is gone). Start again from the application.', 403);
  }
  return item;
}

/** Remembers the upstream exchange's nonce and PKCE verifier, before sending the person to the provider. */
export async function rememberUpstream(requestId: string, nonce: string, verifier: string): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: pendingRequestKey(requestId),
      UpdateExpression: 'SET upstream_nonce = :nonce, upstream_verifier = :verifier',
      ExpressionAttributeValues: { ':nonce': nonce, ':verifier': verifier },
    }),
  );
}

export interface SignedInPerson {
  subject: string;
  label: string;
  workspaces: string[];
}

/**
 * Records who signed in, once (a replayed sign-in callback finds it done). The workspaces offered are those the
 * person belongs to, narrowed to the client's own for a registered client; none → a page saying so.
 */
export async function recordSignIn(requestId: string, request: PendingRequest, person: SignedInPerson, now: number): Promise<PendingRequest> {
  const workspaces = person.workspaces.filter((ws) => !request.client_workspace_id || ws === request.client_workspace_id);
  if (workspaces.length === 0) {
    throw new AuthorizationPageError(
      'No workspace',
      request.client_workspace_id
        ? `${person.label} is not a member of the workspace this client was registered in.`
        : `${person.label} is not a member of any workspace.`,
      403,
    );
  }
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: pendingRequestKey(requestId),
        UpdateExpression: 'SET subject = :subject, subject_label = :label, workspaces = :workspaces',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(subject) AND expires_at > :now',
        ExpressionAttributeValues: { ':subject': person.subject, ':label': person.label, ':workspaces': workspaces, ':now': now },
      }),
    );
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw expired();
    throw error;
  }
  return { ...request, subject: person.subject, subject_label: person.label, workspaces };
}

/** The person said no, or the request ended: the item goes (it would expire anyway). */
export async function forgetRequest(requestId: string): Promise<void> {
  await db.send(new DeleteCommand({ TableName: tableName(), Key: pendingRequestKey(requestId) }));
}
