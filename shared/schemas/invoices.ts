import { INVOICE_EMAIL_STATUSES } from '../email/email-item';
import {
  addressResource, arrayOf, currency, dateTime, enumOf, id, metadata, nullable, nullableResource, object, out, percentage, resource, text, type Schema,
} from './common';
import { INVOICE_STATUSES, INVOICE_TYPES, invoiceFilters } from './invoice-filters';
import { paymentMethodSummary } from './payment-methods';
import { listQuerySchema } from './list-query';
import { hyperlineInvoiceMembers, hyperlineLineMembers } from './hyperline';

const amount = { type: 'integer', minimum: 0, maximum: 1e13 };
const quantity = { type: 'integer', minimum: 0, maximum: 1e9 };

/** EN 16931 members of a line (docs/e-invoicing.md). */
const lineEinvoicingMembers: Record<string, Schema> = {
  unit_code: { type: 'string', pattern: '^[A-Z0-9]{2,3}$', description: 'UN/ECE Recommendation 20 unit code; C62 (one) when absent.' },
  tax_category: { type: 'string', enum: ['S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M'], description: 'EN 16931 VAT category (UNTDID 5305); derived from the rate and the tax scheme when absent.' },
  tax_exemption_reason: text(1000, 1),
  tax_exemption_reason_code: { type: 'string', pattern: '^VATEX-[A-Z0-9-]{1,40}$', description: 'CEF VATEX code of the exemption.' },
};

const lineItem = object({
  price_configuration_id: id,
  price_id: id,
  product_id: id,
  name: text(255, 1),
  description: nullable(text(1000)),
  units_count: quantity,
  quantity,
  unit_amount: amount,
  tax_rate: percentage,
  transaction_amount: amount,
  period_starts_at: nullable(dateTime),
  period_ends_at: nullable(dateTime),
  ...lineEinvoicingMembers,
});

const lineItems = { type: 'array', maxItems: 500, items: lineItem };

/** A created invoice's lines also take Hyperline's period names. */
const createdLineItems = { ...lineItems, items: object({ ...lineItem.properties as Record<string, Schema>, ...hyperlineLineMembers }) };

const editable: Record<string, Schema> = {
  line_items: lineItems,
  tax_rate: percentage,
  emitted_at: dateTime,
  due_at: dateTime,
  period_starts_at: nullable(dateTime),
  period_ends_at: nullable(dateTime),
  document_name: nullable(text(255)),
  purchase_order: nullable(text(255)),
  reference: nullable(text(255)),
  custom_note: nullable(text(5000)),
  additional_info: nullable(text(5000)),
  footer: text(5000),
  payment_method_id: nullable(id),
  bank_account_id: nullable(id),
  properties: nullable(metadata),
  custom_properties: nullable(metadata),
  collection_method: {
    ...nullable({ type: 'string', enum: ['automatic', 'manual'] }),
    description: "How it is paid once payable, over its subscription's and its customer's choice; null (default): theirs (docs/collection.md). Draft or grace_period only; not on a document.",
  },
};

export const invoiceCreateBody = object(
  {
    customer_id: id,
    invoicing_entity_id: id,
    type: { type: 'string', enum: ['invoice', 'document'] },
    status: { type: 'string', enum: ['draft', 'to_pay', 'paid'], description: 'draft (default), to_pay (numbered at once), or paid (Hyperline: to_pay, then paid in full outside the service at settled_at).' },
    currency,
    coupon_ids: { type: 'array', maxItems: 5, uniqueItems: true, items: id },
    promotion_code: text(64, 1),
    ...editable,
    line_items: createdLineItems,
    ...hyperlineInvoiceMembers,
  },
  ['customer_id'],
);

export const invoiceUpdateBody = { ...object(editable), minProperties: 1 };

export const invoiceListQuery = listQuerySchema(invoiceFilters, { sortable: true });

