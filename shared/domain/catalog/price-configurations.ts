import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { getItem, putIfUnchanged, retryOnRace, versionCondition } from '../../db/items';
import { listIndexKeys, parentListKeys } from '../../db/keys';
import { counterUpdate, listPage, parentCounter } from '../../db/pagination';
import { ConditionFailed, transactWrite, type TransactItem } from '../../db/transactions';
import { Conflict, InvalidRequest } from '../../errors';
import { newId } from '../../ids';
import { priceConfigurationFilters } from '../../schemas/list-filters';
import { buildFilter } from '../../schemas/list-query';
import { computePrice, validateTiers } from '../pricing/compute-price';
import { PRICE_TYPES_BY_PRODUCT_TYPE } from '../pricing/product-types';
import type { PricedConfiguration, PriceType } from '../pricing/types';
import { planMissing, priceConfigurationNotFound } from './errors';
import {
  PRICE_CONFIGURATION, priceConfigurationKey, priceConfigurationListFields, toPriceConfiguration,
  type BillingInterval, type CommitmentInterval, type PriceConfiguration, type PriceConfigurationItem,
} from './price-configuration';
import { priceBookExists } from './price-books';
import { pricePointerItems } from './price-lookup';
import type { ProductItem } from './product';
import { assertProductUsable, productUsableCheck } from './usable';

export interface PriceConfigurationInput {
  product_id: string;
  price_book_id?: string | null;
  currency: string;
  country?: string | null;
  plan_id?: string | null;
  billing_interval?: BillingInterval;
  commitment_interval?: CommitmentInterval;
  type: PriceType;
  prices: Record<string, unknown>[];
}

/** The members that tell a price's shape apart; the route's schema already checked the rest. */
const SHAPE_MEMBERS: Record<PriceType, string[]> = {
  fee: ['amount'], volume: ['from', 'amount'], packaged: ['from', 'amount'], bulk: ['from', 'amount'], bps: ['from', 'percentage'], bundle: ['amount', 'pack_size'],
};
const TIERED: readonly PriceType[] = ['volume', 'packaged', 'bulk'];

/** The documented defaults of tiers, written into the stored prices so that every response shows them. */
function withDefaults(type: PriceType, prices: Record<string, unknown>[]): Record<string, unknown>[] {
  if (TIERED.includes(type)) return prices.map((p) => ({ ...p, to: p.to ?? null, unit_count: p.unit_count ?? 1, on_tier_incomplete: p.on_tier_incomplete ?? 'pro_rata' }));
  if (type === 'bps') return prices.map((p) => ({ ...p, to: p.to ?? null }));
  return prices;
}

/** `at` is where the configuration sits in the body (`body`, or `body.price_configurations.0` inline). */
function assertPricesFit(type: PriceType, prices: Record<string, unknown>[], at: string): void {
  const path = `${at}.prices`;
  const wrongShape = prices.findIndex((p) => !SHAPE_MEMBERS[type].every((m) => m in p) || (type === 'fee' && ('unit_count' in p || 'from' in p)));
  if (wrongShape >= 0) {
    throw new InvalidRequest(`Invalid body: ${path}.${wrongShape} is not a ${type} price.`, [{ path: `${path}.${wrongShape}`, message: `is not a ${type} price` }]);
  }
  const problems = validateTiers({ type, prices: withDefaults(type, prices) } as PricedConfiguration);
  if (problems.length > 0) {
    // The engine's paths are relative to the configuration (`prices.1.from`).
    const errors = problems.map((p) => ({ path: `${at}.${p.path}`, message: p.message }));
    throw new InvalidRequest(`Invalid body: ${errors[0]!.path} ${errors[0]!.message}.`, errors);
  }
}

/** Hyperline's prices carry their configuration's `type` (checked) and an `id` (dropped: the service ids prices). */
function withoutHyperlineMembers(type: PriceType, prices: Record<string, unknown>[], at: string): Record<string, unknown>[] {
  const wrong = prices.findIndex((p) => p.type !== undefined && p.type !== type);
  if (wrong >= 0) {
    const message = `must be the configuration's type '${type}'`;
    throw new InvalidRequest(`Invalid body: ${at}.prices.${wrong}.type ${message}.`, [{ path: `${at}.prices.${wrong}.type`, message }]);
  }
  return prices.map(({ type: _type, id: _id, ...price }) => price);
}

