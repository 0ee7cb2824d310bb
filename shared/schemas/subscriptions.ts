import { requireAll } from './common';
import { object, type Schema } from './common';
import { listQuerySchema, type FilterSpec } from './list-query';

/** Kept beside SUBSCRIPTION_STATUSES (shared/domain/subscriptions/subscription.ts); a unit test checks they agree. */
export const SUBSCRIPTION_STATUS_VALUES = ['pending', 'active', 'cancelled'] as const;

export const subscriptionFilters: FilterSpec = {
  status: { kind: 'enum', values: SUBSCRIPTION_STATUS_VALUES },
  customer_id: { kind: 'string' },
};
export const subscriptionListQuery = listQuerySchema(subscriptionFilters, { sortable: true });

export const subscriptionCancelBody = object({ mode: { type: 'string', enum: ['end_of_period', 'immediately'] } });

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
    plan_id: nstr, checkout_session_id: nstr, billing_interval: interval, products: { type: 'array', items: subscriptionProduct }, starts_at: str,
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
  },
}, ['current_usage']);
