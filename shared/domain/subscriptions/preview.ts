import type { Ctx } from '../../context';
import { findCustomerItem } from '../customers/read';
import { invoiceAmounts } from '../invoices/amounts';
import type { AppliedCoupon, InvoiceLineItem } from '../invoices/invoice';
import { invoiceTaxScheme } from '../invoices/tax';
import { findEntityItem } from '../invoicing-entities/read';
import { billingStep } from './billing';
import { creationInput, redemptionsOf, type CreateSubscriptionBody } from './create';
import { prepareSubscription } from './prepare';
import type { SubscriptionStatus } from './subscription';

/** The invoice the first billing date of a new subscription would issue (what the billing run passes to createInvoice). */
export interface FirstInvoicePreview {
  /** Its first billing date: `starts_at`, or the end of its trial. */
  issued_at: string;
  period_starts_at: string;
  period_ends_at: string;
  line_items: InvoiceLineItem[];
  coupons: AppliedCoupon[];
  amount_excluding_tax: number;
  discount_amount: number;
  tax_amount: number;
  total_amount: number;
}

export interface SubscriptionPreview {
  customer_id: string;
  currency: string;
  invoicing_entity_id: string;
  /** What it would be once created: `active`, `trialing` or `pending` (starting later). */
  status: SubscriptionStatus;
  /** Null when its first billing date issues nothing (e.g. only metered products, billed in arrears). */
  first_invoice: FirstInvoicePreview | null;
}

/**
 * `POST /v2/subscriptions/preview`: the subscription `createSubscription` would make from the same body, checked by the
 * same functions (prepareSubscription, the coupons' redemption rules), and its first invoice priced by the billing
 * run's own step (billingStep) with the tax the invoice would take; nothing is written, nothing redeemed.
 */
export async function previewSubscriptionCreation(ctx: Ctx, given: CreateSubscriptionBody): Promise<SubscriptionPreview> {
  const input = await creationInput(ctx, given);
  const coupons = await redemptionsOf(ctx, input);
  const { subscription } = await prepareSubscription(ctx, {
    customer_id: input.customer_id, starts_at: input.starts_at ?? ctx.clock.now().toISOString(), products: input.products,
    invoicing_entity_id: input.invoicing_entity_id, trial_ends_at: input.trial_ends_at ?? null, coupons: coupons.terms,
    collection_method: input.collection_method ?? null, plan: input.plan,
  });
  const [customer, entity] = await Promise.all([findCustomerItem(ctx, subscription.customer_id), findEntityItem(ctx, subscription.invoicing_entity_id)]);
  // The first billing date has no period before it: nothing metered is read (its usage is billed at the period's end).
  const step = billingStep(ctx, subscription, ctx.clock.now().toISOString());
  const issues = step.lines.some((l) => l.gross > 0);
  const amounts = invoiceAmounts(step.lines, step.coupons, invoiceTaxScheme(customer, entity).rate, subscription.currency);
  return {
    customer_id: subscription.customer_id,
    currency: subscription.currency,
    invoicing_entity_id: subscription.invoicing_entity_id,
    status: subscription.status,
    first_invoice: !issues ? null : {
      issued_at: step.at,
      period_starts_at: step.period.starts_at,
      period_ends_at: step.period.ends_at,
      line_items: amounts.line_items.map(({ own_tax_rate: _own, ...line }) => line),
      coupons: amounts.coupons,
      amount_excluding_tax: amounts.amount_excluding_tax,
      discount_amount: amounts.discount_amount,
      tax_amount: amounts.tax_amount,
      total_amount: amounts.total_amount,
    },
  };
}
