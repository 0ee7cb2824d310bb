import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import { makeCtx, type Ctx } from '../context';
import { Forbidden, Unauthorized } from '../errors';
import { eventRequestId } from './request-id';
import type { Scope } from './route-meta';

/**
 * A workspace id: `ws_` then 1–61 letters, digits, `_` or `-` (64 characters at most, never `#`, which separates
 * table key parts). API Gateway hands claims to the Lambda as strings, so a `workspace_id` that was JSON `null`, a
 * number or a boolean arrives as "null", "12345" or "true": the prefix makes all of them fail.
 */
export const WORKSPACE_ID_PATTERN = /^ws_[A-Za-z0-9_-]{1,61}$/;

/**
 * The workspace and scopes come only from the claims the JWT authorizer verified. API Gateway passes claims as
 * strings, so `scope` is a space-separated string. A token without `exp` is refused here too (401): the
 * authorizer checks an `exp` it finds, but AWS does not document that it requires one.
 */
export function requestCtx(event: APIGatewayProxyEventV2WithJWTAuthorizer, required: Scope): Ctx {
  const claims = event.requestContext.authorizer?.jwt?.claims;
  if (!claims) throw new Unauthorized();
  if (!hasExpiry(claims.exp)) throw new Unauthorized('The bearer token must carry an exp (expiry) claim.');
  const workspaceId = claims.workspace_id;
  if (typeof workspaceId !== 'string' || !WORKSPACE_ID_PATTERN.test(workspaceId)) {
    throw new Forbidden('The token carries no valid workspace_id claim.', 'workspace_missing');
  }
  const scopes = String(claims.scope ?? '').split(' ');
  if (required !== 'any' && !scopes.includes(required)) {
    throw new Forbidden(`This operation needs the '${required}' scope.`);
  }
  return makeCtx(workspaceId, eventRequestId(event), undefined, clientIdOf(claims));
}

/** Present and a number of seconds (a string on AWS); its value is the authorizer's to check against the time. */
const hasExpiry = (exp: unknown): boolean => (typeof exp === 'number' || (typeof exp === 'string' && exp.trim() !== '')) && Number.isFinite(Number(exp));

/** The OAuth client behind the token: its `client_id` claim, else `azp` (OpenID's authorized party), else null. */
export function clientIdOf(claims: Record<string, unknown>): string | null {
  const value = [claims.client_id, claims.azp].find((c) => typeof c === 'string' && c.length > 0 && c.length <= 255);
  return (value as string | undefined) ?? null;
}
