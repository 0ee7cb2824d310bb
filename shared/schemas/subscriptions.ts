import { requireAll } from './common';
import { dateTime, id, nullable, object, type Schema } from './common';
import { listQuerySchema } from './list-query';
import { SUBSCRIPTION_STATUS_VALUES, subscriptionFilters } from './list-filters';
import { hyperlineCancelMembers, hyperlineSubscriptionMembers, hyperlineSubscriptionProduct } from './hyperline';
import { promotionCode } from './promotion-codes';


export const subscriptionListQuery = listQuerySchema(subscriptionFilters, { sortable: true });

export const subscriptionCancelBody = object({
  mode: { type: 'string', enum: ['end_of_period', 'immediately'] },
  prorate: { type: 'boolean', description: '`immediately` only: credit the unused part of the period already billed (default false).' },
  ...hyperlineCancelMembers,
});

/** The products of a subscription (all of them): the same shape as a quote's lines. */
const productInputs: Schema = {
  type: 'array', minItems: 1, maxItems: 50,
  items: object({ product_id: id, price_configuration_id: id, quantity: { type: 'integer', minimum: 0, maximum: 1_000_000_000 } }, ['product_id', 'price_configuration_id', 'quantity']),
};

/** Ours (`product_id`, `price_configuration_id`, `quantity`) or Hyperline's (`id`, `count`, …: docs/hyperline.md). */
const createProductInputs: Schema = { ...productInputs, items: { anyOf: [productInputs.items as Schema, hyperlineSubscriptionProduct] } };

/** `products` first: the route matrix sends a wrong type for the first member and expects a 400. */
export const subscriptionCreateBody = object(
  {
    products: { ...createProductInputs, description: "Its products, ours or Hyperline's shape; or give plan_id / plan_version_id instead (the products of that plan version)." },
    customer_id: id,
    plan_id: { ...id, description: "Subscribes to the plan's latest version (docs/plans.md)." },
    plan_version_id: { ...id, description: 'Subscribes to this plan version (of plan_id, when both are given).' },
    starts_at: { ...dateTime, description: 'Default: now. Its first billing date (after its trial, if any).' },
    trial_ends_at: { ...nullable(dateTime), description: 'After starts_at: nothing is billed in advance before it; its periods are anchored on it.' },
    invoicing_entity_id: id,
    coupon_ids: { type: 'array', maxItems: 10, items: id },
    promotion_code: promotionCode,
    collection_method: { ...nullable({ type: 'string', enum: ['automatic', 'manual'] }), description: "Its invoices' collection method; null (default): the customer's (docs/collection.md)." },
    ...hyperlineSubscriptionMembers(createProductInputs),
  },
  ['customer_id'],
);

const prorationBehavior = { type: 'string', enum: ['create_invoice', 'next_invoice', 'none'] };

/** `products` or `collection_method` (or both): the domain answers 400 when neither is given (change.ts). */
export const subscriptionChangeBody = object({
  products: { ...productInputs, description: 'The new full product list: a product kept (same product and price configuration) keeps its id.' },
  effective: { type: 'string', enum: ['now', 'next_period'], description: 'With products: default now (prorated); next_period: at the next billing date.' },
  proration_behavior: { ...prorationBehavior, description: 'With products, a change now: create_invoice (default), next_invoice or none.' },
  collection_method: {
    ...nullable({ type: 'string', enum: ['automatic', 'manual'] }),
    description: "Its invoices' collection method from now on, set at once (never prorated nor scheduled); null: the customer's (docs/collection.md).",
  },
});

export const subscriptionPauseBody = object({
  billing: { type: 'string', enum: ['none', 'continue'], description: 'none (default): its billing dates during the pause issue nothing; continue: billed as usual.' },
});

export const subscriptionResumeBody = object({
  proration_behavior: { type: 'string', enum: ['create_invoice', 'none'], description: 'create_invoice: invoice now the part of the period left, when a billing date passed unbilled during the pause.' },
});

const str = { type: 'string' };
const nstr = { type: ['string', 'null'] };
const interval = {
  type: 'object',
  required: ['period'],
  properties: { period: { type: 'string', enum: ['once', 'days', 'weeks', 'months', 'years'] }, count: { type: 'integer' } },
};

