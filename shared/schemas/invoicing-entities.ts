import { PATTERNS } from './formats';
import { arrayOf, country, id, currency, days, email, enumOf, language, name, nullable, nullableResource, object, out, resource, text, timezone, uri, type Schema } from './common';
import { CUSTOMER_TYPES } from './customers';
import { pagingQuery } from './list-query';
import { DUNNING_FINAL_ACTIONS, MAX_RETRIES } from '../domain/collection/settings';
import { EMAIL_KINDS } from '../email/email-item';
import { MAX_PORTAL_PRICES, PORTAL_CANCEL_MODES } from '../domain/invoicing-entities/portal-settings';

const retryDelay = object({ period: { type: 'string', enum: ['hours', 'days'] }, count: { type: 'integer', minimum: 1, maximum: 1440 } }, ['period', 'count']);

const numberPattern = { type: 'string', maxLength: 64, pattern: PATTERNS.numberPattern };
const counter = { type: 'integer', minimum: 1, maximum: 999_999_999 };

const entityMembers: Record<string, Schema> = {
  name,
  trade_name: nullable(text()),
  timezone,
  language,
  is_default: { type: 'boolean' },
  currency,
  accounting_currency: currency,
  address_line1: nullable(text()),
  address_line2: nullable(text()),
  zip_code: nullable(text(32)),
  state: nullable(text()),
  city: nullable(text()),
  country,
  registration_number: nullable(text(64)),
  tax_id: nullable(text(64)),
  billing_email: nullable(email),
  invoice_number_pattern: numberPattern,
  credit_note_number_pattern: numberPattern,
  document_number_pattern: numberPattern,
  next_invoice_number: counter,
  next_credit_note_number: counter,
  next_document_number: counter,
  default_payment_delay: days,
  invoice_grace_period_duration: days,
  invoice_payment_initiation_delay: nullable(days),
  document_payment_initiation_delay: nullable(days),
  invoice_late_fees: nullable(text(1000)),
  invoice_footer: text(5000),
  document_footer: nullable(text(5000)),
  quote_footer: { ...nullable(text(5000)), description: "Hyperline's footer of quotes; null: the invoice footer." },
  logo_url: {
    ...nullable(uri),
    description: 'https; fetched once when set or changed: a PNG or JPEG of at most 1 MB, stored and drawn on documents, pages and emails. ' +
      'Refused with 422 logo_url_invalid, logo_unreachable, logo_too_large, logo_svg_unsupported, logo_wrong_type or logo_invalid (docs/invoice-pdf.md, "Logo"); null removes it.',
  },
  favicon_url: nullable(uri),
  brand_color: nullable({ type: 'string', minLength: 4, maxLength: 9, pattern: PATTERNS.hexColor }),
  forced_customer_type: nullable({ type: 'string', enum: CUSTOMER_TYPES }),
  credit_note_wallet_refund_enabled: { type: 'boolean' },
  tax_collection_enabled: { type: 'boolean' },
  // Automatic collection and dunning (docs/collection.md).
  dunning_retry_schedule: {
    type: 'array', maxItems: MAX_RETRIES, items: retryDelay,
    description: 'When a failed automatic collection is retried, each counted from the first failure, strictly increasing, at most 60 days. Default 2 h, 12 h, 24 h, 3 days, 7 days; [] retries never.',
  },
  dunning_final_action: { type: 'string', enum: DUNNING_FINAL_ACTIONS, description: 'After the last retry failed: mark_uncollectible, cancel_subscription (the invoice\'s) or none (default).' },
  wallet_collection_enabled: { type: 'boolean', description: 'Automatic collection takes from the customer\'s active wallet first (default true).' },
  // E-invoicing (docs/e-invoicing.md).
  registration_scheme: nullable({ type: 'string', pattern: '^[0-9]{4}$', description: 'ISO 6523 scheme of registration_number (0002 SIREN, 0009 SIRET); guessed for French numbers when absent.' }),
  legal_form: nullable(text(255)),
  bank_account: nullable(object({ iban: { type: 'string', pattern: '^[A-Z]{2}[0-9]{2}[A-Z0-9 ]{10,36}$' }, bic: nullable({ type: 'string', pattern: '^[A-Z0-9]{8}([A-Z0-9]{3})?$' }), account_name: nullable(text(255)) }, ['iban'])),
  payment_terms: nullable(text(1000)),
  facturx_enabled: { type: 'boolean', description: 'Invoices download as Factur-X by default.' },
  // Emails to customers (docs/emails.md).
  email_from: { ...nullable(email), description: 'The sender of the emails to this entity\'s customers (an address of the SES identity on AWS); null (the default): none is sent.' },
  email_reply_to: { ...nullable(email), description: 'Where customers\' replies go; null: to email_from.' },
  email_bcc: { type: 'array', maxItems: 5, items: email, description: 'Blind copies of every email sent to customers (e.g. an accounting mailbox).' },
  email_settings: {
    ...object(Object.fromEntries(EMAIL_KINDS.map((kind) => [kind, { type: 'boolean' }]))),
    description: 'Which emails are sent, by kind (docs/emails.md); a kind left out is on. Replaced as a whole by an update.',
  },
  // The customer portal (docs/hosted-pages.md, "Portal settings").
  portal_settings: {
    ...object({
      allow_cancel: { type: 'boolean', description: 'Customers may cancel a subscription (default true).' },
      cancel_mode: { type: 'string', enum: PORTAL_CANCEL_MODES, description: 'end_of_period (default; undone from the portal until then) or immediately.' },
      allow_plan_change: { type: 'boolean', description: 'Customers may switch a product to one of allowed_price_configuration_ids (default false).' },
      allowed_price_configuration_ids: { type: 'array', maxItems: MAX_PORTAL_PRICES, uniqueItems: true, items: id, description: 'The active price configurations a customer may switch to.' },
      allow_quantity_change: { type: 'boolean', description: 'Customers may change the quantity of a product (default false).' },
      allow_billing_details_update: { type: 'boolean', description: 'Customers may update their billing address, tax id and billing email (default true).' },
    }),
    description: 'What customers may do from the portal; a member left out takes its default. Replaced as a whole by an update.',
  },
};

