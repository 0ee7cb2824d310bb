import { BatchGetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Ctx } from '../../context';
import { db, tableName } from '../../db/client';
import { getItem } from '../../db/items';
import { parentListPartition, type Key } from '../../db/keys';
import { productNotFound } from './errors';
import { PRICE_CONFIGURATION, type PriceConfigurationItem } from './price-configuration';
import { productKey, type ProductItem } from './product';

/** A product response embeds at most this many configurations (the oldest); the list route pages through all. */
export const EMBEDDED_CONFIGURATIONS = 100;

/** A product that exists and is not deleted (deleted products answer 404). */
export async function findProductItem(ctx: Ctx, id: string): Promise<ProductItem> {
  const item = await getItem<ProductItem>(productKey(ctx, id), true);
  if (!item || item.deleted_at) throw productNotFound(id);
  return item;
}

/**
 * The price configurations of these products, by product id, oldest first: one keys-only Query per product on its
 * partition of the parent index (in parallel), then one BatchGetItem per 100 keys. Nothing grows with the catalog.
 */
export async function configurationsOf(ctx: Ctx, productIds: string[]): Promise<Map<string, PriceConfigurationItem[]>> {
  const keysByProduct = await Promise.all(
    productIds.map(async (productId) => {
      const page = await db.send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: 'gsi3',
          KeyConditionExpression: 'gsi3pk = :p',
          ExpressionAttributeValues: { ':p': parentListPartition(ctx, PRICE_CONFIGURATION, 'product_id', productId) },
          Limit: EMBEDDED_CONFIGURATIONS,
        }),
      );
      return [productId, (page.Items ?? []).map(({ pk, sk }) => ({ pk, sk }) as Key)] as const;
    }),
  );
  const found = new Map<string, PriceConfigurationItem>();
  const keys = keysByProduct.flatMap(([, k]) => k);
  for (let start = 0; start < keys.length; start += 100) {
    let pending: Record<string, unknown>[] = keys.slice(start, start + 100).map((k) => ({ ...k }));
    for (let attempt = 0; pending.length > 0 && attempt < 8; attempt++) {
      const result = await db.send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending } } }));
      for (const item of (result.Responses?.[tableName()] ?? []) as PriceConfigurationItem[]) found.set(item.pk, item);
      pending = result.UnprocessedKeys?.[tableName()]?.Keys ?? [];
    }
  }
  return new Map(keysByProduct.map(([id, k]) => [id, k.map((key) => found.get(key.pk)).filter((c): c is PriceConfigurationItem => !!c)]));
}
