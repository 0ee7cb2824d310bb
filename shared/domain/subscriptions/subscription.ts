import type { CollectionMethod } from '../collection/settings';
import type { Ctx } from '../../context';
import type { StoredItem } from '../../db/items';
import { dueIndexKeys, entityKey, listEntryPartition, listIndexKeys } from '../../db/keys';
import { NotFound } from '../../errors';
import type { BillingInterval } from '../catalog/price-configuration';
import type { ProductType } from '../catalog/product';
import type { CustomerSubscriptionSummary } from '../customers/customer';
import type { PricedConfiguration } from '../pricing/types';
import type { CouponTerms } from '../invoices/invoice';
import { addInterval } from '../wallets/schedule';
import type { PricedLine } from '../invoices/amounts';
import { addLocalInterval, UTC_ZONE } from './calendar';
import { hyperlineProductMembers, hyperlineSubscriptionView } from '../hyperline/subscription-view';
import type { BillingThresholds } from './thresholds';
import type { InvoicedUsage } from './metered';
import type { CommitBalance, PrepaidCommit } from './prepaid-commit';

export const SUBSCRIPTION = 'SUB';

/**
 * `pending` until `starts_at`, `trialing` from then until `trial_ends_at` when it has a trial, `active` from then (the
 * billing run of its first billing date makes the move), `paused` between a pause and its resume, `cancelled` once it
 * ended (immediately, or at the end of its period).
 */
export const SUBSCRIPTION_STATUSES = ['pending', 'trialing', 'active', 'paused', 'cancelled'] as const;
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
  /** Metered products only: the least usage a period is billed for (commitments.ts); absent: none. */
  min_committed_count?: number | null;
}

export interface SubscriptionItem extends StoredItem {
  id: string;
  customer_id: string;
  status: SubscriptionStatus;
  currency: string;
  invoicing_entity_id: string;
  quote_id: string | null;
  plan_id: string | null;
  /** The plan version it was created from or last migrated to (docs/plans.md); null without a plan. */
  plan_version_id?: string | null;
  /** With `scheduled_products` from a migration at the next period: the version they are (null otherwise). */
  scheduled_plan_version_id?: string | null;
  /** The last plan migration that moved it: set in the same conditioned write as the move, so it happens once. */
  last_migration_id?: string | null;
  /** Invoice metered usage mid-period once it reaches these (thresholds.ts); absent: at period end only. */
  billing_thresholds?: BillingThresholds | null;
  /** The least a period is invoiced (minor units): a shortfall is billed as a true-up line at its end (commitments.ts). */
  minimum_invoice_fee?: number | null;
  /** Invoiced in advance each period, drawn down by its usage (prepaid-commit.ts). */
  prepaid_commit?: PrepaidCommit | null;
  /** The commit of the running period and what usage drew of it so far (written with the invoices that draw). */
  commit_balance?: CommitBalance | null;
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
  /**
   * The IANA zone its periods are counted in (the customer's at creation, else its invoicing entity's). Absent on
   * subscriptions written before zones: UTC.
   */
  timezone?: string;
  /** The end of its trial (null without one): the first billing date, the anchor of its periods. */
  trial_ends_at?: string | null;
  /** Set once `subscription.trial_ending` was told (the write that sets it is the event). */
  trial_ending_notified?: boolean;
  /** While `paused`: since when, and whether the billing dates of the pause still invoice (`continue`) or not (`none`). */
  paused_at?: string | null;
  pause_billing?: PauseBilling | null;
  /** Whether the current period's in-advance products were invoiced (false in a trial or a pause without billing). */
  advance_billed?: boolean;
  /** A change that applies at the next billing date (`effective: next_period`): the product list then. */
  scheduled_products?: StoredSubscriptionProduct[] | null;
  /** Proration held for the next invoice (`proration_behavior: next_invoice`): its charge lines and its credits. */
  pending_proration?: PendingProration | null;
  /** Its invoices' collection method; null or absent: the customer's (docs/collection.md). */
  collection_method?: CollectionMethod | null;
  /** Hyperline's members, kept as given at creation (docs/hyperline.md); absent on older subscriptions: null. */
  name?: string | null;
  purchase_order?: string | null;
  gsi4pk?: string;
  gsi4sk?: string;
}

export const subscriptionKey = (ctx: Ctx, id: string) => entityKey(ctx, SUBSCRIPTION, id);
export const subscriptionListKeys = (ctx: Ctx, createdAt: string, id: string) => listIndexKeys(ctx, SUBSCRIPTION, createdAt, id);

/**
 * Its list entry's partition as a renewal writes it: its shard, so an entry listed before the list was sharded moves
 * there at its next renewal rather than keep one partition busy with every renewal of the workspace.
 */
