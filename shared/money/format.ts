import type { CurrencyCode } from '../schemas/value-sets';
import { currencyExponent } from './currencies';

/**
 * An amount in minor units as people read it, with the currency's own number of decimals (ISO 4217) and
 * thousands separated by commas: 123456 EUR → '1,234.56 EUR', 999 JPY → '999 JPY', 12345 KWD → '12.345 KWD'.
 * Only the integer's digits are moved around (no floating-point division), so any safe integer prints exactly.
 */
export function formatMoney(amount: number, currency: string): string {
  if (!Number.isSafeInteger(amount)) throw new RangeError(`An amount is a safe integer in minor units, got ${String(amount)}`);
  const exponent = currencyExponent(currency as CurrencyCode);
  const digits = Math.abs(amount).toString().padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent);
  const fraction = digits.slice(digits.length - exponent);
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ',');
  return `${amount < 0 ? '-' : ''}${grouped}${exponent > 0 ? `.${fraction}` : ''} ${currency}`;
}
