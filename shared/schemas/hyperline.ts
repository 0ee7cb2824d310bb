import { committedCount } from './billing-terms';
import { dateTime, id, nullable, object, text, type Schema } from './common';

/**
 * The members of Hyperline's request bodies that this API accepts beside its own (docs/hyperline.md), kept apart so
 * that each route's own schema stays readable. Their meaning here: shared/domain/hyperline/.
 */

/** `POST /v1/invoices`: Hyperline's import members. */
export const hyperlineInvoiceMembers: Record<string, Schema> = {
  number: { ...text(255, 1), description: 'Hyperline: the number the invoice had elsewhere. Kept as `reference`; this service numbers invoices itself (docs/hyperline.md).' },
  payment_method_strategy: {
    type: 'string', enum: ['current', 'external'],
    description: "Hyperline: `external` = paid outside the service (collection_method `manual`); `current` = the customer's payment method (collection_method unset: theirs).",
  },
  settled_at: { ...dateTime, description: 'Hyperline: when a `paid` invoice was paid (the recorded payment\'s process_at; default now). Only with status `paid`.' },
};

/** A line's period under Hyperline's names (aliases of period_starts_at/period_ends_at; not both). */
export const hyperlineLineMembers: Record<string, Schema> = {
  period_start: { ...nullable(dateTime), description: 'Hyperline name of period_starts_at.' },
  period_end: { ...nullable(dateTime), description: 'Hyperline name of period_ends_at.' },
};

/** `POST /v1/subscriptions/{id}/cancel`: Hyperline's members (`mode`/`prorate` stay). */
export const hyperlineCancelMembers: Record<string, Schema> = {
  cancel_at: {
    anyOf: [{ type: 'string', enum: ['immediately', 'end_of_period'] }, dateTime],
    description: "Hyperline: when. `immediately`, `end_of_period`, or a date-time: now or past = immediately, the current period's end = end_of_period; other dates are refused (422).",
  },
  pro_rata: { type: 'boolean', description: 'Hyperline name of `prorate`.' },
};

/** `POST /v1/wallets/{id}/load`: Hyperline's members (`type`/`amount` stay). */
export const hyperlineLoadMembers: Record<string, Schema> = {
  amount_free: { type: 'integer', minimum: 1, maximum: 1e15, description: 'Hyperline: offered funds (a `free` load). Without `type`, `amount` means paid funds.' },
};

const interval: Schema = {
  type: 'object', additionalProperties: false, required: ['period'],
  properties: { period: { type: 'string', enum: ['once', 'days', 'weeks', 'months', 'years'] }, count: { type: 'integer', minimum: 1, maximum: 1000 } },
};
/** One of Hyperline's inline prices: compared with the stored prices of the configuration it names, never stored. */
const inlinePrice: Schema = {
  type: 'object', required: ['type'], maxProperties: 20,
  properties: { type: { type: 'string', enum: ['fee', 'volume', 'packaged', 'bulk', 'bps', 'bundle'] } },
};
/** A Hyperline enum member with no meaning here: any of its values, bounded. */
const word = { type: ['string', 'null'], maxLength: 64 };
const amount = { type: 'integer', minimum: 1, maximum: 1e12 };

/**
 * `POST /v2/subscriptions`: a product as Hyperline gives it. Its price configuration is the product's active one in
 * the customer's currency that matches `payment_interval` and the inline prices (or `price_configuration_id`, ours).
 */
export const hyperlineSubscriptionProduct: Schema = {
  type: 'object', additionalProperties: false, required: ['id'],
  description: "Hyperline's product shape: resolved to the product's one price configuration matching payment_interval and prices.",
  properties: {
    id: { type: 'string', minLength: 1, maxLength: 64, description: 'Hyperline: the catalog product (`product_id`).' },
    price_configuration_id: { type: 'string', minLength: 1, maxLength: 64, description: 'Ours, optional: which of its price configurations (default: the one matching payment_interval and prices).' },
    name: { ...text(255), description: "Hyperline: ignored (the subscription shows the catalog product's name)." },
    description: { ...nullable(text(2000)), description: 'Hyperline: ignored (invoices show the catalog description).' },
    description_display_interval_dates: { type: 'boolean', description: 'Hyperline: ignored.' },
    payment_interval: { ...interval, description: "Hyperline: selects the configuration billed at this interval (`billing_interval`)." },
    payment_schedule: { type: 'string', enum: ['start', 'end'], description: 'Hyperline: `start` = in advance, `end` = in arrears; must be the product\'s (422 `payment_schedule_mismatch`).' },
    price: { ...inlinePrice, description: "Hyperline's single price (read only without `prices`)." },
    prices: { type: 'array', minItems: 1, maxItems: 100, items: inlinePrice, description: "Hyperline: must equal the configuration's prices (422 `prices_mismatch`): a subscription here is billed at catalog prices." },
    count: { type: 'integer', minimum: 0, maximum: 1_000_000_000, description: 'Hyperline name of `quantity` (default 1).' },
    unit_name: { ...nullable(text(255)), description: 'Hyperline: ignored (a metered product takes its aggregator\'s unit).' },
    min_committed_count: { ...nullable(committedCount), description: 'Metered products only: the least usage a period is billed for (docs/usage-billing.md).' },
  },
};

