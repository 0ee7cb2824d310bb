import type { CollectionMethod } from '../collection/settings';
import type { Ctx } from '../../context';
import type { CouponTerms } from '../invoices/invoice';
import { tableName } from '../../db/client';
import { getItem } from '../../db/items';
import { counterUpdate } from '../../db/pagination';
import type { TransactItem } from '../../db/transactions';
import { Conflict, InvalidRequest, RuleViolation } from '../../errors';
import { newId } from '../../ids';
import { priceConfigurationKey, type BillingInterval, type PriceConfigurationItem } from '../catalog/price-configuration';
import { productKey, type ProductItem } from '../catalog/product';
import { assertProductUsable, productUsableCheck } from '../catalog/usable';
import { currencyLockItem } from '../customers/currency-lock';
import { aggregatorKey, type AggregatorItem } from '../metering/aggregator';
import { aggregatorReferenceMissing } from '../metering/aggregator-errors';
import type { CustomerItem } from '../customers/customer';
import { findCustomerItem } from '../customers/read';
import { assertNotArchived } from '../customers/rules';
import type { EntityItem } from '../invoicing-entities/invoicing-entity';
import { findEntityItem } from '../invoicing-entities/read';
import { computePrice } from '../pricing/compute-price';
import type { PricedConfiguration } from '../pricing/types';
import {
  billingDueKeys, periodStart, SUBSCRIPTION, subscriptionKey, subscriptionListFields, subscriptionListKeys,
  type RecurringInterval, type StoredSubscriptionProduct, type SubscriptionItem,
} from './subscription';
import { isTimeZone, UTC_ZONE } from './calendar';
import { findSubscriptionItem, putOnVersion, summaryAlso } from './write';
import { planMemberKeys } from './plan-members';

export interface SubscriptionProductInput {
  product_id: string;
  price_configuration_id: string;
  quantity: number;
  /** Metered products only (Hyperline's member, POST /v2/subscriptions): the least usage a period is billed for. */
  min_committed_count?: number | null;
}

export interface NewSubscriptionInput {
  customer_id: string;
  /** ISO date-time; status 'active' from then ('pending' before). */
  starts_at: string;
  products: SubscriptionProductInput[];
  quote_id?: string | null;
  /** Default: the customer's. */
  invoicing_entity_id?: string;
  /** Coupons already redeemed by the caller (a quote's promotion code at its signature), applied to the invoices. */
  coupons?: CouponTerms[];
  /** ISO date-time after `starts_at`: nothing is billed in advance before it; its periods are anchored on it. */
  trial_ends_at?: string | null;
  /** Null or absent: the customer's (docs/collection.md). */
  collection_method?: CollectionMethod | null;
  /** The plan version `products` come from (docs/plans.md): recorded, and the subscription joins the plan's list. */
  plan?: { plan_id: string; plan_version_id: string };
  /** Hyperline's members kept as given (docs/hyperline.md). */
  name?: string | null;
  purchase_order?: string | null;
  /** The least a period is invoiced (billing-terms.ts). */
  minimum_invoice_fee?: number | null;
}

/** The new full product list of a subscription. */
export interface SubscriptionChange {
  products: SubscriptionProductInput[];
}

export interface PreparedSubscription {
  /** The subscription as the transaction writes it (`toSubscription` gives its public form). */
  subscription: SubscriptionItem;
  /** The caller's transaction must contain these, unchanged; `items[0]` is always the subscription's Put. */
  items: TransactItem[];
}

/** A subscription holds at most this many products (its transaction holds one check per distinct product). */
export const MAX_SUBSCRIPTION_PRODUCTS = 50;

const problem = (index: number, field: string, message: string) =>
  new InvalidRequest(`Invalid subscription: products.${index}.${field} ${message}.`, [{ path: `products.${index}.${field}`, message }]);

const sameInterval = (a: RecurringInterval, b: RecurringInterval) => a.period === b.period && a.count === b.count;

interface CheckedProducts {
  products: StoredSubscriptionProduct[];
  interval: RecurringInterval;
  /** The products to check again inside the transaction (new to the subscription). */
  productIds: string[];
}

