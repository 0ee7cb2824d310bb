// Amounts as the API takes them (integers of minor units) and as operators type them (currency units).

/** Digits after the decimal point of a currency (JPY 0, EUR 2, KWD 3), as Intl knows them. */
export const currencyDigits = (currency: string): number =>
  new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;

/**
 * An amount typed in currency units (`12.5`, `12,50`, `1 234,56`) → minor units; undefined when it is not an amount
 * of that currency (more decimals than it has, letters, two separators). The API takes integers of minor units.
 */
export function toMinor(text: string, currency: string): number | undefined {
  const digits = currencyDigits(currency);
  const match = /^(\d+)(?:[.,](\d*))?$/.exec(text.replace(/[\s\u00a0\u202f]/g, ''));
  if (!match || (match[2]?.length ?? 0) > digits) return undefined;
  return Number(match[1]) * 10 ** digits + Number((match[2] ?? '').padEnd(digits, '0') || 0);
}

