import type { Ctx } from '../../context';
import { batchGet } from '../../db/pagination';
import { productKey, type ProductItem } from '../catalog/product';
import { computePrice } from '../pricing/compute-price';
import { PricingError } from '../pricing/errors';
import type { StoredSubscriptionProduct, SubscriptionItem } from '../subscriptions/subscription';
import type { AggregatorItem } from './aggregator';
import { listAggregatorItems } from './aggregator-read';
import { contributionOf, type MeteredEvent } from './contribution';
import { activeSubscriptionsOf } from './customer-subscriptions';
import type { PriceCalculation, UsageEventItem } from './usage-event';

/** A dynamic product of an active subscription, with the aggregator that meters it. */
export interface MeteredLine {
  subscription: Pick<SubscriptionItem, 'id' | 'currency'>;
  product: Pick<StoredSubscriptionProduct, 'product_id' | 'price'>;
  aggregator: AggregatorItem;
}

/**
 * `with_price_calculation` (docs/usage-credits.md): a function that prices each event against the customer's active
 * subscriptions and records the result on the event item as `price_calculation`, from which the stream emits
 * `event.price_calculated`. The workspace's aggregators are read once per request, each customer's subscriptions
 * (and their dynamic products) once per request, however many of its events the request holds.
 */
export async function priceCalculator(ctx: Ctx): Promise<(item: UsageEventItem) => Promise<UsageEventItem>> {
  const aggregators = new Map((await listAggregatorItems(ctx)).map((a) => [a.id, a]));
  const linesOf = new Map<string, Promise<MeteredLine[]>>();
  return async (item) => {
    if (!linesOf.has(item.customer_id)) linesOf.set(item.customer_id, meteredLines(ctx, item.customer_id, aggregators));
    const calculation = priceEvent(await linesOf.get(item.customer_id)!, item);
    return calculation ? { ...item, price_calculation: calculation } : item;
  };
}

/** The customer's dynamic subscription products that name a live aggregator, oldest subscription first. */
async function meteredLines(ctx: Ctx, customerId: string, aggregators: Map<string, AggregatorItem>): Promise<MeteredLine[]> {
  const subscriptions = await activeSubscriptionsOf(ctx, customerId);
  const dynamic = subscriptions.flatMap((subscription) => subscription.products.filter((p) => p.product_type === 'dynamic').map((product) => ({ subscription, product })));
  const ids = [...new Set(dynamic.map((d) => d.product.product_id))];
  const products = new Map(((await batchGet(ids.map((id) => productKey(ctx, id)), true)) as unknown as ProductItem[]).map((p) => [p.id, p]));
  return dynamic.flatMap(({ subscription, product }) => {
    const aggregator = aggregators.get(products.get(product.product_id)?.aggregator_id ?? '');
    return aggregator ? [{ subscription, product, aggregator }] : [];
  });
}

/**
 * What one event costs on the first line whose aggregator it contributes to, priced ALONE (as if it were the period's
 * only usage), so the figure is the same whenever and however often it is computed:
 * - `bps`: quantity 1 (one transaction), amount = the percentage of the event's amount (the aggregator's property,
 *   a `sum` aggregator), plus the per-unit fee, held within floor and cap (the first tier's terms);
 * - every other price: quantity = the event's contribution (count: 1, sum: the property…), amount = the price of that
 *   quantity (for tiered prices: priced from the first unit, not at the period's usage so far).
 * No line, a negative quantity, or a price that cannot price it (a bps price on a count aggregator, a quantity past
 * the last tier): no calculation. Pure.
 */
export function priceEvent(lines: MeteredLine[], event: MeteredEvent & { customer_id: string }): PriceCalculation | undefined {
  for (const { subscription, product, aggregator } of lines) {
    const contribution = contributionOf(aggregator, event);
    if (!contribution || contribution.value < 0) continue;
    const bps = product.price.type === 'bps';
    if (bps && aggregator.operation !== 'sum') continue;
    const quantity = bps ? 1 : contribution.value;
    try {
      const { amount } = computePrice(product.price, bps ? { quantity, amount: contribution.value } : { quantity });
      return { event_id: event.id, customer_id: event.customer_id, product_id: product.product_id, aggregator_id: aggregator.id, quantity, amount, currency: subscription.currency };
    } catch (error) {
      if (!(error instanceof PricingError)) throw error;
    }
  }
  return undefined;
}
