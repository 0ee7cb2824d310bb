import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { retryOnRace, versionCondition } from '../../db/items';
import { counterUpdate } from '../../db/pagination';
import { transactWrite } from '../../db/transactions';
import { defaultRequired } from './errors';
import { ENTITY, entityItemKey, toInvoicingEntity, type InvoicingEntity } from './invoicing-entity';
import { findEntityItem } from './read';

/**
 * Soft delete: sets `deleted_at` and takes the entity out of the list (and its count) in one transaction.
 * Deleting twice returns the deleted entity. The default entity cannot be deleted.
 */
export async function deleteInvoicingEntity(ctx: Ctx, id: string): Promise<InvoicingEntity> {
  return retryOnRace(async () => {
    const current = await findEntityItem(ctx, id, true);
    if (current.deleted_at) return toInvoicingEntity(current);
    if (current.is_default) throw defaultRequired();
    const now = ctx.clock.now().toISOString();
    const condition = versionCondition(current._version);
    await transactWrite([
      {
        Update: {
          TableName: tableName(),
          Key: entityItemKey(ctx, id),
          UpdateExpression: 'SET deleted_at = :now, updated_at = :now, #v = #v + :one REMOVE gsi1pk, gsi1sk',
          ConditionExpression: condition.ConditionExpression,
          ExpressionAttributeNames: condition.ExpressionAttributeNames,
          ExpressionAttributeValues: { ...condition.ExpressionAttributeValues, ':now': now, ':one': 1 },
        },
      },
      counterUpdate(ctx, ENTITY, -1),
    ]);
    const { gsi1pk: _p, gsi1sk: _s, ...rest } = current;
    return toInvoicingEntity({ ...rest, deleted_at: now, updated_at: now, _version: current._version + 1 });
  });
}
