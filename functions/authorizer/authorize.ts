import type { APIGatewayRequestAuthorizerEventV2, APIGatewaySimpleAuthorizerWithContextResult } from 'aws-lambda';
import type { AuthorizerContext } from '../../shared/identity/credentials';
import { cachedResolver } from '../../shared/identity/resolution-cache';

type Context = AuthorizerContext | { credential: 'invalid' };

/** This instance's resolutions, reused while nothing was revoked (shared/identity/resolution-cache.ts). */
const resolve = cachedResolver();

/**
 * The API's Lambda authorizer (simple responses, cached by API Gateway per Authorization header for
 * AUTHORIZER_CACHE_SECONDS): resolves a JWT of a trusted issuer or an API key into the claims every route reads.
 * A credential that does not resolve is let through as `credential: invalid`, so the route answers the API's own
 * 401 JSON with its `WWW-Authenticate` challenge instead of API Gateway's bare 403.
 */
export const handler = async (event: APIGatewayRequestAuthorizerEventV2): Promise<APIGatewaySimpleAuthorizerWithContextResult<Context>> => {
  const resolution = await resolve(event.headers?.authorization);
  return { isAuthorized: true, context: resolution.kind === 'valid' ? resolution.context : { credential: 'invalid' } };
};
