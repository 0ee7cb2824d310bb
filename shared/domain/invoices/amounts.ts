import { invoiceTotals } from '../../money/amounts';
import { currencyExponent } from '../../money/currencies';
import { scaledRate } from '../../money/tax-rate';
import type { CurrencyCode } from '../../schemas/value-sets';
import { PERCENT_DENOMINATOR, roundHalfUp } from '../pricing/arithmetic';
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
 * The smallest amount an invoice carries, in minor units: 1, except in currencies of 3 decimals (KWD, BHD…), where it
 * is 10. EN 16931 allows at most 2 decimals for every amount (BR-DEC-*), so a KWD invoice counts in hundredths.
 */
export function amountStep(currency: string): number {
  return 10 ** Math.max(0, currencyExponent(currency as CurrencyCode) - 2);
}

/**
 * Tax of each rate, computed once on the sum of the lines at that rate (the VAT breakdown of EN 16931: BR-S-09 wants
 * the category's tax to be its base × rate, rounded), then spread back over those lines by largest remainder of their
 * exact shares: each line gets its exact tax rounded down or up, and the lines add up to the category's tax.
 */
export function taxesByRate(lines: readonly { id: string; base: number; rate: string }[]): Map<string, number> {
  const byRate = new Map<string, { id: string; base: number }[]>();
  for (const line of lines) byRate.set(line.rate, [...(byRate.get(line.rate) ?? []), line]);
  const taxes = new Map<string, number>();
  for (const [rate, group] of byRate) {
    const scaled = scaledRate(rate);
    const total = roundHalfUp(group.reduce((sum, l) => sum + BigInt(l.base), 0n) * scaled, PERCENT_DENOMINATOR);
    const shares = group.map((l, i) => ({ i, id: l.id, floor: (BigInt(l.base) * scaled) / PERCENT_DENOMINATOR, remainder: (BigInt(l.base) * scaled) % PERCENT_DENOMINATOR }));
    let left = total - shares.reduce((sum, s) => sum + s.floor, 0n);
    // Largest remainder first; ties go to the earlier line, so the result is deterministic.
    for (const share of [...shares].sort((a, b) => (b.remainder > a.remainder ? 1 : b.remainder < a.remainder ? -1 : a.i - b.i))) {
      if (left === 0n) break;
      share.floor += 1n;
      left -= 1n;
    }
    for (const share of shares) taxes.set(share.id, Number(share.floor));
  }
  return taxes;
}

/**
 * Coupons, then tax per rate (the line's own rate when it was given one, else the invoice's) on the sum of the lines
 * at that rate, spread back over them (`taxesByRate`), then the totals as sums of the lines (docs/taxes.md).
 * `total_amount = amount_excluding_tax + tax_amount` by construction. In a currency of 3 decimals everything is
 * computed in steps of 10 minor units (`amountStep`): the gross of each line is rounded half up to it first.
 */
export function invoiceAmounts(lines: readonly PricedLine[], coupons: readonly CouponTerms[], taxRate: string, currency: string): InvoiceAmounts {
  const step = amountStep(currency);
  const coarse = lines.map((line) => ({ ...line, gross: Number(roundHalfUp(BigInt(line.gross), BigInt(step))) }));
  const coarseCoupons = coupons.map((c) => (c.discount_amount === null ? c : { ...c, discount_amount: Math.floor(c.discount_amount / step) }));
  const discounts = applyCoupons(coarse, coarseCoupons);
  const bases = coarse.map((line) => ({ id: line.id, base: line.gross - (discounts.byLine.get(line.id) ?? 0), rate: line.own_tax_rate ?? taxRate }));
  const taxes = taxesByRate(bases);
  const line_items = coarse.map(({ gross, ...line }, i): InvoiceLineItem => {
    const discount = (discounts.byLine.get(line.id) ?? 0) * step;
    const base = bases[i]!.base * step;
    const tax = taxes.get(line.id)! * step;
    const percents = discounts.applied.filter((c) => c.line_item_ids.includes(line.id) && c.discount_amount > 0);
    return {
      ...line,
      amount_excluding_tax: base,
      discount_amount: discount,
      tax_amount: tax,
      amount: base + tax,
      tax_rate: Number(bases[i]!.rate),
      // One percent coupon on the line: its percentage; otherwise the amount says it all.
      discount_percent: percents.length === 1 ? percents[0]!.discount_percent : null,
    };
  });
  const totals = invoiceTotals(line_items);
  const amount_fixed = line_items.filter((l) => l.revenue_type === 'recurring').reduce((sum, l) => sum + l.amount, 0);
  const applied = discounts.applied.map((c) => ({ ...c, discount_amount: c.discount_amount * step }));
  return { line_items, coupons: applied, ...totals, amount_fixed };
}
