import { currencyExponent } from '../money/currencies';
import type { CurrencyCode, Language } from '../schemas/value-sets';

/**
 * Locale formatting with Intl for the hosted pages (and the PDF later). Amounts are integers in minor units: they
 * are turned into an exact decimal string (no floating-point division) that Intl.NumberFormat formats as given.
 */
export function decimalString(amount: number, exponent: number): string {
  if (!Number.isSafeInteger(amount)) throw new RangeError(`An amount is a safe integer in minor units, got ${String(amount)}`);
  const digits = Math.abs(amount).toString().padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent);
  const fraction = digits.slice(digits.length - exponent);
  return `${amount < 0 ? '-' : ''}${whole}${exponent > 0 ? `.${fraction}` : ''}`;
}

export interface Formatter {
  language: Language;
  money(amount: number, currency: string): string;
  number(value: number): string;
  /** A calendar date (UTC unless a time zone is given). */
  date(iso: string | null | undefined): string;
  time(iso: string): string;
  percent(rate: number): string;
}

export function formatterFor(language: Language, timeZone = 'UTC'): Formatter {
  const dates = new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone });
  const times = new Intl.DateTimeFormat(language, { hour: '2-digit', minute: '2-digit', timeZone, timeZoneName: 'short' });
  const numbers = new Intl.NumberFormat(language, { maximumFractionDigits: 4 });
  const percents = new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 4 });
  const moneyFormats = new Map<string, Intl.NumberFormat>();
  return {
    language,
    money(amount, currency) {
      const exponent = currencyExponent(currency as CurrencyCode);
      let format = moneyFormats.get(currency);
      if (!format) {
        format = new Intl.NumberFormat(language, { style: 'currency', currency, minimumFractionDigits: exponent, maximumFractionDigits: exponent });
        moneyFormats.set(currency, format);
      }
      // A decimal string is formatted exactly (Intl.NumberFormat v3); the cast: TypeScript's lib lacks the overload.
      return format.format(decimalString(amount, exponent) as unknown as number);
    },
    number: (value) => numbers.format(value),
    date: (iso) => (iso ? dates.format(new Date(iso)) : '—'),
    time: (iso) => times.format(new Date(iso)),
    // A rate is a percentage of at most 4 decimals, shown, never computed with: the division is for display only.
    percent: (rate) => percents.format(rate / 100),
  };
}
