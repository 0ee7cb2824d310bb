import { GIVE_UP_AFTER_MS, nextAttemptAt, retryDelay } from '../../shared/domain/webhooks/retry-schedule';

describe('retry schedule', () => {
  it('doubles from 30 s, capped at 12 h, jittered by ±20 %', () => {
    expect(retryDelay(1, 0.5)).toBe(30_000);
    expect(retryDelay(2, 0.5)).toBe(60_000);
    expect(retryDelay(3, 0.5)).toBe(120_000);
    expect(retryDelay(30, 0.5)).toBe(12 * 3600_000);
    expect(retryDelay(1, 0)).toBe(24_000);
    expect(retryDelay(1, 0.999999)).toBeLessThanOrEqual(36_000);
  });

  it('gives up once the next attempt would be more than 3 days after the message', () => {
    let at = 0;
    let attempts = 1;
    for (;;) {
      const next = nextAttemptAt(0, at, attempts, 0.5);
      if (next === undefined) break;
      expect(next - at).toBeGreaterThan(0);
      at = next;
      attempts += 1;
    }
    expect(at).toBeLessThanOrEqual(GIVE_UP_AFTER_MS);
    expect(at).toBeGreaterThan(GIVE_UP_AFTER_MS - 12 * 3600_000 * 1.2);
    expect(attempts).toBeGreaterThan(10);
    expect(attempts).toBeLessThan(20);
  });
});
