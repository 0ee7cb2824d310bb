import { couponExpired, type CouponItem } from '../coupons/coupon';
import type { PromotionCodeItem } from './promotion-code';

/** What the code is applied to (an invoice or a quote being created). */
export interface RedemptionContext {
  customerId: string;
  /** The products of the invoice or quote. */
  productIds?: string[];
  planId?: string | null;
  /** True when the customer has no earlier order (the caller knows its invoices). */
  isFirstOrder: boolean;
  /** When the code is applied; defaults to the clock's now. */
  at?: Date;
}

const expired = (date: string | null, at: Date): boolean => date !== null && Date.parse(date) <= at.getTime();

/**
 * The rules of a redemption, in order (pure): the first broken one as a sentence, or null when the code applies.
 * The counters are checked here for the message, and again atomically by the write (redemptionItems).
 */
export function redemptionFailure(code: PromotionCodeItem, coupon: CouponItem | undefined, context: RedemptionContext, at: Date): string | null {
  const name = `Promotion code '${code.code}'`;
  const ofCoupon = `The coupon of promotion code '${code.code}'`;
  const products = context.productIds ?? [];
  if (code.deleted_at) return `${name} is deleted.`;
  if (!coupon || coupon.deleted_at) return `${ofCoupon} is deleted.`;
  if (expired(code.expires_at, at)) return `${name} expired at ${code.expires_at}.`;
  if (couponExpired(coupon, at)) return `${ofCoupon} expired at ${coupon.expiration_date}.`;
  if (code.customer_id && code.customer_id !== context.customerId) return `${name} is reserved for another customer.`;
  if (code.plan_id && code.plan_id !== (context.planId ?? null)) return `${name} applies only to plan '${code.plan_id}'.`;
  if (code.product_id && !products.includes(code.product_id)) return `${name} applies only to product '${code.product_id}'.`;
  if (coupon.product_ids && !coupon.product_ids.some((id) => products.includes(id))) {
    return `${ofCoupon} applies only to the products ${coupon.product_ids.map((id) => `'${id}'`).join(', ')}.`;
  }
  if (code.only_for_first_time_order && !context.isFirstOrder) return `${name} applies only to a customer's first order.`;
  if (code.max_redemptions !== null && code.current_redemptions >= code.max_redemptions) {
    return `${name} has reached its maximum of ${code.max_redemptions} redemption${code.max_redemptions === 1 ? '' : 's'}.`;
  }
  if (coupon.redemption_limit !== null && coupon.redemption_count >= coupon.redemption_limit) {
    return `${ofCoupon} has reached its redemption limit of ${coupon.redemption_limit}.`;
  }
  return null;
}
