import { isDeepStrictEqual } from 'node:util';

/** True when a public representation changed beyond its `updated_at` (a currency lock, say, changes nothing visible). */
export function changedPublicly<T extends { updated_at: string }>(before: T, after: T): boolean {
  return !isDeepStrictEqual({ ...before, updated_at: '' }, { ...after, updated_at: '' });
}
