import { makeCtx } from '../../context';
import { entityKey } from '../../db/keys';
import { digest } from './secrets';

/**
 * A pending authorization request, before anyone has signed in: no workspace is known yet (the person chooses one on
 * the consent page), so it cannot live under `WS#…` like every other item. Its key is the digest of a 256-bit random
 * id that only the browser holding the flow knows (it travels as the upstream `state` or a form field); the item
 * expires after 10 minutes (TTL) and is deleted when the person decides. docs/oauth.md, "What the table holds".
 */
export const pendingRequestKey = (requestId: string) => ({ pk: `OAUTH#AUTHZ#${digest(requestId)}`, sk: 'OAUTH#AUTHZ' });

const ctxOf = (workspaceId: string) => makeCtx(workspaceId, 'oauth');

/** Once the workspace is known, everything lives under it: codes, refresh tokens and their families. */
export const codeKey = (workspaceId: string, codeDigest: string) => entityKey(ctxOf(workspaceId), 'OAC', codeDigest);
export const refreshTokenKey = (workspaceId: string, tokenDigest: string) => entityKey(ctxOf(workspaceId), 'ORT', tokenDigest);
/** A grant: every refresh token rotated from one authorization code, revoked together. */
export const familyKey = (workspaceId: string, familyId: string) => entityKey(ctxOf(workspaceId), 'OGR', familyId);

/** DynamoDB's TTL attribute: epoch seconds. Expiry itself is always checked against `expires_at` (TTL deletes late). */
export const ttlOf = (expiresAtMs: number): number => Math.ceil(expiresAtMs / 1000) + 3600;
