import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Ctx } from '../../context';
import { db, tableName } from '../../db/client';
import { collectionKey, collectionPartition } from '../../db/keys';
import { queryItems } from '../../db/query';
import { getItem } from '../../db/items';
import { ConditionFailed, transactWrite } from '../../db/transactions';
import { InvalidRequest, NotFound } from '../../errors';
import { apiKeyIdOf, hashApiKey, newApiKey, redactApiKey } from './api-key';
import { raiseRevocationEpoch } from './revocations';

/** A workspace's API keys: one partition, few items, each found by the id its key hashes to (api-key.ts). */
export const API_KEYS = 'APIKEYS';

export type CredentialScope = 'read' | 'write' | 'admin';

export interface ApiKey {
  id: string;
  object: 'api_key';
  name: string;
  scopes: CredentialScope[];
  redacted_key: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
}

export interface ApiKeyItem extends ApiKey {
  pk: string;
  sk: string;
  _type: 'api_key';
  /** SHA-256 of the key: the only form of it the table holds. */
  hash: string;
}

export interface ApiKeyRequest {
  name: string;
  scopes?: CredentialScope[];
  expires_at?: string;
}

/** Creates a key of the caller's workspace. The answer is the only place the key itself ever appears. */
export async function createApiKey(ctx: Ctx, request: ApiKeyRequest): Promise<ApiKey & { key: string }> {
  const now = ctx.clock.now();
  if (request.expires_at !== undefined && Date.parse(request.expires_at) <= now.getTime()) {
    throw new InvalidRequest('expires_at must be in the future.', [{ path: 'body.expires_at', message: 'must be in the future' }]);
  }
  const key = newApiKey(ctx.workspaceId);
  const hash = hashApiKey(key);
  const apiKey: ApiKey = {
    id: apiKeyIdOf(hash),
    object: 'api_key',
    name: request.name,
    scopes: [...(request.scopes ?? ['read', 'write'])],
    redacted_key: redactApiKey(key),
    created_at: now.toISOString(),
    last_used_at: null,
    expires_at: request.expires_at ?? null,
    revoked_at: null,
  };
  // Unset members are absent, not null: the conditions on last_used_at and revoked_at test their existence.
  const stored = Object.fromEntries(Object.entries(apiKey).filter(([, value]) => value !== null));
  const item = { ...collectionKey(ctx, API_KEYS, apiKey.id), _type: 'api_key', ...stored, hash };
  await db.send(new PutCommand({ TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
  return { ...apiKey, key };
}

/** Every key of the workspace, revoked ones included (they say when), newest first. */
export async function listApiKeys(ctx: Ctx) {
  const { items } = await queryItems<ApiKeyItem>({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': collectionPartition(ctx, API_KEYS) },
    ConsistentRead: true,
  });
  const data = items.map(publicApiKey).sort((a, b) => b.created_at.localeCompare(a.created_at) || a.id.localeCompare(b.id));
  return { meta: { total: data.length, taken: data.length, skipped: 0 }, data };
}

/**
 * Revokes a key: from now on it resolves to nothing, and the workspace's revocation epoch, raised in the same
 * transaction, makes every cached resolution of it stale within seconds (docs/identity.md, "Revocation").
 * Revoking a revoked key changes nothing and answers it as it is.
 */
export async function revokeApiKey(ctx: Ctx, id: string): Promise<ApiKey> {
  const key = collectionKey(ctx, API_KEYS, id);
  try {
    await transactWrite([
      {
        Update: {
          TableName: tableName(),
          Key: key,
          UpdateExpression: 'SET revoked_at = :now',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revoked_at)',
          ExpressionAttributeValues: { ':now': ctx.clock.now().toISOString() },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      raiseRevocationEpoch(ctx),
    ]);
  } catch (error) {
    if (!(error instanceof ConditionFailed) || error.index !== 0) throw error;
    if (!error.item) throw new NotFound('API key', id);
    return publicApiKey(error.item as unknown as ApiKeyItem); // revoked already
  }
  return publicApiKey((await getItem<ApiKeyItem>(key, true))!);
}

export const publicApiKey = ({ pk: _pk, sk: _sk, _type, hash: _hash, ...apiKey }: ApiKeyItem): ApiKey => ({
  ...apiKey,
  last_used_at: apiKey.last_used_at ?? null,
  expires_at: apiKey.expires_at ?? null,
  revoked_at: apiKey.revoked_at ?? null,
});
