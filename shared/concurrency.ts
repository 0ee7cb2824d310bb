/** `items` in consecutive slices of at most `size` (DynamoDB's batch limits: 25 writes, 100 reads). */
export const chunksOf = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/** Runs `work` on every item, at most `limit` at a time, in order of start. */
export async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Adds `value` to the list kept under `key` (grouping without copying the list each time). */
export function pushTo<K, V>(groups: Map<K, V[]>, key: K, value: V): void {
  const list = groups.get(key);
  if (list) list.push(value);
  else groups.set(key, [value]);
}
