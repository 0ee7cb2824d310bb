import { arrayOf, enumOf, id, nullable, object, out, resource, type Schema } from './common';
import { MIN_MAGNITUDE } from './metadata';

const amount = { type: 'integer', minimum: 1, maximum: 1e12 };
const thresholds = object(
  {
    amount_gte: { ...nullable(amount), description: 'Invoice the usage so far once its price not yet invoiced reaches this (minor units).' },
    usage_gte: { ...nullable({ type: 'number', exclusiveMinimum: 0, maximum: 1e15, 'x-min-magnitude': MIN_MAGNITUDE }), description: 'Invoice it once its units not yet invoiced (all metered products together) reach this.' },
  },
);

/** A metered product's committed usage per period: positive, bounded away from 0 as DynamoDB stores numbers. */
export const committedCount = { type: 'number', exclusiveMinimum: 0, maximum: 1e15, 'x-min-magnitude': MIN_MAGNITUDE };

export const billingTermsBody = object({
  billing_thresholds: { ...nullable(thresholds), description: 'Null: usage is invoiced at period end only.' },
  minimum_invoice_fee: { ...nullable(amount), description: 'The least a period is invoiced (minor units, before tax); null: none.' },
  min_committed_counts: {
    type: 'array', maxItems: 100, description: 'Metered products\' committed usage per period, by catalog product id (count null: none).',
    items: object({ product_id: id, count: nullable(committedCount) }, ['product_id', 'count']),
  },
  prepaid_commit: {
    ...nullable(object({
      amount: { ...amount, description: 'Invoiced in advance at each period start, drawn down by the period\'s metered usage (minor units).' },
      rollover: { type: 'boolean', description: 'Only false: the unused commit expires at the period\'s end (true is refused, 422 rollover_not_supported).' },
    }, ['amount'])),
    description: 'Null: usage is invoiced without a commit. Takes effect at the next billing date; not with minimum_invoice_fee.',
  },
});

export const billingTermsResource: Schema = resource({
  object: enumOf(['subscription_billing_terms']),
  subscription_id: out.string,
  billing_thresholds: {
    anyOf: [resource({ amount_gte: out.nullableAmount, usage_gte: out.nullableNumber }), { type: 'null' }],
  },
  minimum_invoice_fee: out.nullableAmount,
  min_committed_counts: arrayOf(resource({ product_id: out.string, count: out.number })),
  prepaid_commit: { anyOf: [resource({ amount: out.amount, rollover: { type: 'boolean', enum: [false] } }), { type: 'null' }] },
  commit_balance: {
    description: 'The running period\'s commit and what its usage drew so far (null: none invoiced for it).',
    anyOf: [resource({ starts_at: out.dateTime, ends_at: out.dateTime, amount: out.amount, drawn: out.amount }), { type: 'null' }],
  },
});