export const transactionCreateBody = object(
  {
    amount: { type: 'integer', minimum: 1, maximum: 1e13 },
    payment_method_type: { type: 'string', enum: ['transfer', 'card', 'direct_debit', 'wallet', 'external', 'other'] },
    process_at: dateTime,
    comment: nullable(text(500)),
  },
  ['amount'],
);

export const chargeBody = object({ payment_method_id: id });

export const creditNoteCreateBody = object({
  amount: { type: 'integer', minimum: 1, maximum: 1e13 },
  line_items: { type: 'array', minItems: 1, maxItems: 500, items: object({ line_item_id: id, amount: { type: 'integer', minimum: 1, maximum: 1e13 } }, ['line_item_id']) },
  refund_method: { type: 'string', enum: ['payment_method', 'wallet', 'none'] },
  reason: nullable(text(500)),
});

const partyAddress = nullableResource(addressResource);

export const invoiceLineItemResource: Schema = resource({
  id: out.string, name: out.string, description: out.nullableString, entry_type: enumOf(['product', 'custom', 'wallet_load']),
  product_id: out.nullableString, product_type: out.nullableString, price_id: out.nullableString, units_count: out.integer,
  unit_amount: out.amount, amount: { ...out.amount, description: 'Tax included: amount_excluding_tax + tax_amount.' },
  amount_excluding_tax: out.amount, tax_rate: out.number, tax_rate_id: out.nullableString, tax_amount: out.amount, discount_amount: out.amount,
  discount_percent: out.nullableNumber, period_starts_at: out.nullableDateTime, period_ends_at: out.nullableDateTime,
  revenue_type: enumOf(['one_off', 'recurring', 'usage']), revenue_interval_count: out.nullableInteger, revenue_interval_period: out.nullableString,
  display_unit_amount: out.boolean, display_service_period: out.boolean, original_line_item_id: out.nullableString,
  unit_code: out.string, tax_category: out.string, tax_exemption_reason: out.string, tax_exemption_reason_code: out.string,
}, ['unit_code', 'tax_category', 'tax_exemption_reason', 'tax_exemption_reason_code']);

export const appliedCoupon = resource({
  id: out.string, name: out.string, discount_amount: out.amount, discount_percent: out.nullableNumber, line_item_ids: out.stringArray,
});

export const invoiceTransactionResource: Schema = resource({
  id: out.string, type: enumOf(['payment', 'refund']), amount: out.amount, currency: out.string, customer_id: out.string,
  provider_id: out.nullableString, process_at: out.dateTime, refunded_at: out.nullableDateTime, last_refreshed_at: out.dateTime,
  provider_fee: { ...out.nullableAmount, description: "Stripe's fee for the payment (from its balance transaction); null when not reported (the sandbox)." },
  chargeback: {
    ...nullableResource(resource({
      provider_id: { type: 'string', description: 'Stripe\'s dispute (`dp_…`).' },
      status: { type: 'string', description: 'As Stripe reports it: `warning_needs_response`, `needs_response`, `under_review`, `won`, `lost`…' },
      reason: { type: 'string', description: 'Stripe\'s reason (`fraudulent`, `product_not_received`…).' },
      amount: out.amount, currency: out.string, opened_at: out.dateTime,
    })),
    description: 'A dispute of the payment (a chargeback) as the provider last reported it; null without one (always, with the sandbox).',
  },
  integrations: arrayOf(out.freeObject),
  payment_method: nullableResource(paymentMethodSummary),
  status: { ...enumOf(['succeeded', 'failed', 'pending']), description: 'pending: at the provider, neither paid nor failed yet (a SEPA debit processing, 3-D Secure awaited).' },
  error_type: out.nullableString, comment: out.nullableString,
});

