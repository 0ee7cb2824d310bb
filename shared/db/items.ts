import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ServiceUnavailable } from '../errors';
import { db, tableName } from './client';
import type { Key } from './keys';
import { BalanceChanged } from './ledger';
import { currentEffectClaim } from './effect-claim';
import { ConditionFailed, transactWrite, translateWriteError } from './transactions';

/** Attributes every stored entity carries beside its public members. */
export interface StoredItem extends Key {
  _type: string;
  _version: number;
  gsi1pk?: string;
  gsi1sk?: string;
  lf?: Record<string, unknown>;
}

export async function getItem<T>(key: Key, consistent = false): Promise<T | undefined> {
  const result = await db.send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: consistent }));
  return result.Item as T | undefined;
}

/** Puts an item only if nobody changed it since it was read (its `_version`), bumping the version. */
export async function putIfUnchanged<T extends StoredItem>(item: T, readVersion: number): Promise<T> {
  const next = { ...item, _version: readVersion + 1 };
  const put = { TableName: tableName(), Item: next, ...versionCondition(readVersion) };
  // Under an Idempotency-Key the write must carry the key's completion: a transaction of the two (effect-claim.ts).
  if (currentEffectClaim()) {
    await transactWrite([{ Put: put }]);
    return next;
  }
  try {
    await db.send(new PutCommand(put));
  } catch (error) {
    throw translateWriteError(error);
  }
  return next;
}

export const versionCondition = (readVersion: number) => ({
  ConditionExpression: '#v = :v',
  ExpressionAttributeNames: { '#v': '_version' },
  ExpressionAttributeValues: { ':v': readVersion },
});

/**
 * The wait before retry `attempt` (0, 1, …) after a lost race: full jitter, capped, so a hot item (dozens of writers at
 * once) drains in a few rounds, not an avalanche.
 */
export const raceBackoff = (attempt: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(10 * 2 ** attempt, 200)));

/**
 * Runs read-modify-write `attempt` again when a concurrent writer got there first (a failed version condition
 * or a transaction conflict), so a lost race costs a retry, never a lost update. Gives up with a retryable 503.
 */
export async function retryOnRace<T>(attempt: () => Promise<T>, attempts = 25): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      const raced = error instanceof ConditionFailed || error instanceof ServiceUnavailable || error instanceof BalanceChanged;
      if (!raced || i + 1 >= attempts) throw raced ? new ServiceUnavailable() : error;
      await raceBackoff(i);
    }
  }
}
