/**
 * Usage-priced (metered) subscription products: a `dynamic` product whose catalog product names an aggregator is
 * billed in arrears with the aggregated usage of exactly its period `[starts_at, ends_at)`, and usage that arrives
 * after its period was invoiced is billed later as a late-usage line (docs/usage-billing.md). The reads happen here
 * (readMeteredUsage), before the pure billing step (billing.ts) that prices them.
 */
import type { Ctx } from '../../context';
import { getItem } from '../../db/items';
import { aggregatorKey, type AggregatorItem } from '../metering/aggregator';
import { contributionOf } from '../metering/contribution';
import { PAST_HORIZON_MS } from '../metering/usage-event';
import { rawEvents, readUsage } from '../metering/usage-read';
import { priceBpsEvents } from '../pricing/bps-events';
import { computePrice } from '../pricing/compute-price';
import type { BpsTier, PricedConfiguration } from '../pricing/types';
import type { Period } from './lines';
import { isMetered } from './recurring';
import { periodStart, type StoredSubscriptionProduct, type SubscriptionItem } from './subscription';

/** What one metered product's period has been invoiced for (the arrears line plus any late-usage lines since). */
export interface InvoicedUsage {
  starts_at: string;
  ends_at: string;
  /** The metered quantity the invoiced amount was priced at. */
  quantity: number;
  /** The invoice line's units for it (the quantity; bps: the number of events priced). */
  units: number;
  /** Minor units, before coupons and tax: always the price of `quantity`. */
  amount: number;
}

/** The usage of one metered product in one period, read before the pure billing step. */
export interface MeteredUsage {
  /** The aggregator's value over the period (never below 0); for bps, the sum of the priced events' amounts. */
  quantity: number;
  /** bps only: the amount of each counted event, in the order they happened (each is one priced unit). */
  amounts?: number[];
}

/** Keyed by `readingKey`. */
export type UsageReadings = ReadonlyMap<string, MeteredUsage>;

export const readingKey = (productId: string, period: Period) => `${productId}@${period.starts_at}`;

/**
 * Usage may still arrive for a period until PAST_HORIZON_MS after its end (ingestion refuses older events); this
 * much more lets the last accepted event reach the hour buckets through the stream before the final re-read.
 */
export const LATE_USAGE_MARGIN_MS = 3_600_000;

/** The time after which no usage can change a period any more: its record is re-read one last time, then dropped. */
export const periodClosedAt = (endsAt: string) => new Date(Date.parse(endsAt) + PAST_HORIZON_MS + LATE_USAGE_MARGIN_MS).toISOString();

export { isMetered };

export const unitNameOf = (p: Pick<StoredSubscriptionProduct, 'unit_name'>) => p.unit_name ?? 'units';

/** What a period's usage costs at the product's prices (volume, packaged, bulk: the quantity; bps: each event). Pure. */
export function meteredAmount(price: PricedConfiguration, usage: MeteredUsage): number {
  if (price.type === 'bps') return priceBpsEvents(price.prices as BpsTier[], usage.amounts ?? []).amount;
  return computePrice(price, { quantity: usage.quantity }).amount;
}

/** The invoice line's units: the quantity, or for bps the number of events priced. */
export const meteredUnits = (price: PricedConfiguration, usage: MeteredUsage) => (price.type === 'bps' ? (usage.amounts ?? []).length : usage.quantity);

/** The line's description: the metered quantity and its unit (bps: the amounts' sum and the number of events). */
export function usageDescription(p: StoredSubscriptionProduct, usage: MeteredUsage): string {
  const unit = unitNameOf(p);
  return p.price.type === 'bps' ? `${usage.quantity} ${unit} in ${(usage.amounts ?? []).length} events` : `${usage.quantity} ${unit}`;
}

/** Every (product, period) the billing step at the subscription's cursor needs: the period ending now, and late re-reads. */
export function usageReads(s: SubscriptionItem): Array<{ product: StoredSubscriptionProduct; period: Period }> {
  const j = s.billing_index;
  const previous: Period | null = j >= 1 ? { starts_at: periodStart(s, j - 1), ends_at: periodStart(s, j) } : null;
  return s.products.filter(isMetered).flatMap((product) => [
    ...(previous ? [{ product, period: previous }] : []),
    ...(product.invoiced_usage ?? []).map(({ starts_at, ends_at }) => ({ product, period: { starts_at, ends_at } })),
  ]);
}