/** The prices of a `PUT`/`POST …/prices` body: `{prices}` or Hyperline's bare array. */
export const pricesOf = (body: { prices: Record<string, unknown>[] } | Record<string, unknown>[]) => (Array.isArray(body) ? body : body.prices);

const withIds = (type: PriceType, prices: Record<string, unknown>[]) => withDefaults(type, prices).map((price) => ({ id: newId('pri'), ...price }));

/** A configuration as given inline, with its product's (`POST /v1/products` with `price_configurations`). */
export type InlinePriceConfigurationInput = Omit<PriceConfigurationInput, 'product_id'>;

/**
 * The stored form of a new configuration of `product`: its price type must suit the product's type and its prices
 * that type (400, `path` names where the configuration sits in the request body).
 */
export function newPriceConfigurationItem(ctx: Ctx, product: ProductItem, input: InlinePriceConfigurationInput, path: string, now: string): PriceConfigurationItem {
  const allowed = PRICE_TYPES_BY_PRODUCT_TYPE[product.type] as readonly PriceType[];
  if (!allowed.includes(input.type)) {
    const message = `a ${product.type} product takes prices of type ${allowed.join(', ')}`;
    throw new InvalidRequest(`Invalid body: ${path}.type: ${message}.`, [{ path: `${path}.type`, message }]);
  }
  const prices = withoutHyperlineMembers(input.type, input.prices, path);
  assertPricesFit(input.type, prices, path);
  if (input.plan_id) throw planMissing(input.plan_id);
  const id = newId('prc');
  const item: PriceConfigurationItem = {
    ...priceConfigurationKey(ctx, id),
    ...listIndexKeys(ctx, PRICE_CONFIGURATION, now, id),
    ...parentListKeys(ctx, PRICE_CONFIGURATION, 'product_id', product.id, now, id),
    _type: 'price_configuration',
    _version: 0,
    id,
    product_id: product.id,
    price_book_id: input.price_book_id ?? null,
    status: 'active',
    currency: input.currency,
    country: input.country ?? null,
    plan_id: input.plan_id ?? null,
    billing_interval: input.billing_interval ?? { period: 'once' },
    commitment_interval: input.commitment_interval ?? { period: 'all' },
    type: input.type,
    prices: withIds(input.type, prices),
    created_at: now,
    updated_at: now,
    archived_at: null,
  };
  item.lf = priceConfigurationListFields(item);
  return item;
}

/**
 * The writes of new configurations of one product: the items, their price pointers and the list counters (one
 * update per counter: a transaction may touch an item once), then one check per distinct price book named.
 * `bookChecks` are the last items, in the order of `books`, so a failed check maps back to its book.
 */
export function priceConfigurationWrites(ctx: Ctx, productId: string, items: readonly PriceConfigurationItem[]) {
  const books = [...new Set(items.flatMap((c) => (c.price_book_id ? [c.price_book_id] : [])))].map((id) => priceBookExists(ctx, id));
  const writes: TransactItem[] = [
    ...items.flatMap((item) => [{ Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } }, ...pricePointerItems(ctx, item)]),
    counterUpdate(ctx, PRICE_CONFIGURATION, items.length),
    counterUpdate(ctx, parentCounter(PRICE_CONFIGURATION, 'product_id', productId), items.length),
  ];
  return { writes, books };
}

/**
 * Adds a price configuration to a product: its price type must suit the product's type (400) and the product must
 * be usable (422 `product_archived`), checked again inside the transaction that writes the configuration.
 */
