import type { Ctx } from '../../context';
import { getItem } from '../../db/items';
import { InvalidRequest, RuleViolation } from '../../errors';
import { priceConfigurationKey, type BillingInterval, type CommitmentInterval, type PriceConfigurationItem } from '../catalog/price-configuration';
import { productMissing } from '../catalog/errors';
import { productKey, type ProductItem } from '../catalog/product';
import { assertProductUsable } from '../catalog/usable';
import { computePrice, PricingError } from '../pricing/compute-price';
import type { PricedConfiguration } from '../pricing/types';
import type { QuoteLineInput, QuoteLineItem, QuoteType } from './quote';

const problem = (index: number, field: string, message: string) =>
  new InvalidRequest(`Invalid body: line_items.${index}.${field} ${message}.`, [{ path: `body.line_items.${index}.${field}`, message }]);

/**
 * Lengths of the recurring periods in twelfths of a day, with a month as a twelfth of a 365-day year, so that a
 * year is exactly 12 months and a week exactly 7 days, and mixed units (weeks in a month) compare sensibly.
 */
const TWELFTHS_OF_A_DAY = { days: 12n, weeks: 84n, months: 365n, years: 4380n } as const;

/**
 * How many billing periods a line counts in the quote's value:
 * - a one-off price (`billing_interval: once`), or any line of a one_off quote (one invoice): 1;
 * - a recurring price committed for a fixed interval: the number of billing periods in that interval, rounded to
 *   the nearest whole number (half up), at least 1 — monthly for 1 year → 12, quarterly for 1 year → 4, weekly for
 *   1 month → 4, yearly for 6 months → 1;
 * - a recurring price without a fixed commitment (`commitment_interval: all`): 1, the first period, which is all
 *   the customer commits to.
 */
export function billingPeriods(type: QuoteType, billing: BillingInterval, commitment: CommitmentInterval): number {
  if (type === 'one_off' || billing.period === 'once' || commitment.period === 'all') return 1;
  const committed = TWELFTHS_OF_A_DAY[commitment.period] * BigInt(commitment.count);
  const period = TWELFTHS_OF_A_DAY[billing.period] * BigInt(billing.count);
  const rounded = (2n * committed + period) / (2n * period);
  return Math.max(1, Number(rounded));
}

/** A line's value: the pricing engine's amount for its quantity, times its billing periods. */
export function lineValue(type: QuoteType, configuration: PriceConfigurationItem, quantity: number) {
  const priced = computePrice(configuration as unknown as PricedConfiguration, { quantity });
  const billing_periods = billingPeriods(type, configuration.billing_interval, configuration.commitment_interval);
  const amount = BigInt(priced.amount) * BigInt(billing_periods);
  if (amount > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new PricingError('amount_too_large', `The line's value (${amount}) is too large to be represented exactly; lower the quantity.`);
  }
  return { amount_per_period: priced.amount, billing_periods, amount: Number(amount), tiers: priced.tiers };
}

/** Reads shared by the lines of one quote: lines of the same configuration or product read it once. */
class CatalogReads {
  private readonly cache = new Map<string, Promise<unknown>>();
  constructor(
    private readonly ctx: Ctx,
    private readonly kept: ReadonlySet<string>,
  ) {}
  private once<T>(key: string, read: () => Promise<T>): Promise<T> {
    if (!this.cache.has(key)) this.cache.set(key, read());
    return this.cache.get(key) as Promise<T>;
  }
  configuration = (id: string) => this.once(`prc:${id}`, () => getItem<PriceConfigurationItem>(priceConfigurationKey(this.ctx, id), true));
  /** A product must be usable, unless the subscription being updated already has it (it may keep an archived one). */
  product = (id: string) => this.once(`itm:${id}`, () => (this.kept.has(id) ? this.existing(id) : assertProductUsable(this.ctx, id)));
  private existing = async (id: string): Promise<ProductItem> => {
    const product = await getItem<ProductItem>(productKey(this.ctx, id), true);
    if (!product || product.deleted_at) throw productMissing(id);
    return product;
  };
}

