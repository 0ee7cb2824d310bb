import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { clock, type Clock } from '../../clock';
import { db, tableName } from '../../db/client';
import { getItem } from '../../db/items';
import { collectionKey } from '../../db/keys';
import { writeUnlessDone } from '../../db/transactions';
import { makeCtx } from '../../context';
import { apiKeyIdOf, hashApiKey, sameHash, workspaceNamedBy } from './api-key';
import { API_KEYS, type ApiKeyItem } from './manage';

/** `last_used_at` moves at most once a minute: a busy key costs one extra write a minute, not one per request. */
export const LAST_USED_RESOLUTION_MS = 60_000;

export interface ApiKeyGrant {
  workspaceId: string;
  keyId: string;
  scope: string;
  /** Seconds since the epoch when the key expires, if it does. */
  expiresAt?: number;
}

/**
 * What an API key grants, or undefined for anything that is not a live key of the workspace it names: one
 * strongly consistent GetItem (a revocation is seen at once by a resolution that reads), plus the occasional
 * `last_used_at` write.
 */
export async function resolveApiKey(key: string, at: Clock = clock): Promise<ApiKeyGrant | undefined> {
  const workspaceId = workspaceNamedBy(key);
  if (!workspaceId) return undefined;
  const hash = hashApiKey(key);
  const ctx = makeCtx(workspaceId, 'authorizer', at);
  const item = await getItem<ApiKeyItem>(collectionKey(ctx, API_KEYS, apiKeyIdOf(hash)), true);
  const now = at.now().getTime();
  if (!item || !sameHash(item.hash, hash) || item.revoked_at) return undefined;
  if (item.expires_at && Date.parse(item.expires_at) <= now) return undefined;
  if (!item.last_used_at || Date.parse(item.last_used_at) <= now - LAST_USED_RESOLUTION_MS) await touch(item, now);
  return {
    workspaceId,
    keyId: item.id,
    scope: item.scopes.join(' '),
    ...(item.expires_at && { expiresAt: Math.floor(Date.parse(item.expires_at) / 1000) }),
  };
}

/** Records the use, unless another request of the same minute already did (its condition then fails: fine). */
async function touch(item: ApiKeyItem, now: number): Promise<void> {
  await writeUnlessDone(
    db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: item.pk, sk: item.sk },
        UpdateExpression: 'SET last_used_at = :now',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(last_used_at) OR last_used_at <= :stale)',
        ExpressionAttributeValues: { ':now': new Date(now).toISOString(), ':stale': new Date(now - LAST_USED_RESOLUTION_MS).toISOString() },
      }),
    ),
  );
}
