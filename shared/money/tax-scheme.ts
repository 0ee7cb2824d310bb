/**
 * The tax scheme of an invoice (decisions.md, "Invoices"; docs/taxes.md), checked in this order:
 * 1. the customer has `tax_rate_custom`                     → manual, that rate;
 * 2. tax collection disabled for the workspace              → not_eligible, 0;
 * 3. seller and customer in the same VAT country            → standard, that country's standard rate;
 * 4. both in the EU, customer corporate with a tax id       → reverse_charge, 0;
 * 5. customer outside the seller's tax area                 → exempt, 0;
 * 6. both in the EU otherwise (B2C: a person, or no tax id) → standard, the SELLER's country rate
 *    (decisions.md is silent; the EU place-of-supply rule before the OSS threshold).
 * Countries are first mapped to the VAT country they belong to (MC → FR, IM → GB, LI → CH). A missing customer
 * country is taken as the seller's. A standard scheme with a country not in the table throws `TaxSchemeError`
 * `tax_rate_unknown` (422): the caller sets `tax_rate_custom` on the customer, or `tax_collection_enabled: false` on the
 * invoicing entity (taxEnabled false → not_eligible).
 */
import { RuleViolation } from '../errors';
import { formatRate } from './tax-rate';
import { isEuCountry, standardVatRate } from './vat-rates';

export type TaxSchemeName = 'manual' | 'not_eligible' | 'standard' | 'reverse_charge' | 'exempt';

export interface TaxSchemeInput {
  /** Customer `tax_rate_custom` (0–100); null/undefined when not set. */
  customerTaxRateCustom?: number | string | null;
  /** Tax collection enabled for the workspace. */
  taxEnabled: boolean;
  /** The invoicing entity's (seller's) country. */
  sellerCountry: string | null | undefined;
  /** The customer's billing country; null/undefined → taken as the seller's. */
  customerCountry?: string | null;
  customerType?: 'corporate' | 'person' | 'automatically_created' | null;
  /** The customer's tax id (first of `tax_ids`, or `vat_number`); blank counts as none. */
  customerTaxId?: string | null;
}

export interface TaxScheme {
  scheme: TaxSchemeName;
  /** Percentage as an exact decimal string ('20', '25.5', '0'). */
  rate: string;
}

export class TaxSchemeError extends RuleViolation {
  constructor(code: 'tax_rate_unknown' | 'seller_country_missing', message: string) {
    super(code, message);
  }
}

/** Territories outside the table that share a listed country's VAT (they are inside its VAT territory). */
const VAT_COUNTRY_OF: Readonly<Record<string, string>> = { MC: 'FR', IM: 'GB', LI: 'CH' };

export const vatCountryOf = (country: string): string => VAT_COUNTRY_OF[country] ?? country;

function standard(country: string): TaxScheme {
  const rate = standardVatRate(country);
  if (rate === undefined) {
    throw new TaxSchemeError('tax_rate_unknown', `No standard tax rate is known for country '${country}'; set tax_rate_custom on the customer, or tax_collection_enabled false on the invoicing entity.`);
  }
  return { scheme: 'standard', rate };
}

export function taxScheme(input: TaxSchemeInput): TaxScheme {
  const custom = input.customerTaxRateCustom;
  if (custom !== null && custom !== undefined) return { scheme: 'manual', rate: formatRate(custom) };
  if (!input.taxEnabled) return { scheme: 'not_eligible', rate: '0' };

  if (!input.sellerCountry) throw new TaxSchemeError('seller_country_missing', 'The invoicing entity has no country; its tax scheme cannot be resolved.');
  const seller = vatCountryOf(input.sellerCountry);
  const customer = input.customerCountry ? vatCountryOf(input.customerCountry) : seller;

  if (seller === customer) return standard(seller);

  const bothEu = isEuCountry(seller) && isEuCountry(customer);
  const hasTaxId = typeof input.customerTaxId === 'string' && input.customerTaxId.trim() !== '';
  if (bothEu && input.customerType === 'corporate' && hasTaxId) return { scheme: 'reverse_charge', rate: '0' };
  // Tax areas: the EU is one; every other country is its own (after the mapping above).
  if (!bothEu) return { scheme: 'exempt', rate: '0' };
  return standard(seller); // intra-EU B2C: the seller's rate
}
