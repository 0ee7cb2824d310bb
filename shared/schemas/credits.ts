import { requireAll } from './common';
import { dateTime, id, nullable, object, text, type Schema } from './common';
import { listQuerySchema, pagingQuery } from './list-query';
import { CREDIT_TRANSACTION_TYPES, creditTransactionFilters } from './list-filters';

export const CREDIT_SOURCES = ['app', 'portal', 'api', 'system'] as const;

/** One request moves at most this many credits; a balance stays far below 2^53 (exact integers). */
export const MAX_CREDIT_COUNT = 1_000_000_000_000;
const creditCount = { type: 'integer', minimum: 1, maximum: MAX_CREDIT_COUNT };

/** `{id}` is the customer, `{productId}` the credit product. */
export const creditPath = object({ id, productId: id }, ['id', 'productId']);

/**
 * Top-up (spec: `credit_count`, `expires_at?`; `price_id?` from the spec's rule). `expires_at: null` is the same
 * as leaving it out: the credits never expire. A past `expires_at` is a 400 (checked by the domain against the clock).
 */
export const creditTopupBody = object({ credit_count: creditCount, expires_at: nullable(dateTime), price_id: id }, ['credit_count']);

/** Usage (decisions.md): `usage_retained` credits; `event_id` makes it idempotent per customer and product. */
export const creditUsageBody = object({ usage_retained: creditCount, event_id: text(255, 1) }, ['usage_retained']);

export const creditBalanceListQuery = { type: 'object', additionalProperties: false, properties: { ...pagingQuery } };
/** `GET /v1/customers/credits` (Hyperline's): balances are indexed per customer, so `customer_id` is required. */
export const creditBalancesQuery = {
  type: 'object', additionalProperties: false, required: ['customer_id'],
  properties: {
    customer_id: { ...id, description: 'Required: balances are indexed per customer (a workspace-wide listing would read the whole table).' },
    product_id: { ...id, description: 'Only the balance of this credit product (an empty list when the customer has none of it).' },
    ...pagingQuery,
  },
};

export const creditTransactionListQuery = listQuerySchema(creditTransactionFilters);

const str = { type: 'string' };
const nstr = { type: ['string', 'null'] };
const int = { type: 'integer' };

export const creditBalanceResource: Schema = requireAll({
  type: 'object',
  properties: {
    product_id: str, customer_id: str, name: str, current_balance: int, low_count_threshold: int,
    last_refreshed_at: { ...str, description: "Hyperline's name: when the balance last changed (as `updated_at`)." },
    auto_topup: { type: 'null', description: 'Hyperline: automatic top-up options; none here (always null).' },
    created_at: str, updated_at: str,
  },
});

/** A usage by an ingested event that the balance could not fully cover: the credits missing (docs/usage-credits.md). */
const uncovered_count = { type: 'integer', minimum: 0, description: 'Credits of an event-driven usage the balance could not cover (0 otherwise).' };

const transactionMembers = {
  id: str, product_id: nstr,
  price: { anyOf: [{ type: 'object', properties: { id: str, amount: int, pack_size: int } }, { type: 'null' }] },
  customer_id: str, payment_method_id: nstr, invoice_id: nstr, event_id: nstr, expires_at: nstr,
  type: { type: 'string', enum: CREDIT_TRANSACTION_TYPES }, source: { type: 'string', enum: CREDIT_SOURCES },
  amount_excluding_tax: { type: ['integer', 'null'] }, credit_count: int, uncovered_count, balance_after: int, created_at: str, updated_at: str,
};

/** The credit transaction of a top-up or usage response: every spec member, `aggregator_id` included. */
export const creditTransactionResource: Schema = requireAll({ type: 'object', properties: { ...transactionMembers, aggregator_id: nstr } });

/** A list item: the same without `aggregator_id` (spec). */
export const creditTransactionListItem: Schema = requireAll({ type: 'object', properties: transactionMembers });
