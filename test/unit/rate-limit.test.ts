import fc from 'fast-check';
import { rateLimitHeaders, requestKind, retryAfterSeconds, windowOf, type RateLimitState } from '../../shared/http/rate-limit';
import { DEFAULT_RATE_LIMITS, rateLimitEnvironment, settingsFromEnvironment } from '../../shared/http/rate-limit-settings';

describe('rate-limit settings from the environment', () => {
  it('are decisions.md\'s when nothing is set: 200 reads and 50 writes per 10 s', () => {
    expect(settingsFromEnvironment({})).toEqual({ reads: 200, writes: 50, windowSeconds: 10 });
  });

  it('RATE_LIMIT_ENABLED=false switches the limiter off', () => {
    expect(settingsFromEnvironment({ RATE_LIMIT_ENABLED: 'false', RATE_LIMIT_READS: '5' })).toBeNull();
    expect(settingsFromEnvironment({ RATE_LIMIT_ENABLED: ' FALSE ' })).toBeNull();
    expect(settingsFromEnvironment({ RATE_LIMIT_ENABLED: 'true' })).toEqual(DEFAULT_RATE_LIMITS);
  });

  it('a missing or malformed value takes its default, never zero or a fraction (which would refuse everything)', () => {
    for (const bad of ['', ' ', '0', '-5', '1.5', 'abc', '1e400']) {
      expect(settingsFromEnvironment({ RATE_LIMIT_READS: bad, RATE_LIMIT_WRITES: bad, RATE_LIMIT_WINDOW_SECONDS: bad })).toEqual(DEFAULT_RATE_LIMITS);
    }
    expect(settingsFromEnvironment({ RATE_LIMIT_READS: '1000', RATE_LIMIT_WRITES: '7', RATE_LIMIT_WINDOW_SECONDS: '60' })).toEqual({ reads: 1000, writes: 7, windowSeconds: 60 });
  });

  it('what the CDK stack sets is what the handlers read back', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e9 }), fc.integer({ min: 1, max: 1e9 }), fc.integer({ min: 1, max: 86_400 }), (reads, writes, windowSeconds) => {
        expect(settingsFromEnvironment(rateLimitEnvironment({ reads, writes, windowSeconds }))).toEqual({ reads, writes, windowSeconds });
      }),
    );
    expect(settingsFromEnvironment(rateLimitEnvironment(null))).toBeNull();
  });
});

describe('windows, kinds and headers', () => {
  it('fixed windows aligned on the epoch: every instance puts a moment in the same window, which holds it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4e12 }), fc.integer({ min: 1, max: 3600 }), (ms, seconds) => {
        const { start, end } = windowOf(new Date(ms), seconds);
        expect(start.getTime() % (seconds * 1000)).toBe(0);
        expect(end.getTime() - start.getTime()).toBe(seconds * 1000);
        expect(start.getTime() <= ms && ms < end.getTime()).toBe(true);
      }),
    );
  });

  it('GET is a read; every other method a write', () => {
    expect(['GET', 'get', 'POST', 'PUT', 'PATCH', 'DELETE'].map(requestKind)).toEqual(['read', 'read', 'write', 'write', 'write', 'write']);
  });

  const state = (count: number, resetInMs: number): RateLimitState => ({ limit: 200, count, resetAt: new Date('2026-01-01T00:00:10.000Z'), resetInMs });

  it('remaining never goes below 0; Retry-After only once over the limit, in whole seconds rounded up, at least 1', () => {
    expect(rateLimitHeaders(state(1, 9_000))).toEqual({ 'x-ratelimit-limit': '200', 'x-ratelimit-remaining': '199', 'x-ratelimit-reset': '2026-01-01T00:00:10.000Z' });
    expect(rateLimitHeaders(state(200, 9_000))['x-ratelimit-remaining']).toBe('0');
    expect(rateLimitHeaders(state(200, 9_000))['retry-after']).toBeUndefined();
    expect(rateLimitHeaders(state(350, 7_001))).toMatchObject({ 'x-ratelimit-remaining': '0', 'retry-after': '8' });
    expect(retryAfterSeconds(state(201, 1))).toBe(1);
    expect(retryAfterSeconds(state(201, 10_000))).toBe(10);
  });
});
