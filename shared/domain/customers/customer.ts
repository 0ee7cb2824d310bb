import { plainSummary, type PaymentMethodSummary } from '../payment-methods/payment-method';
import type { Ctx } from '../../context';
import type { CollectionMethod } from '../collection/settings';
import type { StoredItem } from '../../db/items';
import { entityKey, listIndexKeys } from '../../db/keys';
import type { BillingEmailStatus } from './billing-email-status';

export const CUSTOMER = 'CUS';

export interface Address {
  name: string | null;
  line1: string | null;
  line2: string | null;
  city: string | null;
  zip: string | null;
  state: string | null;
  country: string | null;
}

export interface TaxId {
  value: string;
  status: string;
}

/** Members stored as they are returned. */
export interface CustomerMembers {
  id: string;
  name: string;
  type: 'corporate' | 'person' | null;
  status: 'active' | 'archived';
  currency: string | null;
  tax_ids: TaxId[];
  tax_rate_custom: number | null;
  registration_number: string | null;
  is_government_affiliated: boolean;
  language: string | null;
  timezone: string | null;
  external_id: string | null;
  properties: Record<string, unknown> | null;
  custom_properties: Record<string, unknown>;
  billing_address: Address | null;
  shipping_address: Address | null;
  billing_email: string | null;
  billing_email_status?: BillingEmailStatus;
  invoice_emails: string[];
  invoicing_entity_id: string;
  invoice_reminders_enabled: boolean;
  /** Null: automatic when a default payment method is saved, else manual (docs/collection.md). Absent on older customers. */
  collection_method?: CollectionMethod | null;
  price_book_id: string | null;
  available_payment_methods: string[];
  current_payment_method_type: string | null;
  current_payment_method_id: string | null;
  /** The default method's summary, written with `current_payment_method_id` (internal: shown as current_payment_method). */
  current_payment_method_summary?: PaymentMethodSummary | null;
  custom_payment_delay: number | null;
  custom_payment_initiation_delay: number | null;
  segment_ids: string[];
  integrations: Record<string, unknown>[];
  providers: Record<string, string>;
  bank_account: { format: string; iban?: string; bic_swift?: string } | null;
  organisation_id: string | null;
  organisation_invoicing: 'none' | 'every_invoice' | 'concat' | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

/** What locks the currency: any of these present means the currency can no longer change (decisions.md). */
export type CurrencyLockReason = 'invoice' | 'wallet' | 'payment_method' | 'subscription';

/** One entry of the customer's `subscriptions` array (billing-api.md, Customer). */
export interface CustomerSubscriptionSummary {
  id: string;
  status: string;
  current_period_started_at: string | null;
  current_period_ends_at: string | null;
  plan_id: string | null;
  checkout_session_id: string | null;
}

/**
 * Each subscription keeps its summary in its own top-level attribute of the customer item, named by this prefix and
 * its id: every subscription write sets it in the same transaction (one Update of the customer, beside its currency
 * lock), so GET customer answers `subscriptions` from the one item it reads. See docs/subscriptions.md.
 */
export const SUBSCRIPTION_SUMMARY_PREFIX = 'subscription#';
export const subscriptionSummaryAttribute = (subscriptionId: string): string => `${SUBSCRIPTION_SUMMARY_PREFIX}${subscriptionId}`;

/** The summaries stored on a customer item, oldest subscription first (ids are ULIDs), in the spec's member order. */
export function subscriptionSummaries(item: object): CustomerSubscriptionSummary[] {
  return Object.entries(item)
    .filter(([name]) => name.startsWith(SUBSCRIPTION_SUMMARY_PREFIX))
    .map(([, value]) => value as CustomerSubscriptionSummary)
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((s) => ({
      id: s.id,
      status: s.status,
      current_period_started_at: s.current_period_started_at ?? null,
      current_period_ends_at: s.current_period_ends_at ?? null,
      plan_id: s.plan_id ?? null,
      checkout_session_id: s.checkout_session_id ?? null,
    }));
}

export type CustomerItem = StoredItem & CustomerMembers & { currency_locks?: Set<CurrencyLockReason> };

export const customerItemKey = (ctx: Ctx, id: string) => entityKey(ctx, CUSTOMER, id);

/** The fields list filters see (the list index projects only these). */
export const customerListFields = (c: CustomerMembers) => ({
  name: c.name,
  status: c.status,
  external_id: c.external_id,
  billing_email: c.billing_email,
  created_at: c.created_at,
});

export function newCustomerItem(ctx: Ctx, id: string, now: string): CustomerItem {
  return {
    ...customerItemKey(ctx, id),
    ...listIndexKeys(ctx, CUSTOMER, now, id),
    _type: 'customer',
    _version: 0,
    id,
    name: '',
    type: null,
    status: 'active',
    currency: null,
    tax_ids: [],
    tax_rate_custom: null,
    registration_number: null,
    is_government_affiliated: false,
    language: null,
    timezone: null,
    external_id: null,
    properties: null,
    custom_properties: {},
    billing_address: null,
    shipping_address: null,
    billing_email: null,
    billing_email_status: 'ok',
    invoice_emails: [],
    invoicing_entity_id: '',
    invoice_reminders_enabled: true,
    collection_method: null,
    price_book_id: null,
    available_payment_methods: [],
    current_payment_method_type: null,
    current_payment_method_id: null,
    custom_payment_delay: null,
    custom_payment_initiation_delay: null,
    segment_ids: [],
    integrations: [],
    providers: {},
    bank_account: null,
    organisation_id: null,
    organisation_invoicing: null,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
}

/**
 * The public representation. Deprecated members stay, derived from their replacements: `country` from the
 * billing address, `vat_number(_valid)` from the first tax id, `vat_rate_custom` from `tax_rate_custom`.
 */
export function toCustomer(item: CustomerItem) {
  const { pk: _pk, sk: _sk, gsi1pk: _g, gsi1sk: _s, lf: _lf, _type, _version, currency_locks: _locks, ...m } = item;
  const taxId = m.tax_ids[0];
  return {
    id: m.id,
    name: m.name,
    type: m.type,
    status: m.status,
    currency: m.currency,
    country: m.billing_address?.country ?? null,
    vat_number: taxId?.value ?? null,
    vat_number_valid: taxId?.status === 'valid',
    vat_rate_custom: m.tax_rate_custom,
    tax_ids: m.tax_ids,
    tax_rate_custom: m.tax_rate_custom,
    registration_number: m.registration_number,
    is_government_affiliated: m.is_government_affiliated,
    language: m.language,
    timezone: m.timezone,
    external_id: m.external_id,
    properties: m.properties,
    custom_properties: m.custom_properties,
    // Always an object, as Hyperline and the specification describe it: its members are null until set.
    billing_address: orderedAddress(m.billing_address) ?? NO_ADDRESS,
    shipping_address: orderedAddress(m.shipping_address),
    billing_email: m.billing_email,
    billing_email_status: m.billing_email_status ?? 'ok',
    invoice_emails: m.invoice_emails,
    invoicing_entity_id: m.invoicing_entity_id,
    invoice_reminders_enabled: m.invoice_reminders_enabled,
    collection_method: m.collection_method ?? null,
    price_book_id: m.price_book_id,
    available_payment_methods: m.available_payment_methods,
    current_payment_method_type: m.current_payment_method_type,
    current_payment_method_id: m.current_payment_method_id,
    current_payment_method: m.current_payment_method_id
      ? { ...(m.current_payment_method_summary ?? plainSummary(m.current_payment_method_type ?? 'card')), id: m.current_payment_method_id }
      : null,
    custom_payment_delay: m.custom_payment_delay,
    custom_payment_initiation_delay: m.custom_payment_initiation_delay,
    subscriptions: subscriptionSummaries(item),
    segment_ids: m.segment_ids,
    integrations: m.integrations,
    providers: m.providers,
    bank_account: m.bank_account,
    organisation_id: m.organisation_id,
    organisation_invoicing: m.organisation_invoicing,
    created_at: m.created_at,
    updated_at: m.updated_at,
    deleted_at: m.deleted_at,
  };
}

export type Customer = ReturnType<typeof toCustomer>;

/** DynamoDB maps come back in any order; answer with the spec's member order. */
const NO_ADDRESS: Address = { name: null, line1: null, line2: null, city: null, zip: null, state: null, country: null };

export const orderedAddress = (a: Address | null): Address | null =>
  a && { name: a.name, line1: a.line1, line2: a.line2, city: a.city, zip: a.zip, state: a.state, country: a.country };
