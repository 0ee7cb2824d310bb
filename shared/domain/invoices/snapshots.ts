import type { CustomerItem } from '../customers/customer';
import type { EntityItem } from '../invoicing-entities/invoicing-entity';
import type { Invoice } from './invoice';

/** The customer as the invoice shows it: a copy taken at creation, so later edits of the customer do not rewrite it. */
export function customerSnapshot(customer: CustomerItem): Invoice['customer'] {
  const taxId = customer.tax_ids[0]?.value ?? null;
  return {
    id: customer.id,
    name: customer.name,
    email: customer.invoice_emails[0] ?? customer.billing_email,
    external_id: customer.external_id,
    vat_number: taxId,
    tax_id: taxId,
    address: customer.billing_address,
  };
}

/** The seller (invoicing entity) as the invoice shows it: its legal name, and its trade name as its own member. */
export function sellerSnapshot(entity: EntityItem): Invoice['seller'] {
  return {
    id: entity.id,
    name: entity.name,
    trade_name: entity.trade_name ?? null,
    tax_id: entity.tax_id,
    address: {
      name: entity.name,
      line1: entity.address_line1,
      line2: entity.address_line2,
      city: entity.city,
      zip: entity.zip_code,
      state: entity.state,
      country: entity.country,
    },
  };
}
