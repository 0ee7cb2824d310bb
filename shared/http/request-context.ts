import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import { makeCtx, type Ctx } from '../context';
import { Forbidden, Unauthorized } from '../errors';
import type { Scope } from './route-meta';

/**
 * The workspace and scopes come only from the claims the JWT authorizer verified. API Gateway passes claims as
 * strings, so `scope` is a space-separated string.
 */
export function requestCtx(event: APIGatewayProxyEventV2WithJWTAuthorizer, required: Scope): Ctx {
  const claims = event.requestContext.authorizer?.jwt?.claims;
  if (!claims) throw new Unauthorized();
  const workspaceId = claims.workspace_id;
  if (typeof workspaceId !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(workspaceId)) {
    throw new Forbidden('The token carries no valid workspace_id claim.', 'workspace_missing');
  }
  const scopes = String(claims.scope ?? '').split(' ');
  if (required !== 'any' && !scopes.includes(required)) {
    throw new Forbidden(`This operation needs the '${required}' scope.`);
  }
  return makeCtx(workspaceId, event.requestContext.requestId, undefined, clientIdOf(claims));
}

/** The OAuth client behind the token: its `client_id` claim, else `azp` (OpenID's authorized party), else null. */
export function clientIdOf(claims: Record<string, unknown>): string | null {
  const value = [claims.client_id, claims.azp].find((c) => typeof c === 'string' && c.length > 0 && c.length <= 255);
  return (value as string | undefined) ?? null;
}
