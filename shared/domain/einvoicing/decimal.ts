/**
 * Amounts as the decimal strings of the XML (EN 16931), from integers in minor units, by moving digits: never a float.
 * EN 16931 allows at most 2 decimals for amounts (BR-DEC-*), so a 3-decimal currency (KWD) is written in hundredths,
 * which its invoices always are (shared/domain/invoices/amounts.ts, `amountStep`); prices keep every decimal.
 */
import { currencyExponent } from '../../money/currencies';
import type { CurrencyCode } from '../../schemas/value-sets';

/** `minor` × 10^-`exponent` as a plain decimal string: (123456, 2) → '1234.56', (-5, 2) → '-0.05', (999, 0) → '999'. */
export function decimalString(minor: number | bigint, exponent: number): string {
  if (typeof minor === 'number' && !Number.isSafeInteger(minor)) throw new RangeError(`An amount is a safe integer in minor units, got ${minor}`);
  const value = BigInt(minor);
  const digits = (value < 0n ? -value : value).toString().padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent);
  const fraction = digits.slice(digits.length - exponent);
  return `${value < 0n ? '-' : ''}${whole}${exponent > 0 ? `.${fraction}` : ''}`;
}

export class PrecisionError extends RangeError {}

/** An amount (BT-106, BT-131, BT-116…): the currency's decimals, at most 2. Throws PrecisionError if that loses digits. */
export function amountDecimal(minor: number, currency: string): string {
  const exponent = currencyExponent(currency as CurrencyCode);
  if (exponent <= 2) return decimalString(minor, exponent);
  const step = 10 ** (exponent - 2);
  if (minor % step !== 0) throw new PrecisionError(`${minor} minor units of ${currency} need ${exponent} decimals; EN 16931 amounts carry at most 2.`);
  return decimalString(minor / step, 2);
}

/** A unit price (BT-146): every decimal of the currency (prices may have more than 2). */
export const priceDecimal = (minor: number, currency: string): string => decimalString(minor, currencyExponent(currency as CurrencyCode));