export const entityCreateBody = object(entityMembers, ['name', 'country', 'currency']);
export const entityUpdateBody = object(entityMembers);
export const entityListQuery = { type: 'object', additionalProperties: false, properties: { ...pagingQuery } };

const day = { type: 'string', description: 'A date (YYYY-MM-DD).' };

export const entityResource: Schema = resource({
  id: out.string, name: out.string, trade_name: { ...out.string, description: 'Only when set: the name shown on invoices.' }, timezone: out.string,
  language: out.string, is_default: out.boolean, currency: out.string, accounting_currency: out.string, address_line1: out.nullableString,
  address_line2: out.nullableString, zip_code: out.nullableString, state: out.nullableString, city: out.nullableString, country: out.string,
  registration_number: out.nullableString, tax_id: out.nullableString, tax_id_valid: { type: ['boolean', 'null'] }, billing_email: out.nullableString,
  invoice_number_pattern: out.string, credit_note_number_pattern: out.string, document_number_pattern: out.string,
  next_invoice_number: out.integer, next_credit_note_number: out.integer, next_document_number: out.integer, default_payment_delay: out.integer,
  invoice_grace_period_duration: out.integer, invoice_payment_initiation_delay: out.nullableInteger, document_payment_initiation_delay: out.nullableInteger,
  invoice_late_fees: out.nullableString, invoice_footer: out.string, document_footer: out.string, quote_footer: out.string, logo_url: out.nullableString,
  favicon_url: out.nullableString, brand_color: out.nullableString, forced_customer_type: enumOf(CUSTOMER_TYPES, true),
  credit_note_wallet_refund_enabled: out.boolean, tax_collection_enabled: out.boolean,
  dunning_retry_schedule: arrayOf(resource({ period: enumOf(['hours', 'days']), count: out.integer })), dunning_final_action: enumOf(DUNNING_FINAL_ACTIONS),
  wallet_collection_enabled: out.boolean, created_at: day, updated_at: day, deleted_at: { ...day, type: ['string', 'null'] },
  registration_scheme: out.nullableString, legal_form: out.nullableString,
  bank_account: nullableResource(resource({ iban: out.string, bic: out.nullableString, account_name: out.nullableString }, ['bic', 'account_name'])),
  payment_terms: out.nullableString, facturx_enabled: out.boolean,
  email_from: out.nullableString, email_reply_to: out.nullableString, email_bcc: out.stringArray,
  email_settings: resource(Object.fromEntries(EMAIL_KINDS.map((kind) => [kind, out.boolean]))),
  portal_settings: resource({
    allow_cancel: out.boolean, cancel_mode: enumOf(PORTAL_CANCEL_MODES), allow_plan_change: out.boolean, allowed_price_configuration_ids: out.stringArray,
    allow_quantity_change: out.boolean, allow_billing_details_update: out.boolean,
  }),
}, ['trade_name', 'registration_scheme', 'legal_form', 'bank_account', 'payment_terms', 'facturx_enabled']);
