import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { retryOnRace } from '../../db/items';
import { asSoftDeleted } from '../../db/soft-delete';
import { counterUpdate } from '../../db/pagination';
import { ConditionFailed, transactWrite } from '../../db/transactions';
import { limitBelowRedemptions } from '../coupons/errors';
import { putIfUnchangedCounting, unchangedCondition } from '../coupons/write';
import { promotionCodeDeleted } from './errors';
import { applyPromotionCodeUpdate, type PromotionCodeUpdateInput } from './input';
import { findPromotionCodeItem } from './read';
import {
  codeLookupKey, PROMOTION_CODE, promotionCodeItemKey, promotionCodeListFields, toPromotionCode, type PromotionCode,
} from './promotion-code';
import { restrictionChecks } from './references';

/**
 * Partial update of the restrictions and availability (`null` clears). `max_redemptions` cannot go below
 * `current_redemptions` (422); a new `customer_id` or `product_id` must name one of the workspace (422), checked in
 * the write's transaction.
 */
export async function updatePromotionCode(ctx: Ctx, id: string, input: PromotionCodeUpdateInput): Promise<PromotionCode> {
  return retryOnRace(async () => {
    const current = await findPromotionCodeItem(ctx, id);
    if (current.deleted_at) throw promotionCodeDeleted(id);
    const next = applyPromotionCodeUpdate(current, input, ctx.clock.now().toISOString());
    if (next.max_redemptions !== null && next.max_redemptions < current.current_redemptions) {
      throw limitBelowRedemptions('promotion code', 'max_redemptions', next.max_redemptions, current.current_redemptions);
    }
    next.lf = promotionCodeListFields(next);
    const checks = restrictionChecks(ctx, next, current);
    if (checks.length === 0) return toPromotionCode(await putIfUnchangedCounting(next, current._version, 'current_redemptions'));
    const written = { ...next, _version: current._version + 1 };
    try {
      await transactWrite([
        { Put: { TableName: tableName(), Item: written, ...unchangedCondition(current._version, 'current_redemptions', current.current_redemptions) } },
        ...checks.map((c) => c.item),
      ]);
    } catch (error) {
      if (error instanceof ConditionFailed && error.index >= 1) throw checks[error.index - 1]!.error(error.item);
      throw error;
    }
    return toPromotionCode(written);
  });
}

/**
 * Soft delete in one transaction: `deleted_at` set, out of the list and its count, and the code released (its
 * uniqueness item removed), so the same code can be created again. GET still answers; a deleted code is never
 * redeemed. Deleting twice returns the deleted code.
 */
export async function deletePromotionCode(ctx: Ctx, id: string): Promise<PromotionCode> {
  return retryOnRace(async () => {
    const current = await findPromotionCodeItem(ctx, id);
    if (current.deleted_at) return toPromotionCode(current);
    const now = ctx.clock.now().toISOString();
    await transactWrite([
      {
        Update: {
          TableName: tableName(),
          Key: promotionCodeItemKey(ctx, id),
          UpdateExpression: 'SET deleted_at = :now, updated_at = :now, #v = #v + :one REMOVE gsi1pk, gsi1sk',
          ConditionExpression: '#v = :version',
          ExpressionAttributeNames: { '#v': '_version' },
          ExpressionAttributeValues: { ':now': now, ':one': 1, ':version': current._version },
        },
      },
      {
        Delete: {
          TableName: tableName(),
          Key: codeLookupKey(ctx, current.code),
          ConditionExpression: 'attribute_not_exists(pk) OR promotion_code_id = :id',
          ExpressionAttributeValues: { ':id': id },
        },
      },
      counterUpdate(ctx, PROMOTION_CODE, -1),
    ]);
    return toPromotionCode(asSoftDeleted(current, now));
  });
}
