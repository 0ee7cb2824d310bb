import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Ctx } from '../../context';
import { db, tableName } from '../../db/client';
import { collectionKey, collectionPartition } from '../../db/keys';
import { queryItems } from '../../db/query';
import { translateWriteError, ConditionFailed } from '../../db/transactions';
import { InvalidRequest, NotFound } from '../../errors';
import { apiKeyIdOf, hashApiKey, newApiKey, redactApiKey } from './api-key';

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
 * Revokes a key: from now on it resolves to nothing. A request already holding a cached resolution may still pass
 * until that cache expires (docs/identity.md, "Revocation"). Revoking a revoked key changes nothing.
 */
export async function revokeApiKey(ctx: Ctx, id: string): Promise<ApiKey> {
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: collectionKey(ctx, API_KEYS, id),
        UpdateExpression: 'SET revoked_at = if_not_exists(revoked_at, :now)',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':now': ctx.clock.now().toISOString() },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return publicApiKey(Attributes as ApiKeyItem);
  } catch (error) {
    const translated = translateWriteError(error);
    if (translated instanceof ConditionFailed) throw new NotFound('API key', id);
    throw translated;
  }
}

export const publicApiKey = ({ pk: _pk, sk: _sk, _type, hash: _hash, ...apiKey }: ApiKeyItem): ApiKey => ({
  ...apiKey,
  last_used_at: apiKey.last_used_at ?? null,
  expires_at: apiKey.expires_at ?? null,
  revoked_at: apiKey.revoked_at ?? null,
});
