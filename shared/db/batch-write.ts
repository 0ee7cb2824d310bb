import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { chunksOf, eachLimited } from '../concurrency';
import { db, tableName } from './client';
import type { Key } from './keys';

/** BatchWriteItem takes at most 25 puts. */
const PER_CALL = 25;
const PARALLEL_CALLS = 16;
const MAX_ATTEMPTS = 6;

/**
 * Puts items (each key at most once) with BatchWriteItem: 25 a call, 16 calls at a time, UnprocessedItems re-sent
 * with backoff. Unconditional, so only for items a replay may overwrite (usage events). Returns the items DynamoDB
 * still refused after MAX_ATTEMPTS.
 */
export async function putItems<T extends Key>(items: readonly T[]): Promise<T[]> {
  const refused: T[] = [];
  await eachLimited(chunksOf(items, PER_CALL), PARALLEL_CALLS, async (chunk) => refused.push(...(await putChunk(chunk))));
  return refused;
}

const keyOf = (key: Key) => `${key.pk}|${key.sk}`;

async function putChunk<T extends Key>(items: T[]): Promise<T[]> {
  let pending = items;
  for (let attempt = 0; pending.length > 0 && attempt < MAX_ATTEMPTS; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 25 * 2 ** attempt));
    const reply = await db.send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending.map((Item) => ({ PutRequest: { Item } })) } }));
    const left = new Set((reply.UnprocessedItems?.[tableName()] ?? []).map((r) => keyOf(r.PutRequest?.Item as Key)));
    pending = pending.filter((item) => left.has(keyOf(item)));
  }
  return pending;
}