/**
 * Every rule of a product list: products usable (not archived, not deleted), configurations active, of that product,
 * in `currency`, priceable at the quantity (bps prices need an amount per unit: not in subscriptions), and the
 * recurring ones sharing one billing interval (`expected`, when the subscription has one already). One round of reads.
 */
export async function checkProducts(
  ctx: Ctx, inputs: SubscriptionProductInput[], currency: string, existing?: { interval: RecurringInterval; productIds: Set<string> },
): Promise<CheckedProducts> {
  if (!Array.isArray(inputs) || inputs.length === 0) {
    throw new InvalidRequest('Invalid subscription: products needs at least one product.', [{ path: 'products', message: 'needs at least one product' }]);
  }
  if (inputs.length > MAX_SUBSCRIPTION_PRODUCTS) {
    throw new InvalidRequest(`Invalid subscription: at most ${MAX_SUBSCRIPTION_PRODUCTS} products.`, [{ path: 'products', message: `has more than ${MAX_SUBSCRIPTION_PRODUCTS} items` }]);
  }
  inputs.forEach((p, i) => {
    if (!Number.isSafeInteger(p.quantity) || p.quantity < 0) throw problem(i, 'quantity', 'must be a whole number, 0 or more');
  });
  const configurationIds = [...new Set(inputs.map((p) => p.price_configuration_id))];
  const configurations = new Map(
    await Promise.all(configurationIds.map(async (id) => [id, await getItem<PriceConfigurationItem>(priceConfigurationKey(ctx, id), true)] as const)),
  );
  const productIds = [...new Set(inputs.map((p) => p.product_id))];
  // A product the subscription already has stays usable in it even if archived since (only new uses are refused).
  const kept = (id: string) => existing?.productIds.has(id) ?? false;
  const read = async (id: string) => (kept(id) ? ((await getItem<ProductItem>(productKey(ctx, id), true)) ?? (await assertProductUsable(ctx, id))) : assertProductUsable(ctx, id));
  const products = new Map(await Promise.all(productIds.map(async (id) => [id, await read(id)] as const)));
  const aggregators = await meterAggregators(ctx, [...products.values()]);
  let interval = existing?.interval;
  const checked = inputs.map((input, index): StoredSubscriptionProduct => {
    const configuration = configurations.get(input.price_configuration_id);
    if (!configuration) throw new RuleViolation('price_not_found', `products.${index}: no price configuration '${input.price_configuration_id}'.`);
    if (configuration.product_id !== input.product_id) throw problem(index, 'product_id', `is not the product of price configuration '${configuration.id}'`);
    if (configuration.status !== 'active') throw new RuleViolation('price_archived', `products.${index}: price configuration '${configuration.id}' is archived.`);
    if (configuration.currency !== currency) {
      throw new RuleViolation('currency_mismatch', `products.${index}: price configuration '${configuration.id}' is in ${configuration.currency}, the subscription in ${currency}.`);
    }
    const billing = configuration.billing_interval;
    const product = products.get(input.product_id) as ProductItem;
    const meter = product.type === 'dynamic' && billing.period !== 'once' && product.aggregator_id ? aggregators.get(product.aggregator_id)! : null;
    const price = { type: configuration.type, prices: configuration.prices } as PricedConfiguration;
    if (meter) assertMeterable(index, price, meter);
    else if (configuration.type === 'bps') {
      throw new RuleViolation('price_not_supported', `products.${index}: bps prices need the amount of each transaction: only a product metered by a 'sum' aggregator can have one in a subscription.`);
    } else computePrice(price, { quantity: input.quantity }); // a quantity the price refuses (e.g. not a whole number of packs) is refused now
    if (billing.period !== 'once') {
      interval ??= billing;
      if (!sameInterval(interval, billing)) {
        throw new RuleViolation(
          'billing_interval_mismatch',
          `products.${index}: price configuration '${configuration.id}' bills every ${billing.count} ${billing.period}; the subscription every ${interval.count} ${interval.period}.`,
        );
      }
    }
    const committed = input.min_committed_count ?? null;
    if (committed !== null && !meter) throw new RuleViolation('product_not_metered', `products.${index}: only a product metered by usage has a min_committed_count.`);
    return {
      id: newId('subi'),
      product_id: product.id,
      price_configuration_id: configuration.id,
      name: product.name,
      product_type: product.type,
      quantity: input.quantity,
      billing_interval: billing,
      fee_timing: feeTimingOf(product.type, billing),
      aggregator_id: meter?.id ?? null,
      unit_name: meter?.unit_name ?? null,
      price,
      description: product.public_description,
      ...(committed !== null && { min_committed_count: committed }),
    };
  });
  if (!interval) {
    throw new RuleViolation('subscription_not_recurring', 'A subscription needs at least one recurring product (a price configuration billed other than once).');
  }
  return { products: checked, interval, productIds: productIds.filter((id) => !kept(id)) };
}

