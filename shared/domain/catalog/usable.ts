import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { getItem } from '../../db/items';
import { batchGet } from '../../db/pagination';
import type { TransactItem } from '../../db/transactions';
import { productArchived, productMissing } from './errors';
import { productKey, type ProductItem } from './product';

/**
 * The one check later issues call before using a product in a new quote, subscription or invoice: 422
 * `product_archived` for an archived product, 422 `product_not_found` for a missing or deleted one.
 */
export async function assertProductUsable(ctx: Ctx, productId: string): Promise<ProductItem> {
  const product = await getItem<ProductItem>(productKey(ctx, productId), true);
  if (!product || product.deleted_at) throw productMissing(productId);
  if (product.status === 'archived') throw productArchived(productId);
  return product;
}

/** The same rule inside a write's transaction, so a product archived meanwhile cannot slip through. */
export const productUsableCheck = (ctx: Ctx, productId: string): TransactItem => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: productKey(ctx, productId),
    ConditionExpression: '#status = :active AND attribute_type(deleted_at, :null)',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':active': 'active', ':null': 'NULL' },
  },
});

/**
 * Every product a restriction names (a coupon's `product_ids`) is a product of the workspace that is not deleted
 * (archived ones count: a restriction uses no price): else 422 `product_not_found` naming the first that is not.
 */
export async function assertProductsExist(ctx: Ctx, productIds: readonly string[]): Promise<void> {
  if (productIds.length === 0) return;
  const found = await batchGet(productIds.map((id) => productKey(ctx, id)), true);
  const live = new Set(found.filter((p) => !p.deleted_at).map((p) => p.id));
  const missing = productIds.find((id) => !live.has(id));
  if (missing !== undefined) throw productMissing(missing);
}
