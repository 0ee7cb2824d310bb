import type { CurrencyCode } from "../schemas/value-sets";

/** ISO 4217 minor-unit exponents: amounts are integers in 10^-exponent of the currency. */
const ZERO_DECIMALS = new Set<string>(["BIF", "BYR", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "VND", "VUV", "XAF", "XOF", "XPF"]);
const THREE_DECIMALS = new Set<string>(["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"]);

export function currencyExponent(currency: CurrencyCode): 0 | 2 | 3 {
  if (ZERO_DECIMALS.has(currency)) return 0;
  if (THREE_DECIMALS.has(currency)) return 3;
  return 2;
}
