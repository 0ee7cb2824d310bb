import { createHash } from 'node:crypto';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { clock } from '../clock';
import { RateLimited } from '../errors';
import { errorResponse } from './errors';
import { reserveTokens, windowOf, type Counter } from './rate-limit';
import { DEFAULT_OAUTH_RATE_LIMITS, OAUTH_RATE_LIMIT_PARTITION, rateLimitSettings, type OAuthRateLimits } from './rate-limit-settings';
import { eventRequestId } from './request-id';
import type { RouteMeta } from './route-meta';
import { TokenReservations, type TokenRequest } from './token-reservation';

/**
 * Rate limits of the OAuth endpoints (docs/rate-limits.md, "OAuth endpoints"), which no workspace budget covers: the
 * token endpoint is public, and registration stores a client per call. Requests are counted per source address (API
 * Gateway's `requestContext.http.sourceIp`, which the client cannot choose) and per client, each on a service-wide
 * counter of the same kind as the workspaces' (fixed windows, blocks of tokens: shared/http/rate-limit.ts). Over
 * either → 429 in the OAuth error form (`{error, error_description}`) with `Retry-After`, before the handler runs.
 * A failing counter lets the request through (fail open) and logs one JSON line, as the workspace limiter does.
 */

export type OAuthEndpoint = 'register' | 'token';

/** Who a request is counted against: its source address, and the client when it names one. */
export interface OAuthCallers {
  address?: string;
  client?: string;
}

/** Values (addresses, client ids that may be URLs) stand in the key as a digest: fixed length, any characters. */
const digest = (value: string): string => createHash('sha256').update(value).digest('base64url').slice(0, 32);

export const oauthCounterKey = (endpoint: OAuthEndpoint, by: keyof OAuthCallers, value: string, windowStart: Date) => ({
  pk: `${OAUTH_RATE_LIMIT_PARTITION}#${endpoint}#${by}#${digest(value)}`,
  sk: windowStart.toISOString(),
});

/** This instance's blocks of the OAuth counters (module scope, as the workspace limiter's). */
const reservations = new TokenReservations<Counter>(reserveTokens);

function requestOf(endpoint: OAuthEndpoint, by: keyof OAuthCallers, value: string, limits: OAuthRateLimits): TokenRequest<Counter> {
  const now = clock.now();
  const { start, end } = windowOf(now, limits.windowSeconds);
  const key = oauthCounterKey(endpoint, by, value, start);
  const limit = by === 'address' ? limits.perAddress : limits.perClient;
  return { rate: key.pk, counter: `${key.pk}|${key.sk}`, key: { key, end, windowSeconds: limits.windowSeconds }, limit, now: now.getTime(), endsAt: end.getTime() };
}

/** The refusal of the first counter over its limit, or undefined when every one admits the request. */
async function refusal(endpoint: OAuthEndpoint, callers: OAuthCallers, limits: OAuthRateLimits, requestId: string): Promise<RateLimited | undefined> {
  const counted = (['address', 'client'] as const).filter((by) => callers[by]);
  const verdicts = await Promise.all(
    counted.map(async (by) => {
      const request = requestOf(endpoint, by, callers[by]!, limits);
      try {
        return { by, request, verdict: await reservations.take(request) };
      } catch (error) {
        console.error(JSON.stringify({ level: 'error', message: 'rate limiter failed; request let through', request_id: requestId, endpoint, by, error: String(error) }));
        return undefined;
      }
    }),
  );
  const refused = verdicts.find((v) => v && !v.verdict.admitted);
  if (!refused) return undefined;
  const { by, request } = refused;
  const seconds = Math.max(1, Math.ceil((request.endsAt - request.now) / 1000));
  const error = new RateLimited(
    `Too many requests to this endpoint from this ${by}: at most ${request.limit} per ${limits.windowSeconds} s. ` +
      `Retry after ${seconds} s.`,
  );
  error.headers = { 'retry-after': String(seconds) };
  return error;
}

/**
 * Wraps an OAuth endpoint's Lambda handler: the request is counted against its address and client (`clientOf`)
 * before the handler runs, and refused with a 429 when either is over its limit.
 */
export function oauthRateLimited<E extends APIGatewayProxyEventV2, C>(
  route: Pick<RouteMeta, 'errorFormat'> & { path: string },
  endpoint: OAuthEndpoint,
  clientOf: (event: E) => string | undefined,
  handler: (event: E, context: C) => Promise<APIGatewayProxyResultV2>,
) {
  return async (event: E, context: C): Promise<APIGatewayProxyResultV2> => {
    const settings = rateLimitSettings();
    if (settings) {
      const requestId = eventRequestId(event);
      // An event without a source address (an in-process call) counts against its client only.
      const callers = { address: event.requestContext?.http?.sourceIp, client: clientOf(event) };
      const refused = await refusal(endpoint, callers, settings.oauth ?? DEFAULT_OAUTH_RATE_LIMITS, requestId);
      if (refused) return errorResponse(route, refused, requestId, event.requestContext.requestId);
    }
    return handler(event, context);
  };
}
