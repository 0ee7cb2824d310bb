import type { Ctx } from '../../context';
import type { StoredItem } from '../../db/items';
import { dueIndexKeys, entityKey, listIndexKeys } from '../../db/keys';
import { NotFound } from '../../errors';
import type { BillingInterval } from '../catalog/price-configuration';
import type { ProductType } from '../catalog/product';
import type { CustomerSubscriptionSummary } from '../customers/customer';
import type { PricedConfiguration } from '../pricing/types';
import type { CouponTerms } from '../invoices/invoice';
import { addInterval } from '../wallets/schedule';
import type { InvoicedUsage } from './metered';

export const SUBSCRIPTION = 'SUB';

/**
 * `pending` until `starts_at`, `active` from then (the billing run of `starts_at` makes the move), `cancelled` once it
 * ended (immediately, or at the end of its period). Hyperline's values; `paused` is not used.
 */
export const SUBSCRIPTION_STATUSES = ['pending', 'active', 'cancelled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** A recurring billing interval (a price configuration's `billing_interval` other than `{period: once}`). */
export type RecurringInterval = Exclude<BillingInterval, { period: 'once' }>;

/**
 * When a product is billed: `in_advance` at the start of each period (flat_fee, seat and credit products; one-off
 * products on the first invoice), `in_arrears` at its end (dynamic products).
 */
export type FeeTiming = 'in_advance' | 'in_arrears';

/** One product of a subscription, as returned. */
export interface SubscriptionProduct {
  id: string;
  product_id: string;
  price_configuration_id: string;
  name: string;
  product_type: ProductType;
  quantity: number;
  billing_interval: BillingInterval;
  fee_timing: FeeTiming;
  /**
   * A `dynamic` product metered by usage: the aggregator its catalog product named when the subscription took it
   * (a snapshot), whose usage of each period is billed in arrears instead of `quantity`; null otherwise.
   */
  aggregator_id?: string | null;
  /** That aggregator's `unit_name` at the same time (null without one). */
  unit_name?: string | null;
}

/** As stored: the prices it was sold at (copied from the configuration) and, for one-off products, whether billed. */
export interface StoredSubscriptionProduct extends SubscriptionProduct {
  price: PricedConfiguration;
  description: string | null;
  /** One-off products only: set by the invoice that billed it. */
  billed?: boolean;
  /**
   * Metered products only: what each invoiced period still open to late usage was invoiced for (metered.ts), moved
   * by the billing step in the same conditioned write as the cursor, so late usage is billed exactly once.
   */
  invoiced_usage?: InvoicedUsage[];
}

export interface SubscriptionItem extends StoredItem {
  id: string;
  customer_id: string;
  status: SubscriptionStatus;
  currency: string;
  invoicing_entity_id: string;
  quote_id: string | null;
  plan_id: string | null;
  checkout_session_id: string | null;
  billing_interval: RecurringInterval;
  products: StoredSubscriptionProduct[];
  starts_at: string;
  current_period_started_at: string;
  current_period_ends_at: string;
  /** The next billing date (start of a period); null once cancelled. */
  next_billing_at: string | null;
  cancel_at_period_end: boolean;
  cancelled_at: string | null;
  ends_at: string | null;
  created_at: string;
  updated_at: string;
  /** Index of the billing date `next_billing_at` (0 = `starts_at`): the billed-through cursor. */
  billing_index: number;
  /** With `cancel_at_period_end`: the index of the billing date `ends_at`, the last one (it bills arrears only). */
  end_index: number | null;
  /** The coupons it was sold with (a quote's promotion code), applied to its invoices as long as each lasts. */
  coupons?: CouponTerms[];
  /** Set by its first invoice: `once` coupons are spent. */
  first_invoice_issued?: boolean;
  gsi4pk?: string;
  gsi4sk?: string;
}

