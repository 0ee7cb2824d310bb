import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { counterUpdate } from '../../db/pagination';
import { transactWrite } from '../../db/transactions';
import { newId } from '../../ids';
import { assertProductsExist } from '../catalog/usable';
import { COUPON, newCouponItem, toCoupon, type Coupon } from './coupon';
import { applyCouponCreate, assertCouponShape, type CouponCreateInput } from './input';

/**
 * Creates a coupon: one transaction, the item and the list counter. The products it is restricted to must be
 * products of the workspace (422 `product_not_found`), read before the write: up to 100 of them would not fit the
 * transaction beside the coupon, and a product deleted later leaves the coupon as valid as one deleted just after.
 */
export async function createCoupon(ctx: Ctx, input: CouponCreateInput): Promise<Coupon> {
  assertCouponShape(input);
  await assertProductsExist(ctx, input.product_ids ?? []);
  const now = ctx.clock.now().toISOString();
  const item = applyCouponCreate(newCouponItem(ctx, newId('cou'), now), input);
  await transactWrite([
    { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
    counterUpdate(ctx, COUPON, 1),
  ]);
  return toCoupon(item);
}
