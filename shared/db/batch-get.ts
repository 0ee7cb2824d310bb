import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { chunksOf } from '../concurrency';
import { db, tableName } from './client';
import type { Key } from './keys';

/**
 * Fetches items by key, 100 a BatchGetItem (the calls in parallel), keeping the order of `keys` (BatchGetItem returns
 * them in any order); missing items are left out.
 */
export async function batchGet(keys: Key[], consistent = false): Promise<Record<string, unknown>[]> {
  const found = new Map<string, Record<string, unknown>>();
  await Promise.all(chunksOf(keys, 100).map((chunk) => getChunk(chunk, consistent, found)));
  return keys.map((k) => found.get(`${k.pk}|${k.sk}`)).filter((item): item is Record<string, unknown> => !!item);
}

async function getChunk(keys: Key[], consistent: boolean, found: Map<string, Record<string, unknown>>): Promise<void> {
  let pending: Key[] = keys;
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** Math.min(attempt, 6)));
    const result = await db.send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: consistent } } }));
    for (const item of result.Responses?.[tableName()] ?? []) found.set(`${item.pk}|${item.sk}`, item);
    pending = (result.UnprocessedKeys?.[tableName()]?.Keys ?? []) as Key[];
  }
}
