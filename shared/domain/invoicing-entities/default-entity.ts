import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { getItem } from '../../db/items';
import { settingKey } from '../../db/keys';
import type { TransactItem } from '../../db/transactions';
import { entityItemKey } from './invoicing-entity';

/**
 * Which entity is the default lives in one pointer item. Every change of default rewrites the pointer on the
 * condition that it still names the default we read, and flips both entities' `is_default` in the same
 * transaction: concurrent changes serialise on the pointer, so exactly one entity is ever the default.
 */
const pointerKey = (ctx: Ctx) => settingKey(ctx, 'DEFAULT_INVOICING_ENTITY');

export async function readDefaultEntityId(ctx: Ctx): Promise<string | undefined> {
  const pointer = await getItem<{ entity_id: string }>(pointerKey(ctx), true);
  return pointer?.entity_id;
}

/** Transaction items that make `newId` the default in place of `currentId` (undefined: there was none). */
export function becomeDefaultItems(ctx: Ctx, newId: string, currentId: string | undefined, now: string): TransactItem[] {
  const pointer: TransactItem = {
    Put: {
      TableName: tableName(),
      Item: { ...pointerKey(ctx), _type: 'setting', entity_id: newId },
      ConditionExpression: currentId ? 'entity_id = :current' : 'attribute_not_exists(pk)',
      ...(currentId && { ExpressionAttributeValues: { ':current': currentId } }),
    },
  };
  if (!currentId || currentId === newId) return [pointer];
  const unsetPrevious: TransactItem = {
    Update: {
      TableName: tableName(),
      Key: entityItemKey(ctx, currentId),
      UpdateExpression: 'SET is_default = :false, updated_at = :now, #v = #v + :one',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#v': '_version' },
      ExpressionAttributeValues: { ':false': false, ':now': now, ':one': 1 },
    },
  };
  return [pointer, unsetPrevious];
}
