import { RuleViolation } from '../../errors';
import { currencyExponent } from '../../money/currencies';
import type { CurrencyCode } from '../../schemas/value-sets';

/**
 * A document in another currency than its entity's accounting currency is booked at the rate stored on it
 * (`conversion_rate`: one unit of the document's currency in the accounting currency). Without a stored rate the
 * journal refuses it rather than guess a rate: the export fails and names the documents.
 */
export interface Conversion {
  from: string;
  to: string;
  rate: number;
}

export class ExchangeRateMissing extends RuleViolation {
  constructor(readonly documents: string[], currency: string, accountingCurrency: string) {
    super('exchange_rate_missing', `No exchange rate is stored from ${currency} to the entity's accounting currency ${accountingCurrency} for ${documents.slice(0, 10).join(', ')}${documents.length > 10 ? ` and ${documents.length - 10} more` : ''}: the journal books a document at its own stored rate only.`);
  }
}

/** The conversion of a document, or undefined when it is already in the accounting currency. Throws without a rate. */
export function conversionOf(documentId: string, currency: string, accountingCurrency: string, rate: number | null | undefined): Conversion | undefined {
  if (currency === accountingCurrency) return undefined;
  if (!rate || !Number.isFinite(rate) || rate <= 0) throw new ExchangeRateMissing([documentId], currency, accountingCurrency);
  return { from: currency, to: accountingCurrency, rate };
}

/** Minor units of `from` → minor units of `to`, rounded half away from zero (the exponents may differ: JPY → EUR). */
export function convert(amount: number, c: Conversion | undefined): number {
  if (!c) return amount;
  const scale = 10 ** (currencyExponent(c.to as CurrencyCode) - currencyExponent(c.from as CurrencyCode));
  const exact = amount * c.rate * scale;
  return Math.sign(exact) * Math.round(Math.abs(exact));
}
