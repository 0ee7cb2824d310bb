/**
 * GET /v1/customers/{id} with an API key beside the same request with a JWT, and the authorizer's work on a cache
 * miss beside its DynamoDB floor. Imports the shared table client: import only once DYNAMODB_ENDPOINT is set.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { makeCtx } from '../../shared/context';
import { db, dynamoCallCount, tableName } from '../../shared/db/client';
import { collectionKey } from '../../shared/db/keys';
import { apiKeyIdOf, hashApiKey } from '../../shared/domain/api-keys/api-key';
import { API_KEYS, createApiKey } from '../../shared/domain/api-keys/manage';
import { resolveCredential } from '../../shared/identity/credentials';
import { apiClient } from './http';
import { measureAgainstFloor, measureRotating, type PairResult, type VariantResult } from './latency';

export interface CredentialResults {
  /** Through the local server, whose resolver caches as on AWS (shared/identity/resolution-cache.ts). */
  withJwt: VariantResult;
  withApiKey: VariantResult;
  /** A cache miss: the API key's resolution (one GetItem) beside that GetItem sent alone. */
  apiKeyMiss: PairResult;
  /** A cache miss of a JWT: the RS256 verification, no DynamoDB. */
  jwtMiss: VariantResult;
}

export async function measureCredentials(options: {
  baseUrl: string;
  workspaceId: string;
  token: string;
  counts: { warmup: number; measured: number };
}): Promise<CredentialResults> {
  const { baseUrl, workspaceId, token, counts } = options;
  const { key } = await createApiKey(makeCtx(workspaceId, 'bench'), { name: 'Bench', scopes: ['read', 'write'] });
  const byJwt = apiClient(baseUrl, token);
  const byKey = apiClient(baseUrl, key);
  await byJwt('POST', '/v1/invoicing-entities', 201, { name: 'Bench SAS', country: 'FR', currency: 'EUR' });
  const { id } = await byJwt<{ id: string }>('POST', '/v1/customers', 201, { name: 'Credential bench' });
  const path = `/v1/customers/${id}`;

  const rotating = await measureRotating(
    [
      { name: 'jwt', run: () => byJwt('GET', path, 200) },
      { name: 'key', run: () => byKey('GET', path, 200) },
      { name: 'jwtMiss', run: () => resolveCredential(`Bearer ${token}`) },
    ],
    counts,
    dynamoCallCount,
  );
  const itemKey = collectionKey(makeCtx(workspaceId, 'bench'), API_KEYS, apiKeyIdOf(hashApiKey(key)));
  const apiKeyMiss = await measureAgainstFloor({
    ...counts,
    route: () => resolveCredential(`Bearer ${key}`),
    floor: () => db.send(new GetCommand({ TableName: tableName(), Key: itemKey, ConsistentRead: true })),
    callCount: dynamoCallCount,
  });
  return { withJwt: rotating.get('jwt')!, withApiKey: rotating.get('key')!, jwtMiss: rotating.get('jwtMiss')!, apiKeyMiss };
}
