import { clock, type Clock } from '../clock';
import { resolveCredential, type Resolution } from './credentials';

/**
 * How long a resolved credential is reused, as API Gateway's authorizer cache does on AWS (lib/identity.ts uses the
 * same figure): the bound on how long a revoked API key may still be accepted (docs/identity.md, "Revocation").
 */
export const AUTHORIZER_CACHE_SECONDS = 300;

const MAX_CACHED = 1_000;

/**
 * resolveCredential behind a cache of valid resolutions keyed by the whole `Authorization` header: the local
 * server's stand-in for the AWS authorizer's cache. Expiry follows `at`, so tests move it with the movable clock.
 */
export function cachedResolver(ttlSeconds = AUTHORIZER_CACHE_SECONDS, at: Clock = clock) {
  const cache = new Map<string, { resolution: Resolution; until: number }>();
  return async (authorization: string | undefined): Promise<Resolution> => {
    const now = at.now().getTime();
    const hit = authorization ? cache.get(authorization) : undefined;
    if (hit && hit.until > now) return hit.resolution;
    const resolution = await resolveCredential(authorization, at);
    if (authorization && resolution.kind === 'valid' && ttlSeconds > 0) {
      cache.delete(authorization);
      if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
      cache.set(authorization, { resolution, until: now + ttlSeconds * 1000 });
    }
    return resolution;
  };
}