const hyperlineCoupon: Schema = {
  type: 'object', additionalProperties: false, required: ['id'],
  properties: {
    id: { type: 'string', minLength: 1, maxLength: 64 },
    repeat: word, duration_period: word, duration_count: { type: ['integer', 'null'], minimum: 0, maximum: 1000 },
    expires_at: nullable(dateTime), apply_at: nullable(dateTime), product_ids: { type: ['array', 'null'], maxItems: 50, items: { type: 'string', maxLength: 64 } },
  },
};

/** `POST /v2/subscriptions`: Hyperline's top-level members (docs/hyperline.md says what each means here). */
export const hyperlineSubscriptionMembers = (products: Schema): Record<string, Schema> => ({
  name: { ...nullable(text(255)), description: 'Hyperline: the subscription\'s own name.' },
  purchase_order: { ...nullable(text(255)), description: 'Hyperline: the purchase order it refers to.' },
  minimum_invoice_fee: { ...nullable(amount), description: 'Hyperline: the least a period is invoiced (minor units, before tax), as `PATCH …/billing-terms` sets it.' },
  activation_strategy: {
    type: 'string', enum: ['start_date', 'manually', 'checkout'],
    description: 'Hyperline: `start_date` (default here) only; `manually` and `checkout` are refused (422 `activation_strategy_not_supported`).',
  },
  payment_method_strategy: {
    type: 'string', enum: ['current', 'external', 'new'],
    description: "Hyperline: `current` = the customer's collection method; `external` = collection_method `manual`; `new` is refused (422, no checkout here).",
  },
  coupons: {
    type: 'array', maxItems: 10, items: hyperlineCoupon,
    description: "Hyperline's coupons: each `id` as `coupon_ids`; the coupon's own terms apply, other members are refused (422 `coupon_terms_not_supported`).",
  },
  phases: {
    type: 'array', minItems: 1, maxItems: 10,
    items: {
      type: 'object', additionalProperties: false, required: ['products'],
      properties: {
        products, name: nullable(text(255)), coupons: { type: 'array', maxItems: 10, items: hyperlineCoupon },
        end_strategy: word, duration: nullable(interval), ends_at: nullable(dateTime),
      },
    },
    description: 'Hyperline: one phase without an end only (its products and coupons); more, or an end, is refused (422 `phases_not_supported`).',
  },
  contract_terms: {
    type: 'object', additionalProperties: false,
    properties: {
      starts_at: nullable(dateTime), ends_at: nullable(dateTime), duration: nullable(interval), renew_automatically: { type: 'boolean' },
      renew_for_duration: nullable(interval), activation_strategy: word, end_strategy: word,
    },
    description: 'Hyperline: accepted and not stored when it renews automatically; `renew_automatically: false` is refused (422 `contract_end_not_supported`).',
  },
});

/** `POST /v1/quotes`: Hyperline's subscription (instead of our `type` and `line_items`), its activation flag and value. */
export const hyperlineQuoteMembers = (maxLines: number): Record<string, Schema> => ({
  subscription: {
    ...object({ products: { type: 'array', minItems: 1, maxItems: maxLines, items: hyperlineSubscriptionProduct }, starts_at: nullable(dateTime), invoicing_entity_id: id }, ['products']),
    description: "Hyperline: a quote of type subscription whose lines are these products, each resolved to its catalog price configuration as POST /v2/subscriptions does (instead of type and line_items).",
  },
  automatically_start_subscription: { type: 'boolean', description: 'Hyperline name of post_signature_activation_enabled.' },
  amount: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: "Hyperline: the quote's estimated value. Computed here from the lines' catalog prices; another value is refused (422 amount_mismatch)." },
});
