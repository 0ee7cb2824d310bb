import {
  addressInput, country, currency, email, id, language, metadata, name, nullable, object, paymentMethodType,
  percentage, text, timezone, days, type Schema, addressResource, arrayOf, enumOf, nullableResource, out, resource,
} from './common';
import { listQuerySchema } from './list-query';
import { CUSTOMER_STATUSES, customerFilters } from './list-filters';
import { paymentMethodSummary } from './payment-methods';
import { BILLING_EMAIL_STATUSES } from '../domain/customers/billing-email-status';

export const CUSTOMER_TYPES = ['corporate', 'person'] as const;
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
  collection_method: { ...nullable({ type: 'string', enum: ['automatic', 'manual'] }), description: 'null (default): automatic when a default payment method is saved, else manual (docs/collection.md).' },
  price_book_id: nullable(id),
};

export const customerCreateBody = object(customerMembers, ['name']);
export const customerUpdateBody = object(customerMembers);

const customerListSchema = listQuerySchema(customerFilters, { sortable: true });
export const customerListQuery: Schema = {
  ...customerListSchema,
  properties: {
    ...(customerListSchema.properties as Record<string, Schema>),
    search: { type: 'string', minLength: 1, maxLength: 255, description: 'Part of the name, billing email or external id (case ignored).' },
  },
};

const subscriptionSummary = resource({
  id: out.string, status: out.string, current_period_started_at: out.nullableDateTime, current_period_ends_at: out.nullableDateTime,
  plan_id: out.nullableString, checkout_session_id: out.nullableString,
});

export const customerResource: Schema = resource({
  id: out.string, name: out.string, type: enumOf(['corporate', 'person'], true), status: enumOf(CUSTOMER_STATUSES), currency: out.nullableString,
  country: { ...out.nullableString, description: 'Deprecated: the billing address country.' },
  vat_number: { ...out.nullableString, description: 'Deprecated: the first tax id.' }, vat_number_valid: out.boolean,
  vat_rate_custom: { ...out.nullableNumber, description: 'Deprecated: `tax_rate_custom`.' },
  tax_ids: arrayOf(resource({ value: out.string, status: out.string })),
  tax_rate_custom: out.nullableNumber, registration_number: out.nullableString, is_government_affiliated: out.boolean,
  language: out.nullableString, timezone: out.nullableString, external_id: out.nullableString, properties: out.nullableFreeObject,
  custom_properties: out.freeObject, billing_address: { ...addressResource, description: 'Always an object, its members null until set (as the specification and Hyperline describe it). Changed in issue 36: it was null until set; a client testing it against null should test its members.' }, shipping_address: nullableResource(addressResource),
  billing_email: out.nullableString,
  billing_email_status: {
    ...enumOf(BILLING_EMAIL_STATUSES),
    description: 'ok, or bounced (a permanent bounce) or complained (marked as spam) as the email provider reported it: no email is sent to billing_email until it changes, which sets ok again (docs/emails.md).',
  },
  invoice_emails: out.stringArray, invoicing_entity_id: out.string, invoice_reminders_enabled: out.boolean,
  collection_method: enumOf(['automatic', 'manual'], true),
  price_book_id: out.nullableString, available_payment_methods: out.stringArray, current_payment_method_type: out.nullableString,
  current_payment_method_id: out.nullableString,
  current_payment_method: nullableResource(paymentMethodSummary),
  custom_payment_delay: out.nullableInteger, custom_payment_initiation_delay: out.nullableInteger,
  subscriptions: arrayOf(subscriptionSummary), segment_ids: out.stringArray, integrations: arrayOf(out.freeObject),
  providers: { type: 'object', additionalProperties: { type: 'string' } },
  bank_account: nullableResource(resource({ format: out.string, iban: out.string, bic_swift: out.string }, ['iban', 'bic_swift'])),
  organisation_id: out.nullableString, organisation_invoicing: enumOf(['none', 'every_invoice', 'concat'], true),
  created_at: out.dateTime, updated_at: out.dateTime, deleted_at: out.nullableDateTime,
});
