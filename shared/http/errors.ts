import type middy from '@middy/core';
import { isPassing } from '../db/transient';
import { DomainError, ServiceUnavailable } from '../errors';
import { logger } from '../observability/logger';
import type { RouteMeta } from './route-meta';
import { eventRequestId } from './request-id';
import { json, type HttpResponse } from './responses';

/**
 * Maps any error to a JSON response. Domain errors keep their status, code and message; a transient failure (a
 * throttle, conflict or fault DynamoDB or another service kept answering after the SDK's retries, the network, the
 * invocation running out of time) is a 503 `service_unavailable` with `Retry-After`, logged as a warning: nothing the
 * client sent is wrong, the same request may succeed in a moment. Anything else is a 500 with a generic message and
 * the request id only (the details go to the log, never to the client).
 */
/** A timeout's 503: unlike a refused write, what the request did may have been applied. */
const TIMED_OUT = 'The request ran out of time before its answer, and may have been applied: retry it with the same Idempotency-Key (docs/idempotency.md).';

export function errorResponse(route: Pick<RouteMeta, 'errorFormat'> & { path?: string }, error: unknown, requestId: string, gatewayRequestId = requestId): HttpResponse {
  if (!(error instanceof DomainError) && isPassing(error)) {
    logger.warn('transient failure answered 503', { request_id: requestId, error: error instanceof Error ? error : String(error) });
    return errorResponse(route, new ServiceUnavailable(error instanceof Error && error.name === 'TimeoutError' ? TIMED_OUT : undefined), requestId, gatewayRequestId);
  }
  if (error instanceof DomainError) {
    if (route.errorFormat === 'oauth' && error.status === 400) return oauthError(route, error, requestId);
    if (route.errorFormat === 'oauth' && error.status === 429) return oauthRateLimited(error, requestId);
    const body = { message: error.message, code: error.code, ...(error.errors && { errors: error.errors }), request_id: requestId };
    return json(error.status, body, requestId, error.headers);
  }
  const gateway = gatewayRequestId !== requestId ? { gateway_request_id: gatewayRequestId } : {};
  logger.error('unhandled error', { request_id: requestId, ...gateway, error: error instanceof Error ? error : String(error) });
  return json(500, { message: 'Internal server error.', code: 'internal_error', request_id: requestId }, requestId);
}

/**
 * Registration (RFC 7591 §3.2.2): `invalid_redirect_uri` when a redirect URI is at fault, else
 * `invalid_client_metadata`. The token and revocation endpoints (RFC 6749 §5.2, RFC 7009 §2.2.1): a body that does
 * not parse or validate is `invalid_request` (their own errors are answered by their handlers).
 */
function oauthError(route: { path?: string }, error: DomainError, requestId: string): HttpResponse {
  const detail = error.errors?.map((e) => `${e.path.replace(/^body\./, '')} ${e.message}`).join('; ') || error.message;
  if (route.path !== '/oauth/register') return json(400, { error: 'invalid_request', error_description: detail }, requestId);
  const redirect = error.code === 'invalid_redirect_uri' || error.errors?.some((e) => e.path.startsWith('body.redirect_uris'));
  return json(400, { error: redirect ? 'invalid_redirect_uri' : 'invalid_client_metadata', error_description: detail }, requestId);
}

/**
 * A rate-limited OAuth request (docs/rate-limits.md): the OAuth error form its clients parse, with `Retry-After`.
 * RFC 6749 and 7591 name no error for it; `temporarily_unavailable` is OAuth's own word for "try again later".
 */
function oauthRateLimited(error: DomainError, requestId: string): HttpResponse {
  return json(429, { error: 'temporarily_unavailable', error_description: error.message }, requestId, error.headers);
}

export const errorMapping = (route: RouteMeta): middy.MiddlewareObj => ({
  onError: (request) => {
    const event = request.event as Parameters<typeof eventRequestId>[0];
    request.response = errorResponse(route, request.error, eventRequestId(event), event.requestContext?.requestId);
  },
});
