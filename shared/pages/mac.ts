import { timingSafeEqual } from 'node:crypto';

/**
 * Whether `given` (base64url) is the MAC `expected`, in its one canonical spelling. 16 bytes take 22 characters
 * whose last carries 4 padding bits that decoding ignores, so 16 strings decode to the same bytes: the bytes are
 * compared in constant time, then the string must be their own encoding (the MAC matched by then, so this second
 * comparison tells nothing secret). A link or form token thus has exactly one accepted form.
 */
export function macMatches(given: string, expected: Buffer): boolean {
  const actual = Buffer.from(given, 'base64url');
  return actual.length === expected.length && timingSafeEqual(actual, expected) && actual.toString('base64url') === given;
}
