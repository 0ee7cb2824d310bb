import { currency, dateTime, id, metadata, nullable, object, percentage, text, type Schema } from './common';
import { INVOICE_STATUSES, INVOICE_TYPES, invoiceFilters } from './invoice-filters';
import { listQuerySchema } from './list-query';

const amount = { type: 'integer', minimum: 0, maximum: 1e13 };
const quantity = { type: 'integer', minimum: 0, maximum: 1e9 };

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
});

const lineItems = { type: 'array', maxItems: 500, items: lineItem };

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
};

export const invoiceCreateBody = object(
  {
    customer_id: id,
    invoicing_entity_id: id,
    type: { type: 'string', enum: ['invoice', 'document'] },
    status: { type: 'string', enum: ['draft', 'to_pay'] },
    currency,
    coupon_ids: { type: 'array', maxItems: 5, uniqueItems: true, items: id },
    promotion_code: text(64, 1),
    ...editable,
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

const str = { type: 'string' };
const nstr = { type: ['string', 'null'] };
const int = { type: 'integer' };

export const invoiceResource: Schema = {
  type: 'object',
  properties: {
    id: str, number: nstr, type: { type: 'string', enum: INVOICE_TYPES }, status: { type: 'string', enum: INVOICE_STATUSES }, currency: str,
    customer_id: str, total_amount: int, amount_due: int, amount_paid: int, amount_credited: int, amount_excluding_tax: int, tax_amount: int, discount_amount: int,
    tax_scheme: str, emitted_at: str, due_at: str, line_items: { type: 'array' }, coupons: { type: 'array' }, transactions: { type: 'array' },
    customer: { type: 'object' }, seller: { type: 'object' }, public_url: str, original_invoice_id: nstr, original_invoice_number: nstr,
  },
};