/** Dynamic products billed by the period are billed at its end (their usage), every other product at its start. */
export const feeTimingOf = (type: ProductItem['type'], billing: BillingInterval): StoredSubscriptionProduct['fee_timing'] =>
  type === 'dynamic' && billing.period !== 'once' ? 'in_arrears' : 'in_advance';

/** The live aggregators the (dynamic) products name, by id: a metered product snapshots its aggregator. */
async function meterAggregators(ctx: Ctx, products: ProductItem[]): Promise<Map<string, AggregatorItem>> {
  const ids = [...new Set(products.filter((p) => p.type === 'dynamic' && p.aggregator_id).map((p) => p.aggregator_id!))];
  return new Map(
    await Promise.all(
      ids.map(async (id) => {
        const item = await getItem<AggregatorItem>(aggregatorKey(ctx, id), true);
        if (!item || item.deleted_at) throw aggregatorReferenceMissing(id);
        return [id, item] as const;
      }),
    ),
  );
}

/**
 * A metered product's prices must price any usage: tiers (volume, packaged, bulk) up to an open-ended last one, or
 * bps over a `sum` aggregator (each event's amount is the property it sums). Its `quantity` is not billed.
 */
function assertMeterable(index: number, price: PricedConfiguration, meter: AggregatorItem): void {
  if (price.type === 'bps' && meter.operation !== 'sum') {
    throw new RuleViolation(
      'price_not_supported',
      `products.${index}: a bps price applies to each event's amount: its aggregator '${meter.id}' must sum that amount (operation 'sum', not '${meter.operation}').`,
    );
  }
  const tiers = price.prices as Array<{ to?: number | null }>;
  if ((tiers[tiers.length - 1]?.to ?? null) !== null) {
    throw new RuleViolation(
      'price_not_supported',
      `products.${index}: usage has no upper bound, so a metered product's last price tier must be open-ended (to: null).`,
    );
  }
}

export async function customerFor(ctx: Ctx, id: string): Promise<CustomerItem & { currency: string }> {
  const customer = await findCustomerItem(ctx, id).catch(() => undefined);
  if (!customer || customer.deleted_at) throw new RuleViolation('customer_not_found', `No customer with id '${id}' (or it is deleted).`);
  assertNotArchived(customer);
  if (!customer.currency) throw new RuleViolation('customer_currency_missing', `Customer '${customer.id}' has no currency: set one before subscribing it.`);
  return customer as CustomerItem & { currency: string };
}

async function entityOf(ctx: Ctx, id: string): Promise<EntityItem> {
  const entity = await findEntityItem(ctx, id, true).catch(() => undefined);
  if (!entity || entity.deleted_at) throw new RuleViolation('invoicing_entity_not_found', `No invoicing entity with id '${id}' (or it is deleted).`);
  return entity;
}

function dateTimeOf(value: string, member: string): string {
  const time = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(time)) throw new InvalidRequest(`Invalid subscription: ${member} must be an ISO 8601 date-time.`, [{ path: member, message: 'must be a date-time' }]);
  return new Date(time).toISOString();
}