/** The aggregator as stored, deleted or not: its definition is immutable, and its buckets keep what it metered. */
async function aggregatorItem(ctx: Ctx, id: string): Promise<AggregatorItem> {
  const item = await getItem<AggregatorItem>(aggregatorKey(ctx, id), true);
  if (!item) throw new Error(`Aggregator '${id}' of a subscription product is missing`);
  return item;
}

/**
 * One period's usage. Volume, packaged, bulk: the aggregator's value from the hour buckets (O(hours), whatever the
 * number of events). bps: the period's raw events, because each event's own amount is priced (with a per-unit cap
 * and floor) and no bucket keeps the amounts one by one; events with a negative amount are not priced.
 */
async function periodUsage(ctx: Ctx, customerId: string, aggregator: AggregatorItem, price: PricedConfiguration, period: Period): Promise<MeteredUsage> {
  if (price.type !== 'bps') {
    const { value } = await readUsage(ctx, customerId, aggregator, period.starts_at, period.ends_at);
    return { quantity: Math.max(0, value) };
  }
  const events = await rawEvents(ctx, customerId, period.starts_at, period.ends_at);
  const counted = events
    .flatMap((e) => contributionOf(aggregator, e) ?? [])
    .filter((c) => c.value >= 0)
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const amounts = counted.map((c) => c.value);
  return { quantity: amounts.reduce((sum, a) => sum + a, 0), amounts };
}

/** Reads every (product, period) asked, each once, in parallel. */
export async function readMeteredUsage(ctx: Ctx, customerId: string, reads: ReturnType<typeof usageReads>): Promise<UsageReadings> {
  const aggregators = new Map<string, Promise<AggregatorItem>>();
  const aggregator = (id: string) => aggregators.get(id) ?? aggregators.set(id, aggregatorItem(ctx, id)).get(id)!;
  const unique = new Map(reads.map((r) => [readingKey(r.product.id, r.period), r]));
  const entries = await Promise.all(
    [...unique].map(async ([key, { product, period }]) => [key, await periodUsage(ctx, customerId, await aggregator(product.aggregator_id!), product.price, period)] as const),
  );
  return new Map(entries);
}

/** The period of the subscription that contains `now` (the first one before it starts); null once it ended. */
export function periodAt(s: SubscriptionItem, now: string): Period | null {
  if (s.status === 'cancelled' || (s.ends_at !== null && s.ends_at <= now)) return null;
  let j = Math.max(0, s.billing_index - 1);
  while (periodStart(s, j + 1) <= now) j += 1;
  return { starts_at: periodStart(s, j), ends_at: periodStart(s, j + 1) };
}

/** A metered product's usage in the current period so far (GET /v2/subscriptions/{id}). */
export interface CurrentUsage {
  quantity: number;
  unit_name: string | null;
  period_starts_at: string;
  period_ends_at: string;
}

/**
 * The current period's usage of each metered product, by subscription product id: the aggregator's value from its
 * hour buckets (for bps too: the sum of the amounts, which the percentage applies to), so O(1) reads per product.
 */
export async function currentUsage(ctx: Ctx, s: SubscriptionItem, now: string): Promise<Map<string, CurrentUsage>> {
  const period = periodAt(s, now);
  if (!period) return new Map();
  const entries = await Promise.all(
    s.products.filter(isMetered).map(async (p) => {
      const aggregator = await getItem<AggregatorItem>(aggregatorKey(ctx, p.aggregator_id!), true);
      if (!aggregator) return []; // aggregators are only soft-deleted: cannot happen, but a read never fails for it
      const { value } = await readUsage(ctx, s.customer_id, aggregator, period.starts_at, period.ends_at);
      return [[p.id, { quantity: Math.max(0, value), unit_name: p.unit_name ?? null, period_starts_at: period.starts_at, period_ends_at: period.ends_at }] as const];
    }),
  );
  return new Map(entries.flat());
}
