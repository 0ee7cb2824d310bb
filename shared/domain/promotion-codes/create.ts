import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { retryOnRace } from '../../db/items';
import { counterUpdate } from '../../db/pagination';
import { ConditionFailed, transactWrite } from '../../db/transactions';
import { newId } from '../../ids';
import { codeTaken } from './errors';
import { applyPromotionCodeCreate, assertPromotionCodeShape, type PromotionCodeCreateInput } from './input';
import {
  codeLookupItem, newPromotionCodeItem, PROMOTION_CODE, promotionCodeListFields, toPromotionCode, type PromotionCode,
} from './promotion-code';
import { couponUsable, restrictionChecks } from './references';

/**
 * Creates a promotion code in one transaction: the code, its uniqueness item (`attribute_not_exists`: of
 * concurrent creates of one code, in any case, exactly one wins and the others get 409 `promotion_code_exists`),
 * the list counter, and checks that the coupon is usable and the restricted customer and product exist.
 */
export async function createPromotionCode(ctx: Ctx, input: PromotionCodeCreateInput, clientId: string | null): Promise<PromotionCode> {
  assertPromotionCodeShape(input);
  const id = newId('promo');
  return retryOnRace(async () => {
    const now = ctx.clock.now().toISOString();
    const item = applyPromotionCodeCreate(newPromotionCodeItem(ctx, id, now), input, clientId);
    item.lf = promotionCodeListFields(item);
    const checks = [couponUsable(ctx, item.coupon_id, now), ...restrictionChecks(ctx, item)];
    const items = [
      { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
      { Put: { TableName: tableName(), Item: codeLookupItem(ctx, item), ConditionExpression: 'attribute_not_exists(pk)' } },
      counterUpdate(ctx, PROMOTION_CODE, 1),
    ];
    try {
      await transactWrite([...items, ...checks.map((c) => c.item)]);
    } catch (error) {
      if (!(error instanceof ConditionFailed)) throw error;
      if (error.index === 1) throw codeTaken(item.code);
      if (error.index >= items.length) throw checks[error.index - items.length]!.error(error.item);
      throw error;
    }
    return toPromotionCode(item);
  });
}
