import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { InvalidRequest } from '../errors';
import { requestLog } from '../observability/request-log';
import { errorMapping } from './errors';
import { eventRequestId } from './request-id';
import { headerValue, MAX_BODY_BYTES, noQuery, parseBody, PayloadTooLarge, validatePart } from './request-parts';
import { apiHeaders, binary, BinaryResponse, json } from './responses';
import type { RouteMeta } from './route-meta';

/** What a public route's core answers besides JSON: a page or a redirect (`html`, `redirect`). */
export class WebResponse {
  constructor(
    readonly status: number,
    readonly body: string,
    readonly headers: Record<string, string>,
  ) {}
}

export const html = (status: number, markup: string, headers: Record<string, string> = {}): WebResponse =>
  new WebResponse(status, markup, { 'content-type': 'text/html; charset=utf-8', ...headers });

export const redirect = (location: string, status: 302 | 303 = 302, headers: Record<string, string> = {}): WebResponse =>
  new WebResponse(status, '', { location, ...headers });

export interface PublicInput<Body, Query> {
  path: Record<string, string>;
  query: Query;
  body: Body;
  headers: APIGatewayProxyEventV2['headers'];
  event: APIGatewayProxyEventV2;
  requestId: string;
}

const FORM_MEDIA_TYPE = /^application\/x-www-form-urlencoded\s*(;.*)?$/i;

/**
 * The body of a public route: an HTML form (`application/x-www-form-urlencoded`, each field once: a repeated field
 * is a 400, never silently one of its values) or JSON (parseBody's rules). No body reads as `{}`.
 */
export function parsePublicBody(event: APIGatewayProxyEventV2): unknown {
  const contentType = (headerValue(event.headers, 'content-type') ?? '').trim();
  if (!FORM_MEDIA_TYPE.test(contentType) || !event.body) return parseBody(event);
  const raw = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  if (Buffer.byteLength(raw, 'utf8') > MAX_BODY_BYTES) throw new PayloadTooLarge();
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(raw)) {
    if (Object.hasOwn(fields, name)) throw new InvalidRequest(`Invalid body: the field '${name}' is sent twice.`, undefined, 'duplicate_field');
    fields[name] = value;
  }
  return fields;
}

/**
 * The stack of a route without a bearer token (`scope: 'public'`): OAuth endpoints, discovery documents and hosted
 * pages, whose credential, if any, is their own (a code, a signed link). Same log line and error mapping as
 * `httpHandler`, same validation of path, query and body, but no workspace, rate limit or idempotency: a public core
 * takes its workspace from what it verifies, never from the request as sent.
 */
export function publicHandler<Body = Record<string, unknown>, Query = Record<string, unknown>>(
  route: RouteMeta,
  core: (input: PublicInput<Body, Query>) => Promise<unknown>,
) {
  return middy<APIGatewayProxyEventV2, APIGatewayProxyResultV2>()
    .use(requestLog(route))
    .use(errorMapping(route))
    .handler(async (event) => {
      const requestId = eventRequestId(event);
      const path = validatePart<Record<string, string>>('path', route.validate.path, { ...(event.pathParameters ?? {}) });
      const query = validatePart<Query>('query', route.validate.query ?? noQuery, { ...(event.queryStringParameters ?? {}) });
      const body = validatePart<Body>('body', route.validate.body, route.validate.body ? parsePublicBody(event) : {});
      const result = await core({ path, query, body, headers: event.headers, event, requestId });
      if (result instanceof BinaryResponse) return binary(route.status, result, requestId); // a file (a hosted page's PDF)
      if (result instanceof WebResponse) {
        return { statusCode: result.status, headers: { ...apiHeaders(requestId), ...result.headers }, body: result.body };
      }
      return json(route.status, result, requestId);
    });
}
