/**
 * The caches in front of credential resolution (shared/identity/resolution-cache.ts), on an injected clock, with
 * the resolution and the revocation epoch as fakes that count their calls: how long a revoked or expired key may
 * still pass, and what the caches cost in reads.
 */
import type { Clock } from '../../shared/clock';
import { newApiKey } from '../../shared/domain/api-keys/api-key';
import type { Resolution } from '../../shared/identity/credentials';
import { AUTHORIZER_CACHE_SECONDS, RESOLUTION_SECONDS, REVOCATION_BOUND_SECONDS, REVOCATION_EPOCH_SECONDS } from '../../shared/identity/cache-lifetimes';
import { cachedResolver, gatewayCache, type Resolver } from '../../shared/identity/resolution-cache';

const START = Date.parse('2026-11-26T12:00:00Z');

/** A world of keys, each of a workspace, which the fakes read; `calls` lists every read in order. */
function world() {
  let now = START;
  const at: Clock = { now: () => new Date(now) };
  const revoked = new Set<string>();
  const expiry = new Map<string, number>();
  const epochs = new Map<string, number>();
  const calls: string[] = [];
  const workspaceOf = new Map<string, string>();
  const resolve = async (authorization: string | undefined): Promise<Resolution> => {
    calls.push(`resolve ${authorization}`);
    const token = authorization?.slice('Bearer '.length) ?? '';
    const workspace = workspaceOf.get(token);
    const expires = expiry.get(token);
    if (token.startsWith('eyJ')) return { kind: 'valid', context: { credential: 'jwt', workspace_id: 'ws_jwt', scope: 'read', exp: String(START / 1000 + 86_400) } };
    if (!workspace || revoked.has(token) || (expires !== undefined && expires <= now)) return { kind: 'invalid' };
    return {
      kind: 'valid',
      context: { credential: 'api_key', workspace_id: workspace, scope: 'read', ...(expires !== undefined && { exp: String(Math.floor(expires / 1000)) }) },
    };
  };
  const epochOf = async (workspace: string) => {
    calls.push(`epoch ${workspace}`);
    return epochs.get(workspace) ?? 0;
  };
  return {
    at,
    calls,
    advance: (ms: number) => {
      now += ms;
    },
    now: () => now,
    key(workspace: string, expiresAt?: number) {
      const key = newApiKey(workspace);
      workspaceOf.set(key, workspace);
      if (expiresAt !== undefined) expiry.set(key, expiresAt);
      return `Bearer ${key}`;
    },
    revoke(authorization: string) {
      const token = authorization.slice('Bearer '.length);
      revoked.add(token);
      const workspace = workspaceOf.get(token)!;
      epochs.set(workspace, (epochs.get(workspace) ?? 0) + 1); // in the revocation's transaction
    },
    authorizer: () => cachedResolver({ at, resolve: (authorization) => resolve(authorization), epochOf }),
    count: (prefix: string) => calls.filter((c) => c.startsWith(prefix)).length,
  };
}

/** Asks `resolver` every `everyMs` until it refuses `authorization` (or `limitMs` passes); the time it took. */
async function untilRefused(w: ReturnType<typeof world>, resolver: Resolver, authorization: string, everyMs: number, limitMs = 60_000): Promise<number> {
  const from = w.now();
  while (w.now() - from <= limitMs) {
    if ((await resolver(authorization)).kind !== 'valid') return w.now() - from;
    w.advance(everyMs);
  }
  throw new Error(`still accepted after ${limitMs} ms`);
}

