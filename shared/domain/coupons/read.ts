import type { Ctx } from '../../context';
import { getItem } from '../../db/items';
import { listPage, type Page } from '../../db/pagination';
import { COUPON, couponItemKey, toCoupon, type Coupon, type CouponItem } from './coupon';
import { couponNotFound } from './errors';

/** Strongly consistent: a coupon is readable by the request right after the one that created it. */
export async function findCouponItem(ctx: Ctx, id: string): Promise<CouponItem> {
  const item = await getItem<CouponItem>(couponItemKey(ctx, id), true);
  if (!item) throw couponNotFound(id);
  return item;
}

/** A deleted coupon still answers, with `deleted_at` (invoices that applied it keep a reference that resolves). */
export const getCoupon = async (ctx: Ctx, id: string): Promise<Coupon> => toCoupon(await findCouponItem(ctx, id));

/** The coupons that are not deleted, oldest first. */
export const listCoupons = (ctx: Ctx, query: { take: number; skip: number }): Promise<Page<Coupon>> =>
  listPage(ctx, COUPON, query, toCoupon);
