import fc from 'fast-check';
import { API_KEY_PATTERN, apiKeyIdOf, hashApiKey, newApiKey, redactApiKey, workspaceNamedBy } from '../../shared/domain/api-keys/api-key';

const workspaceIds = fc.stringMatching(/^ws_[A-Za-z0-9_-]{1,61}$/);

describe('API key format', () => {
  it('names its workspace, whatever the workspace id, and matches sk_<env>_<base62>', () => {
    fc.assert(
      fc.property(workspaceIds, fc.constantFrom('live', 'test'), (workspace, env) => {
        const key = newApiKey(workspace, env);
        expect(key).toMatch(API_KEY_PATTERN);
        expect(key.startsWith(`sk_${env}_`)).toBe(true);
        expect(workspaceNamedBy(key)).toBe(workspace);
      }),
    );
  });

  it('differs every time (192 random bits) and hashes to an id of 128 bits of its SHA-256', () => {
    const keys = Array.from({ length: 200 }, () => newApiKey('ws_same'));
    expect(new Set(keys).size).toBe(keys.length);
    const hash = hashApiKey(keys[0]!);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(apiKeyIdOf(hash)).toBe(`key_${hash.slice(0, 32)}`);
  });

  it('names no workspace when the text is not a whole key: truncated, extended, altered prefix, not base62', () => {
    fc.assert(
      fc.property(workspaceIds, fc.integer({ min: 1, max: 5 }), (workspace, cut) => {
        const key = newApiKey(workspace);
        expect(workspaceNamedBy(key.slice(0, -cut))).toBeUndefined();
        expect(workspaceNamedBy(`${key}${'0'.repeat(cut)}`)).toBeUndefined();
      }),
    );
    for (const text of ['sk_live_', 'pk_live_abc', 'sk_live_!!!!!!!!!!!!!!!!!!!!!!!!', `sk_LIVE_${'a'.repeat(60)}`, `sk_live_${'A'.repeat(60)}`]) {
      expect([text, workspaceNamedBy(text)]).toEqual([text, undefined]);
    }
  });

  it('is shown redacted as its prefix and last four characters only', () => {
    fc.assert(
      fc.property(workspaceIds, (workspace) => {
        const key = newApiKey(workspace, 'live');
        expect(redactApiKey(key)).toBe(`sk_live_…${key.slice(-4)}`);
      }),
    );
  });
});
