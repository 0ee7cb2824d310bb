import type { Ctx } from '../../context';
import { getItem } from '../../db/items';
import { RuleViolation } from '../../errors';
import type { BillingInterval, StoredPrice } from '../catalog/price-configuration';
import { listPriceConfigurations } from '../catalog/price-configurations';
import { productKey, type ProductItem } from '../catalog/product';
import type { CollectionMethod } from '../collection/settings';
import { customerFor, feeTimingOf, type SubscriptionProductInput } from '../subscriptions/prepare';
import { oneOf } from './aliases';

type InlinePrice = { type: string } & Record<string, unknown>;

/** A product of `POST /v2/subscriptions` as Hyperline gives it (docs/hyperline.md). */
export interface HyperlineProductInput {
  id: string;
  price_configuration_id?: string;
  payment_interval?: { period: string; count?: number };
  payment_schedule?: 'start' | 'end';
  price?: InlinePrice;
  prices?: InlinePrice[];
  count?: number;
  min_committed_count?: number | null;
  /** Ignored: the catalog's (name, description, unit) are what the subscription shows. */
  name?: string;
  description?: string | null;
  description_display_interval_dates?: boolean;
  unit_name?: string | null;
}

type AnyProduct = SubscriptionProductInput | HyperlineProductInput;
interface HyperlineCoupon { id: string; [member: string]: unknown }
interface Phase { products: AnyProduct[]; coupons?: HyperlineCoupon[]; duration?: unknown; ends_at?: string | null }

/** Hyperline's members of `POST /v2/subscriptions` beside ours. */
export interface HyperlineSubscriptionMembers {
  products?: AnyProduct[];
  plan_id?: string;
  plan_version_id?: string;
  coupon_ids?: string[];
  collection_method?: CollectionMethod | null;
  activation_strategy?: 'start_date' | 'manually' | 'checkout';
  payment_method_strategy?: 'current' | 'external' | 'new';
  coupons?: HyperlineCoupon[];
  phases?: Phase[];
  contract_terms?: { renew_automatically?: boolean };
}

const isHyperline = (p: AnyProduct): p is HyperlineProductInput => 'id' in p;

/** What would bill otherwise than Hyperline does is refused, said plainly (422), before anything is read or written. */
function refuseUnsupported(body: HyperlineSubscriptionMembers): void {
  if (body.activation_strategy === 'manually' || body.activation_strategy === 'checkout') {
    throw new RuleViolation('activation_strategy_not_supported', `activation_strategy '${body.activation_strategy}' is not supported: a subscription here starts at starts_at (activation_strategy 'start_date').`);
  }
  if (body.payment_method_strategy === 'new') {
    throw new RuleViolation('payment_method_strategy_not_supported', "payment_method_strategy 'new' needs a checkout, which this service does not hold: use 'current' or 'external'.");
  }
  if (body.payment_method_strategy === 'external' && body.collection_method === 'automatic') {
    throw new RuleViolation('conflicting_members', '`payment_method_strategy: external` means collection_method `manual`, not `automatic`.');
  }
  if (body.contract_terms?.renew_automatically === false) {
    throw new RuleViolation('contract_end_not_supported', 'A contract that does not renew would end the subscription at its end: this service bills until it is cancelled. Cancel it at that date instead.');
  }
  const phases = body.phases ?? [];
  if (phases.length > 1 || phases.some((p) => (p.duration ?? null) !== null || (p.ends_at ?? null) !== null)) {
    throw new RuleViolation('phases_not_supported', 'Only one phase without an end is supported (its products and coupons are the subscription\'s): phase transitions are not modelled here.');
  }
  if (phases.length && (body.products !== undefined || body.plan_id !== undefined || body.plan_version_id !== undefined)) {
    throw new RuleViolation('conflicting_members', 'Give phases, products or a plan, not several.');
  }
}

function couponIdsOf(coupons: HyperlineCoupon[] | undefined): string[] | undefined {
  if (!coupons) return undefined;
  for (const { id, ...terms } of coupons) {
    const given = Object.entries(terms).filter(([, value]) => value !== null && value !== undefined).map(([name]) => name);
    if (given.length) throw new RuleViolation('coupon_terms_not_supported', `Coupon '${id}': ${given.join(', ')} would change its terms; a coupon applies as it was created.`);
  }
  return coupons.map((c) => c.id);
}

