/**
 * Properties of a whole invoice (shared/domain/invoices/amounts.ts, discounts.ts, credit-amounts.ts) over random
 * lines, coupons, rates and payments: every identity of the issue holds, coupons never take more than they may, and
 * credit notes never take back more than the invoice holds.
 */
import fc from 'fast-check';
import { invoiceAmounts, type PricedLine } from '../../shared/domain/invoices/amounts';
import { creditedParts, creditLines } from '../../shared/domain/invoices/credit-amounts';
import { applyCoupons } from '../../shared/domain/invoices/discounts';
import type { CouponTerms, InvoiceItem } from '../../shared/domain/invoices/invoice';
import { amountDue } from '../../shared/money/amounts';

const RUNS = { numRuns: 400 };
const PRODUCTS = ['itm_a', 'itm_b', null];

const lineArb = fc.record({ gross: fc.integer({ min: 0, max: 50_000_000 }), product: fc.constantFrom(...PRODUCTS), recurring: fc.boolean() });
const couponArb = fc.oneof(
  fc.record({ type: fc.constant('percent' as const), percent: fc.integer({ min: 0, max: 10_000 }).map((n) => n / 100), only: fc.option(fc.constantFrom('itm_a', 'itm_b')) }),
  fc.record({ type: fc.constant('amount' as const), amount: fc.integer({ min: 0, max: 60_000_000 }), only: fc.option(fc.constantFrom('itm_a', 'itm_b')) }),
);
const rateArb = fc.constantFrom('0', '20', '25.5', '8.1', '7.7', '5.5', '100');

const priced = (lines: { gross: number; product: string | null; recurring: boolean }[]): PricedLine[] =>
  lines.map((l, i) => ({
    id: `ili_${i}`, name: `L${i}`, description: null, entry_type: l.product ? 'product' : 'custom', product_id: l.product, product_type: null, price_id: null,
    units_count: 1, unit_amount: l.gross, gross: l.gross, tax_rate_id: null, period_starts_at: null, period_ends_at: null,
    revenue_type: l.recurring ? 'recurring' : 'one_off', revenue_interval_count: null, revenue_interval_period: null, display_unit_amount: true,
    display_service_period: false, original_line_item_id: null,
  }));

type RawCoupon = { type: 'percent' | 'amount'; percent?: number; amount?: number; only: string | null };
const terms = (coupons: RawCoupon[]): CouponTerms[] =>
  coupons.map((c, i) => ({
    id: `cou_${i}`, name: `C${i}`, type: c.type, discount_percent: c.type === 'percent' ? c.percent! : null, discount_amount: c.type === 'amount' ? c.amount! : null,
    product_ids: c.only ? [c.only] : null,
  }));

describe('invoice amounts', () => {
  it('hold total = excl + tax, line sums, discounts within the lines, and amount_due = total − paid', () => {
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 12 }), fc.array(couponArb, { maxLength: 3 }), rateArb, fc.integer({ min: 0, max: 1000 }), (raw, coupons, rate, paidPermille) => {
        const lines = priced(raw);
        const amounts = invoiceAmounts(lines, terms(coupons), rate, 'EUR');
        const sum = (key: 'amount' | 'amount_excluding_tax' | 'tax_amount' | 'discount_amount') => amounts.line_items.reduce((s, l) => s + l[key], 0);
        expect(amounts.total_amount).toBe(amounts.amount_excluding_tax + amounts.tax_amount);
        expect(amounts.total_amount).toBe(sum('amount'));
        expect([amounts.amount_excluding_tax, amounts.tax_amount, amounts.discount_amount]).toEqual([sum('amount_excluding_tax'), sum('tax_amount'), sum('discount_amount')]);
        amounts.line_items.forEach((line, i) => {
          expect(line.amount).toBe(line.amount_excluding_tax + line.tax_amount);
          expect(line.amount_excluding_tax + line.discount_amount).toBe(lines[i]!.gross);
          expect(Number.isSafeInteger(line.tax_amount) && line.tax_amount >= 0).toBe(true);
        });
        expect(amounts.coupons.reduce((s, c) => s + c.discount_amount, 0)).toBe(amounts.discount_amount);
        const paid = Math.floor((amounts.total_amount * paidPermille) / 1000);
        expect(amountDue(amounts.total_amount, paid) + paid).toBe(amounts.total_amount);
      }),
      RUNS,
    );
  });

  it('spread an amount coupon exactly: min(amount, what its lines have left), in whole units', () => {
    fc.assert(
      fc.property(fc.array(lineArb, { minLength: 1, maxLength: 12 }), fc.integer({ min: 0, max: 60_000_000 }), (raw, amount) => {
        const lines = priced(raw);
        const { byLine, applied } = applyCoupons(lines, [{ id: 'c', name: 'c', type: 'amount', discount_amount: amount, discount_percent: null, product_ids: null }]);
        const available = lines.reduce((s, l) => s + l.gross, 0);
        expect(applied[0]!.discount_amount).toBe(Math.min(amount, available));
        for (const line of lines) expect(byLine.get(line.id)!).toBeLessThanOrEqual(line.gross);
      }),
      RUNS,
    );
  });

  it('credit never more than is left, and each credit line keeps amount = excl + tax', () => {
    fc.assert(
      fc.property(fc.array(lineArb, { minLength: 1, maxLength: 8 }), rateArb, fc.array(fc.integer({ min: 1, max: 30_000_000 }), { maxLength: 5 }), (raw, rate, asks) => {
        const amounts = invoiceAmounts(priced(raw), [], rate, 'EUR');
        let invoice = { id: 'inv_1', currency: 'EUR', ...amounts, credited_amount: 0, credited_by_line: {} as Record<string, number> } as unknown as InvoiceItem;
        for (const ask of asks) {
          const left = invoice.total_amount - invoice.credited_amount;
          if (ask > left) {
            expect(() => creditedParts(invoice, { amount: ask })).toThrow(/left uncredited/);
            continue;
          }
          const parts = creditedParts(invoice, { amount: ask });
          const { lines, totals } = creditLines(invoice, parts, () => 'ili_x');
          expect(totals.total_amount).toBe(ask);
          for (const line of lines) expect(line.amount).toBe(line.amount_excluding_tax + line.tax_amount);
          const byLine = { ...invoice.credited_by_line };
          for (const [id, part] of parts) byLine[id] = (byLine[id] ?? 0) + part;
          for (const line of invoice.line_items) expect(byLine[line.id] ?? 0).toBeLessThanOrEqual(line.amount);
          invoice = { ...invoice, credited_amount: invoice.credited_amount + ask, credited_by_line: byLine };
        }
        expect(invoice.credited_amount).toBeLessThanOrEqual(invoice.total_amount);
      }),
      RUNS,
    );
  });
});
