import { randomBytes } from 'node:crypto';

/** Crockford base32, as ULID specifies. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

let lastTime = -1;
let lastRandom: number[] = [];

function randomDigits(): number[] {
  const bytes = randomBytes(16);
  return Array.from({ length: 16 }, (_, i) => bytes[i]! % 32);
}

/** Adds one to the random part; ULIDs made in the same millisecond stay in creation order. */
function increment(digits: number[]): number[] {
  const next = [...digits];
  for (let i = next.length - 1; i >= 0; i--) {
    if (next[i]! < 31) {
      next[i]! += 1;
      return next;
    }
    next[i] = 0;
  }
  throw new Error('ULID random part overflowed within one millisecond');
}

/** A monotonic ULID: 10 characters of milliseconds, 16 of randomness. */
export function ulid(time: number = Date.now()): string {
  lastRandom = time === lastTime ? increment(lastRandom) : randomDigits();
  lastTime = time;
  let timePart = '';
  for (let t = time, i = 0; i < 10; i++, t = Math.floor(t / 32)) {
    timePart = ALPHABET[t % 32] + timePart;
  }
  return timePart + lastRandom.map((d) => ALPHABET[d]).join('');
}

/**
 * A ULID made from a time and a seed instead of randomness: the same seed gives the same id, so work that is
 * retried (a stream batch delivered twice) writes the same items, not duplicates.
 */
export function deterministicUlid(time: number, seed: Buffer): string {
  let timePart = '';
  for (let t = time, i = 0; i < 10; i++, t = Math.floor(t / 32)) timePart = ALPHABET[t % 32] + timePart;
  return timePart + Array.from({ length: 16 }, (_, i) => ALPHABET[seed[i]! % 32]).join('');
}

/** The smallest and largest ULIDs of a millisecond: bounds for time-range key conditions. */
export const ulidTimeBounds = (time: number): [string, string] => {
  const start = deterministicUlid(time, Buffer.alloc(16, 0));
  return [start, start.slice(0, 10) + 'Z'.repeat(16)];
};

export type IdPrefix = 'cus' | 'ive' | 'cli' | (string & {});

export const newId = (prefix: IdPrefix, time?: number): string => `${prefix}_${ulid(time)}`;
