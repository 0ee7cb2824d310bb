/** All time comes from here, so tests and the scheduled handlers can move it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

let current: Clock = systemClock;

export const clock: Clock = { now: () => current.now() };

/** Replaces the process clock (tests, local runtime). Returns a function that restores the previous one. */
export function useClock(next: Clock): () => void {
  const previous = current;
  current = next;
  return () => {
    current = previous;
  };
}

export const isoNow = (at: Clock = clock): string => at.now().toISOString();
