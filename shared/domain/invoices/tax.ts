import { formatRate } from '../../money/tax-rate';
import { taxScheme, type TaxScheme } from '../../money/tax-scheme';
import type { CustomerItem } from '../customers/customer';
import type { EntityItem } from '../invoicing-entities/invoicing-entity';

/**
 * The invoice's tax scheme (decisions.md): a rate given at creation is `manual`; otherwise the customer and the
 * seller decide (shared/money/tax-scheme.ts). Tax collection is on for every workspace: there is no workspace
 * setting to turn it off yet (docs/invoices.md), so `not_eligible` is only chosen explicitly.
 */
export function invoiceTaxScheme(customer: CustomerItem, entity: EntityItem, given?: { tax_rate?: number; tax_scheme?: 'not_eligible' }): TaxScheme {
  if (given?.tax_scheme === 'not_eligible') return { scheme: 'not_eligible', rate: '0' };
  if (given?.tax_rate !== undefined) return { scheme: 'manual', rate: formatRate(given.tax_rate) };
  return taxScheme({
    customerTaxRateCustom: customer.tax_rate_custom,
    taxEnabled: true,
    sellerCountry: entity.country,
    customerCountry: customer.billing_address?.country ?? null,
    customerType: customer.type,
    customerTaxId: customer.tax_ids[0]?.value ?? null,
  });
}
