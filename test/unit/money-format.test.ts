/** Money as printed on documents (shared/money/format.ts): the currency's exponent, integer arithmetic only. */
import fc from 'fast-check';
import { formatMoney } from '../../shared/money/format';

describe('formatMoney', () => {
  it.each([
    [123456, 'EUR', '1,234.56 EUR'],
    [999, 'JPY', '999 JPY'],
    [12345, 'KWD', '12.345 KWD'],
    [0, 'EUR', '0.00 EUR'],
    [5, 'EUR', '0.05 EUR'],
    [50, 'USD', '0.50 USD'],
    [1, 'KWD', '0.001 KWD'],
    [0, 'JPY', '0 JPY'],
    [100000, 'GBP', '1,000.00 GBP'],
    [123456789, 'JPY', '123,456,789 JPY'],
    [100000000, 'BHD', '100,000.000 BHD'],
    [Number.MAX_SAFE_INTEGER, 'EUR', '90,071,992,547,409.91 EUR'],
  ])('%p %s → %p', (amount, currency, expected) => {
    expect(formatMoney(amount, currency)).toBe(expected);
  });

  it('prints a sign before a negative amount', () => {
    expect(formatMoney(-1050, 'EUR')).toBe('-10.50 EUR');
  });

  it.each([1.5, NaN, Infinity, Number.MAX_SAFE_INTEGER + 1])('rejects %p', (amount) => {
    expect(() => formatMoney(amount, 'EUR')).toThrow(RangeError);
  });

  it('reads back as the amount: digits without separators are the minor units', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), fc.constantFrom('EUR', 'JPY', 'KWD'), (amount, currency) => {
        const printed = formatMoney(amount, currency);
        expect(printed.endsWith(` ${currency}`)).toBe(true);
        const number = printed.slice(0, -currency.length - 1);
        expect(number).toMatch(/^\d{1,3}(,\d{3})*(\.\d+)?$/);
        expect(BigInt(number.replace(/[,.]/g, ''))).toBe(BigInt(amount));
        const decimals = number.includes('.') ? number.split('.')[1]!.length : 0;
        expect(decimals).toBe({ EUR: 2, JPY: 0, KWD: 3 }[currency]);
      }),
    );
  });
});
