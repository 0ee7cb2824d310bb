import { eachLimited, pushTo } from '../../concurrency';
import type { Ctx } from '../../context';
import { batchGet } from '../../db/pagination';
import { productKey, type ProductItem } from '../catalog/product';
import { consumeForEvents, type EventUsage } from '../credits/event-usage';
import type { AggregatorItem } from './aggregator';
import { CREDIT_OPERATIONS, productsNaming } from './aggregator-products';
import type { UsageChange } from './apply-usage';
import { contributionOf } from './contribution';

/** A workspace's credit products naming one aggregator, read per batch (an aggregator has few products). */
const PRODUCTS_PER_AGGREGATOR = 100;
const PARALLEL_BALANCES = 8;

/**
 * Credits consumed by usage (docs/usage-credits.md): for a stream batch's changes of one workspace, every event
 * version that contributes a positive quantity to an aggregator named by a credit product consumes that quantity
 * from the customer's balance of the product, once per event id (credits/event-usage.ts: a marker per event in the
 * balance's transaction, up to 40 events per transaction). The first version consumed is the one that counts: a replacement or a redelivery finds the marker.
 * Balances are worked in parallel, the events of one balance in stream order.
 */
export async function consumeCreditsForUsage(ctx: Ctx, aggregators: AggregatorItem[], changes: UsageChange[]): Promise<void> {
  const metering = aggregators.filter((a) => CREDIT_OPERATIONS.includes(a.operation));
  const creditProducts = await creditProductsOf(ctx, metering.filter((a) => changes.some((c) => c.after && contributionOf(a, c.after))));
  const byBalance = new Map<string, EventUsage[]>();
  for (const change of changes) {
    const event = change.after;
    if (!event) continue;
    for (const aggregator of metering) {
      const quantity = contributionOf(aggregator, event)?.value ?? 0;
      if (quantity <= 0) continue;
      for (const productId of creditProducts.get(aggregator.id) ?? []) {
        const usage = { customerId: event.customer_id, productId, eventId: event.id, aggregatorId: aggregator.id, quantity };
        pushTo(byBalance, `${usage.customerId}#${productId}`, usage);
      }
    }
  }
  await eachLimited([...byBalance.values()], PARALLEL_BALANCES, (usages) => consumeForEvents(ctx, usages));
}

/**
 * The live credit products naming each aggregator: the aggregator's partition of the parent index (gsi3, keys only),
 * then the products themselves (consistent), keeping those that still name it (the index lags a product's move).
 */
async function creditProductsOf(ctx: Ctx, aggregators: AggregatorItem[]): Promise<Map<string, string[]>> {
  const named = await Promise.all(aggregators.map(async (a) => ({ aggregator: a.id, ids: await productsNaming(ctx, a.id, PRODUCTS_PER_AGGREGATOR) })));
  const ids = [...new Set(named.flatMap((n) => n.ids))];
  const products = (await batchGet(ids.map((id) => productKey(ctx, id)), true)) as unknown as ProductItem[];
  const result = new Map<string, string[]>();
  for (const p of products) {
    if (p.type !== 'credit' || p.deleted_at || !p.aggregator_id) continue;
    pushTo(result, p.aggregator_id, p.id);
  }
  return result;
}
