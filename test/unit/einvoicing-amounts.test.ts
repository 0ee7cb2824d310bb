import fc from 'fast-check';
import { amountDecimal, decimalString, PrecisionError, priceDecimal } from '../../shared/domain/einvoicing/decimal';
import { amountStep, invoiceAmounts, taxesByRate, type PricedLine } from '../../shared/domain/invoices/amounts';
import { scaledRate } from '../../shared/money/tax-rate';
import { creditedParts, creditLines } from '../../shared/domain/invoices/credit-amounts';
import type { InvoiceItem } from '../../shared/domain/invoices/invoice';

describe('EN 16931 decimal strings', () => {
  it('move digits, in every currency exponent, without floats', () => {
    expect([decimalString(123456, 2), decimalString(-5, 2), decimalString(999, 0), decimalString(7, 3), decimalString(0, 2)]).toEqual(['1234.56', '-0.05', '999', '0.007', '0.00']);
    expect([amountDecimal(123456, 'EUR'), amountDecimal(999, 'JPY'), amountDecimal(12340, 'KWD')]).toEqual(['1234.56', '999', '12.34']);
    expect(priceDecimal(12345, 'KWD')).toBe('12.345');
    expect(() => amountDecimal(12345, 'KWD')).toThrow(PrecisionError);
    expect(decimalString(Number.MAX_SAFE_INTEGER, 2)).toBe('90071992547409.91');
  });

  it('read back as the same integer for any safe amount', () => {
    fc.assert(fc.property(fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), fc.constantFrom(0, 2, 3), (minor, exponent) => {
      const text = decimalString(minor, exponent);
      expect(BigInt(text.replace('.', ''))).toBe(BigInt(minor));
      expect(text.split('.')[1]?.length ?? 0).toBe(exponent);
    }));
  });
});

const line = (id: string, gross: number, own_tax_rate?: string): PricedLine => ({
  id, name: id, description: null, entry_type: 'custom', product_id: null, product_type: null, price_id: null, units_count: 1, unit_amount: gross, gross,
  tax_rate_id: null, period_starts_at: null, period_ends_at: null, revenue_type: 'one_off', revenue_interval_count: null, revenue_interval_period: null,
  display_unit_amount: true, display_service_period: false, original_line_item_id: null, ...(own_tax_rate && { own_tax_rate }),
});

describe('tax per rate (BR-S-09)', () => {
  it('is the rounded tax of the rate\'s base, spread over its lines, each within one unit of its exact tax', () => {
    const rates = fc.constantFrom('20', '8.1', '25.5', '10', '0', '8.5');
    fc.assert(fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 10_000_000 }), rates), { minLength: 1, maxLength: 200 }), fc.constantFrom('EUR', 'JPY', 'KWD'), (raw, currency) => {
      const lines = raw.map(([gross, rate], i) => line(`l${i}`, gross, rate));
      const amounts = invoiceAmounts(lines, [], '20', currency);
      const step = amountStep(currency);
      const byRate = new Map<string, { base: number; tax: number }>();
      for (const item of amounts.line_items) {
        const key = String(item.tax_rate);
        const sum = byRate.get(key) ?? { base: 0, tax: 0 };
        byRate.set(key, { base: sum.base + item.amount_excluding_tax, tax: sum.tax + item.tax_amount });
        expect([item.amount_excluding_tax % step, item.tax_amount % step]).toEqual([0, 0]);
        const exact = (BigInt(item.amount_excluding_tax) * scaledRate(item.tax_rate)) / 1_000_000n;
        expect(BigInt(item.tax_amount) - exact <= BigInt(step) && exact - BigInt(item.tax_amount) <= BigInt(step)).toBe(true);
      }
      for (const [rate, { base, tax }] of byRate) {
        const units = BigInt(base / step) * scaledRate(rate);
        expect(BigInt(tax / step)).toBe((2n * units + 1_000_000n) / 2_000_000n);
      }
      expect(amounts.total_amount).toBe(amounts.amount_excluding_tax + amounts.tax_amount);
    }), { numRuns: 200 });
  });

  it('gives three 10-cent lines at 25 % a tax of 8 cents (7.5 rounded once), not 9', () => {
    const taxes = taxesByRate([{ id: 'a', base: 10, rate: '25' }, { id: 'b', base: 10, rate: '25' }, { id: 'c', base: 10, rate: '25' }]);
    expect([...taxes.values()].reduce((a, b) => a + b, 0)).toBe(8);
    expect([...taxes.values()].sort()).toEqual([2, 3, 3]);
  });
});

describe('credit notes in steps', () => {
  const kwd = () => {
    const amounts = invoiceAmounts([line('a', 12_345), line('b', 5_001)], [], '8.5', 'KWD');
    return { id: 'inv_1', currency: 'KWD', ...amounts, credited_amount: 0, credited_by_line: {} } as unknown as InvoiceItem;
  };

  it('refuse a KWD amount that is not in hundredths, and spread one that is in hundredths over the lines', () => {
    const invoice = kwd();
    expect(invoice.line_items.map((l) => [l.amount_excluding_tax, l.tax_amount])).toEqual([[12_350, 1_050], [5_000, 420]]);
    expect(() => creditedParts(invoice, { amount: 10_005 })).toThrow(/multiples of 10/);
    const parts = creditedParts(invoice, { amount: 10_000 });
    expect([...parts.values()].every((p) => p % 10 === 0)).toBe(true);
    const { lines, totals } = creditLines(invoice, parts, () => 'ili_x');
    expect(totals.total_amount).toBe(10_000);
    for (const l of lines) expect([l.tax_amount % 10, l.amount_excluding_tax % 10]).toEqual([0, 0]);
  });

  it('give back exactly the tax of each rate when the whole invoice is credited', () => {
    const invoice = kwd();
    const { totals } = creditLines(invoice, creditedParts(invoice, {}), () => 'ili_x');
    expect([totals.tax_amount, totals.amount_excluding_tax]).toEqual([invoice.tax_amount, invoice.amount_excluding_tax]);
  });
});
