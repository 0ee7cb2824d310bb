import type { Ctx } from '../../context';
import type { TransactItem } from '../../db/transactions';
import { redemptionsFor } from '../invoices/coupons';
import type { CouponTerms } from '../invoices/invoice';
import { isFirstOrder } from '../invoices/read';

/**
 * A quote's promotion code, checked by the catalog's `prepareRedemption` (every rule of the code, plus an amount
 * coupon's currency): 422 `promotion_code_not_applicable` naming the broken rule. Returns the redemption's counter
 * increments, which only a signature writes (docs/quotes.md, "Promotion codes").
 */
export async function checkPromotionCode(
  ctx: Ctx,
  quote: { promotion_code: string | null; customer_id: string; currency: string },
  productIds: string[],
): Promise<TransactItem[]> {
  return (await promotionCoupons(ctx, quote, productIds)).items;
}

/** The same, with the coupon the code brings: a subscription signed with it applies it to its invoices. */
export async function promotionCoupons(
  ctx: Ctx,
  quote: { promotion_code: string | null; customer_id: string; currency: string },
  productIds: string[],
): Promise<{ items: TransactItem[]; terms: CouponTerms[] }> {
  if (!quote.promotion_code) return { items: [], terms: [] };
  const redemptions = await redemptionsFor(ctx, {
    couponIds: [], promotionCode: quote.promotion_code, customerId: quote.customer_id, productIds, currency: quote.currency,
    isFirstOrder: await isFirstOrder(ctx, quote.customer_id),
  });
  return { items: redemptions.items, terms: redemptions.terms };
}
