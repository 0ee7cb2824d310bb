import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { chunksOf, eachLimited } from '../concurrency';
import { db, tableName } from './client';
import type { Key } from './keys';
import { isPassing } from './transient';

/** BatchWriteItem takes at most 25 puts. */
const PER_CALL = 25;
const PARALLEL_CALLS = 16;
const MAX_ATTEMPTS = 6;

/**
 * Puts items (each key at most once) with BatchWriteItem: 25 a call, 16 calls at a time, UnprocessedItems re-sent
 * with exponential backoff, as AWS advises; so is a call that failed whole with a transient error (DynamoDB answers
 * ProvisionedThroughputExceeded when it could process none of the items, a store under load may time out or fault).
 * Unconditional, so only for items a replay may overwrite (usage events). Returns the items DynamoDB still refused
 * after MAX_ATTEMPTS, and those not written by `deadline` (ms since the epoch): a call not answered by then is left
 * to land or not, which a replay of the same items makes right.
 */
export async function putItems<T extends Key>(items: readonly T[], deadline = Number.POSITIVE_INFINITY): Promise<T[]> {
  const refused: T[] = [];
  await eachLimited(chunksOf(items, PER_CALL), PARALLEL_CALLS, async (chunk) => refused.push(...(await putChunk(chunk, deadline))));
  return refused;
}

const keyOf = (key: Key) => `${key.pk}|${key.sk}`;

async function putChunk<T extends Key>(items: T[], deadline: number): Promise<T[]> {
  let pending = items;
  for (let attempt = 0; pending.length > 0 && attempt < MAX_ATTEMPTS; attempt++) {
    const backoff = attempt > 0 ? 25 * 2 ** attempt : 0;
    if (Date.now() + backoff >= deadline) break;
    if (backoff > 0) await new Promise((resolve) => setTimeout(resolve, backoff));
    const left = await unprocessed(pending, deadline);
    if (left === 'late') break;
    pending = pending.filter((item) => left.has(keyOf(item)));
  }
  return pending;
}

/** One BatchWriteItem: the keys DynamoDB left unprocessed (all of them on a transient failure), or 'late' past `deadline`. */
async function unprocessed(items: Key[], deadline: number): Promise<Set<string> | 'late'> {
  const call = db.send(new BatchWriteCommand({ RequestItems: { [tableName()]: items.map((Item) => ({ PutRequest: { Item } })) } })).then(
    (reply) => new Set((reply.UnprocessedItems?.[tableName()] ?? []).map((r) => keyOf(r.PutRequest?.Item as Key))),
    (error: unknown) => {
      if (isPassing(error)) return new Set(items.map(keyOf));
      throw error;
    },
  );
  if (!Number.isFinite(deadline)) return call;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), Math.max(0, deadline - Date.now()))));
  try {
    return await Promise.race([call, late]);
  } finally {
    clearTimeout(timer);
    call.catch(() => undefined); // a call answered after the deadline is no one's to report
  }
}
