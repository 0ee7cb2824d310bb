import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { headerValue } from './request-parts';

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * What a caller may choose as its request id: 1–128 letters, digits, `.`, `_`, `:` or `-` (a UUID, a ULID, a
 * trace id). Anything else — longer, other characters, or the header sent twice (API Gateway joins repeated headers
 * with a comma) — is ignored, so nothing a caller sends can forge a log line or a response header.
 */
const CALLER_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The id of a request: the caller's `X-Request-Id` when it is safe, else the id the gateway gave the request. */
export function requestIdOf(headers: Record<string, string | string[] | undefined> | undefined, gatewayRequestId: string): string {
  const incoming = headerValue(headers as APIGatewayProxyEventV2['headers'], REQUEST_ID_HEADER);
  return typeof incoming === 'string' && CALLER_REQUEST_ID.test(incoming) ? incoming : gatewayRequestId;
}

/** A Lambda's view: API Gateway's own request id (`requestContext.requestId`) is the fallback. */
export const eventRequestId = (event: Pick<APIGatewayProxyEventV2, 'headers'> & { requestContext?: { requestId?: string } }): string =>
  requestIdOf(event.headers, event.requestContext?.requestId ?? 'unknown');
