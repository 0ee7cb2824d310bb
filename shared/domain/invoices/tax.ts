import { formatRate } from '../../money/tax-rate';
import { TaxSchemeError, taxScheme, type TaxScheme } from '../../money/tax-scheme';
import type { CustomerItem } from '../customers/customer';
import type { EntityItem } from '../invoicing-entities/invoicing-entity';

/**
 * The invoice's tax scheme (decisions.md): a rate given at creation is `manual`; otherwise the customer and the
 * seller decide (shared/money/tax-scheme.ts); an entity with `tax_collection_enabled: false` collects none
 * (`not_eligible`). A scheme that cannot be resolved is a 422 naming the two settings that resolve it.
 */
export function invoiceTaxScheme(customer: CustomerItem, entity: EntityItem, given?: { tax_rate?: number; tax_scheme?: 'not_eligible' }): TaxScheme {
  if (given?.tax_scheme === 'not_eligible') return { scheme: 'not_eligible', rate: '0' };
  if (given?.tax_rate !== undefined) return { scheme: 'manual', rate: formatRate(given.tax_rate) };
  try {
    return resolved(customer, entity);
  } catch (error) {
    if (!(error instanceof TaxSchemeError) || error.code !== 'tax_rate_unknown') throw error;
    throw new TaxSchemeError(
      'tax_rate_unknown',
      `${error.message.replace(/;.*$/, '')}: set tax_rate_custom on customer '${customer.id}' (PUT /v1/customers/${customer.id}), give tax_rate on the invoice, ` +
        `or, if invoicing entity '${entity.id}' collects no tax, set tax_collection_enabled to false on it (PUT /v1/invoicing-entities/${entity.id}).`,
    );
  }
}

function resolved(customer: CustomerItem, entity: EntityItem): TaxScheme {
  return taxScheme({
    customerTaxRateCustom: customer.tax_rate_custom,
    taxEnabled: entity.tax_collection_enabled ?? true,
    sellerCountry: entity.country,
    customerCountry: customer.billing_address?.country ?? null,
    customerType: customer.type,
    customerTaxId: customer.tax_ids[0]?.value ?? null,
  });
}
