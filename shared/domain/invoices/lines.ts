import type { Ctx } from '../../context';
import { getItem } from '../../db/items';
import { InvalidRequest, RuleViolation } from '../../errors';
import { newId } from '../../ids';
import { roundHalfUp } from '../pricing/arithmetic';
import { findPrice } from '../catalog/price-lookup';
import { priceConfigurationKey, type PriceConfigurationItem } from '../catalog/price-configuration';
import { assertProductUsable } from '../catalog/usable';
import { configurationsOf } from '../catalog/read';
import { formatRate } from '../../money/tax-rate';
import type { ProductItem } from '../catalog/product';
import { computePrice } from '../pricing/compute-price';
import type { PricedConfiguration } from '../pricing/types';
import type { PricedLine } from './amounts';
import type { InvoiceLineItem } from './invoice';

/** A line as the caller gives it: a catalog price (priced by the engine) or a custom amount. */
export interface LineInput {
  price_configuration_id?: string;
  /** Any price of a configuration (`pri_…`): the configuration it belongs to prices the line. */
  price_id?: string;
  product_id?: string;
  name?: string;
  description?: string | null;
  /** The number of units, as line items read it back (`quantity` is its older name; give one or the other). */
  units_count?: number;
  quantity?: number;
  /** Custom lines: the price of one unit. */
  unit_amount?: number;
  /** This line's own tax rate (percent), instead of the invoice's scheme. */
  tax_rate?: number;
  unit_code?: string;
  tax_category?: InvoiceLineItem['tax_category'];
  tax_exemption_reason?: string;
  tax_exemption_reason_code?: string;
  /** bps prices: the amount of each unit (transaction) the percentage applies to. */
  transaction_amount?: number;
  period_starts_at?: string | null;
  period_ends_at?: string | null;
}

const problem = (index: number, field: string, message: string) =>
  new InvalidRequest(`Invalid body: line_items.${index}.${field} ${message}.`, [{ path: `body.line_items.${index}.${field}`, message }]);

/** Reads shared by the lines of one invoice: lines of the same price or product read it once. */
class CatalogReads {
  private readonly cache = new Map<string, Promise<unknown>>();
  constructor(private readonly ctx: Ctx) {}
  private once<T>(key: string, read: () => Promise<T>): Promise<T> {
    if (!this.cache.has(key)) this.cache.set(key, read());
    return this.cache.get(key) as Promise<T>;
  }
  configuration = (id: string) => this.once(`prc:${id}`, () => getItem<PriceConfigurationItem>(priceConfigurationKey(this.ctx, id), true));
  price = (id: string) => this.once(`pri:${id}`, () => findPrice(this.ctx, id));
  product = (id: string) => this.once(`itm:${id}`, () => assertProductUsable(this.ctx, id));
  configurationsOf = (productId: string) => this.once(`prcs:${productId}`, async () => (await configurationsOf(this.ctx, [productId])).get(productId));
}

/** The number of units of a line: `units_count` or `quantity` (the same when both are given), else 1. */
function unitsOf(line: LineInput, index: number): number {
  if (line.units_count !== undefined && line.quantity !== undefined && line.units_count !== line.quantity) {
    throw problem(index, 'units_count', 'differs from quantity (give one of them)');
  }
  return line.units_count ?? line.quantity ?? 1;
}

/** A product named without a price is priced by its one active configuration in the invoice's currency. */
async function productConfiguration(reads: CatalogReads, productId: string, index: number, currency: string): Promise<PriceConfigurationItem> {
  await reads.product(productId);
  const candidates = ((await reads.configurationsOf(productId)) ?? []).filter((c) => c.status === 'active' && c.currency === currency);
  if (candidates.length === 0) {
    throw new RuleViolation('price_not_found', `line_items.${index}: product '${productId}' has no active price configuration in ${currency}; give unit_amount for a custom price, or create one.`);
  }
  if (candidates.length > 1) {
    throw new RuleViolation('price_ambiguous', `line_items.${index}: product '${productId}' has ${candidates.length} active price configurations in ${currency} (${candidates.map((c) => c.id).join(', ')}); name one with price_configuration_id.`);
  }
  return candidates[0]!;
}

async function configurationOf(reads: CatalogReads, line: LineInput, index: number, currency: string): Promise<PriceConfigurationItem> {
  if (!line.price_configuration_id && !line.price_id) return productConfiguration(reads, line.product_id!, index, currency);
  if (line.price_configuration_id) {
    const found = await reads.configuration(line.price_configuration_id);
    if (!found) throw new RuleViolation('price_not_found', `line_items.${index}: no price configuration '${line.price_configuration_id}'.`);
    return found;
  }
  const found = await reads.price(line.price_id!);
  if (!found) throw new RuleViolation('price_not_found', `line_items.${index}: no price '${line.price_id}'.`);
  return found.configuration;
}

/** A whole-unit price for display: the line's amount over its units, rounded half-up (exact for fees). */
const unitAmountOf = (amount: number, units: number): number => (units > 0 ? Number(roundHalfUp(BigInt(amount), BigInt(units))) : amount);