/** The members given (non-null) of each inline price equal the stored ones, in order; a first tier from 0 or 1 is the same. */
function pricesMatch(type: string, stored: StoredPrice[], inline: InlinePrice[]): boolean {
  const first = (value: unknown, i: number, key: string) => (key === 'from' && i === 0 && value === 0 ? 1 : value);
  return inline.length === stored.length && inline.every(({ type: t, id: _id, ...members }, i) =>
    t === type && Object.entries(members).every(([key, value]) => value === null || first(value, i, key) === first(stored[i]![key], i, key)));
}

const sameInterval = (a: BillingInterval, b: HyperlineProductInput['payment_interval']) =>
  a.period === b!.period && (a.period === 'once' || a.count === (b!.count ?? 1));

/** Its price configuration: the product's active one in `currency` matching what Hyperline's member says, exactly one. */
export async function ourProduct(ctx: Ctx, p: HyperlineProductInput, currency: string, index: number): Promise<SubscriptionProductInput> {
  const inline = p.prices ?? (p.price ? [p.price] : undefined);
  const { data } = await listPriceConfigurations(ctx, { take: 100, skip: 0, product_id: p.id });
  const matching = data.filter((c) => c.status === 'active' && c.currency === currency
    && (p.price_configuration_id === undefined || c.id === p.price_configuration_id)
    && (p.payment_interval === undefined || sameInterval(c.billing_interval, p.payment_interval)));
  const priced = inline ? matching.filter((c) => pricesMatch(c.type, c.prices, inline)) : matching;
  if (priced.length !== 1) {
    const [code, why] = priced.length > 1
      ? ['ambiguous_price_configuration', `has ${priced.length} matching price configurations: name one with price_configuration_id`]
      : matching.length ? ['prices_mismatch', `has no ${currency} price configuration with these prices: a subscription here is billed at the catalog's prices`]
        : ['price_not_found', `has no active ${currency} price configuration${p.payment_interval ? ' billed at this payment_interval' : ''}`];
    throw new RuleViolation(code, `products.${index}: product '${p.id}' ${why}.`);
  }
  const configuration = priced[0]!;
  if (p.payment_schedule) {
    const product = await getItem<ProductItem>(productKey(ctx, p.id), true);
    const schedule = product && feeTimingOf(product.type, configuration.billing_interval) === 'in_arrears' ? 'end' : 'start';
    if (schedule !== p.payment_schedule) {
      throw new RuleViolation('payment_schedule_mismatch', `products.${index}: product '${p.id}' is billed at the ${schedule} of each period here (payment_schedule '${schedule}').`);
    }
  }
  return { product_id: p.id, price_configuration_id: configuration.id, quantity: p.count ?? 1, min_committed_count: p.min_committed_count ?? null };
}

/**
 * `POST /v2/subscriptions` with Hyperline's members in this API's terms (docs/hyperline.md): products as ours, one
 * phase as its products and coupons, coupons as `coupon_ids`, `payment_method_strategy: external` as collection_method
 * `manual`. Members that would bill otherwise than Hyperline does are refused (422) before anything is written.
 */
export async function toSubscriptionMembers<T extends HyperlineSubscriptionMembers & { customer_id: string }>(ctx: Ctx, body: T) {
  refuseUnsupported(body);
  const { phases, coupons, activation_strategy: _start, payment_method_strategy, contract_terms: _renews, products: given, ...ours } = body;
  const phase = phases?.[0];
  const products = phase?.products ?? given;
  const couponIds = oneOf(ours.coupon_ids, couponIdsOf(phase?.coupons ?? coupons), 'coupon_ids and coupons');
  const hyperline = products?.some(isHyperline) ? (await customerFor(ctx, body.customer_id)).currency : undefined;
  return {
    ...ours,
    ...(products && { products: await Promise.all(products.map((p, i) => (isHyperline(p) ? ourProduct(ctx, p, hyperline!, i) : p))) }),
    ...(couponIds && { coupon_ids: couponIds }),
    ...(payment_method_strategy === 'external' && { collection_method: 'manual' as const }),
  };
}
