import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import type { Ctx } from '../../context';
import { db, tableName } from '../../db/client';
import { getItem } from '../../db/items';
import { productNotFound } from './errors';
import { priceConfigurationKey, type PriceConfigurationItem } from './price-configuration';
import { productKey, type ProductItem } from './product';

/** A product that exists and is not deleted (deleted products answer 404). */
export async function findProductItem(ctx: Ctx, id: string): Promise<ProductItem> {
  const item = await getItem<ProductItem>(productKey(ctx, id), true);
  if (!item || item.deleted_at) throw productNotFound(id);
  return item;
}

/** The price configurations of these products, by product id, in each product's order (BatchGetItem, 100 keys a call). */
export async function configurationsOf(ctx: Ctx, products: ProductItem[]): Promise<Map<string, PriceConfigurationItem[]>> {
  const ids = products.flatMap((p) => p.price_configuration_ids);
  const found = new Map<string, PriceConfigurationItem>();
  for (let start = 0; start < ids.length; start += 100) {
    let pending: Record<string, unknown>[] = ids.slice(start, start + 100).map((id) => ({ ...priceConfigurationKey(ctx, id) }));
    for (let attempt = 0; pending.length > 0 && attempt < 8; attempt++) {
      const result = await db.send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: true } } }));
      for (const item of (result.Responses?.[tableName()] ?? []) as PriceConfigurationItem[]) found.set(item.id, item);
      pending = result.UnprocessedKeys?.[tableName()]?.Keys ?? [];
    }
  }
  return new Map(products.map((p) => [p.id, p.price_configuration_ids.map((id) => found.get(id)).filter((c): c is PriceConfigurationItem => !!c)]));
}
