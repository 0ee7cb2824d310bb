import { requireAll } from './common';
import { dateTime, email, id, nullable, object, text, type Schema } from './common';
import { hyperlineQuoteMembers } from './hyperline';
import { listQuerySchema } from './list-query';
import { QUOTE_STATUSES, QUOTE_TYPES, quoteFilters } from './list-filters';
import { promotionCode } from './promotion-codes';

export const PRICE_TIER_DISPLAYS = ['all', 'matching', 'none'] as const;

/** A quote holds at most this many lines: its signature writes them in one transaction (at most 100 items). */
export const MAX_QUOTE_LINES = 40;

/** A line references the catalog: a price configuration (and optionally its product, checked) and a quantity. */
const lineItem = object(
  {
    price_configuration_id: id,
    product_id: id,
    quantity: { type: 'integer', minimum: 0, maximum: 1e9 },
  },
  ['price_configuration_id'],
);

/** A document's description; the service stores no file (see docs/quotes.md). */
const file = object({ id, name: text(255, 1), mimetype: text(255, 1) }, ['name', 'mimetype']);

const flag = { type: 'boolean' };

/**
 * What a PATCH may change (in draft and changes_requested). `line_items` comes first: the route matrix sends a
 * wrong type for the first member and expects a 400.
 */
const editableMembers: Record<string, Schema> = {
  line_items: { type: 'array', minItems: 1, maxItems: MAX_QUOTE_LINES, items: lineItem },
  invoicing_entity_id: id,
  starts_at: nullable(dateTime),
  subscription_id: nullable(id),
  promotion_code: nullable(promotionCode),
  requires_approval: flag,
  template_id: nullable(id),
  crm_opportunity_id: nullable(text(255)),
  comments: nullable(text(10_000)),
  terms: nullable(text(10_000)),
  owner_email: nullable(email),
  expires_at: nullable(dateTime),
  collect_payment_details: flag,
  collect_custom_property_ids: { type: 'array', maxItems: 50, uniqueItems: true, items: text(255, 1) },
  collect_tax_id: flag,
  display_quote_value: flag,
  display_taxes: flag,
  display_price_tiers: { type: 'string', enum: PRICE_TIER_DISPLAYS },
  display_phase_value: flag,
  display_first_invoice_amount: flag,
  display_documents_in_preview: flag,
  display_subscription_on_update: flag,
  display_total_with_tax: flag,
  post_signature_activation_enabled: flag,
  attachments: { type: 'array', maxItems: 20, items: file },
};

/** `type` and `line_items` (ours) or `subscription` (Hyperline's) is required: toQuoteInput says which is missing (400). */
export const quoteCreateBody = object(
  {
    customer_id: id,
    type: { type: 'string', enum: QUOTE_TYPES },
    status: { type: 'string', enum: ['draft', 'approved', 'pending_signature'] },
    ...editableMembers,
    ...hyperlineQuoteMembers(MAX_QUOTE_LINES),
  },
  ['customer_id'],
);

export const quoteUpdateBody = { ...object(editableMembers), minProperties: 1 };

export const quoteSendBody = object({ email, message: nullable(text(5000)) }, ['email']);

export const quoteSignBody = object({
  signed_at: dateTime,
  signer_name: nullable(text(255)),
  signer_email: nullable(email),
  signed_file: nullable(file),
});

export const quoteVoidBody = object({ reason: text(1000, 1) }, ['reason']);


export const quoteListQuery = listQuerySchema(quoteFilters, { sortable: true });

const str = { type: 'string' };
const nstr = { type: ['string', 'null'] };
const int = { type: 'integer' };
const bool = { type: 'boolean' };
const interval = { type: 'object', required: ['period'], properties: { period: str, count: { ...int, description: 'Absent for `once` and `all`.' } } };
const fileResource = { type: 'object', properties: { id: str, name: str, mimetype: str } };

export const quoteResource: Schema = requireAll({
  type: 'object',
  properties: {
    id: str, number: str, customer_id: str, invoicing_entity_id: str, template_id: nstr, crm_opportunity_id: nstr,
    type: { type: 'string', enum: QUOTE_TYPES }, status: { type: 'string', enum: QUOTE_STATUSES }, currency: str, amount: int,
    line_items: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          product_id: str, price_configuration_id: str, quantity: int, name: str, price_type: str, billing_interval: interval,
          commitment_interval: interval, amount_per_period: int, billing_periods: int, amount: int,
          tiers: { type: 'array', items: { type: 'object', properties: { from: int, to: { type: ['integer', 'null'] }, units: int, amount: int } } },
        },
      },
    },
    starts_at: nstr, subscription_id: nstr, child_subscription_ids: { type: 'array', items: str }, invoice_id: nstr, promotion_code: nstr,
    requires_approval: bool, comments: nstr, terms: nstr, owner_email: nstr, expires_at: nstr,
    collect_payment_details: bool, collect_custom_property_ids: { type: 'array', items: str }, collect_tax_id: bool,
    display_quote_value: bool, display_taxes: bool, display_price_tiers: { type: 'string', enum: PRICE_TIER_DISPLAYS }, display_phase_value: bool,
    display_first_invoice_amount: bool, display_documents_in_preview: bool, display_subscription_on_update: bool, display_total_with_tax: bool,
    post_signature_activation_enabled: bool, automatically_start_subscription: bool, attachments: { type: 'array', items: fileResource }, signed_file: { anyOf: [fileResource, { type: 'null' }] },
    url: nstr, sent_at: nstr, sent_to: nstr, sent_message: nstr, signed_at: nstr, signer_name: nstr, signer_email: nstr,
    void_reason: nstr, voided_at: nstr, created_at: str, updated_at: str,
  },
});