function trialEndOf(value: string | null | undefined, startsAt: string): string | null {
  if (value === undefined || value === null) return null;
  const end = dateTimeOf(value, 'trial_ends_at');
  if (end <= startsAt) throw new InvalidRequest('Invalid subscription: trial_ends_at must be after starts_at.', [{ path: 'trial_ends_at', message: 'must be after starts_at' }]);
  return end;
}

/** The zone of its periods: the customer's, else its invoicing entity's, else UTC. */
const zoneOf = (customer: CustomerItem, entity: EntityItem): string =>
  [customer.timezone, entity.timezone].find((zone): zone is string => isTimeZone(zone)) ?? UTC_ZONE;

/**
 * Checks everything (customer live with a currency, products usable, configurations active, in the customer's
 * currency, recurring ones sharing one billing interval) and returns the new subscription item and the
 * TransactItems that create it: the caller puts them in ITS transaction (a quote's signature). Nothing is written.
 *
 * The items, in this order (at most 4 + one per distinct product):
 * - `[0]` Put of the subscription (`attribute_not_exists(pk)`);
 * - `[1]` the workspace's subscription counter (a shard of `SUB`, +1: shared/db/counters.ts);
 * - `[2]` Update of the CUSTOMER item: its currency lock (reason `subscription`) and this subscription's summary in
 *   its `subscriptions`, on the condition that it still exists, is not deleted and keeps its currency. The caller's
 *   transaction must NOT touch the customer item itself (DynamoDB refuses two operations on one item);
 * - `[3…]` one ConditionCheck per distinct product (still active and not deleted).
 * A failed condition of `[2]` means the customer changed (deleted, or a new currency): prepare again. `[3 + i]`: the
 * product was archived meanwhile (`assertProductUsable` says which, as a 422).
 *
 * The subscription is `active` when `starts_at` ≤ now, else `pending`; it enters the scheduling index at `starts_at`,
 * where the billing run issues its first invoice (and makes a pending subscription active).
 */
export async function prepareSubscription(ctx: Ctx, input: NewSubscriptionInput): Promise<PreparedSubscription> {
  const starts_at = dateTimeOf(input.starts_at, 'starts_at');
  const trial_ends_at = trialEndOf(input.trial_ends_at, starts_at);
  const customer = await customerFor(ctx, input.customer_id);
  const entityId = input.invoicing_entity_id ?? customer.invoicing_entity_id;
  const [checked, entity] = await Promise.all([checkProducts(ctx, input.products, customer.currency), entityOf(ctx, entityId)]);
  const id = newId('sub');
  const now = ctx.clock.now().toISOString();
  const shape = { starts_at, trial_ends_at, billing_interval: checked.interval, timezone: zoneOf(customer, entity) };
  const started = starts_at <= now;
  const subscription: SubscriptionItem = {
    ...subscriptionKey(ctx, id),
    ...subscriptionListKeys(ctx, now, id),
    _type: 'subscription',
    _version: 0,
    id,
    customer_id: customer.id,
    status: !started ? 'pending' : trial_ends_at ? 'trialing' : 'active',
    currency: customer.currency,
    invoicing_entity_id: entityId,
    quote_id: input.quote_id ?? null,
    plan_id: input.plan?.plan_id ?? null,
    plan_version_id: input.plan?.plan_version_id ?? null,
    ...(input.plan && planMemberKeys(ctx, input.plan.plan_id, now, id)),
    checkout_session_id: null,
    billing_interval: checked.interval,
    products: checked.products,
    starts_at,
    timezone: shape.timezone,
    trial_ends_at,
    trial_ending_notified: false,
    advance_billed: false,
    current_period_started_at: trial_ends_at ? starts_at : periodStart(shape, 0),
    current_period_ends_at: trial_ends_at ?? periodStart(shape, 1),
    next_billing_at: trial_ends_at ?? starts_at,
    cancel_at_period_end: false,
    cancelled_at: null,
    ends_at: null,
    created_at: now,
    updated_at: now,
    billing_index: 0,
    end_index: null,
    coupons: input.coupons ?? [],
    first_invoice_issued: false,
    collection_method: input.collection_method ?? null,
    name: input.name ?? null,
    purchase_order: input.purchase_order ?? null,
    minimum_invoice_fee: input.minimum_invoice_fee ?? null,
  };
  subscription.lf = subscriptionListFields(subscription);
  Object.assign(subscription, billingDueKeys(ctx, subscription));
  return {
    subscription,
    items: [
      { Put: { TableName: tableName(), Item: subscription, ConditionExpression: 'attribute_not_exists(pk)' } },
      counterUpdate(ctx, SUBSCRIPTION, 1),
      currencyLockItem(ctx, customer.id, 'subscription', customer.currency, summaryAlso(subscription)),
      ...checked.productIds.map((productId) => productUsableCheck(ctx, productId)),
    ],
  };
}

