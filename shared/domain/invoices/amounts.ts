import { invoiceTotals, lineAmounts } from '../../money/amounts';
import { applyCoupons } from './discounts';
import type { AppliedCoupon, CouponTerms, InvoiceLineItem } from './invoice';

/** A resolved line before coupons and tax (lines.ts). */
export type PricedLine = Omit<InvoiceLineItem, 'amount' | 'amount_excluding_tax' | 'tax_rate' | 'tax_amount' | 'discount_amount' | 'discount_percent'> & {
  gross: number;
};

export interface InvoiceAmounts {
  line_items: InvoiceLineItem[];
  coupons: AppliedCoupon[];
  amount_excluding_tax: number;
  tax_amount: number;
  total_amount: number;
  discount_amount: number;
  amount_fixed: number;
}

/**
 * Coupons, then tax per line at the invoice's rate, or the line's own rate when it was given one (rounded half-up
 * per line), then the totals as sums of the lines (docs/taxes.md). `total_amount = amount_excluding_tax + tax_amount`
 * by construction.
 */
export function invoiceAmounts(lines: readonly PricedLine[], coupons: readonly CouponTerms[], taxRate: string): InvoiceAmounts {
  const discounts = applyCoupons(lines, coupons);
  const line_items = lines.map(({ gross, ...line }): InvoiceLineItem => {
    const rate = line.own_tax_rate ?? taxRate;
    const amounts = lineAmounts({ amountExcludingTax: gross, discountAmount: discounts.byLine.get(line.id) ?? 0, taxRate: rate });
    const percents = discounts.applied.filter((c) => c.line_item_ids.includes(line.id) && c.discount_amount > 0);
    return {
      ...line,
      ...amounts,
      tax_rate: Number(rate),
      // One percent coupon on the line: its percentage; otherwise the amount says it all.
      discount_percent: percents.length === 1 ? percents[0]!.discount_percent : null,
    };
  });
  const totals = invoiceTotals(line_items);
  const amount_fixed = line_items.filter((l) => l.revenue_type === 'recurring').reduce((sum, l) => sum + l.amount, 0);
  return { line_items, coupons: discounts.applied, ...totals, amount_fixed };
}
