import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import type { TransactItem } from '../../db/transactions';
import type { DomainError } from '../../errors';
import { couponItemKey, type CouponItem } from '../coupons/coupon';
import { customerItemKey } from '../customers/customer';
import { couponUnusable, customerNotFound } from './errors';

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

/** A customer restriction must name a customer of the workspace that is not deleted. */
export const customerExists = (ctx: Ctx, customerId: string): Check => ({
  item: {
    ConditionCheck: {
      TableName: tableName(),
      Key: customerItemKey(ctx, customerId),
      ConditionExpression: 'attribute_exists(pk) AND attribute_type(deleted_at, :null)',
      ExpressionAttributeValues: { ':null': 'NULL' },
    },
  },
  error: () => customerNotFound(customerId),
});
