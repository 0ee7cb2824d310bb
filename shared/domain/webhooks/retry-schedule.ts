/**
 * When to try a failed delivery again: 30 s after the first failure, doubling each time up to 12 h between
 * attempts, each delay jittered by ±20 % so endpoints that failed together are not retried together. Once the
 * next attempt would fall more than 3 days after the message was created, the delivery is marked failed
 * (about 15 attempts in all).
 */
export const FIRST_RETRY_MS = 30_000;
export const MAX_RETRY_DELAY_MS = 12 * 3600_000;
export const GIVE_UP_AFTER_MS = 3 * 24 * 3600_000;

/** `attempt` is the number of the attempt that just failed (1-based); `random` is in [0, 1). */
export function retryDelay(attempt: number, random: number): number {
  const base = Math.min(FIRST_RETRY_MS * 2 ** (attempt - 1), MAX_RETRY_DELAY_MS);
  return Math.round(base * (0.8 + 0.4 * random));
}

/** The time of the next attempt, or undefined when the 3-day window is over. */
export function nextAttemptAt(createdAt: number, failedAt: number, attempt: number, random: number): number | undefined {
  const next = failedAt + retryDelay(attempt, random);
  return next - createdAt > GIVE_UP_AFTER_MS ? undefined : next;
}
