import { PATTERNS } from './formats';
import { country, currency, days, email, language, name, nullable, object, text, timezone, uri, type Schema } from './common';
import { CUSTOMER_TYPES } from './customers';
import { pagingQuery } from './list-query';

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
  logo_url: nullable(uri),
  favicon_url: nullable(uri),
  brand_color: nullable({ type: 'string', minLength: 4, maxLength: 9, pattern: PATTERNS.hexColor }),
  forced_customer_type: nullable({ type: 'string', enum: CUSTOMER_TYPES }),
  credit_note_wallet_refund_enabled: { type: 'boolean' },
  tax_collection_enabled: { type: 'boolean' },
};

export const entityCreateBody = object(entityMembers, ['name', 'country', 'currency']);
export const entityUpdateBody = object(entityMembers);
export const entityListQuery = { type: 'object', additionalProperties: false, properties: { ...pagingQuery } };

const str = { type: 'string' };
const nstr = { type: ['string', 'null'] };
const int = { type: 'integer' };
const nint = { type: ['integer', 'null'] };

export const entityResource: Schema = {
  type: 'object',
  properties: {
    id: str, name: str, trade_name: str, timezone: str, language: str, is_default: { type: 'boolean' }, currency: str,
    accounting_currency: str, address_line1: nstr, address_line2: nstr, zip_code: nstr, state: nstr, city: nstr, country: str,
    registration_number: nstr, tax_id: nstr, tax_id_valid: { type: ['boolean', 'null'] }, billing_email: nstr,
    invoice_number_pattern: str, credit_note_number_pattern: str, document_number_pattern: str,
    next_invoice_number: int, next_credit_note_number: int, next_document_number: int, default_payment_delay: int,
    invoice_grace_period_duration: int, invoice_payment_initiation_delay: nint, document_payment_initiation_delay: nint,
    invoice_late_fees: nstr, invoice_footer: str, document_footer: str, logo_url: nstr, favicon_url: nstr, brand_color: nstr,
    forced_customer_type: nstr, credit_note_wallet_refund_enabled: { type: 'boolean' }, tax_collection_enabled: { type: 'boolean' },
    created_at: { type: 'string', format: 'date' }, updated_at: { type: 'string', format: 'date' }, deleted_at: nstr,
  },
};
