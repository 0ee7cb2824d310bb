import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import { clock, type Clock } from '../clock';
import { makeCtx, type Ctx } from '../context';
import { bearerChallenge, insufficientScopeChallenge, resourcePathOf } from '../identity/challenge';
import { Forbidden, Unauthorized } from '../errors';
import { eventRequestId } from './request-id';
import type { Scope } from './route-meta';

/**
 * A workspace id: `ws_` then 1–61 letters, digits, `_` or `-` (64 characters at most, never `#`, which separates
 * table key parts). API Gateway's JWT authorizer hands claims over as text, so a `workspace_id` that was JSON `null`,
 * a number or a boolean would arrive as "null", "12345" or "true": the prefix makes all of them fail.
 */
export const WORKSPACE_ID_PATTERN = /^ws_[A-Za-z0-9_-]{1,61}$/;

/**
 * RFC 6749 §3.3's scope: tokens of printable ASCII (but `"` and `\`) separated by single spaces, here without
 * brackets and braces either, which only an array or object made into text holds ("[read write]", `["write"]`,
 * "[object Object]"): such a scope is refused (401), never split into scopes.
 */
const SCOPE_LIST = /^(?:[!#-Z^-z|~]+(?: [!#-Z^-z|~]+)*)?$/;

/**
 * The workspace and scopes come only from what the authorizer verified (DESIGN.md §7, §14): the context of the
 * Lambda authorizer (`authorizer.lambda`, on AWS and from the local server) or, for events built by hand, JWT
 * claims (`authorizer.jwt.claims`). Every claim read must be a string (`scope` a well-formed list): anything else is
 * refused with 401, whatever made it so, so that no coercion can ever grant a scope or name a workspace. A JWT
 * without `exp` is refused (401), and so is any credential past its `exp`: the authorizer's cache may hand on a
 * resolution made while it was still valid.
 */
export function requestCtx(event: AuthorizedEvent, required: Scope, at: Clock = clock): Ctx {
  const authorizer = event.requestContext.authorizer;
  const claims = authorizer?.lambda ?? authorizer?.jwt?.claims;
  if (!claims || claims.credential === 'invalid') throw challenged(new Unauthorized(), Boolean(claims), event.rawPath);
  const mistyped = mistypedClaim(claims);
  if (mistyped) throw challenged(new Unauthorized(`The bearer token's ${mistyped} claim is not ${mistyped === 'scope' ? 'a space-separated list of scopes' : 'a string'}.`), true, event.rawPath);
  const isApiKey = claims.credential === 'api_key';
  if (!isApiKey && !hasExpiry(claims.exp)) throw challenged(new Unauthorized('The bearer token must carry an exp (expiry) claim.'), true, event.rawPath);
  // A JWT's exp against the real time (as its issuer meant it); an API key's, a stored timestamp, against the service clock.
  const now = isApiKey ? at.now().getTime() : Date.now();
  if (hasExpiry(claims.exp) && Number(claims.exp) * 1000 <= now) {
    throw challenged(new Unauthorized(isApiKey ? 'The API key has expired.' : 'The bearer token has expired.'), true, event.rawPath);
  }
  const workspaceId = claims.workspace_id;
  if (typeof workspaceId !== 'string' || !WORKSPACE_ID_PATTERN.test(workspaceId)) {
    throw new Forbidden('The token carries no valid workspace_id claim.', 'workspace_missing');
  }
  const scopes = ((claims.scope as string | undefined) ?? '').split(' ');
  if (required !== 'any' && required !== 'public' && !scopes.includes(required)) {
    const refusal = new Forbidden(`This operation needs the '${required}' scope.`);
    refusal.headers = { 'www-authenticate': insufficientScopeChallenge(required) };
    throw refusal;
  }
  return makeCtx(workspaceId, eventRequestId(event), undefined, clientIdOf(claims));
}

/** An API Gateway event as a route Lambda receives it: behind the Lambda authorizer, or JWT claims (hand-built). */
export type AuthorizedEvent = Omit<APIGatewayProxyEventV2WithJWTAuthorizer, 'requestContext'> & {
  requestContext: Omit<APIGatewayProxyEventV2WithJWTAuthorizer['requestContext'], 'authorizer'> & {
    authorizer?: { lambda?: Record<string, unknown>; jwt?: { claims: Record<string, unknown> } };
  };
};

const challenged = (error: Unauthorized, credentialSent: boolean, requestPath = ''): Unauthorized => {
  error.headers = { 'www-authenticate': bearerChallenge(credentialSent, resourcePathOf(requestPath)) };
  return error;
};

/** Present and a number of seconds (a string on AWS); its value is the authorizer's to check against the time. */
const hasExpiry = (exp: unknown): boolean => (typeof exp === 'number' || (typeof exp === 'string' && exp.trim() !== '')) && Number.isFinite(Number(exp));

/**
 * The claims the routes read, each a JSON string (DESIGN.md §14 `workspace_id`, RFC 9068 `scope` and `client_id`,
 * RFC 7519 `sub`, OpenID's `azp`): the authorizer passes on these alone (shared/identity/credentials.ts), and only
 * when each is of its type. (`exp` is a number, which the verification checks.)
 */
export const READ_CLAIMS = ['workspace_id', 'scope', 'sub', 'client_id', 'azp'] as const;

/** The first claim read (or the authorizer's `credential`) that is of the wrong type: not a string, or a `scope` that is no list. */
function mistypedClaim(claims: Record<string, unknown>): string | undefined {
  const wrong = ['credential', ...READ_CLAIMS].find((name) => claims[name] !== undefined && typeof claims[name] !== 'string');
  if (wrong) return wrong;
  return typeof claims.scope === 'string' && !SCOPE_LIST.test(claims.scope) ? 'scope' : undefined;
}

/** The OAuth client behind the token: its `client_id` claim, else `azp` (OpenID's authorized party), else null. */
export function clientIdOf(claims: Record<string, unknown>): string | null {
  const value = [claims.client_id, claims.azp].find((c) => typeof c === 'string' && c.length > 0 && c.length <= 255);
  return (value as string | undefined) ?? null;
}
