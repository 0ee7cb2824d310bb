/** Tax schemes (decisions.md "Invoices"), the VAT table, rates and the per-line rounding rule (docs/taxes.md). */
import { amountDue, invoiceTotals, lineAmounts, taxAmount } from '../../shared/money/amounts';
import { formatRate, scaledRate } from '../../shared/money/tax-rate';
import { taxScheme, TaxSchemeError, type TaxSchemeInput } from '../../shared/money/tax-scheme';
import { EU_COUNTRIES, STANDARD_VAT_RATES, standardVatRate } from '../../shared/money/vat-rates';
import { COUNTRIES } from '../../shared/schemas/value-sets';

describe('VAT table', () => {
  it('covers the EU-27 plus GB, CH, NO, all valid country codes', () => {
    expect(EU_COUNTRIES).toHaveLength(27);
    expect(Object.keys(STANDARD_VAT_RATES).sort()).toEqual([...EU_COUNTRIES, 'GB', 'CH', 'NO'].sort());
    for (const c of Object.keys(STANDARD_VAT_RATES)) expect(COUNTRIES).toContain(c);
  });
  it('holds the 2025/2026 rates', () => {
    expect(standardVatRate('FI')).toBe('25.5');
    expect(standardVatRate('EE')).toBe('24');
    expect(standardVatRate('SK')).toBe('23');
    expect(standardVatRate('RO')).toBe('21');
    expect(standardVatRate('CH')).toBe('8.1');
    expect(standardVatRate('LU')).toBe('17');
    expect(standardVatRate('HU')).toBe('27');
    expect(standardVatRate('US')).toBeUndefined();
    expect(standardVatRate('toString')).toBeUndefined();
  });
  it('every rate is a canonical decimal from 0 to 100', () => {
    for (const rate of Object.values(STANDARD_VAT_RATES)) expect(formatRate(rate)).toBe(rate);
  });
});

describe('rates', () => {
  it('are exact scaled integers', () => {
    expect(scaledRate('25.5')).toBe(255_000n);
    expect(scaledRate(8.1)).toBe(81_000n);
    expect(scaledRate('0.0001')).toBe(1n);
    expect(formatRate('8.10')).toBe('8.1');
    expect(formatRate(0)).toBe('0');
  });
  it.each(['', '-1', '100.01', '101', '1.23456', 'abc', '1e2'])('rejects %p', (r) => expect(() => scaledRate(r)).toThrow(RangeError));
  it.each([-1, 100.5, 1.23456, NaN])('rejects %p', (r) => expect(() => scaledRate(r)).toThrow(RangeError));
});