const subscriptionProduct: Schema = {
  type: 'object',
  properties: {
    id: str, product_id: str, price_configuration_id: str, name: str, product_type: { type: 'string', enum: ['flat_fee', 'seat', 'dynamic', 'credit'] },
    quantity: { type: 'integer', description: 'The quantity sold; not billed for a product metered by usage (aggregator_id set), whose usage is.' },
    billing_interval: interval, fee_timing: { type: 'string', enum: ['in_advance', 'in_arrears'] },
    count: { type: 'integer', description: 'Hyperline name of `quantity`.' },
    payment_interval: { ...interval, description: 'Hyperline name of `billing_interval`.' },
    payment_schedule: { type: 'string', enum: ['start', 'end'], description: 'Hyperline name of `fee_timing`: `start` = in_advance, `end` = in_arrears.' },
    aggregator_id: {
      ...nstr,
      description: "A `dynamic` product metered by usage: the aggregator its product named when the subscription took it; each period's usage is billed in arrears, priced by its prices. Null otherwise.",
    },
    unit_name: { ...nstr, description: "That aggregator's unit name when the subscription took it." },
    current_usage: {
      anyOf: [
        {
          type: 'object',
          description: 'The usage of the current period so far (GET /v2/subscriptions/{id} only).',
          properties: {
            quantity: { type: 'integer', description: "The aggregator's value over the period so far (bps: the sum of the amounts the percentage applies to)." },
            unit_name: nstr,
            period_starts_at: { ...str, description: 'The current period, [period_starts_at, period_ends_at).' },
            period_ends_at: str,
          },
        },
        { type: 'null' },
      ],
      description: 'GET /v2/subscriptions/{id} only, on metered products (aggregator_id set): the usage of the current period so far; null once the subscription ended.',
    },
  },
};

export const subscriptionResource: Schema = requireAll({
  type: 'object',
  properties: {
    id: str, customer_id: str, status: { type: 'string', enum: SUBSCRIPTION_STATUS_VALUES }, currency: str, invoicing_entity_id: str, quote_id: nstr,
    plan_id: nstr,
    plan_version_id: { ...nstr, description: 'The plan version it was created from or last migrated to (docs/plans.md); null without a plan.' },
    checkout_session_id: nstr, billing_interval: interval, products: { type: 'array', items: subscriptionProduct }, starts_at: str,
    current_period_started_at: nstr, current_period_ends_at: nstr, next_billing_at: nstr, cancel_at_period_end: { type: 'boolean' },
    coupons: {
      type: 'array',
      description: 'The coupons it was sold with, applied to its invoices as long as each lasts.',
      items: {
        type: 'object',
        properties: {
          id: str, name: str, type: { type: 'string', enum: ['amount', 'percent'] }, discount_amount: { type: ['integer', 'null'] },
          discount_percent: { type: ['number', 'null'] }, product_ids: { type: ['array', 'null'], items: str },
          repeat: { type: 'string', enum: ['once', 'forever', 'duration'] },
          duration: { anyOf: [{ type: 'object', properties: { period: str, count: { type: 'integer' } } }, { type: 'null' }] },
        },
      },
    },
    cancelled_at: nstr, ends_at: nstr, created_at: str, updated_at: str,
    name: { ...nstr, description: 'Hyperline: its own name, as given at creation.' },
    purchase_order: { ...nstr, description: 'Hyperline: the purchase order it refers to, as given at creation.' },
    minimum_invoice_fee: { type: ['integer', 'null'], description: 'The least a period is invoiced (minor units; `PATCH …/billing-terms`), null: none.' },
    next_payment_at: { ...nstr, description: 'Hyperline name of `next_billing_at`.' },
    cancel_at: { ...nstr, description: 'Hyperline: when it ends (or ended) once a cancellation is set (`ends_at`); null otherwise.' },
    renews_at: { ...nstr, description: 'Hyperline: when its next period starts (it renews each period until cancelled; no contract terms here); null once a cancellation is set.' },
    estimated_arr: { type: 'integer', description: 'Hyperline: a year of its recurring products at their quantities (minor units; no usage, coupons nor tax); 0 once cancelled.' },
    timezone: { ...str, description: "The zone its periods are counted in: the customer's, else its invoicing entity's, at creation." },
    trial_ends_at: nstr, paused_at: nstr, pause_billing: { type: ['string', 'null'], enum: ['none', 'continue', null] },
    collection_method: { type: ['string', 'null'], enum: ['automatic', 'manual', null], description: "Its invoices' collection method (PATCH changes it for those issued from then on); null: the customer's." },
    scheduled_change: {
      anyOf: [
        {
          type: 'object', required: ['effective_at', 'products', 'plan_version_id'], additionalProperties: false,
          properties: { effective_at: nstr, products: { type: 'array', items: subscriptionProduct }, plan_version_id: { ...nstr, description: 'A migration at the next period: the plan version it moves to.' } },
        },
        { type: 'null' },
      ],
      description: 'A change that applies at the next billing date (effective next_period), or null.',
    },
  },
}, ['current_usage']);
