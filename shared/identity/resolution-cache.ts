import { clock, type Clock } from '../clock';
import { workspaceNamedBy } from '../domain/api-keys/api-key';
import { revocationEpoch } from '../domain/api-keys/revocations';
import { AUTHORIZER_CACHE_SECONDS, RESOLUTION_SECONDS, REVOCATION_EPOCH_SECONDS } from './cache-lifetimes';
import { bearerToken, resolveCredential, type Resolution } from './credentials';

/** Entries per cache: an instance's working set of credentials and workspaces, not the world's. */
const MAX_CACHED = 1_000;

export type Resolver = (authorization: string | undefined) => Promise<Resolution>;

export interface ResolverOptions {
  at?: Clock;
  /** What a miss runs (tests inject their own). */
  resolve?: (authorization: string | undefined, at: Clock) => Promise<Resolution>;
  /** Reads a workspace's revocation epoch (tests inject their own). */
  epochOf?: (workspaceId: string) => Promise<number>;
}

/**
 * resolveCredential behind an authorizer instance's cache, keyed by the whole `Authorization` header: a valid
 * resolution is reused for RESOLUTION_SECONDS, never past its `exp`, and, for an API key, only while its workspace's
 * epoch is unchanged. Time follows `at` (the service clock: tests move it).
 */
export function cachedResolver({ at = clock, resolve = resolveCredential, epochOf = revocationEpoch }: ResolverOptions = {}): Resolver {
  const resolutions = boundedMap<{ resolution: Resolution; epoch: number | undefined; until: number }>();
  const epochs = epochCache(epochOf);
  return async (authorization) => {
    const now = at.now().getTime();
    const workspace = authorization ? apiKeyWorkspace(authorization) : undefined;
    // Known before resolving: a revocation after this read raises the epoch past it, one before it is in the key's item.
    const epoch = workspace === undefined ? undefined : await epochs(workspace, now);
    const hit = authorization ? resolutions.get(authorization) : undefined;
    if (hit && hit.until > now && hit.epoch === epoch) return hit.resolution;
    const resolution = await resolve(authorization, at);
    if (authorization && resolution.kind === 'valid') {
      resolutions.set(authorization, { resolution, epoch, until: Math.min(now + RESOLUTION_SECONDS * 1000, expiryOf(resolution.context.exp)) });
    } else if (authorization) resolutions.delete(authorization);
    return resolution;
  };
}

/**
 * The local server's stand-in for API Gateway's cache of the authorizer's answers: a valid answer is handed out again,
 * without asking, for `seconds` (AUTHORIZER_CACHE_SECONDS as on AWS; 0: never).
 */
export function gatewayCache(authorizer: Resolver, seconds = AUTHORIZER_CACHE_SECONDS, at: Clock = clock): Resolver {
  const answers = boundedMap<{ resolution: Resolution; until: number }>();
  return async (authorization) => {
    const now = at.now().getTime();
    const hit = authorization ? answers.get(authorization) : undefined;
    if (hit && hit.until > now) return hit.resolution;
    const resolution = await authorizer(authorization);
    if (authorization && resolution.kind === 'valid' && seconds > 0) answers.set(authorization, { resolution, until: now + seconds * 1000 });
    return resolution;
  };
}

/** The workspace an API key names (before it is verified: only to know whose epoch to check); undefined for a JWT. */
function apiKeyWorkspace(authorization: string): string | undefined {
  const token = bearerToken(authorization);
  return token?.startsWith('sk_') ? workspaceNamedBy(token) : undefined;
}

const expiryOf = (exp: string | undefined): number => (exp === undefined ? Infinity : Number(exp) * 1000);

/**
 * Each workspace's epoch as last read, read again once it is REVOCATION_EPOCH_SECONDS old; requests meanwhile share
 * the read in flight. Its age counts from when the read began, so the value is never older than it says.
 */
function epochCache(read: (workspaceId: string) => Promise<number>) {
  const known = boundedMap<{ epoch: Promise<number>; readAt: number }>();
  return (workspaceId: string, now: number): Promise<number> => {
    const entry = known.get(workspaceId);
    if (entry && now - entry.readAt < REVOCATION_EPOCH_SECONDS * 1000) return entry.epoch;
    const fresh = { epoch: read(workspaceId), readAt: now };
    known.set(workspaceId, fresh);
    fresh.epoch.catch(() => known.get(workspaceId) === fresh && known.delete(workspaceId)); // a failed read is not kept
    return fresh.epoch;
  };
}

/** A Map that forgets its oldest entry past MAX_CACHED (insertion order; `set` moves an entry to the end). */
function boundedMap<V>() {
  const map = new Map<string, V>();
  return {
    get: (key: string) => map.get(key),
    delete: (key: string) => map.delete(key),
    set(key: string, value: V) {
      map.delete(key);
      if (map.size >= MAX_CACHED) map.delete(map.keys().next().value!);
      map.set(key, value);
    },
  };
}