describe('taxScheme', () => {
  const base: TaxSchemeInput = { taxEnabled: true, sellerCountry: 'FR', customerCountry: 'FR', customerType: 'corporate', customerTaxId: 'FR40303265045' };

  it('custom rate → manual with that rate, before anything else', () => {
    expect(taxScheme({ ...base, customerTaxRateCustom: 7.5 })).toEqual({ scheme: 'manual', rate: '7.5' });
    expect(taxScheme({ ...base, taxEnabled: false, customerTaxRateCustom: 0 })).toEqual({ scheme: 'manual', rate: '0' });
    expect(taxScheme({ ...base, sellerCountry: 'US', customerCountry: 'US', customerTaxRateCustom: '8.875' })).toEqual({ scheme: 'manual', rate: '8.875' });
  });
  it('tax disabled → not_eligible, 0', () => {
    expect(taxScheme({ ...base, taxEnabled: false })).toEqual({ scheme: 'not_eligible', rate: '0' });
    expect(taxScheme({ ...base, taxEnabled: false, customerTaxRateCustom: null })).toEqual({ scheme: 'not_eligible', rate: '0' });
  });
  it('same country → standard with that country rate (B2B or B2C)', () => {
    expect(taxScheme(base)).toEqual({ scheme: 'standard', rate: '20' });
    expect(taxScheme({ ...base, sellerCountry: 'FI', customerCountry: 'FI', customerType: 'person', customerTaxId: null })).toEqual({ scheme: 'standard', rate: '25.5' });
    expect(taxScheme({ ...base, sellerCountry: 'CH', customerCountry: 'CH' })).toEqual({ scheme: 'standard', rate: '8.1' });
    expect(taxScheme({ ...base, sellerCountry: 'GB', customerCountry: 'GB' })).toEqual({ scheme: 'standard', rate: '20' });
  });
  it('territories sharing a VAT country count as that country', () => {
    expect(taxScheme({ ...base, customerCountry: 'MC' })).toEqual({ scheme: 'standard', rate: '20' });
    expect(taxScheme({ ...base, sellerCountry: 'CH', customerCountry: 'LI' })).toEqual({ scheme: 'standard', rate: '8.1' });
    expect(taxScheme({ ...base, sellerCountry: 'DE', customerCountry: 'MC' })).toEqual({ scheme: 'reverse_charge', rate: '0' });
  });
  it('missing customer country → the seller country', () => {
    expect(taxScheme({ ...base, sellerCountry: 'DE', customerCountry: null })).toEqual({ scheme: 'standard', rate: '19' });
  });
  it('same country not in the table → TaxSchemeError tax_rate_unknown (422)', () => {
    const call = () => taxScheme({ ...base, sellerCountry: 'US', customerCountry: 'US' });
    expect(call).toThrow(TaxSchemeError);
    expect(call).toThrow(expect.objectContaining({ code: 'tax_rate_unknown', status: 422 }));
  });
  it('no seller country → TaxSchemeError seller_country_missing', () => {
    expect(() => taxScheme({ ...base, sellerCountry: null })).toThrow(expect.objectContaining({ code: 'seller_country_missing' }));
  });
  it('both in the EU, corporate with a tax id → reverse_charge, 0', () => {
    expect(taxScheme({ ...base, customerCountry: 'DE' })).toEqual({ scheme: 'reverse_charge', rate: '0' });
    expect(taxScheme({ ...base, sellerCountry: 'FI', customerCountry: 'EE', customerTaxId: 'EE100931558' })).toEqual({ scheme: 'reverse_charge', rate: '0' });
  });
  it('customer outside the seller tax area → exempt, 0', () => {
    expect(taxScheme({ ...base, customerCountry: 'US' })).toEqual({ scheme: 'exempt', rate: '0' });
    expect(taxScheme({ ...base, customerCountry: 'GB', customerType: 'person', customerTaxId: null })).toEqual({ scheme: 'exempt', rate: '0' });
    expect(taxScheme({ ...base, customerCountry: 'CH' })).toEqual({ scheme: 'exempt', rate: '0' });
    expect(taxScheme({ ...base, sellerCountry: 'GB', customerCountry: 'FR' })).toEqual({ scheme: 'exempt', rate: '0' });
    expect(taxScheme({ ...base, sellerCountry: 'US', customerCountry: 'FR' })).toEqual({ scheme: 'exempt', rate: '0' });
    expect(taxScheme({ ...base, sellerCountry: 'ES', customerCountry: 'IC' })).toEqual({ scheme: 'exempt', rate: '0' }); // Canary Islands: outside EU VAT
  });
  it('both in the EU, B2C (person, no tax id, or automatically_created) → standard at the SELLER rate', () => {
    expect(taxScheme({ ...base, customerCountry: 'DE', customerType: 'person', customerTaxId: null })).toEqual({ scheme: 'standard', rate: '20' });
    expect(taxScheme({ ...base, customerCountry: 'DE', customerType: 'corporate', customerTaxId: '  ' })).toEqual({ scheme: 'standard', rate: '20' });
    expect(taxScheme({ ...base, customerCountry: 'DE', customerType: 'person', customerTaxId: 'DE123' })).toEqual({ scheme: 'standard', rate: '20' });
    expect(taxScheme({ ...base, sellerCountry: 'HU', customerCountry: 'DE', customerType: 'automatically_created' })).toEqual({ scheme: 'standard', rate: '27' });
    expect(taxScheme({ ...base, customerCountry: 'DE', customerType: null })).toEqual({ scheme: 'standard', rate: '20' });
  });
});