async function resolveLine(reads: CatalogReads, type: QuoteType, line: QuoteLineInput, index: number, currency: string): Promise<QuoteLineItem> {
  const configuration = await reads.configuration(line.price_configuration_id);
  if (!configuration) throw new RuleViolation('price_not_found', `line_items.${index}: no price configuration '${line.price_configuration_id}'.`);
  if (line.product_id && line.product_id !== configuration.product_id) {
    throw problem(index, 'product_id', `is not the product of price configuration '${configuration.id}'`);
  }
  if (configuration.status !== 'active') throw new RuleViolation('price_archived', `line_items.${index}: price configuration '${configuration.id}' is archived.`);
  if (configuration.currency !== currency) {
    throw new RuleViolation('currency_mismatch', `line_items.${index}: price configuration '${configuration.id}' is in ${configuration.currency}, the quote in ${currency}.`);
  }
  const product: ProductItem = await reads.product(configuration.product_id);
  const quantity = line.quantity ?? 1;
  if (configuration.type === 'bps') {
    // A product metered by usage prices each event's amount when the period is billed: nothing to value in advance.
    const metered = product.type === 'dynamic' && !!product.aggregator_id && configuration.billing_interval.period !== 'once';
    if (!metered || type === 'one_off') {
      throw new RuleViolation(
        'price_not_supported',
        `line_items.${index}: price configuration '${configuration.id}' is a bps price, which needs each transaction's amount: only a subscription's product metered by usage (aggregator_id) can have one.`,
      );
    }
    const { billing_interval, commitment_interval } = configuration;
    return {
      product_id: product.id, price_configuration_id: configuration.id, quantity, name: product.name, price_type: configuration.type, billing_interval, commitment_interval,
      amount_per_period: 0, billing_periods: billingPeriods(type, billing_interval, commitment_interval), amount: 0, tiers: [],
    };
  }
  return {
    product_id: product.id,
    price_configuration_id: configuration.id,
    quantity,
    name: product.name,
    price_type: configuration.type,
    billing_interval: configuration.billing_interval,
    commitment_interval: configuration.commitment_interval,
    ...lineValue(type, configuration, quantity),
  };
}

export interface ResolvedQuoteLines {
  lines: QuoteLineItem[];
  /** The distinct products the lines use. */
  productIds: string[];
  /** Those that must be usable (all but `kept`): each is checked again inside the writing transaction. */
  checkedProductIds: string[];
  amount: number;
}

/**
 * Checks every line against the catalog (configuration active and in the quote's currency, product usable: 422
 * `product_archived` for an archived one) and prices it, in parallel. `kept`: the products of the subscription a
 * subscription_update quote changes, which may stay in it even if archived since (as the subscription rules say).
 */
export async function resolveQuoteLines(
  ctx: Ctx, type: QuoteType, inputs: readonly QuoteLineInput[], currency: string, kept: ReadonlySet<string> = new Set(),
): Promise<ResolvedQuoteLines> {
  const reads = new CatalogReads(ctx, kept);
  const lines = await Promise.all(inputs.map((line, index) => resolveLine(reads, type, line, index, currency)));
  const amount = lines.reduce((sum, line) => sum + BigInt(line.amount), 0n);
  if (amount > BigInt(Number.MAX_SAFE_INTEGER)) throw new PricingError('amount_too_large', `The quote's value (${amount}) is too large to be represented exactly.`);
  const productIds = [...new Set(lines.map((l) => l.product_id))];
  return { lines, productIds, checkedProductIds: productIds.filter((id) => !kept.has(id)), amount: Number(amount) };
}

/** The lines as the catalog references they were given with (to price them again, or to hand them on). */
export const lineInputs = (lines: readonly QuoteLineItem[]): QuoteLineInput[] =>
  lines.map((l) => ({ product_id: l.product_id, price_configuration_id: l.price_configuration_id, quantity: l.quantity }));
