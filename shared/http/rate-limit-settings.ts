/**
 * The per-workspace rate limits (docs/rate-limits.md): how many reads (GET) and writes (every other method) one
 * workspace may send per fixed window. On AWS the CDK stack sets them per stack as environment variables of every
 * route function (lib/rate-limits.ts); unset, they are decisions.md's: 200 reads and 50 writes per 10 s.
 * They are read per request, so one process (the local server under tests, the benchmark) can switch them.
 */
export interface RateLimitSettings {
  reads: number;
  writes: number;
  windowSeconds: number;
  /** The OAuth endpoints' own limits (no workspace yet): DEFAULT_OAUTH_RATE_LIMITS unless a process sets others. */
  oauth?: OAuthRateLimits;
}

export const DEFAULT_RATE_LIMITS: Readonly<RateLimitSettings> = { reads: 200, writes: 50, windowSeconds: 10 };

/**
 * `POST /oauth/token` and `POST /oauth/register` (docs/rate-limits.md, "OAuth endpoints"): requests per window from
 * one source address, and from one client (the token endpoint's `client_id`; for registration, the bearer token's
 * workspace). On whenever the per-workspace limits are (`RATE_LIMIT_ENABLED`); fixed, so no route function's
 * environment grows for them.
 */
export interface OAuthRateLimits {
  perAddress: number;
  perClient: number;
  windowSeconds: number;
}

/**
 * A person signs in a few times a day and a client refreshes every 15 minutes; an address behind a NAT holds many
 * people. 60 a minute per address and 30 per client leave room for those and stop guessing and flooding.
 */
export const DEFAULT_OAUTH_RATE_LIMITS: Readonly<OAuthRateLimits> = { perAddress: 60, perClient: 30, windowSeconds: 60 };

/** The environment variables, shared by the handlers (which read them) and the CDK stack (which sets them). */
export const RATE_LIMIT_ENV = {
  /** `false` switches the limiter off: no counter write, no `X-RateLimit-*` headers. */
  enabled: 'RATE_LIMIT_ENABLED',
  reads: 'RATE_LIMIT_READS',
  writes: 'RATE_LIMIT_WRITES',
  windowSeconds: 'RATE_LIMIT_WINDOW_SECONDS',
} as const;

/** A positive whole number, or undefined. */
const positiveInteger = (value: string | undefined): number | undefined => {
  const n = value === undefined || value.trim() === '' ? NaN : Number(value);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
};

/** The limits an environment describes; null when switched off. A missing or malformed value takes its default. */
export function settingsFromEnvironment(env: Record<string, string | undefined>): RateLimitSettings | null {
  if (env[RATE_LIMIT_ENV.enabled]?.trim().toLowerCase() === 'false') return null;
  return {
    reads: positiveInteger(env[RATE_LIMIT_ENV.reads]) ?? DEFAULT_RATE_LIMITS.reads,
    writes: positiveInteger(env[RATE_LIMIT_ENV.writes]) ?? DEFAULT_RATE_LIMITS.writes,
    windowSeconds: positiveInteger(env[RATE_LIMIT_ENV.windowSeconds]) ?? DEFAULT_RATE_LIMITS.windowSeconds,
  };
}

/** The environment variables that make `settingsFromEnvironment` return `settings` (null: off). */
export function rateLimitEnvironment(settings: RateLimitSettings | null): Record<string, string> {
  if (!settings) return { [RATE_LIMIT_ENV.enabled]: 'false' };
  return {
    [RATE_LIMIT_ENV.enabled]: 'true',
    [RATE_LIMIT_ENV.reads]: String(settings.reads),
    [RATE_LIMIT_ENV.writes]: String(settings.writes),
    [RATE_LIMIT_ENV.windowSeconds]: String(settings.windowSeconds),
  };
}

let override: { settings: RateLimitSettings | null } | undefined;

/** The limits in force for this request: the process override if one is set, else the environment's. */
export const rateLimitSettings = (): RateLimitSettings | null => (override ? override.settings : settingsFromEnvironment(process.env));

/**
 * Replaces the limits of this whole process (tests, the benchmark), whatever the environment says; null switches
 * the limiter off. Returns a function that restores the previous state.
 */
export function useRateLimits(settings: RateLimitSettings | null): () => void {
  const previous = override;
  override = { settings };
  return () => {
    override = previous;
  };
}

/** The counter item's `_type`: not an event source (shared/domain/events/map-change.ts), so it never becomes an event. */
export const RATE_LIMIT_TYPE = 'rate_limit';
/** Counter items live under `WS#<workspace>#RATELIMIT#<kind>`: the only partitions a GET function may write. */
export const RATE_LIMIT_PARTITION = 'RATELIMIT';
/** The OAuth endpoints' counters, outside any workspace: `RATELIMIT#OAUTH#<endpoint>#<address|client>#<digest>`. */
export const OAUTH_RATE_LIMIT_PARTITION = `${RATE_LIMIT_PARTITION}#OAUTH`;
/** The routes that count requests on those counters (lib/rate-limits.ts grants them, and only them, the partition). */
export const OAUTH_RATE_LIMITED_ROUTES = ['registerOAuthClient', 'oauthToken'] as const;
/** Every attribute the counter's UpdateItem touches (the IAM grant of lib/rate-limits.ts allows these only). */
export const RATE_LIMIT_ATTRIBUTES = ['pk', 'sk', '_type', 'n', 'ttl'] as const;
