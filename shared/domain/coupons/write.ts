import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../db/client';
import type { StoredItem } from '../../db/items';
import { translateWriteError } from '../../db/transactions';

/**
 * Redemptions bump a counter with an atomic ADD and leave `_version` alone, so concurrent redemptions never
 * conflict with one another. An edit (a whole-item Put) must then also find the counter as it read it, or it
 * would write back a stale count: it is conditioned on both, and retried on a lost race (retryOnRace).
 */
export function unchangedCondition(readVersion: number, counter: string, readCount: number) {
  return {
    ConditionExpression: '#v = :v AND #count = :count',
    ExpressionAttributeNames: { '#v': '_version', '#count': counter },
    ExpressionAttributeValues: { ':v': readVersion, ':count': readCount },
  };
}

export async function putIfUnchangedCounting<T extends StoredItem>(item: T, readVersion: number, counter: keyof T & string): Promise<T> {
  const next = { ...item, _version: readVersion + 1 };
  try {
    await db.send(new PutCommand({ TableName: tableName(), Item: next, ...unchangedCondition(readVersion, counter, Number(item[counter])) }));
  } catch (error) {
    throw translateWriteError(error);
  }
  return next;
}