describe('line amounts: round half-up per line', () => {
  it('the worked examples of docs/taxes.md', () => {
    // EUR, 20 %: 1,234 cents × 3 = 3,702; tax 740.4 → 740
    expect(lineAmounts({ unitAmount: 1234, quantity: 3, taxRate: '20' })).toEqual({ amount_excluding_tax: 3702, discount_amount: 0, tax_amount: 740, amount: 4442 });
    // .5 case: 1,025 × 20 % = 205 exactly; 1,025 × 25.5 % = 261.375 → 261; 10 × 25 % = 2.5 → 3
    expect(taxAmount(10, '25')).toBe(3);
    expect(taxAmount(1025, '25.5')).toBe(261);
    // JPY (0 decimals): ¥999 × 10 % = 99.9 → 100 yen
    expect(lineAmounts({ amountExcludingTax: 999, taxRate: '10' }).tax_amount).toBe(100);
    // KWD (3 decimals): 12.345 KWD = 12,345 fils × 8.1 % = 999.945 → 1,000 fils
    expect(lineAmounts({ amountExcludingTax: 12_345, taxRate: '8.1' }).tax_amount).toBe(1000);
    // CHF 8.1 % on 0.05 CHF: 0.405 → 0
    expect(taxAmount(5, 8.1)).toBe(0);
  });
  it('taxes the discounted base', () => {
    expect(lineAmounts({ unitAmount: 1000, quantity: 2, discountAmount: 500, taxRate: '20' })).toEqual({ amount_excluding_tax: 1500, discount_amount: 500, tax_amount: 300, amount: 1800 });
  });
  it('is exact where floats are not (1.005 × 100 style)', () => {
    // 0.1 × 3 in floats is 0.30000000000000004; 3 × 15 % = 0.45 → 0 exactly, 7 × 7.5 % = 0.525 → 1
    expect(taxAmount(3, '15')).toBe(0);
    expect(taxAmount(7, '7.5')).toBe(1);
    expect(taxAmount(Number.MAX_SAFE_INTEGER, '0')).toBe(0);
  });
  it('rejects invalid inputs', () => {
    expect(() => lineAmounts({ unitAmount: 1, quantity: 1, amountExcludingTax: 1, taxRate: '20' })).toThrow(RangeError);
    expect(() => lineAmounts({ taxRate: '20' })).toThrow(RangeError);
    expect(() => lineAmounts({ amountExcludingTax: -1, taxRate: '20' })).toThrow(RangeError);
    expect(() => lineAmounts({ amountExcludingTax: 1.5, taxRate: '20' })).toThrow(RangeError);
    expect(() => lineAmounts({ unitAmount: 10, quantity: 1.5, taxRate: '20' })).toThrow(RangeError);
    expect(() => lineAmounts({ amountExcludingTax: 10, discountAmount: 11, taxRate: '20' })).toThrow(RangeError);
    expect(() => lineAmounts({ amountExcludingTax: 10, taxRate: '101' })).toThrow(RangeError);
    expect(() => lineAmounts({ unitAmount: Number.MAX_SAFE_INTEGER, quantity: 2, taxRate: '0' })).toThrow(RangeError);
  });
});

describe('invoice totals and amount due', () => {
  it('sums rounded lines, not the tax of the sum', () => {
    // Three lines of 10 at 25 %: each 2.5 → 3, total tax 9 (taxing the sum 30 would give 7.5 → 8).
    const lines = [1, 2, 3].map(() => lineAmounts({ amountExcludingTax: 10, taxRate: '25' }));
    expect(invoiceTotals(lines)).toEqual({ amount_excluding_tax: 30, tax_amount: 9, total_amount: 39, discount_amount: 0 });
    expect(invoiceTotals([])).toEqual({ amount_excluding_tax: 0, tax_amount: 0, total_amount: 0, discount_amount: 0 });
  });
  it('amount_due = total − paid, never negative', () => {
    expect(amountDue(3900, 0)).toBe(3900);
    expect(amountDue(3900, 1000)).toBe(2900);
    expect(amountDue(3900, 3900)).toBe(0);
    expect(() => amountDue(3900, 3901)).toThrow(RangeError);
    expect(() => amountDue(3900, -1)).toThrow(RangeError);
  });
});
