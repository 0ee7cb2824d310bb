import type { Ctx } from '../../context';
import { getItem } from '../../db/items';
import type { TransactItem } from '../../db/transactions';
import { RuleViolation } from '../../errors';
import { couponExpired, couponItemKey, type CouponItem } from '../coupons/coupon';
import { couponRedemptionItem, couponReleaseItem, prepareRedemption, promotionCodeReleaseItem } from '../promotion-codes/redeem';
import type { CouponTerms, InvoiceItem } from './invoice';

export const couponTerms = (coupon: CouponItem): CouponTerms => ({
  id: coupon.id,
  name: coupon.name,
  type: coupon.type,
  discount_amount: coupon.discount_amount,
  discount_percent: coupon.discount_percent,
  product_ids: coupon.product_ids,
  repeat: coupon.repeat,
  duration: coupon.duration,
});

const notApplicable = (message: string) => new RuleViolation('coupon_not_applicable', message);

/** An amount coupon is money in one currency: it applies only to invoices in that currency. */
function assertCurrency(coupon: CouponItem, currency: string, code: 'coupon_not_applicable' | 'promotion_code_not_applicable'): void {
  if (coupon.type === 'amount' && coupon.currency !== currency) {
    throw new RuleViolation(code, `Coupon '${coupon.id}' takes ${coupon.currency} off; the invoice is in ${currency}.`);
  }
}

export interface Redemptions {
  terms: CouponTerms[];
  /** The counters' conditional increments, to run in the invoice's transaction. */
  items: TransactItem[];
  promotionCodeId: string | null;
}

/**
 * The coupons of a new invoice: those named directly (each must exist, be live and unexpired; its redemption limit
 * is enforced by the increment) and the one a promotion code brings (every rule of the code checked by the catalog's
 * `prepareRedemption`). The increments go into the invoice's own transaction: no invoice without its redemption.
 */
export async function redemptionsFor(
  ctx: Ctx,
  input: { couponIds: readonly string[]; promotionCode?: string; customerId: string; productIds: string[]; currency: string; isFirstOrder: boolean },
): Promise<Redemptions> {
  const at = ctx.clock.now();
  const coupons = await Promise.all(input.couponIds.map((id) => getItem<CouponItem>(couponItemKey(ctx, id), true)));
  const items: TransactItem[] = [];
  const terms: CouponTerms[] = [];
  coupons.forEach((coupon, i) => {
    const id = input.couponIds[i]!;
    if (!coupon || coupon.deleted_at) throw notApplicable(`No coupon with id '${id}'.`);
    if (couponExpired(coupon, at)) throw notApplicable(`Coupon '${id}' expired at ${coupon.expiration_date}.`);
    if (coupon.redemption_limit !== null && coupon.redemption_count >= coupon.redemption_limit) throw notApplicable(`Coupon '${id}' has reached its redemption limit.`);
    assertCurrency(coupon, input.currency, 'coupon_not_applicable');
    terms.push(couponTerms(coupon));
    items.push(couponRedemptionItem(ctx, id, at));
  });
  if (!input.promotionCode) return { terms, items, promotionCodeId: null };
  const prepared = await prepareRedemption(ctx, input.promotionCode, { customerId: input.customerId, productIds: input.productIds, isFirstOrder: input.isFirstOrder, at });
  if (input.couponIds.includes(prepared.coupon.id)) throw notApplicable(`Coupon '${prepared.coupon.id}' is given twice (directly and by promotion code '${prepared.promotionCode.code}').`);
  assertCurrency(prepared.coupon, input.currency, 'promotion_code_not_applicable');
  return { terms: [...terms, couponTerms(prepared.coupon)], items: [...items, ...prepared.items], promotionCodeId: prepared.promotionCode.id };
}

/**
 * What a discarded draft gives back: the promotion code's redemption and the redemptions of the coupons this
 * invoice counted (not those a subscription had already counted at its signature).
 */
export function releaseRedemptionItems(ctx: Ctx, invoice: Pick<InvoiceItem, 'promotion_code_id' | 'redeemed_coupon_ids'>): TransactItem[] {
  return [
    ...(invoice.promotion_code_id ? [promotionCodeReleaseItem(ctx, invoice.promotion_code_id)] : []),
    ...(invoice.redeemed_coupon_ids ?? []).map((id) => couponReleaseItem(ctx, id)),
  ];
}