export async function createPriceConfiguration(ctx: Ctx, input: PriceConfigurationInput): Promise<PriceConfiguration> {
  const product = await assertProductUsable(ctx, input.product_id);
  const item = newPriceConfigurationItem(ctx, product, input, 'body', ctx.clock.now().toISOString());
  const { writes, books } = priceConfigurationWrites(ctx, product.id, [item]);
  // The product must still be usable when the configuration is written (not archived meanwhile).
  const items = [productUsableCheck(ctx, product.id), ...writes, ...books.map((b) => b.item)];
  try {
    await transactWrite(items);
  } catch (error) {
    if (error instanceof ConditionFailed && error.index === 0) await assertProductUsable(ctx, product.id);
    if (error instanceof ConditionFailed && error.index >= items.length - books.length) throw books[error.index - (items.length - books.length)]!.error();
    throw error;
  }
  return toPriceConfiguration(item);
}

export async function findPriceConfigurationItem(ctx: Ctx, id: string): Promise<PriceConfigurationItem> {
  const item = await getItem<PriceConfigurationItem>(priceConfigurationKey(ctx, id), true);
  if (!item) throw priceConfigurationNotFound(id);
  return item;
}

export const getPriceConfiguration = async (ctx: Ctx, id: string) => toPriceConfiguration(await findPriceConfigurationItem(ctx, id));

/**
 * The list, oldest first. `product_id=<id>` alone is served by the product's own index partition and counter, so
 * its cost does not grow with the rest of the catalog; other filters read the list index. No `approximateCount`.
 */
export async function listPriceConfigurations(ctx: Ctx, query: { take: number; skip: number } & Record<string, unknown>) {
  const { take, skip, ...filters } = query;
  const names = Object.keys(filters).filter((k) => filters[k] !== undefined);
  const product = filters.product_id ?? filters.product_id__equals;
  const byProduct = names.length === 1 && typeof product === 'string';
  const page = await listPage(
    ctx,
    PRICE_CONFIGURATION,
    byProduct ? { take, skip, parent: { field: 'product_id', value: product } } : { take, skip, filter: buildFilter(priceConfigurationFilters, query) },
    toPriceConfiguration,
  );
  const { approximateCount: _omitted, ...meta } = page.meta;
  return { meta, data: page.data };
}

/** Replaces the prices (new ids); they must be of the configuration's type. An archived configuration is frozen. */
export async function updatePrices(ctx: Ctx, id: string, given: Record<string, unknown>[]): Promise<PriceConfiguration> {
  return retryOnRace(async () => {
    const current = await findPriceConfigurationItem(ctx, id);
    if (current.status === 'archived') throw new Conflict(`Price configuration '${id}' is archived; create a new one instead.`);
    const prices = withoutHyperlineMembers(current.type, given, 'body');
    assertPricesFit(current.type, prices, 'body');
    const next = { ...current, prices: withIds(current.type, prices), updated_at: ctx.clock.now().toISOString(), _version: current._version + 1 };
    await transactWrite([
      { Put: { TableName: tableName(), Item: next, ...versionCondition(current._version) } },
      ...pricePointerItems(ctx, next),
    ]);
    return toPriceConfiguration(next);
  });
}

/** Archives a configuration (it stays listed, with `archived_at`); archiving twice is a no-op. */
export async function archivePriceConfiguration(ctx: Ctx, id: string): Promise<PriceConfiguration> {
  return retryOnRace(async () => {
    const current = await findPriceConfigurationItem(ctx, id);
    if (current.status === 'archived') return toPriceConfiguration(current);
    const now = ctx.clock.now().toISOString();
    return toPriceConfiguration(await putIfUnchanged({ ...current, status: 'archived' as const, archived_at: now, updated_at: now }, current._version));
  });
}

/** Prices a quantity (and, for bps, an amount) with the pricing engine, without recording anything. */
export async function simulatePrice(ctx: Ctx, id: string, input: { quantity: number; amount?: number }) {
  const config = await findPriceConfigurationItem(ctx, id);
  // A PricingError is a domain error with its own status (400 bad quantity, 422 e.g. credit_pack_mismatch).
  const result = computePrice({ type: config.type, prices: config.prices } as PricedConfiguration, input);
  return { price_configuration_id: config.id, currency: config.currency, quantity: input.quantity, amount: result.amount, tiers: result.tiers };
}
