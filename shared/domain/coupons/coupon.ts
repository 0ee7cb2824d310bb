import type { Ctx } from '../../context';
import type { StoredItem } from '../../db/items';
import { entityKey, listIndexKeys } from '../../db/keys';

export const COUPON = 'COU';

export type CouponType = 'amount' | 'percent';
export type CouponRepeat = 'once' | 'forever' | 'duration';
export interface CouponDuration {
  period: 'days' | 'weeks' | 'months' | 'years';
  count: number;
}

/** Members stored as they are returned. */
export interface CouponMembers {
  id: string;
  name: string;
  description: string | null;
  type: CouponType;
  discount_amount: number | null;
  currency: string | null;
  discount_percent: number | null;
  repeat: CouponRepeat;
  duration: CouponDuration | null;
  product_ids: string[] | null;
  redemption_limit: number | null;
  /** Redemptions through promotion codes so far: an atomic counter, never above `redemption_limit`. */
  redemption_count: number;
  expiration_date: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export type CouponItem = StoredItem & CouponMembers;

export const couponItemKey = (ctx: Ctx, id: string) => entityKey(ctx, COUPON, id);

export function newCouponItem(ctx: Ctx, id: string, now: string): CouponItem {
  return {
    ...couponItemKey(ctx, id),
    ...listIndexKeys(ctx, COUPON, now, id),
    _type: 'coupon',
    _version: 0,
    id,
    name: '',
    description: null,
    type: 'percent',
    discount_amount: null,
    currency: null,
    discount_percent: null,
    repeat: 'once',
    duration: null,
    product_ids: null,
    redemption_limit: null,
    redemption_count: 0,
    expiration_date: null,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
}

/** The public representation: every member, `null` when unset (the other type's discount members included). */
export function toCoupon(item: CouponItem) {
  return {
    id: item.id,
    name: item.name,
    description: item.description,
    type: item.type,
    discount_amount: item.discount_amount,
    currency: item.currency,
    discount_percent: item.discount_percent,
    repeat: item.repeat,
    duration: item.duration && { period: item.duration.period, count: item.duration.count },
    product_ids: item.product_ids,
    redemption_limit: item.redemption_limit,
    redemption_count: item.redemption_count,
    expiration_date: item.expiration_date,
    created_at: item.created_at,
    updated_at: item.updated_at,
    deleted_at: item.deleted_at,
  };
}

export type Coupon = ReturnType<typeof toCoupon>;

/** A coupon can be redeemed (and given new promotion codes) while not deleted and not past its expiration date. */
export const couponExpired = (coupon: Pick<CouponMembers, 'expiration_date'>, at: Date): boolean =>
  coupon.expiration_date !== null && Date.parse(coupon.expiration_date) <= at.getTime();
