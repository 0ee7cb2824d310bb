import type { Address, CustomerItem, CustomerMembers } from './customer';

type AddressInput = Partial<Address> | null;

/** The request members of create and update (update: all optional; `null` clears a nullable member). */
export interface CustomerInput {
  name?: string;
  type?: 'corporate' | 'person' | null;
  currency?: string | null;
  country?: string | null;
  vat_number?: string | null;
  vat_rate_custom?: number | null;
  tax_ids?: { value: string }[];
  tax_rate_custom?: number | null;
  registration_number?: string | null;
  is_government_affiliated?: boolean | null;
  external_id?: string | null;
  invoicing_entity_id?: string;
  billing_address?: AddressInput;
  shipping_address?: AddressInput;
  billing_email?: string | null;
  invoice_emails?: string[];
  language?: string | null;
  timezone?: string | null;
  available_payment_methods?: string[];
  payment_method_type?: string | null;
  payment_method_id?: string | null;
  bank_account?: CustomerMembers['bank_account'];
  custom_payment_delay?: number | null;
  custom_payment_initiation_delay?: number | null;
  organisation_id?: string | null;
  organisation_invoicing?: CustomerMembers['organisation_invoicing'];
  properties?: Record<string, unknown> | null;
  custom_properties?: Record<string, unknown>;
  invoice_reminders_enabled?: boolean;
  collection_method?: 'automatic' | 'manual' | null;
  price_book_id?: string | null;
}

/** Members whose request name differs from the stored one. */
const RENAMED = { payment_method_type: 'current_payment_method_type', payment_method_id: 'current_payment_method_id' } as const;
const DEPRECATED = ['country', 'vat_number', 'vat_rate_custom'] as const;
const SPECIAL = new Set<string>([...DEPRECATED, 'tax_ids', 'billing_address', 'shipping_address', 'is_government_affiliated', ...Object.keys(RENAMED)]);

const toAddress = (input: AddressInput): Address | null =>
  input && {
    name: input.name ?? null,
    line1: input.line1 ?? null,
    line2: input.line2 ?? null,
    city: input.city ?? null,
    zip: input.zip ?? null,
    state: input.state ?? null,
    country: input.country ?? null,
  };

/**
 * Applies a request to a customer (pure): omitted members are kept, `null` clears. A deprecated member maps onto
 * its replacement unless the replacement is in the same request, which then wins.
 */
export function applyCustomerInput(current: CustomerItem, input: CustomerInput, now: string): CustomerItem {
  const next: CustomerItem = { ...current, updated_at: now };
  const target = next as unknown as Record<string, unknown>;
  for (const [member, value] of Object.entries(input)) {
    if (value !== undefined && !SPECIAL.has(member)) target[member] = value;
  }
  for (const [member, stored] of Object.entries(RENAMED)) {
    const value = input[member as keyof typeof RENAMED];
    if (value !== undefined) target[stored] = value;
  }
  if (input.is_government_affiliated !== undefined) next.is_government_affiliated = input.is_government_affiliated ?? false;
  if (input.billing_address !== undefined) next.billing_address = toAddress(input.billing_address);
  if (input.shipping_address !== undefined) next.shipping_address = toAddress(input.shipping_address);
  if (input.country !== undefined && input.billing_address?.country === undefined) {
    next.billing_address = { ...(next.billing_address ?? toAddress({})!), country: input.country };
  }
  if (input.tax_ids !== undefined) next.tax_ids = input.tax_ids.map((t) => taxId(current, t.value));
  else if (input.vat_number !== undefined) next.tax_ids = input.vat_number === null ? [] : [taxId(current, input.vat_number)];
  if (input.vat_rate_custom !== undefined && input.tax_rate_custom === undefined) next.tax_rate_custom = input.vat_rate_custom;
  // A bounce or complaint was about the old address: a new one is tried again.
  if (input.billing_email !== undefined && input.billing_email !== current.billing_email) next.billing_email_status = 'ok';
  return next;
}

/** Tax ids are not verified by this service: a new value is `unverified`; an unchanged one keeps its status. */
function taxId(current: CustomerItem, value: string) {
  const known = current.tax_ids.find((t) => t.value === value);
  return known ?? { value, status: 'unverified' };
}