export const subscriptionKey = (ctx: Ctx, id: string) => entityKey(ctx, SUBSCRIPTION, id);
export const subscriptionListKeys = (ctx: Ctx, createdAt: string, id: string) => listIndexKeys(ctx, SUBSCRIPTION, createdAt, id);
export const subscriptionNotFound = (id: string) => new NotFound('subscription', id);

/** The scheduled billing's kind in the scheduling index (gsi4). */
export const SUBSCRIPTION_BILLING = 'subscription_billing';
export const billingDueKeys = (ctx: Ctx, item: Pick<SubscriptionItem, 'id' | 'next_billing_at'>) =>
  dueIndexKeys(ctx, item.next_billing_at!, SUBSCRIPTION_BILLING, item.id);

/** What the list filters see. */
export const subscriptionListFields = (s: Pick<SubscriptionItem, 'status' | 'customer_id'>) => ({ status: s.status, customer_id: s.customer_id });

/** The start of period `index` (period 0 starts at `starts_at`), counted from the start so month ends do not drift. */
export const periodStart = (s: Pick<SubscriptionItem, 'starts_at' | 'billing_interval'>, index: number): string =>
  index === 0 ? new Date(s.starts_at).toISOString() : addInterval(new Date(s.starts_at), s.billing_interval, index).toISOString();

/**
 * The coupons of the invoice billed at period `periodStartsAt`: `forever` ones always, `once` ones on the first
 * invoice, `duration` ones while the period starts within that duration of the subscription's start.
 */
export function couponsFor(s: Pick<SubscriptionItem, 'coupons' | 'first_invoice_issued' | 'starts_at'>, periodStartsAt: string): CouponTerms[] {
  return (s.coupons ?? []).filter((c) => {
    if (c.repeat === 'forever') return true;
    if (c.repeat === 'duration' && c.duration) return periodStartsAt < addInterval(new Date(s.starts_at), c.duration, 1).toISOString();
    return !s.first_invoice_issued;
  });
}

/** The customer's `subscriptions` entry of this subscription. */
export const subscriptionSummary = (s: SubscriptionItem): CustomerSubscriptionSummary => ({
  id: s.id,
  status: s.status,
  current_period_started_at: s.current_period_started_at,
  current_period_ends_at: s.current_period_ends_at,
  plan_id: s.plan_id,
  checkout_session_id: s.checkout_session_id,
});

const toProduct = (p: StoredSubscriptionProduct): SubscriptionProduct => ({
  id: p.id,
  product_id: p.product_id,
  price_configuration_id: p.price_configuration_id,
  name: p.name,
  product_type: p.product_type,
  quantity: p.quantity,
  billing_interval: p.billing_interval,
  fee_timing: p.fee_timing,
  aggregator_id: p.aggregator_id ?? null,
  unit_name: p.unit_name ?? null,
});

/** The public subscription (`GET /v2/subscriptions/{id}`). */
export const toSubscription = (s: SubscriptionItem) => ({
  id: s.id,
  customer_id: s.customer_id,
  status: s.status,
  currency: s.currency,
  invoicing_entity_id: s.invoicing_entity_id,
  quote_id: s.quote_id,
  plan_id: s.plan_id,
  checkout_session_id: s.checkout_session_id,
  billing_interval: s.billing_interval,
  products: s.products.map(toProduct),
  coupons: (s.coupons ?? []).map(({ id, name, type, discount_amount, discount_percent, product_ids, repeat, duration }) => ({
    id, name, type, discount_amount, discount_percent, product_ids, repeat: repeat ?? 'once', duration: duration ?? null,
  })),
  starts_at: s.starts_at,
  current_period_started_at: s.current_period_started_at,
  current_period_ends_at: s.current_period_ends_at,
  next_billing_at: s.next_billing_at,
  cancel_at_period_end: s.cancel_at_period_end,
  cancelled_at: s.cancelled_at,
  ends_at: s.ends_at,
  created_at: s.created_at,
  updated_at: s.updated_at,
});

export type Subscription = ReturnType<typeof toSubscription>;
