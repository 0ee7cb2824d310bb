import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { getItem } from '../../db/items';
import { entityKey } from '../../db/keys';
import type { TransactItem } from '../../db/transactions';
import { priceConfigurationKey, type PriceConfigurationItem, type StoredPrice } from './price-configuration';

/**
 * Where a price (`pri_` id) lives: one small item per price, written in the same transaction as its configuration,
 * so a price is found by id with strongly consistent reads, whatever the product holds. Prices replaced later leave
 * their pointer behind; the lookup checks the configuration still has the price.
 */
const priceKey = (ctx: Ctx, priceId: string) => entityKey(ctx, 'PRI', priceId);

export const pricePointerItems = (ctx: Ctx, configuration: Pick<PriceConfigurationItem, 'id' | 'product_id' | 'prices'>): TransactItem[] =>
  configuration.prices.map((price) => ({
    Put: {
      TableName: tableName(),
      Item: { ...priceKey(ctx, price.id), _type: 'price_pointer', price_id: price.id, price_configuration_id: configuration.id, product_id: configuration.product_id },
    },
  }));

/** The price and its configuration, or undefined when no configuration holds that price now. */
export async function findPrice(ctx: Ctx, priceId: string): Promise<{ configuration: PriceConfigurationItem; price: StoredPrice } | undefined> {
  const pointer = await getItem<{ price_configuration_id: string }>(priceKey(ctx, priceId), true);
  if (!pointer) return undefined;
  const configuration = await getItem<PriceConfigurationItem>(priceConfigurationKey(ctx, pointer.price_configuration_id), true);
  const price = configuration?.prices.find((p) => p.id === priceId);
  return configuration && price ? { configuration, price } : undefined;
}