/** The automatic collection of an invoice and its retries (docs/collection.md). */
const dunningResource = resource({
  status: { ...enumOf(['active', 'succeeded', 'stopped', 'exhausted']), description: 'active: an attempt is due at next_attempt_at; exhausted: the last retry failed.' },
  attempt: { ...out.integer, description: 'Attempts made in the current round (a new default payment method starts a new round).' },
  next_attempt_at: out.nullableDateTime, started_at: { ...out.nullableDateTime, description: "The round's first failure: the retries are counted from it." },
  last_attempt_at: out.nullableDateTime, last_error_type: out.nullableString,
  retry_schedule: arrayOf(resource({ period: enumOf(['hours', 'days']), count: out.integer })),
  final_action: enumOf(['mark_uncollectible', 'cancel_subscription', 'none']), final_action_status: enumOf(['pending', 'done'], true),
  stopped_reason: enumOf(['manual_payment', 'not_payable'], true),
  reminder: nullableResource(resource({ attempt: out.integer, phase: enumOf(['before_due', 'after_due']), at: out.dateTime })),
}, [], 'Null for a manual invoice (and before the invoice is payable).');

export const invoiceResource: Schema = resource({
  id: out.string, number: { ...out.nullableString, description: 'Null while draft.' }, type: enumOf(INVOICE_TYPES), document_name: out.nullableString,
  status: enumOf(INVOICE_STATUSES), reference: out.nullableString, customer_id: out.string, purchase_order: out.nullableString, currency: out.string,
  source: enumOf(['api', 'other']), total_amount: out.amount, amount_due: { ...out.amount, description: 'total_amount − amount_paid − amount_credited, never negative.' }, amount_paid: out.amount,
  amount_credited: { ...out.amount, description: 'What credit notes settled of the unpaid part (no money went back for it).' }, amount_fixed: out.amount,
  amount_excluding_tax: out.amount, tax_rate: { ...out.number, description: 'Deprecated: the rate shared by the lines.' }, tax_amount: out.amount,
  tax_scheme: out.string, discount_amount: out.amount, conversion_rate: out.nullableNumber, converted_amount: out.nullableAmount,
  converted_at: out.nullableDateTime, payment_method_id: out.nullableString, bank_account_id: out.nullableString, custom_note: out.nullableString,
  additional_info: out.nullableString, footer: out.string,
  customer: resource({
    id: out.string, name: out.string, email: out.nullableString, external_id: out.nullableString, vat_number: out.nullableString,
    tax_id: out.nullableString, address: partyAddress,
  }, [], 'The customer as it was when the invoice was created.'),
  seller: resource({ id: out.string, name: { ...out.string, description: 'The legal name.' }, trade_name: out.nullableString, tax_id: out.nullableString, address: addressResource }, [], 'The invoicing entity.'),
  subscription_id: out.nullableString, period_starts_at: out.nullableDateTime, period_ends_at: out.nullableDateTime, emitted_at: out.dateTime,
  due_at: out.dateTime, refunded_at: out.nullableDateTime, grace_period_ended_at: out.nullableDateTime, settled_at: out.nullableDateTime,
  created_at: out.dateTime, updated_at: out.nullableDateTime, properties: out.nullableFreeObject, custom_properties: out.nullableFreeObject,
  original_invoice_id: out.nullableString, original_invoice_number: out.nullableString, line_items: arrayOf(invoiceLineItemResource),
  coupons: arrayOf(appliedCoupon), transactions: arrayOf(invoiceTransactionResource),
  attempt_count: { ...out.integer, description: "Hyperline's: how many times a saved payment method was charged for the invoice, whatever the outcome (a payment recorded outside is none)." },
  public_url: out.string, integrations: arrayOf(out.freeObject),
  collection_method: {
    ...enumOf(['automatic', 'manual'], true),
    description: 'Decided when the invoice becomes payable (docs/collection.md); before, the invoice\'s own choice if it was given one, else null.',
  },
  dunning: nullableResource(dunningResource),
  email_status: {
    ...enumOf(INVOICE_EMAIL_STATUSES, true),
    description: 'What became of the latest email of the invoice (GET /v1/emails?invoice_id=…): queued, sent, failed, skipped, delivered, bounced, complained; no_recipient when its customer had no billing_email. Null before any email (a draft, or emails off).',
  },
});
