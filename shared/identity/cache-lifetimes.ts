/**
 * How a revoked API key stops within seconds without a table read per request (docs/identity.md, "Revocation"):
 * API Gateway caches the authorizer's answer per Authorization header for AUTHORIZER_CACHE_SECONDS (lib/identity.ts);
 * behind it each authorizer instance reuses a key's resolution while the workspace's revocation epoch it knows, read
 * at most REVOCATION_EPOCH_SECONDS ago, is the one the resolution was made under. A revoked key is thus refused
 * everywhere at most REVOCATION_BOUND_SECONDS after the revocation; an expired one at once (its `exp` travels with
 * the answer and every route checks it).
 */
export const AUTHORIZER_CACHE_SECONDS = 5;
export const REVOCATION_EPOCH_SECONDS = 4;
export const REVOCATION_BOUND_SECONDS = AUTHORIZER_CACHE_SECONDS + REVOCATION_EPOCH_SECONDS;
/**
 * How long an instance reuses a resolution nothing revoked: the key's item is read again once a minute, which is
 * also how often its `last_used_at` may move (LAST_USED_RESOLUTION_MS).
 */
export const RESOLUTION_SECONDS = 60;
