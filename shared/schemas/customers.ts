import {
  addressInput, country, currency, dateTime, email, id, language, metadata, name, nullable, object, paymentMethodType,
  percentage, text, timezone, days, type Schema,
} from './common';
import { listQuerySchema, type FilterSpec } from './list-query';
import { paymentMethodSummary } from './payment-methods';

export const CUSTOMER_TYPES = ['corporate', 'person'] as const;
export const CUSTOMER_STATUSES = ['active', 'archived'] as const;
const ORGANISATION_INVOICING = ['none', 'every_invoice', 'concat'];

const bankAccount = object({ format: { type: 'string', enum: ['iban_bic_swift'] }, iban: text(34, 1), bic_swift: text(11, 1) }, [
  'format',
]);

/** Members accepted by create and update (update: all optional; `null` clears a nullable member). */
const customerMembers: Record<string, Schema> = {
  name,
  type: nullable({ type: 'string', enum: CUSTOMER_TYPES }),
  currency: nullable(currency),
  country: nullable(country),
  vat_number: nullable(text(64)),
  vat_rate_custom: nullable(percentage),
  tax_ids: { type: 'array', maxItems: 1, items: object({ value: text(64, 1) }, ['value']) },
  tax_rate_custom: nullable(percentage),
  registration_number: nullable(text(64)),
  is_government_affiliated: nullable({ type: 'boolean' }),
  external_id: nullable(text(255)),
  invoicing_entity_id: id,
  billing_address: nullable(addressInput),
  shipping_address: nullable(addressInput),
  billing_email: nullable(email),
  invoice_emails: { type: 'array', maxItems: 20, items: email },
  language: nullable(language),
  timezone: nullable(timezone),
  available_payment_methods: { type: 'array', maxItems: 9, uniqueItems: true, items: paymentMethodType },
  payment_method_type: nullable({ type: 'string', enum: [...(paymentMethodType.enum as readonly string[]), 'external'] }),
  payment_method_id: nullable(id),
  bank_account: nullable(bankAccount),
  custom_payment_delay: nullable(days),
  custom_payment_initiation_delay: nullable(days),
  organisation_id: nullable(id),
  organisation_invoicing: nullable({ type: 'string', enum: ORGANISATION_INVOICING }),
  properties: nullable(metadata),
  custom_properties: metadata,
  invoice_reminders_enabled: { type: 'boolean' },
  price_book_id: nullable(id),
};

export const customerCreateBody = object(customerMembers, ['name']);
export const customerUpdateBody = object(customerMembers);

export const customerFilters: FilterSpec = {
  name: { kind: 'string' },
  status: { kind: 'enum', values: CUSTOMER_STATUSES },
  external_id: { kind: 'string' },
  billing_email: { kind: 'string' },
  created_at: { kind: 'date' },
};
export const customerListQuery = listQuerySchema(customerFilters, { sortable: true });

const str = { type: 'string' };
const nstr = { type: ['string', 'null'] };
const address = {
  type: 'object',
  properties: { name: nstr, line1: nstr, line2: nstr, city: nstr, zip: nstr, state: nstr, country: nstr },
};

export const customerResource: Schema = {
  type: 'object',
  properties: {
    id: str, name: str, type: nstr, status: { type: 'string', enum: CUSTOMER_STATUSES }, currency: nstr, country: nstr,
    vat_number: nstr, vat_number_valid: { type: 'boolean' }, vat_rate_custom: { type: ['number', 'null'] },
    tax_ids: { type: 'array', items: { type: 'object', properties: { value: str, status: str } } },
    tax_rate_custom: { type: ['number', 'null'] }, registration_number: nstr, is_government_affiliated: { type: 'boolean' },
    language: nstr, timezone: nstr, external_id: nstr, properties: { type: ['object', 'null'] }, custom_properties: { type: 'object' },
    billing_address: address, shipping_address: address, billing_email: nstr, invoice_emails: { type: 'array', items: str },
    invoicing_entity_id: str, invoice_reminders_enabled: { type: 'boolean' }, price_book_id: nstr,
    available_payment_methods: { type: 'array', items: str }, current_payment_method_type: nstr,
    current_payment_method_id: nstr, current_payment_method: { anyOf: [paymentMethodSummary, { type: 'null' }] },
    custom_payment_delay: { type: ['integer', 'null'] }, custom_payment_initiation_delay: { type: ['integer', 'null'] },
    subscriptions: { type: 'array', items: { type: 'object' } }, segment_ids: { type: 'array', items: str },
    integrations: { type: 'array', items: { type: 'object' } }, providers: { type: 'object' },
    bank_account: { type: ['object', 'null'] }, organisation_id: nstr, organisation_invoicing: nstr,
    created_at: dateTime, updated_at: dateTime, deleted_at: { anyOf: [dateTime, { type: 'null' }] },
  },
};
