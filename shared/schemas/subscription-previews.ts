import { arrayOf, enumOf, nullableResource, object, out, resource, type Schema } from './common';
import { appliedCoupon, invoiceLineItemResource } from './invoices';
import { SUBSCRIPTION_STATUS_VALUES } from './list-filters';
import { subscriptionChangeBody, subscriptionResource } from './subscriptions';

/** The body of `POST /v2/subscriptions/{id}/preview`: PATCH's, with the new product list required (a preview of a change of products). */
export const subscriptionChangePreviewBody: Schema = object(
  { ...(subscriptionChangeBody.properties as Record<string, Schema>) },
  ['products'],
);

const firstInvoice = resource({
  issued_at: { ...out.dateTime, description: 'Its first billing date: starts_at, or the end of its trial.' },
  period_starts_at: out.dateTime, period_ends_at: out.dateTime,
  line_items: arrayOf(invoiceLineItemResource), coupons: arrayOf(appliedCoupon),
  amount_excluding_tax: out.amount, discount_amount: out.amount, tax_amount: out.amount,
  total_amount: { ...out.amount, description: 'Tax included.' },
});

export const subscriptionPreviewResource: Schema = resource({
  customer_id: out.string, currency: out.string, invoicing_entity_id: out.string,
  status: { ...enumOf(SUBSCRIPTION_STATUS_VALUES), description: 'What it would be once created: active, trialing, or pending (starting later).' },
  first_invoice: {
    ...nullableResource(firstInvoice),
    description: 'The invoice its first billing date would issue, priced and taxed as it would be; null when that date issues nothing (e.g. only usage billed in arrears).',
  },
});

const amountLine = { name: out.string, description: out.nullableString, amount: { ...out.amount, description: 'Excluding tax, in minor units of the currency.' } };

export const subscriptionChangePreviewResource: Schema = resource({
  products: { ...(subscriptionResource.properties as Record<string, Schema>).products, description: 'The products after the change.' },
  later: { ...out.boolean, description: 'true: applied at the next billing date (effective next_period), nothing prorated.' },
  lines: { ...arrayOf(resource(amountLine)), description: 'The prorated charges of the rest of the period (excluding tax).' },
  credits: { ...arrayOf(resource({ name: out.string, amount: amountLine.amount })), description: 'The credits for the unused part of the products left or lowered (excluding tax).' },
  due_now: { ...out.amount, description: 'Invoiced now with proration_behavior create_invoice: the charges less the credits they absorb (excluding tax).' },
  to_wallet: { ...out.amount, description: "The credit the charges cannot absorb, credited to the customer's wallet (excluding its tax)." },
  currency: out.string,
});
