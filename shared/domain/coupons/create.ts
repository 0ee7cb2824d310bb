import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { counterUpdate } from '../../db/pagination';
import { transactWrite } from '../../db/transactions';
import { newId } from '../../ids';
import { COUPON, newCouponItem, toCoupon, type Coupon } from './coupon';
import { applyCouponCreate, assertCouponShape, type CouponCreateInput } from './input';

/** Creates a coupon: one transaction, the item and the list counter. */
export async function createCoupon(ctx: Ctx, input: CouponCreateInput): Promise<Coupon> {
  assertCouponShape(input);
  const now = ctx.clock.now().toISOString();
  const item = applyCouponCreate(newCouponItem(ctx, newId('cou'), now), input);
  await transactWrite([
    { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
    counterUpdate(ctx, COUPON, 1),
  ]);
  return toCoupon(item);
}