export const subscriptionListPartition = (ctx: Ctx, id: string): string => listEntryPartition(ctx, SUBSCRIPTION, id);
export const subscriptionNotFound = (id: string) => new NotFound('subscription', id);

export type PauseBilling = 'none' | 'continue';

/** Credits are amounts excluding tax, applied to an invoice like amount coupons (they never make it negative). */
export interface PendingProration {
  lines: PricedLine[];
  credits: CouponTerms[];
}

/** `subscription.trial_ending` is told this long before the trial ends (or at once for a shorter trial). */
export const TRIAL_NOTICE_MS = 3 * 86_400_000;

/** The scheduled billing's kind in the scheduling index (gsi4). */
export const SUBSCRIPTION_BILLING = 'subscription_billing';

/**
 * When the scheduler next needs the subscription: its next billing date, or earlier, in a trial not yet told
 * `trial_ending`, the notice date (TRIAL_NOTICE_MS before its end, not before its start), and for a pending one with a
 * trial, its start (it becomes `trialing`).
 */
type DueFields = Pick<SubscriptionItem, 'next_billing_at' | 'trial_ends_at' | 'trial_ending_notified' | 'starts_at' | 'status' | 'billing_index'>;
export function dueAt(s: DueFields): string {
  const candidates = [s.next_billing_at!];
  if (s.trial_ends_at && s.billing_index === 0) {
    if (!s.trial_ending_notified) candidates.push(new Date(Math.max(Date.parse(s.trial_ends_at) - TRIAL_NOTICE_MS, Date.parse(s.starts_at))).toISOString());
    if (s.status === 'pending') candidates.push(s.starts_at);
  }
  return candidates.sort()[0]!;
}

export const billingDueKeys = (ctx: Ctx, item: DueFields & Pick<SubscriptionItem, 'id' | 'invoicing_entity_id'>) =>
  dueIndexKeys(ctx, dueAt(item), SUBSCRIPTION_BILLING, item.id, item.invoicing_entity_id);

/** What the list filters see. */
export const subscriptionListFields = (s: Pick<SubscriptionItem, 'status' | 'customer_id'>) => ({ status: s.status, customer_id: s.customer_id });

/** The anchor of its periods: the end of its trial, else its start. */
export const anchorOf = (s: Pick<SubscriptionItem, 'starts_at' | 'trial_ends_at'>): string => s.trial_ends_at ?? s.starts_at;

/**
 * The start of period `index` (period 0 starts at the anchor: `trial_ends_at`, else `starts_at`), on the wall clock
 * of the subscription's zone, counted from the anchor each time so month ends do not drift (calendar.ts).
 */
export const periodStart = (s: Pick<SubscriptionItem, 'starts_at' | 'billing_interval' | 'timezone' | 'trial_ends_at'>, index: number): string =>
  addLocalInterval(anchorOf(s), s.billing_interval, index, s.timezone ?? UTC_ZONE);

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

const toProduct = (p: StoredSubscriptionProduct): SubscriptionProduct & ReturnType<typeof hyperlineProductMembers> => ({
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
  ...hyperlineProductMembers(p),
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
  plan_version_id: s.plan_version_id ?? null,
  checkout_session_id: s.checkout_session_id,
  billing_interval: s.billing_interval,
  products: s.products.map(toProduct),
  coupons: (s.coupons ?? []).map(({ id, name, type, discount_amount, discount_percent, product_ids, repeat, duration }) => ({
    id, name, type, discount_amount, discount_percent, product_ids, repeat: repeat ?? 'once', duration: duration ?? null,
  })),
  starts_at: s.starts_at,
  timezone: s.timezone ?? UTC_ZONE,
  trial_ends_at: s.trial_ends_at ?? null,
  paused_at: s.paused_at ?? null,
  pause_billing: s.pause_billing ?? null,
  collection_method: s.collection_method ?? null,
  scheduled_change: s.scheduled_products
    ? { effective_at: s.next_billing_at, products: s.scheduled_products.map(toProduct), plan_version_id: s.scheduled_plan_version_id ?? null }
    : null,
  current_period_started_at: s.current_period_started_at,
  current_period_ends_at: s.current_period_ends_at,
  next_billing_at: s.next_billing_at,
  cancel_at_period_end: s.cancel_at_period_end,
  cancelled_at: s.cancelled_at,
  ends_at: s.ends_at,
  created_at: s.created_at,
  updated_at: s.updated_at,
  ...hyperlineSubscriptionView(s),
});

export type Subscription = ReturnType<typeof toSubscription>;
