/**
 * The VAT category of each line (EN 16931 BT-151, UNTDID 5305) and the exemption reason of the categories that
 * need one (BT-120/121, the CEF VATEX list): the line's own `tax_category` when given, otherwise derived from its
 * rate and the invoice's tax scheme (docs/e-invoicing.md).
 */
import type { TaxSchemeName } from '../../money/tax-scheme';
import type { InvoiceLineItem } from '../invoices/invoice';
import { einvoiceText, exemptionText, FRENCH_FRANCHISE, type ExemptCategory } from '../invoices/pdf/labels';

export const TAX_CATEGORIES = ['S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M'] as const;
export type TaxCategory = (typeof TAX_CATEGORIES)[number];

/** Categories whose lines carry no tax and must say why (BR-E-10, BR-AE-10, BR-IC-10, BR-G-10, BR-O-10). */
const EXEMPTION_CODES: Partial<Record<TaxCategory, string>> = {
  E: 'VATEX-EU-132', AE: 'VATEX-EU-AE', K: 'VATEX-EU-IC', G: 'VATEX-EU-G', O: 'VATEX-EU-O',
};

export interface LineCategory {
  category: TaxCategory;
  /** null for O (not subject to VAT: no rate, BR-O-05). */
  rate: string | null;
  exemptionReason: string | null;
  exemptionCode: string | null;
}

/** What a line without its own category is, from its rate and the invoice's scheme. */
function derived(rate: number, scheme: TaxSchemeName, sellerCountry: string): { category: TaxCategory; code?: string; reason?: string } {
  if (rate > 0) return { category: 'S' };
  if (scheme === 'reverse_charge') return { category: 'AE' };
  if (scheme === 'exempt') return { category: 'G' };
  // A seller that collects no VAT: in France the VAT franchise of small businesses (art. 293 B CGI).
  if (scheme === 'not_eligible') return sellerCountry === 'FR' ? { category: 'E', code: 'VATEX-FR-FRANCHISE', reason: FRENCH_FRANCHISE } : { category: 'E' };
  return { category: 'Z' };
}

type CategorisedLine = Pick<InvoiceLineItem, 'tax_rate' | 'tax_category' | 'tax_exemption_reason' | 'tax_exemption_reason_code'>;

export function lineCategory(line: CategorisedLine, scheme: TaxSchemeName, sellerCountry: string): LineCategory {
  const own = line.tax_category ?? null;
  const base = own ? { category: own } : derived(line.tax_rate, scheme, sellerCountry);
  const { category } = base;
  const exempt = category in EXEMPTION_CODES;
  const fallback = 'code' in base ? base : { code: undefined, reason: undefined };
  return {
    category,
    rate: category === 'O' ? null : String(line.tax_rate),
    exemptionReason: exempt ? (line.tax_exemption_reason ?? fallback.reason ?? exemptionText(category as ExemptCategory, einvoiceText)) : null,
    exemptionCode: exempt ? (line.tax_exemption_reason_code ?? fallback.code ?? EXEMPTION_CODES[category]!) : null,
  };
}
