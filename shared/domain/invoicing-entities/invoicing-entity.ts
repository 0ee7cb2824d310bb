import type { Ctx } from '../../context';
import { entityKey, listIndexKeys } from '../../db/keys';
import type { StoredItem } from '../../db/items';
import { definedMembers } from '../../objects';
import { collectionSettingsOf, type EntityCollectionSettings } from '../collection/settings';
import { emailSettingsOf, type EmailSettings } from '../../email/email-item';
import { portalSettingsOf, type PortalSettings } from './portal-settings';
import type { StoredLogo } from './logo';

export const ENTITY = 'IVE';

export interface InvoicingEntity {
  id: string;
  name: string;
  trade_name?: string;
  timezone: string;
  language: string;
  is_default: boolean;
  currency: string;
  accounting_currency: string;
  address_line1: string | null;
  address_line2: string | null;
  zip_code: string | null;
  state: string | null;
  city: string | null;
  country: string;
  registration_number: string | null;
  tax_id: string | null;
  tax_id_valid: boolean | null;
  billing_email: string | null;
  invoice_number_pattern: string;
  credit_note_number_pattern: string;
  document_number_pattern: string;
  next_invoice_number: number;
  next_credit_note_number: number;
  next_document_number: number;
  default_payment_delay: number;
  invoice_grace_period_duration: number;
  invoice_payment_initiation_delay: number | null;
  document_payment_initiation_delay: number | null;
  invoice_late_fees: string | null;
  invoice_footer: string;
  document_footer: string;
  /** Hyperline's footer of quotes; falls back to the invoice footer when unset. */
  quote_footer: string;
  logo_url: string | null;
  favicon_url: string | null;
  brand_color: string | null;
  forced_customer_type: 'corporate' | 'person' | null;
  credit_note_wallet_refund_enabled: boolean;
  /** False: the entity collects no tax (its invoices are `not_eligible`), e.g. a seller not registered for sales tax. */
  tax_collection_enabled: boolean;
  /** Automatic collection and dunning (docs/collection.md); absent on entities that never set them (the defaults). */
  dunning_retry_schedule?: EntityCollectionSettings['dunning_retry_schedule'];
  dunning_final_action?: EntityCollectionSettings['dunning_final_action'];
  wallet_collection_enabled?: boolean;
  /** E-invoicing (docs/e-invoicing.md); absent on entities that never set them. */
  registration_scheme?: string | null;
  legal_form?: string | null;
  bank_account?: { iban: string; bic?: string | null; account_name?: string | null } | null;
  payment_terms?: string | null;
  facturx_enabled?: boolean;
  /** Emails to customers (docs/emails.md); absent on entities that never set them (null, null, []). */
  email_from?: string | null;
  email_reply_to?: string | null;
  email_bcc?: string[];
  email_settings?: EmailSettings;
  /** What customers may do from the portal (portal-settings.ts); absent members take their defaults. */
  portal_settings?: Partial<PortalSettings>;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

/** Stored form: timestamps kept to the millisecond, `document_footer` and `quote_footer` null (or absent) when they fall back to the invoice footer. */
export type EntityItem = StoredItem &
  Omit<InvoicingEntity, 'document_footer' | 'quote_footer' | 'trade_name'> & {
    trade_name: string | null;
    document_footer: string | null;
    quote_footer?: string | null;
    /** The stored copy of `logo_url` (./logo.ts); absent or null without a logo. */
    logo_file?: StoredLogo | null;
  };

export type EntityInput = Partial<Omit<EntityItem, keyof StoredItem | 'id' | 'created_at' | 'updated_at' | 'deleted_at' | 'tax_id_valid'>>;

export const entityItemKey = (ctx: Ctx, id: string) => entityKey(ctx, ENTITY, id);

export function newEntityItem(ctx: Ctx, id: string, input: EntityInput & Pick<EntityItem, 'name' | 'country' | 'currency'>, now: string): EntityItem {
  return {
    ...entityItemKey(ctx, id),
    ...listIndexKeys(ctx, ENTITY, now, id),
    _type: 'invoicing_entity',
    _version: 0,
    id,
    trade_name: null,
    timezone: 'Etc/UTC',
    language: 'en',
    is_default: false,
    accounting_currency: input.accounting_currency ?? input.currency,
    address_line1: null,
    address_line2: null,
    zip_code: null,
    state: null,
    city: null,
    registration_number: null,
    tax_id: null,
    tax_id_valid: null,
    billing_email: null,
    invoice_number_pattern: 'INV-{number}',
    credit_note_number_pattern: 'CN-{number}',
    document_number_pattern: 'DOC-{number}',
    next_invoice_number: 1,
    next_credit_note_number: 1,
    next_document_number: 1,
    default_payment_delay: 30,
    invoice_grace_period_duration: 0,
    invoice_payment_initiation_delay: null,
    document_payment_initiation_delay: null,
    invoice_late_fees: null,
    invoice_footer: '',
    document_footer: null,
    logo_url: null,
    favicon_url: null,
    brand_color: null,
    forced_customer_type: null,
    credit_note_wallet_refund_enabled: false,
    tax_collection_enabled: true,
    ...definedMembers(input),
    name: input.name,
    country: input.country,
    currency: input.currency,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
}

/** Applies a partial update (omitted members kept, `null` clears) and refreshes the derived attributes. */
export const applyEntityInput = (item: EntityItem, input: EntityInput, now: string): EntityItem => ({
  ...item,
  ...definedMembers(input),
  updated_at: now,
});

/** The spec types the entity's timestamps as dates. */
const day = (timestamp: string | null): string | null => timestamp && timestamp.slice(0, 10);

/** The e-invoicing members the entity has set (absent ones stay absent: older entities answer as before). */
const einvoicingMembers = (item: EntityItem) => Object.fromEntries(
  (['registration_scheme', 'legal_form', 'bank_account', 'payment_terms', 'facturx_enabled'] as const).filter((k) => item[k] !== undefined).map((k) => [k, item[k]]),
);

export function toInvoicingEntity(item: EntityItem): InvoicingEntity {
  return {
    id: item.id,
    name: item.name,
    ...(item.trade_name !== null && { trade_name: item.trade_name }),
    timezone: item.timezone,
    language: item.language,
    is_default: item.is_default,
    currency: item.currency,
    accounting_currency: item.accounting_currency,
    address_line1: item.address_line1,
    address_line2: item.address_line2,
    zip_code: item.zip_code,
    state: item.state,
    city: item.city,
    country: item.country,
    registration_number: item.registration_number,
    tax_id: item.tax_id,
    tax_id_valid: item.tax_id_valid,
    billing_email: item.billing_email,
    invoice_number_pattern: item.invoice_number_pattern,
    credit_note_number_pattern: item.credit_note_number_pattern,
    document_number_pattern: item.document_number_pattern,
    next_invoice_number: item.next_invoice_number,
    next_credit_note_number: item.next_credit_note_number,
    next_document_number: item.next_document_number,
    default_payment_delay: item.default_payment_delay,
    invoice_grace_period_duration: item.invoice_grace_period_duration,
    invoice_payment_initiation_delay: item.invoice_payment_initiation_delay,
    document_payment_initiation_delay: item.document_payment_initiation_delay,
    invoice_late_fees: item.invoice_late_fees,
    invoice_footer: item.invoice_footer,
    document_footer: item.document_footer ?? item.invoice_footer,
    quote_footer: item.quote_footer ?? item.invoice_footer,
    logo_url: item.logo_url,
    favicon_url: item.favicon_url,
    brand_color: item.brand_color,
    forced_customer_type: item.forced_customer_type,
    credit_note_wallet_refund_enabled: item.credit_note_wallet_refund_enabled,
    ...einvoicingMembers(item),
    email_from: item.email_from ?? null,
    email_reply_to: item.email_reply_to ?? null,
    email_bcc: item.email_bcc ?? [],
    email_settings: emailSettingsOf(item.email_settings),
    portal_settings: portalSettingsOf(item.portal_settings),
    tax_collection_enabled: item.tax_collection_enabled ?? true,
    ...collectionSettingsOf(item),
    created_at: day(item.created_at)!,
    updated_at: day(item.updated_at)!,
    deleted_at: day(item.deleted_at),
  };
}
