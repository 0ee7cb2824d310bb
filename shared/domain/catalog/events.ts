import type { EventDraft } from '../events/catalog';
import { changedPublicly } from '../events/changed';
import { toPriceConfiguration, type PriceConfigurationItem } from './price-configuration';
import { toProduct, type ProductItem } from './product';

/**
 * Product changes → `product.created|updated|archived|unarchived`. The data is the product without its price
 * configurations (the stream sees one item; each configuration has events of its own). A deletion has no event
 * type in the catalog and emits none.
 */
export function productEvents(before: ProductItem | undefined, after: ProductItem | undefined): EventDraft[] {
  if (!after || after.deleted_at) return [];
  const { price_configurations: _c, ...data } = toProduct(after, []);
  if (!before) return [{ type: 'product.created', data }];
  if (before.status !== after.status) return [{ type: after.status === 'archived' ? 'product.archived' : 'product.unarchived', data }];
  const { price_configurations: _b, ...previous } = toProduct(before, []);
  return changedPublicly(previous, data) ? [{ type: 'product.updated', data }] : [];
}

/** Price configuration changes → `price_configuration.created|updated|archived`. */
export function priceConfigurationEvents(before: PriceConfigurationItem | undefined, after: PriceConfigurationItem | undefined): EventDraft[] {
  if (!after) return [];
  const data = toPriceConfiguration(after);
  if (!before) return [{ type: 'price_configuration.created', data }];
  if (before.status !== after.status && after.status === 'archived') return [{ type: 'price_configuration.archived', data }];
  return changedPublicly(toPriceConfiguration(before), data) ? [{ type: 'price_configuration.updated', data }] : [];
}