async function catalogLine(reads: CatalogReads, line: LineInput, index: number, currency: string): Promise<{ line: PricedLine; productId: string }> {
  const configuration = await configurationOf(reads, line, index, currency);
  // A price named beside its configuration must be one of its prices (stored on the line, it is never taken as given).
  if (line.price_id && !configuration.prices.some((p) => p.id === line.price_id)) {
    throw new RuleViolation('price_not_found', `line_items.${index}: price configuration '${configuration.id}' has no price '${line.price_id}'.`);
  }
  if (line.product_id && line.product_id !== configuration.product_id) throw problem(index, 'product_id', `is not the product of price configuration '${configuration.id}'`);
  if (configuration.status !== 'active') throw new RuleViolation('price_archived', `line_items.${index}: price configuration '${configuration.id}' is archived.`);
  if (configuration.currency !== currency) {
    throw new RuleViolation('currency_mismatch', `line_items.${index}: price configuration '${configuration.id}' is in ${configuration.currency}, the invoice in ${currency}.`);
  }
  const product = await reads.product(configuration.product_id);
  const quantity = unitsOf(line, index);
  if (configuration.type === 'bps' && line.transaction_amount === undefined) throw problem(index, 'transaction_amount', 'is required for a bps price');
  const priced = computePrice(configuration as unknown as PricedConfiguration, { quantity, amount: line.transaction_amount, price_id: line.price_id });
  const once = configuration.billing_interval.period === 'once';
  return {
    productId: product.id,
    line: {
      ...lineBase(line, index, product),
      entry_type: 'product',
      product_id: product.id,
      product_type: product.type,
      price_id: line.price_id ?? configuration.prices[0]?.id ?? null,
      units_count: quantity,
      unit_amount: unitAmountOf(priced.amount, quantity),
      gross: priced.amount,
      revenue_type: once ? 'one_off' : 'recurring',
      revenue_interval_count: once ? null : (configuration.billing_interval as { count: number }).count,
      revenue_interval_period: once ? null : configuration.billing_interval.period,
      display_unit_amount: configuration.type === 'fee',
    },
  };
}

/** A line's own tax rate, exact (at most 4 decimals, as every rate). */
function ownTaxRate(line: LineInput, index: number): { own_tax_rate?: string } {
  if (line.tax_rate === undefined) return {};
  try {
    return { own_tax_rate: formatRate(line.tax_rate) };
  } catch (error) {
    if (error instanceof RangeError) throw problem(index, 'tax_rate', 'must be a percentage from 0 to 100 with at most 4 decimals');
    throw error;
  }
}

/** The e-invoicing members given with the line (docs/e-invoicing.md), stored only when given. */
const einvoicingMembers = (line: LineInput) => ({
  ...(line.unit_code !== undefined && { unit_code: line.unit_code }),
  ...(line.tax_category !== undefined && { tax_category: line.tax_category }),
  ...(line.tax_exemption_reason !== undefined && { tax_exemption_reason: line.tax_exemption_reason }),
  ...(line.tax_exemption_reason_code !== undefined && { tax_exemption_reason_code: line.tax_exemption_reason_code }),
});

function lineBase(line: LineInput, index: number, product?: ProductItem) {
  return {
    ...ownTaxRate(line, index),
    ...einvoicingMembers(line),
    id: newId('ili'),
    name: line.name ?? product?.name ?? '',
    description: line.description ?? product?.public_description ?? null,
    tax_rate_id: null,
    period_starts_at: line.period_starts_at ?? null,
    period_ends_at: line.period_ends_at ?? null,
    display_service_period: Boolean(line.period_starts_at && line.period_ends_at),
    original_line_item_id: null,
  };
}

async function customLine(reads: CatalogReads, line: LineInput, index: number): Promise<{ line: PricedLine; productId: string | null }> {
  if (line.unit_amount === undefined) throw problem(index, 'unit_amount', 'is required for a custom line (without price_configuration_id, price_id or product_id)');
  const product = line.product_id ? await reads.product(line.product_id) : undefined;
  if (!product && !line.name) throw problem(index, 'name', 'is required for a custom line without product_id');
  const quantity = unitsOf(line, index);
  const gross = line.unit_amount * quantity;
  if (!Number.isSafeInteger(gross)) throw problem(index, 'unit_amount', 'times quantity is too large');
  return {
    productId: product?.id ?? null,
    line: {
      ...lineBase(line, index, product),
      entry_type: product ? 'product' : 'custom',
      product_id: product?.id ?? null,
      product_type: product?.type ?? null,
      price_id: null,
      units_count: quantity,
      unit_amount: line.unit_amount,
      gross,
      revenue_type: 'one_off',
      revenue_interval_count: null,
      revenue_interval_period: null,
      display_unit_amount: true,
    },
  };
}

export interface ResolvedLines {
  lines: PricedLine[];
  /** The products the lines use: each is checked again inside the invoice's transaction. */
  productIds: string[];
}

/** A catalog line names a price, or a product without a custom `unit_amount`; every other line is custom. */
const pricedFromCatalog = (line: LineInput): boolean =>
  Boolean(line.price_configuration_id || line.price_id || (line.product_id && line.unit_amount === undefined));

/** Prices every line (in parallel: a 100-line invoice is one round of reads, not a hundred). */
export async function resolveLines(ctx: Ctx, inputs: readonly LineInput[], currency: string): Promise<ResolvedLines> {
  const reads = new CatalogReads(ctx);
  const resolved = await Promise.all(
    inputs.map((line, index) => (pricedFromCatalog(line) ? catalogLine(reads, line, index, currency) : customLine(reads, line, index))),
  );
  return {
    lines: resolved.map((r) => r.line),
    productIds: [...new Set(resolved.flatMap((r) => (r.productId ? [r.productId] : [])))],
  };
}
