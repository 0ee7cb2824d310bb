/**
 * How long a revoked API key keeps working: keys revoked through the local server (DELETE /v1/api-keys/{id}), each
 * asked for without pause from the revoke's answer until its first 401. The local server puts the same two caches in
 * front of the resolver as AWS has (API Gateway's, the authorizer instance's: shared/identity/resolution-cache.ts).
 * Imports the shared table client: import only once DYNAMODB_ENDPOINT is set.
 */
import { randomUUID } from 'node:crypto';
import { signToken, type LocalKeys } from '../../lib/local/jwt';
import { revocationEpoch } from '../../shared/domain/api-keys/revocations';
import { REVOCATION_BOUND_SECONDS } from '../../shared/identity/cache-lifetimes';
import { apiClient, apiSender } from './http';
import { measureAlone, type Summary } from './latency';

export interface RevocationResults {
  /** Per revoked key: milliseconds from the revoke's answer to the first refused request. */
  delaysMs: number[];
  /** Requests each key answered 200 to after its revocation, all samples together. */
  acceptedAfter: number;
  /** The authorizer's one read for it: a workspace's epoch (a strongly consistent GetItem), every few seconds. */
  epochRead: Summary;
}

const PATH = '/v1/customers';

export async function measureRevocation(options: { baseUrl: string; keys: LocalKeys; samples: number; epochCounts: { warmup: number; measured: number } }): Promise<RevocationResults> {
  const { baseUrl, keys, samples } = options;
  const workspace = `ws_bench_rev_${randomUUID().slice(0, 8)}`;
  const admin = apiClient(baseUrl, await signToken(keys, { workspace, scope: 'read write admin' }));
  const newKey = (name: string) => admin<{ id: string; key: string }>('POST', '/v1/api-keys', 201, { name, scopes: ['read'] });
  // A key of the workspace that stays in use: it keeps the instance's view of the epoch fresh, the worst case.
  const sibling = apiClient(baseUrl, (await newKey('sibling')).key);
  const delaysMs: number[] = [];
  let acceptedAfter = 0;
  for (let i = 0; i < samples; i++) {
    const { id, key } = await newKey(`revoked ${i}`);
    const user = apiSender(baseUrl, key);
    // In use for a different while each time before the revocation, so that it falls at another phase of the caches.
    const inUseUntil = performance.now() + ((i + 0.5) / samples) * REVOCATION_BOUND_SECONDS * 1000;
    do {
      if ((await user('GET', PATH)).status !== 200) throw new Error('the key was refused before its revocation');
      await sibling('GET', PATH, 200);
    } while (performance.now() < inUseUntil);
    await admin('DELETE', `/v1/api-keys/${id}`, 200);
    const revokedAt = performance.now();
    for (;;) {
      const { status } = await user('GET', PATH);
      if (status === 401) break;
      if (status !== 200 || performance.now() - revokedAt > 60_000) throw new Error(`revoked key answered ${status} after ${Math.round(performance.now() - revokedAt)} ms`);
      acceptedAfter += 1;
    }
    delaysMs.push(performance.now() - revokedAt);
  }
  const epochRead = await measureAlone(() => revocationEpoch(workspace), options.epochCounts.warmup, options.epochCounts.measured);
  return { delaysMs, acceptedAfter, epochRead };
}
