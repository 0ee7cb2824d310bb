import type { Ctx } from '../../context';
import type { ProductItem } from '../catalog/product';
import { findPrice } from '../catalog/price-lookup';
import { computePrice } from '../pricing/compute-price';
import type { Pack, PricedConfiguration } from '../pricing/types';
import type { CreditPrice } from './credit';
import { priceArchived, priceNotFound } from './errors';

/**
 * The bundle price `priceId` of the product (a `pri_` id inside one of its bundle price configurations), and what
 * `creditCount` credits cost in its packs: 422 `price_not_found` when the product has no such price,
 * `price_archived` when its configuration is archived, `credit_pack_mismatch` (the pricing engine) when the count
 * is not a whole number of packs.
 */
export async function bundlePrice(ctx: Ctx, product: ProductItem, priceId: string, creditCount: number): Promise<{ price: CreditPrice; amount: number }> {
  const found = await findPrice(ctx, priceId);
  const configuration = found?.configuration;
  if (!configuration || configuration.product_id !== product.id || configuration.type !== 'bundle') throw priceNotFound(product.id, priceId);
  if (configuration.status === 'archived') throw priceArchived(priceId, configuration.id);
  const pack = configuration.prices.find((p) => p.id === priceId) as unknown as Pack & { id: string };
  const { amount } = computePrice({ type: 'bundle', prices: configuration.prices } as unknown as PricedConfiguration, { quantity: creditCount, price_id: priceId });
  return { price: { id: pack.id, amount: pack.amount, pack_size: pack.pack_size }, amount };
}
