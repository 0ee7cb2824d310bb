import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import type { TransactItem } from '../../db/transactions';
import type { Key } from '../../db/keys';
import type { DomainError } from '../../errors';
import { planMissing, productMissing } from '../catalog/errors';
import { productKey } from '../catalog/product';
import { couponItemKey, type CouponItem } from '../coupons/coupon';
import { customerItemKey } from '../customers/customer';
import { couponUnusable, customerNotFound } from './errors';
import type { PromotionCodeItem } from './promotion-code';

/** A condition on another item, checked in the transaction that relies on it; `error` explains its failure. */
export interface Check {
  item: TransactItem;
  error: (old: Record<string, unknown> | undefined) => DomainError;
}

/** The coupon exists, is not deleted and has not expired (returns its old image on failure, to say which). */
export const couponUsable = (ctx: Ctx, couponId: string, now: string): Check => ({
  item: {
    ConditionCheck: {
      TableName: tableName(),
      Key: couponItemKey(ctx, couponId),
      ConditionExpression:
        'attribute_exists(pk) AND attribute_type(deleted_at, :null) AND (attribute_type(expiration_date, :null) OR expiration_date > :now)',
      ExpressionAttributeValues: { ':null': 'NULL', ':now': now },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  },
  error: (old) => couponUnusable(couponId, !old ? 'missing' : (old as unknown as CouponItem).deleted_at ? 'deleted' : 'expired'),
});

/** The item exists in the workspace (the key begins with it) and is not deleted. */
const liveItem = (key: Key, error: () => DomainError): Check => ({
  item: {
    ConditionCheck: {
      TableName: tableName(),
      Key: key,
      ConditionExpression: 'attribute_exists(pk) AND attribute_type(deleted_at, :null)',
      ExpressionAttributeValues: { ':null': 'NULL' },
    },
  },
  error,
});

/** A customer restriction must name a customer of the workspace that is not deleted. */
export const customerExists = (ctx: Ctx, customerId: string): Check => liveItem(customerItemKey(ctx, customerId), () => customerNotFound(customerId));

/** A product restriction must name a product of the workspace that is not deleted (archived counts). */
export const productExists = (ctx: Ctx, productId: string): Check => liveItem(productKey(ctx, productId), () => productMissing(productId));

/**
 * The checks of the restrictions a write sets anew (create: every one given; update: those that change): each must
 * name an item of the workspace, another workspace's id answering like a missing one. `plan_id` takes null only
 * (plans do not exist: catalog/errors.ts), refused before anything is written.
 */
export function restrictionChecks(ctx: Ctx, next: Restrictions, current?: Restrictions): Check[] {
  const changed = (member: keyof Restrictions) => next[member] && next[member] !== current?.[member];
  if (changed('plan_id')) throw planMissing(next.plan_id!);
  return [
    ...(changed('customer_id') ? [customerExists(ctx, next.customer_id!)] : []),
    ...(changed('product_id') ? [productExists(ctx, next.product_id!)] : []),
  ];
}

type Restrictions = Pick<PromotionCodeItem, 'customer_id' | 'product_id' | 'plan_id'>;
