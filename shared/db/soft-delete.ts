import type { Ctx } from '../context';
import { tableName } from './client';
import type { EntityType, Key } from './keys';
import { counterUpdate } from './pagination';
import { transactWrite, type TransactItem } from './transactions';

/**
 * Soft delete in one transaction: `deleted_at` set, the item leaves the list index (and its parent's list, gsi3), the
 * list count drops by one. Conditioned on the version read, so a concurrent change makes it retry instead of deleting a
 * stale state. `extraCondition` adds a rule that must still hold (e.g. "not the default entity"); `alsoWrite` adds
 * entries to the transaction (a parent's counter).
 */
export async function softDelete(
  ctx: Ctx, type: EntityType, key: Key, readVersion: number, now: string, extraCondition = '', alsoWrite: TransactItem[] = [],
): Promise<void> {
  await transactWrite([
    {
      Update: {
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'SET deleted_at = :now, updated_at = :now, #v = #v + :one REMOVE gsi1pk, gsi1sk, gsi3pk, gsi3sk',
        ConditionExpression: `#v = :version${extraCondition}`,
        ExpressionAttributeNames: { '#v': '_version' },
        ExpressionAttributeValues: { ':now': now, ':one': 1, ':version': readVersion },
      },
    },
    counterUpdate(ctx, type, -1),
    ...alsoWrite,
  ]);
}

/** The item as the soft delete left it, without re-reading it. */
export function asSoftDeleted<T extends { gsi1pk?: string; gsi1sk?: string; gsi3pk?: string; gsi3sk?: string; _version: number }>(item: T, now: string): T {
  const { gsi1pk: _p, gsi1sk: _s, gsi3pk: _pp, gsi3sk: _ps, ...rest } = item;
  return { ...(rest as T), deleted_at: now, updated_at: now, _version: item._version + 1 };
}