describe("an authorizer instance's cache", () => {
  it('serves a busy key with one resolution, then one small epoch read per workspace every few seconds', async () => {
    const w = world();
    const resolver = w.authorizer();
    const keys = [w.key('ws_busy'), w.key('ws_busy'), w.key('ws_busy')];
    for (let i = 0; i < 100; i++) {
      for (const key of keys) expect((await resolver(key)).kind).toBe('valid');
      w.advance(200); // 100 rounds of 3 requests over 20 s
    }
    expect(w.count('resolve')).toBe(3); // one per key: RESOLUTION_SECONDS is longer than the run
    expect(w.count('epoch')).toBe(20 / REVOCATION_EPOCH_SECONDS); // 5 reads for 300 requests
    expect(RESOLUTION_SECONDS).toBeGreaterThan(20);
  });

  it('reads the epoch before it resolves a key, so that a revocation in between is never missed', async () => {
    const w = world();
    const key = w.key('ws_order');
    await w.authorizer()(key);
    expect(w.calls).toEqual(['epoch ws_order', `resolve ${key}`]);
  });

  it(`refuses a revoked key within REVOCATION_EPOCH_SECONDS (${REVOCATION_EPOCH_SECONDS} s) of its revocation, whenever it falls`, async () => {
    let slowest = 0;
    for (let offset = 0; offset < REVOCATION_EPOCH_SECONDS * 1000; offset += 250) {
      const w = world();
      const resolver = w.authorizer();
      const key = w.key('ws_revoked');
      const sibling = w.key('ws_revoked');
      await resolver(key);
      await resolver(sibling);
      w.advance(offset);
      w.revoke(key);
      slowest = Math.max(slowest, await untilRefused(w, resolver, key, 50));
      expect((await resolver(sibling)).kind).toBe('valid'); // the workspace's other key resolves anew, and passes
    }
    expect(slowest).toBeLessThanOrEqual(REVOCATION_EPOCH_SECONDS * 1000);
  });

  it('never hands out a key past its expiry, however recent its resolution', async () => {
    const w = world();
    const resolver = w.authorizer();
    const key = w.key('ws_expiring', START + 2_000);
    expect((await resolver(key)).kind).toBe('valid');
    w.advance(1_999);
    expect((await resolver(key)).kind).toBe('valid');
    expect(w.count('resolve')).toBe(1);
    w.advance(1);
    expect((await resolver(key)).kind).toBe('invalid');
  });

  it('reads no epoch for a JWT (an access token cannot be revoked) and keeps no refusal', async () => {
    const w = world();
    const resolver = w.authorizer();
    for (let i = 0; i < 10; i++) await resolver('Bearer eyJhbGciOiJSUzI1NiJ9.e30.sig');
    expect([w.count('resolve'), w.count('epoch')]).toEqual([1, 0]);
    const unknown = `Bearer ${newApiKey('ws_nobody')}`;
    for (let i = 0; i < 3; i++) expect((await resolver(unknown)).kind).toBe('invalid');
    expect(w.count(`resolve ${unknown}`)).toBe(3);
  });

  it('does not keep a failed epoch read: the next request reads again', async () => {
    const w = world();
    let failures = 1;
    const resolver = cachedResolver({
      at: w.at,
      resolve: async () => ({ kind: 'invalid' }),
      epochOf: async () => {
        if (failures-- > 0) throw new Error('DynamoDB unavailable');
        return 0;
      },
    });
    const key = w.key('ws_flaky');
    await expect(resolver(key)).rejects.toThrow('DynamoDB unavailable');
    await expect(resolver(key)).resolves.toEqual({ kind: 'invalid' });
  });
});

describe("behind API Gateway's cache, as on AWS", () => {
  it(`refuses a revoked key within REVOCATION_BOUND_SECONDS (${REVOCATION_BOUND_SECONDS} s ≤ 10 s), whenever it falls`, async () => {
    expect(REVOCATION_BOUND_SECONDS).toBe(AUTHORIZER_CACHE_SECONDS + REVOCATION_EPOCH_SECONDS);
    expect(REVOCATION_BOUND_SECONDS).toBeLessThanOrEqual(10);
    let slowest = 0;
    // The worst case: a sibling key keeps the instance's epoch view as old as it may be when the gateway asks again.
    for (let offset = 0; offset < REVOCATION_BOUND_SECONDS * 1000; offset += 250) {
      const w = world();
      const authorizer = w.authorizer();
      const gateway = gatewayCache(authorizer, AUTHORIZER_CACHE_SECONDS, w.at);
      const key = w.key('ws_gateway');
      const sibling = w.key('ws_gateway');
      await gateway(key);
      w.advance(offset);
      await authorizer(sibling);
      w.revoke(key);
      slowest = Math.max(slowest, await untilRefused(w, gateway, key, 50));
    }
    expect(slowest).toBeLessThanOrEqual(REVOCATION_BOUND_SECONDS * 1000);
    expect(slowest).toBeGreaterThan(AUTHORIZER_CACHE_SECONDS * 1000); // the gateway's cache is part of the bound
  });

  it('asks the authorizer once per AUTHORIZER_CACHE_SECONDS for a busy header', async () => {
    const w = world();
    const gateway = gatewayCache(w.authorizer(), AUTHORIZER_CACHE_SECONDS, w.at);
    const key = w.key('ws_busy_gateway');
    for (let i = 0; i < 100; i++) {
      await gateway(key);
      w.advance(100); // 10 s
    }
    expect(w.count('epoch')).toBe(10 / AUTHORIZER_CACHE_SECONDS);
  });
});
