import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { DomainError, InvalidRequest } from '../errors';
import type { RouteMeta, ValidateFunction } from './route-meta';
import { normalizeDateTimes } from './date-times';
import { toFieldErrors } from './validation-errors';

export const MAX_BODY_BYTES = 1024 * 1024;

export class PayloadTooLarge extends DomainError {
  readonly status = 413;
  constructor() {
    super('payload_too_large', `The request body is larger than ${MAX_BODY_BYTES} bytes.`);
  }
}

class UnsupportedMediaType extends DomainError {
  readonly status = 415;
  constructor() {
    super('unsupported_media_type', "Send the request body as JSON with 'Content-Type: application/json' (optionally '; charset=utf-8').");
  }
}

/** `application/json`, optionally with `charset=utf-8` (JSON is UTF-8, RFC 8259); `application/json-seq` and the like are not. */
const JSON_MEDIA_TYPE = /^application\/json\s*(;\s*charset\s*=\s*"?utf-?8"?\s*)?$/i;

/**
 * The body exactly as sent (API Gateway hands some bodies base64-encoded), as UTF-8: what a signature over the body
 * (Stripe's webhooks) is checked on. 413 over 1 MiB; no body reads as ''.
 */
export function rawBody(event: APIGatewayProxyEventV2): string {
  if (event.body === undefined || event.body === null) return '';
  const raw = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  if (Buffer.byteLength(raw, 'utf8') > MAX_BODY_BYTES) throw new PayloadTooLarge();
  return raw;
}

/** Parses the JSON body: 413 over 1 MiB, 415 when not declared JSON, 400 when malformed. No body reads as `{}`. */
export function parseBody(event: APIGatewayProxyEventV2): unknown {
  if (event.body === undefined || event.body === null || event.body === '') return {};
  const raw = rawBody(event);
  const contentType = headerValue(event.headers, 'content-type') ?? '';
  if (!JSON_MEDIA_TYPE.test(contentType.trim())) throw new UnsupportedMediaType();
  try {
    return JSON.parse(raw);
  } catch {
    throw new InvalidRequest('The request body is not valid JSON.', undefined, 'malformed_json');
  }
}

export function headerValue(headers: APIGatewayProxyEventV2['headers'], name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers ?? {})) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

/** Validates one part of the request in place (query and path validators coerce types and fill defaults). */
export function validatePart<T>(part: 'path' | 'query' | 'body', validate: ValidateFunction | undefined, data: unknown): T {
  if (validate && !validate(data)) {
    const errors = toFieldErrors(part, validate.errors ?? []);
    const first = errors[0];
    throw new InvalidRequest(first ? `Invalid ${part}: ${first.path} ${first.message}.` : `Invalid ${part}.`, errors);
  }
  return data as T;
}

export function requestParts(route: RouteMeta, event: APIGatewayProxyEventV2) {
  const path = validatePart<Record<string, string>>('path', route.validate.path, { ...(event.pathParameters ?? {}) });
  const query = validatePart<Record<string, unknown>>('query', route.validate.query ?? noQuery, { ...(event.queryStringParameters ?? {}) });
  const body = route.validate.body ? validatePart<unknown>('body', route.validate.body, parseBody(event)) : undefined;
  normalizeDateTimes(body);
  return { path, query, body };
}

/** A route that declares no query parameters rejects any: a typo must not be silently ignored. */
export const noQuery: ValidateFunction = Object.assign(
  (data: unknown) => {
    const keys = Object.keys(data as object);
    noQuery.errors = keys.map((key) => ({
      keyword: 'additionalProperties', instancePath: '', schemaPath: '#', params: { additionalProperty: key }, message: 'unknown',
    }));
    return keys.length === 0;
  },
  { errors: null },
);
