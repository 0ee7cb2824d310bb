import { createHash } from 'node:crypto';
import { clock } from '../clock';
import { RateLimited } from '../errors';
import { reserveTokens, windowOf, type Counter } from './rate-limit';
import { DEFAULT_OAUTH_RATE_LIMITS, OAUTH_RATE_LIMIT_PARTITION, rateLimitSettings, type OAuthRateLimits } from './rate-limit-settings';
import { TokenReservations, type TokenRequest } from './token-reservation';

/**
 * Rate limits of the OAuth endpoints (docs/rate-limits.md, "OAuth endpoints"), which no workspace budget covers: the
 * token endpoint is public, and registration stores a client per call. Requests are counted per source address (API
 * Gateway's `requestContext.http.sourceIp`, which the client cannot choose) and per client, each on a service-wide
 * counter of the same kind as the workspaces' (fixed windows, blocks of tokens: shared/http/rate-limit.ts). Over
 * either → 429 in the OAuth error form (`{error, error_description}`) with `Retry-After`, before the endpoint's work.
 * A failing counter lets the request through (fail open) and logs one JSON line, as the workspace limiter does.
 */

export type OAuthEndpoint = 'register' | 'token';

/** Who a request is counted against: its source address (none for an in-process call), and its client. */
export interface OAuthCallers {
  address?: string;
  client?: string;
}

/** Values (addresses, client ids that may be URLs) stand in the key as a digest: fixed length, any characters. */
const digest = (value: string): string => createHash('sha256').update(value).digest('base64url').slice(0, 32);

const oauthCounterKey = (endpoint: OAuthEndpoint, by: keyof OAuthCallers, value: string, windowStart: Date) => ({
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
 * Counts a request of an OAuth endpoint against its address and its client; throws the 429 (RateLimited, mapped to
 * the OAuth error form with `Retry-After`) when either is over its limit. Called first in the endpoint's core, so the
 * request log and error mapping of the shared stacks answer it like any other error.
 */
export async function assertOAuthRate(endpoint: OAuthEndpoint, callers: OAuthCallers, requestId: string): Promise<void> {
  const settings = rateLimitSettings();
  if (!settings) return;
  const refused = await refusal(endpoint, callers, settings.oauth ?? DEFAULT_OAUTH_RATE_LIMITS, requestId);
  if (refused) throw refused;
}
