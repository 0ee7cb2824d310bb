/**
 * Properties of invoice amounts over random invoices (docs/taxes.md): random lines, rates from the VAT table and
 * custom rates with up to 2 decimals, currencies with 0, 2 and 3 decimals, random partial payments. The exact
 * product is computed here independently (own decimal parsing) so the code is not checked against itself.
 */
import fc from 'fast-check';
import { amountDue, invoiceTotals, lineAmounts, type LineAmounts } from '../../shared/money/amounts';
import { currencyExponent } from '../../shared/money/currencies';
import { STANDARD_VAT_RATES } from '../../shared/money/vat-rates';
import type { CurrencyCode } from '../../shared/schemas/value-sets';

const RUNS = { numRuns: 500 };

/** A decimal percentage string as the exact fraction num / den of 1 (e.g. '25.5' → 255 / 1000). */
function fraction(rate: string): { num: bigint; den: bigint } {
  const [whole, decimals = ''] = rate.split('.');
  return { num: BigInt(whole! + decimals), den: 100n * 10n ** BigInt(decimals.length) };
}

const CURRENCIES: CurrencyCode[] = ['JPY', 'KRW', 'CLP', 'EUR', 'USD', 'GBP', 'CHF', 'KWD', 'BHD', 'TND'];
const currencyArb = fc.constantFrom(...CURRENCIES);
const tableRateArb = fc.constantFrom<string>(...Object.values(STANDARD_VAT_RATES));
const customRateArb = fc.integer({ min: 0, max: 10_000 }).map((n) => `${Math.floor(n / 100)}${n % 100 === 0 ? '' : `.${String(n % 100).padStart(2, '0')}`}`);
const rateArb = fc.oneof(tableRateArb, customRateArb, fc.constantFrom('0', '100', '12.5', '0.01'));

interface RawLine {
  unitMajor: number; // unit price in major units × 100, scaled to the currency below
  quantity: number;
  discountPermille: number;
  direct: boolean;
  rate: string;
}
const lineArb: fc.Arbitrary<RawLine> = fc.record({
  unitMajor: fc.oneof(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 10_000_000 })),
  quantity: fc.oneof(fc.integer({ min: 0, max: 10 }), fc.integer({ min: 0, max: 100_000 })),
  discountPermille: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 1000 })),
  direct: fc.boolean(),
  rate: rateArb,
});
const invoiceArb = fc.record({ currency: currencyArb, lines: fc.array(lineArb, { minLength: 0, maxLength: 30 }) });

/** A line in the currency's minor units: the same price has 1, 100 or 1000 minor units per major unit. */
function build(currency: CurrencyCode, raw: RawLine): { input: Parameters<typeof lineAmounts>[0]; line: LineAmounts } {
  const unitAmount = Math.floor((raw.unitMajor * 10 ** currencyExponent(currency)) / 100);
  const gross = unitAmount * raw.quantity;
  const discountAmount = Math.floor((gross * raw.discountPermille) / 1000);
  const input = raw.direct
    ? { amountExcludingTax: gross, discountAmount, taxRate: raw.rate }
    : { unitAmount, quantity: raw.quantity, discountAmount, taxRate: raw.rate };
  return { input, line: lineAmounts(input) };
}

describe('invoice amounts over random invoices', () => {
  it('totals are integers, total = excl + tax, and totals are the sums of the lines', () => {
    fc.assert(
      fc.property(invoiceArb, ({ currency, lines }) => {
        const built = lines.map((l) => build(currency, l).line);
        const totals = invoiceTotals(built);
        for (const v of Object.values(totals)) expect(Number.isSafeInteger(v) && v >= 0).toBe(true);
        expect(totals.total_amount).toBe(totals.amount_excluding_tax + totals.tax_amount);
        const sum = (k: keyof LineAmounts) => built.reduce((s, l) => s + l[k], 0);
        expect(totals.amount_excluding_tax).toBe(sum('amount_excluding_tax'));
        expect(totals.tax_amount).toBe(sum('tax_amount'));
        expect(totals.discount_amount).toBe(sum('discount_amount'));
        expect(totals.total_amount).toBe(sum('amount'));
      }),
      RUNS,
    );
  });

  it('each line: integers, amount = excl + tax, excl = gross − discount, tax within ½ minor unit (half up)', () => {
    fc.assert(
      fc.property(currencyArb, lineArb, (currency, raw) => {
        const { input, line } = build(currency, raw);
        for (const v of Object.values(line)) expect(Number.isSafeInteger(v) && v >= 0).toBe(true);
        expect(line.amount).toBe(line.amount_excluding_tax + line.tax_amount);
        const gross = input.amountExcludingTax ?? input.unitAmount! * input.quantity!;
        expect(line.amount_excluding_tax).toBe(gross - line.discount_amount);
        // exact = base × num / den; |tax − exact| ≤ ½, and a tie rounds up: 2·(tax·den − base·num) ∈ (−den, den]
        const { num, den } = fraction(raw.rate);
        const diff = 2n * (BigInt(line.tax_amount) * den - BigInt(line.amount_excluding_tax) * num);
        expect(diff > -den && diff <= den).toBe(true);
      }),
      RUNS,
    );
  });

  it('amount_due = total_amount − amount_paid for random partial payments', () => {
    fc.assert(
      fc.property(invoiceArb, fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 5 }), ({ currency, lines }, shares) => {
        const { total_amount } = invoiceTotals(lines.map((l) => build(currency, l).line));
        let paid = 0;
        for (const share of shares) {
          const payment = Math.floor((total_amount - paid) * share);
          paid += payment;
          const due = amountDue(total_amount, paid);
          expect(due).toBe(total_amount - paid);
          expect(due).toBeGreaterThanOrEqual(0);
        }
        expect(amountDue(total_amount, total_amount)).toBe(0);
        if (total_amount < Number.MAX_SAFE_INTEGER) expect(() => amountDue(total_amount, total_amount + 1)).toThrow(RangeError);
      }),
      RUNS,
    );
  });
});