/**
 * The same for changing an existing subscription (subscription_update quotes): the new full product list, checked
 * like a new one, in the subscription's currency and billing interval (422 `billing_interval_mismatch` otherwise).
 * 404 for an unknown subscription, 409 `invalid_state_transition` if cancelled. The change applies from the next
 * billing date (no proration); a product kept (same product and configuration) keeps its id, and a one-off product
 * already billed is not billed again. Products the subscription already has may stay even if archived since.
 *
 * The items (at most 1 + one per distinct product): `[0]` Put of the subscription on the condition that its version
 * is still the one read (a failed `[0]` means it changed meanwhile, e.g. billed or cancelled: prepare again, which
 * answers 409 if it was cancelled); `[1…]` one ConditionCheck per distinct product new to the subscription. The customer item is NOT touched.
 */
export async function prepareSubscriptionUpdate(ctx: Ctx, id: string, change: SubscriptionChange): Promise<PreparedSubscription> {
  const current = await findSubscriptionItem(ctx, id);
  if (current.status === 'cancelled') throw new Conflict(`Subscription '${id}' is cancelled; it can no longer change.`);
  const checked = await checkProducts(ctx, change.products, current.currency, {
    interval: current.billing_interval,
    productIds: new Set(current.products.map((p) => p.product_id)),
  });
  const products = keepIdentities(current.products, checked.products);
  // The quote's list applies from the next billing date: it replaces a change scheduled for then (PATCH next_period).
  const subscription: SubscriptionItem = { ...current, products, scheduled_products: null, updated_at: ctx.clock.now().toISOString(), _version: current._version + 1 };
  return { subscription, items: [putOnVersion(subscription, current), ...checked.productIds.map((productId) => productUsableCheck(ctx, productId))] };
}

/**
 * The checked products of a new list, each one the subscription already has (same product and configuration) keeping
 * its id, whether it was billed (one-off), its meter snapshot, its invoiced usage and its committed count (billing terms).
 */
export function keepIdentities(before: StoredSubscriptionProduct[], after: StoredSubscriptionProduct[]): StoredSubscriptionProduct[] {
  const unused = [...before];
  return after.map((product) => {
    const kept = unused.findIndex((p) => p.product_id === product.product_id && p.price_configuration_id === product.price_configuration_id);
    if (kept < 0) return product;
    const [was] = unused.splice(kept, 1);
    // A kept product keeps its meter (the aggregator snapshot, whatever its catalog product names now) and what its
    // periods were invoiced for.
    const committed = was!.min_committed_count ? { min_committed_count: was!.min_committed_count } : {};
    const meter = was!.aggregator_id && product.fee_timing === 'in_arrears' ? { aggregator_id: was!.aggregator_id, unit_name: was!.unit_name ?? null, invoiced_usage: was!.invoiced_usage ?? [], ...committed } : {};
    return { ...product, id: was!.id, ...(was!.billed && { billed: true }), ...meter };
  });
}

/** The new full product list of `current`, checked like a new subscription's, in its currency and interval. */
export async function checkedChange(ctx: Ctx, current: SubscriptionItem, inputs: SubscriptionProductInput[]): Promise<{ products: StoredSubscriptionProduct[]; productIds: string[] }> {
  const checked = await checkProducts(ctx, inputs, current.currency, {
    interval: current.billing_interval,
    productIds: new Set(current.products.map((p) => p.product_id)),
  });
  return { products: keepIdentities(current.products, checked.products), productIds: checked.productIds };
}
