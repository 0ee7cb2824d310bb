import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { putIfUnchanged, retryOnRace, versionCondition } from '../../db/items';
import { listIndexKeys } from '../../db/keys';
import { counterUpdate, listPage, type Page } from '../../db/pagination';
import { asSoftDeleted, softDelete } from '../../db/soft-delete';
import { ConditionFailed, transactWrite, type TransactItem } from '../../db/transactions';
import { RuleViolation } from '../../errors';
import { newId } from '../../ids';
import { productFilters } from '../../schemas/list-filters';
import { definedMembers } from '../../objects';
import { buildFilter } from '../../schemas/list-query';
import { aggregatorIndexKeys, aggregatorLinkWrites, assertCreditAggregation, assertMeteredType } from '../metering/aggregator-products';
import { PRODUCT, productKey, productListFields, toProduct, type Product, type ProductInput, type ProductItem, type ProductType } from './product';
import { newPriceConfigurationItem, priceConfigurationWrites, type InlinePriceConfigurationInput } from './price-configurations';
import { configurationsOf, findProductItem } from './read';

async function withConfigurations(ctx: Ctx, item: ProductItem): Promise<Product> {
  return toProduct(item, (await configurationsOf(ctx, [item.id])).get(item.id) ?? []);
}

export type ProductCreateInput = ProductInput & { name: string; type: ProductType; price_configurations?: InlinePriceConfigurationInput[] };

/** DynamoDB's limit on the items of one transaction. */
const MAX_TRANSACTION_ITEMS = 100;

/**
 * Creates a product, and the price configurations given with it, in one transaction: the product exists with all its
 * prices or not at all (Hyperline accepts a product's prices in the same request).
 */
