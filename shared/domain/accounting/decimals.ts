import { currencyExponent } from '../../money/currencies';
import type { CurrencyCode } from '../../schemas/value-sets';

/** Minor units → a plain decimal ("1234.50", "-3.00"), no thousands separator; `comma` for FEC and DATEV. */
export function decimal(minor: number, currency: string, comma = false): string {
  const exponent = currencyExponent(currency as CurrencyCode);
  const sign = minor < 0 ? '-' : '';
  const digits = String(Math.abs(minor)).padStart(exponent + 1, '0');
  const text = exponent === 0 ? digits : `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
  return sign + (comma ? text.replace('.', ',') : text);
}

/** The calendar day of an instant in a time zone, as YYYY-MM-DD. */
export function localDay(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));
}
