import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Ctx } from '../../context';
import { db, tableName } from '../../db/client';
import { retryOnRace } from '../../db/items';
import { asSoftDeleted, softDelete } from '../../db/soft-delete';
import { ConditionFailed, translateWriteError } from '../../db/transactions';
import { CUSTOMER, customerItemKey, toCustomer, type Customer, type CustomerItem } from './customer';
import { customerNotFound, findCustomerItem } from './read';
import { customerDeleted } from './update';

/**
 * Archive and unarchive: one conditional write. Asking for the status the customer already has is a no-op
 * that returns it unchanged (like archiving a product twice).
 */
export async function setCustomerStatus(ctx: Ctx, id: string, status: 'active' | 'archived'): Promise<Customer> {
  try {
    const result = await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: customerItemKey(ctx, id),
        UpdateExpression: 'SET #status = :status, lf.#status = :status, updated_at = :now, #v = #v + :one',
        ConditionExpression: 'attribute_exists(pk) AND attribute_type(deleted_at, :null) AND #status <> :status',
        ExpressionAttributeNames: { '#status': 'status', '#v': '_version' },
        ExpressionAttributeValues: { ':status': status, ':now': ctx.clock.now().toISOString(), ':one': 1, ':null': 'NULL' },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return toCustomer(result.Attributes as CustomerItem);
  } catch (error) {
    const failure = translateWriteError(error);
    if (!(failure instanceof ConditionFailed)) throw failure;
    const old = failure.item as CustomerItem | undefined;
    if (!old) throw customerNotFound(id);
    if (old.deleted_at) throw customerDeleted(id);
    return toCustomer(old);
  }
}

/** Soft delete (see softDelete): the customer keeps answering GET with `deleted_at`. Deleting twice returns it. */
export async function deleteCustomer(ctx: Ctx, id: string): Promise<Customer> {
  return retryOnRace(async () => {
    const current = await findCustomerItem(ctx, id);
    if (current.deleted_at) return toCustomer(current);
    const now = ctx.clock.now().toISOString();
    await softDelete(ctx, CUSTOMER, customerItemKey(ctx, id), current._version, now);
    return toCustomer(asSoftDeleted(current, now));
  });
}