export async function createProduct(ctx: Ctx, input: ProductCreateInput): Promise<Product> {
  const { price_configurations: inline = [], ...members } = input;
  assertMeteredType(members.type, members.aggregator_id);
  await assertCreditAggregation(ctx, members.type, members.aggregator_id);
  const aggregatorId = members.aggregator_id ?? null;
  const id = newId('itm');
  const now = ctx.clock.now().toISOString();
  const item: ProductItem = {
    ...productKey(ctx, id),
    ...listIndexKeys(ctx, PRODUCT, now, id),
    ...aggregatorIndexKeys(ctx, aggregatorId, now, id),
    _type: 'product',
    _version: 0,
    id,
    name: members.name,
    type: members.type,
    status: 'active',
    description: null,
    description_display_interval_dates: false,
    public_description: null,
    translations: null,
    properties: null,
    custom_properties: {},
    accounting: {},
    account_code: null,
    is_available_on_demand: true,
    is_available_on_subscription: true,
    aggregator_id: null,
    ...definedMembers(members),
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
  item.lf = productListFields(item);
  const configurations = inline.map((c, i) => newPriceConfigurationItem(ctx, item, c, `body.price_configurations.${i}`, now));
  const { writes, books } = configurations.length > 0 ? priceConfigurationWrites(ctx, id, configurations) : { writes: [], books: [] };
  const link = aggregatorLinkWrites(ctx, null, aggregatorId);
  const linkStart = 2 + writes.length;
  const items: TransactItem[] = [
    { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
    counterUpdate(ctx, PRODUCT, 1),
    ...writes,
    ...link.items,
    ...books.map((b) => b.item),
  ];
  if (items.length > MAX_TRANSACTION_ITEMS) {
    throw new RuleViolation('too_many_prices', `A product created with its prices takes at most ${MAX_TRANSACTION_ITEMS - 4} prices in all (with one write per configuration); create the others with POST /v1/price-configurations.`);
  }
  try {
    await transactWrite(items);
  } catch (error) {
    if (error instanceof ConditionFailed && error.index >= items.length - books.length) throw books[error.index - (items.length - books.length)]!.error();
    if (error instanceof ConditionFailed) throw link.errorAt(error.index - linkStart) ?? error;
    throw error;
  }
  return toProduct(item, configurations);
}

/** The product and its configurations' keys are read at once: the index query needs only the id. */
export async function getProduct(ctx: Ctx, id: string): Promise<Product> {
  const [item, configurations] = await Promise.all([findProductItem(ctx, id), configurationsOf(ctx, [id])]);
  return toProduct(item, configurations.get(id) ?? []);
}

/** Products, oldest first, each with its price configurations (fetched for the whole page at once). */
export async function listProducts(ctx: Ctx, query: { take: number; skip: number } & Record<string, unknown>): Promise<Page<Product>> {
  const page = await listPage(ctx, PRODUCT, { ...query, filter: buildFilter(productFilters, query) }, (item: ProductItem) => item);
  const configurations = await configurationsOf(ctx, page.data.map((p) => p.id));
  return { meta: page.meta, data: page.data.map((p) => toProduct(p, configurations.get(p.id) ?? [])) };
}

/**
 * Partial update of the descriptive members and the aggregator (the type cannot change: its prices depend on it). A
 * new aggregator is checked live in the transaction that moves the product under it.
 */
export async function updateProduct(ctx: Ctx, id: string, input: ProductInput): Promise<Product> {
  const item = await retryOnRace(async () => {
    const current = await findProductItem(ctx, id);
    assertMeteredType(current.type, input.aggregator_id);
    if (input.aggregator_id !== current.aggregator_id) await assertCreditAggregation(ctx, current.type, input.aggregator_id);
    const next: ProductItem = { ...current, ...definedMembers(input), updated_at: ctx.clock.now().toISOString() };
    next.lf = productListFields(next);
    const [from, to] = [current.aggregator_id ?? null, next.aggregator_id ?? null];
    return from === to ? putIfUnchanged(next, current._version) : moveToAggregator(ctx, next, current._version, from, to);
  });
  return withConfigurations(ctx, item);
}

/** Writes the product under aggregator `to` (or none), its version checked, with both aggregators' counters. */
async function moveToAggregator(ctx: Ctx, product: ProductItem, readVersion: number, from: string | null, to: string | null): Promise<ProductItem> {
  const { gsi3pk: _p, gsi3sk: _s, ...rest } = product;
  const next: ProductItem = { ...rest, ...aggregatorIndexKeys(ctx, to, product.created_at, product.id), _version: readVersion + 1 };
  const link = aggregatorLinkWrites(ctx, from, to);
  try {
    await transactWrite([{ Put: { TableName: tableName(), Item: next, ...versionCondition(readVersion) } }, ...link.items]);
  } catch (error) {
    if (error instanceof ConditionFailed && error.index > 0) throw link.errorAt(error.index - 1) ?? error;
    throw error;
  }
  return next;
}

/** Archive / unarchive; asking for the status the product already has is a no-op (decisions.md). */
export async function setProductStatus(ctx: Ctx, id: string, status: ProductItem['status']): Promise<Product> {
  const item = await retryOnRace(async () => {
    const current = await findProductItem(ctx, id);
    if (current.status === status) return current;
    const next: ProductItem = { ...current, status, updated_at: ctx.clock.now().toISOString() };
    next.lf = productListFields(next);
    return putIfUnchanged(next, current._version);
  });
  return withConfigurations(ctx, item);
}

/**
 * Removes the product from the catalog (soft: invoices that name it keep their own copy of its details); its
 * aggregator, if any, loses a user.
 */
export async function deleteProduct(ctx: Ctx, id: string): Promise<Product> {
  return retryOnRace(async () => {
    const current = await findProductItem(ctx, id);
    const now = ctx.clock.now().toISOString();
    const link = aggregatorLinkWrites(ctx, current.aggregator_id ?? null, null);
    await softDelete(ctx, PRODUCT, productKey(ctx, id), current._version, now, '', link.items);
    return withConfigurations(ctx, asSoftDeleted(current, now));
  });
}
